"""``ag.set_loop_options`` on TensorFlow: ``shape_invariants`` lets a loop variable
change its shape (TensorFlow's rule: only where the loop says so), and the options
TensorFlow's loops take reach ``tf.while_loop``."""

import numpy as np
import pytest
import tensorflow as tf

import autograph as ag


def doubling(x, y):
    while x > 1:
        ag.set_loop_options(shape_invariants=[(y, (None,))])
        x = x / 2
        y = tf.concat([y, y], 0)
    return y


def doubling_without_invariant(x, y):
    while x > 1:
        x = x / 2
        y = tf.concat([y, y], 0)
    return y


def growing_rows(xs, acc):
    for x in xs:
        ag.set_loop_options(shape_invariants=[(acc, tf.TensorShape([None, 2]))],
                            parallel_iterations=1)
        acc = tf.concat([acc, x[None]], 0)
    return acc


def wrong_invariant(x, y):
    while x > 1:
        ag.set_loop_options(shape_invariants=[(y, (3,))])
        x = x / 2
        y = y * 2
    return y


def staged(fn):
    return tf.function(ag.convert(fn), autograph=False)


def test_a_shape_changing_carry_with_shape_invariants():
    y = tf.constant([1.0, 2.0])
    out = staged(doubling)(tf.constant(8.0), y)
    np.testing.assert_array_equal(out.numpy(), doubling(8.0, y).numpy())
    assert out.shape == (16,)


def test_a_for_loop_over_a_tensor_with_shape_invariants():
    xs = tf.reshape(tf.range(6.0), [3, 2])
    acc = tf.zeros([1, 2])
    out = staged(growing_rows)(xs, acc)
    np.testing.assert_array_equal(out.numpy(), growing_rows(xs, acc).numpy())


def test_without_shape_invariants_the_error_names_the_option():
    with pytest.raises(ag.StagingError) as info:
        staged(doubling_without_invariant)(tf.constant(8.0), tf.constant([1.0, 2.0]))
    text = str(info.value)
    assert "'y' is float32[2] before the loop but float32[4] after one iteration" in text
    assert "ag.set_loop_options(shape_invariants=[(y, (None,))])" in text


def test_an_invariant_the_value_does_not_have_is_refused():
    with pytest.raises(ag.StagingError, match=r"the shape invariant \(3,\) does not hold"):
        staged(wrong_invariant)(tf.constant(8.0), tf.constant([1.0, 2.0]))
