"""An array unpacked or iterated over by Python itself (``a, b, c = x``, ``list(x)``,
``tuple(m)``, a comprehension's loop): its items along the first axis, as NumPy
iterates an array, where that axis has a length known when the function is traced.
TensorFlow refuses to iterate over any graph tensor (``OperatorNotAllowedInGraphError``);
converted code is given ndarray's iteration there (SciPy's ``toms748`` calls
``_notclose(list(fs))``)."""

from __future__ import annotations

import numpy as np


def unpacked(x):
    a, b, c = x
    return a + b * c


def listed(x):
    items = list(x)
    return items[0] - items[2], len(items)


def rows_of_a_matrix(m):
    first, second = tuple(m)
    return first * 2.0 + second


def starred(x):
    head, *rest = x
    return head - rest[-1]


def comprehension(x):
    return [v * 2.0 for v in x][1]


def test_unpacked(backend):
    backend.check(unpacked, np.array([1.0, 2.0, 3.0]))


def test_listed(backend):
    backend.check(listed, np.array([1.0, 2.0, 3.0], dtype=np.float32))


def test_rows_of_a_matrix(backend):
    backend.check(rows_of_a_matrix, np.arange(6.0).reshape(2, 3))


def test_starred(backend):
    backend.check(starred, np.array([4.0, 2.0, 3.0, 1.5]))


def test_comprehension(backend):
    backend.check(comprehension, np.array([4.0, 2.0, 3.0]))
