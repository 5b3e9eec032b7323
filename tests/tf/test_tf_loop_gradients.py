"""Gradients through the ``While`` ops the TF backend builds from its traced graphs
(a tensor ``while``; a ``for`` over ``range`` of a tensor with a ``continue`` under a
tensor ``if``) equal eager TensorFlow's, with ``tf.GradientTape`` around the
``tf.function``."""

import numpy as np
import pytest
import tensorflow as tf

import autograph as ag


def grow(x):
    while tf.reduce_sum(x) < 20.0:
        x = x * 1.5 + 0.1
    return tf.reduce_sum(x)


def odd_weighted_squares(x, n):
    total = x * 0
    for i in range(n):
        if i % 2 == 0:
            continue
        total += x ** 2 * tf.cast(i, tf.float32)
    return tf.reduce_sum(total)


def _value_and_gradient(fn, x, *rest):
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = fn(x, *rest)
    return y.numpy(), tape.gradient(y, x).numpy()


@pytest.mark.parametrize("fn,rest", [(grow, ()), (odd_weighted_squares, (tf.constant(5),))])
def test_gradients_through_staged_loops_equal_eager(fn, rest):
    x = tf.constant([1.0, 2.0])
    want = _value_and_gradient(fn, x, *rest)
    got = _value_and_gradient(tf.function(ag.convert(fn), autograph=False), x, *rest)
    np.testing.assert_allclose(got[0], want[0], rtol=1e-6)
    np.testing.assert_allclose(got[1], want[1], rtol=1e-6)
