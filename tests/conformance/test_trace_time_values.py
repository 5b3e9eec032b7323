"""Values made while tracing, used with staged ones (issue 32.3): an array built from
Python numbers indexed by a staged index (a table of coefficients, ``c[i]``), and
``min``/``max`` of an iterable that is not a list or tuple (a deque, a generator, a dict
view) whose items are staged."""

import collections

import numpy as np


def coefficients(x, i):
    c = np.arange(4.0, dtype=np.float32) / 4  # float32: JAX's default float
    total = 0.0
    for j in range(i):
        total = total + c[j] * x
    return total + c[i] + c[-1 - i]


def test_a_staged_index_into_an_array_made_while_tracing(backend):
    backend.check(coefficients, np.float32(2.0), np.int32(2))
    backend.check(coefficients, np.float32(-1.0), np.int32(0))


def table_lookup(k, xp):
    weights = np.array([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], np.float32)
    row = weights[k]
    if k > 0:
        row = row * 2
    return row, weights[k, 1]


def test_rows_of_a_table(backend):
    backend.check(table_lookup, np.int32(1), xp=backend.xp)
    backend.check(table_lookup, np.int32(0), xp=backend.xp)


def extremes(x):
    recent = collections.deque([x, x * 2, 1.0], maxlen=3)
    scores = {"a": x, "b": -x}
    return (max(recent), min(recent), max(v * 3 for v in (x, -x)),
            min(scores.values()), max(abs(v) for v in scores.values()))


def test_min_max_of_a_deque_a_generator_and_a_dict_view(backend):
    backend.check(extremes, np.float32(2.0))
    backend.check(extremes, np.float32(-0.5))


def python_items(n):
    return max(v * 2 for v in range(n)), min(collections.deque([3, n, 5])), max({1: 2}.keys())


def test_python_items_stay_python(backend):
    backend.check(python_items, 4)
