"""NEP 50 promotion: a graph computes exactly the dtypes eager NumPy 2 computes."""

import itertools
import operator

import numpy as np
import pytest

import autograph as ag

DTYPES = [np.bool_, np.int8, np.uint8, np.int32, np.int64, np.float16, np.float32, np.float64,
          np.complex64]
SCALARS = [True, 3, -2, 2.5, 1j]
OPS = [operator.add, operator.mul, operator.truediv, operator.floordiv, operator.lt, np.maximum,
       np.arctan2]


def _eager(op, a, b):
    with np.errstate(all="ignore"):
        try:
            return op(a, b)
        except Exception as error:  # noqa: BLE001
            return type(error)


def _graph(op, a, b, kind):
    def f(x):
        with np.errstate(all="ignore"):
            return op(x, b) if kind == "left" else op(b, x)

    try:
        with np.errstate(all="ignore"):
            return ag.function(f, autograph=False)(a)
    except Exception as error:  # noqa: BLE001
        return type(error)


@pytest.mark.parametrize("op", OPS, ids=lambda op: getattr(op, "__name__", str(op)))
def test_array_with_python_scalar(op):
    for dtype, scalar in itertools.product(DTYPES, SCALARS):
        a = np.array([1, 0, 1], dtype)
        for kind in ("left", "right"):
            expected = _eager(op, a, scalar) if kind == "left" else _eager(op, scalar, a)
            actual = _graph(op, a, scalar, kind)
            if isinstance(expected, type):
                assert actual is expected, (op, dtype, scalar, kind)
            else:
                assert actual.dtype == expected.dtype, (op, dtype, scalar, kind)


@pytest.mark.parametrize("op", OPS[:4], ids=lambda op: op.__name__)
def test_array_with_numpy_scalar_and_zero_d_array(op):
    for left, right in itertools.product(DTYPES[1:], DTYPES[1:]):
        a = np.array([1, 2], left)
        for b in (right(1), np.array(1, right)):
            expected = _eager(op, a, b)
            actual = _graph(op, a, b, "left")
            if isinstance(expected, type):
                assert actual is expected
            else:
                assert actual.dtype == expected.dtype, (op, left, right, type(b))
