"""``for`` over a ``tf.RaggedTensor`` under ``tf.function``: a staged loop over its rows
(``ragged[k]``, a tensor of a run-time length, or a ragged tensor of one rank less), as
TensorFlow's AutoGraph loops over them; eagerly a Python loop. Before, Python iterated
the graph tensor by index and ran past its end into TensorFlow's shape ``ValueError``."""

import numpy as np
import pytest
import tensorflow as tf

import autograph as ag

ROWS = tf.ragged.constant([[1, 2], [3], [4, 5, 6], []])
BLOCKS = tf.ragged.constant([[[1, 2], [3]], [[4, 5, 6]], []])


def row_sums(x):
    s = tf.constant(0, x.dtype)
    longest = 0
    for row in x:
        s += tf.reduce_sum(row)
        if tf.size(row) > longest:
            longest = tf.size(row)
    return s, longest


def weighted_until(x, limit):
    s = tf.constant(0, x.dtype)
    for i, row in enumerate(x):
        s += tf.reduce_sum(row) * i
        if s > limit:
            break
    return s


def nested(x):
    total = tf.constant(0, x.dtype)
    for block in x:
        for row in block:
            total += tf.reduce_max(row)
    return total


def indexed(x, n):
    s = tf.constant(0, x.dtype)
    i = 0
    while i < n:
        s += tf.reduce_sum(x[i])
        i += 1
    return s


def _same(eager, staged):
    for e, s in zip(tf.nest.flatten(eager), tf.nest.flatten(staged)):
        np.testing.assert_array_equal(np.asarray(s), np.asarray(e))


@pytest.mark.parametrize("fn, args", [
    (row_sums, (ROWS,)),
    (weighted_until, (ROWS, tf.constant(10))),
    (weighted_until, (ROWS, tf.constant(100))),
    (nested, (BLOCKS,)),
    (indexed, (ROWS, tf.constant(3))),
], ids=["rows", "break", "no-break", "nested", "indexed"])
def test_a_loop_over_a_ragged_tensor_matches_eager(fn, args):
    staged = tf.function(ag.convert(fn), autograph=False)
    _same(fn(*args), staged(*args))
    graph = staged.get_concrete_function(*args).graph
    assert {op.type for op in graph.get_operations()} & {"While", "StatelessWhile"}  # not unrolled


def test_a_ragged_tensor_of_a_run_time_row_count():
    spec = tf.RaggedTensorSpec([None, None], tf.int32, ragged_rank=1)
    staged = tf.function(ag.convert(row_sums), autograph=False, input_signature=[spec])
    for x in (ROWS, tf.ragged.constant([[7], [8, 9]]), tf.ragged.constant([], tf.int32,
                                                                            ragged_rank=1)):
        _same(row_sums(x), staged(x))


def test_eagerly_the_loop_is_python():
    _same(row_sums(ROWS), ag.convert(row_sums)(ROWS))
