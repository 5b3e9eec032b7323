# ruff: noqa  (user code as people write it, lint findings included)
"""Concrete NumPy values: not symbolic, so they must run exactly as Python does."""

import numpy as np

from . import cases


@cases((np.float64(2.5),), (np.float64(-1.0),), (np.int32(0),))
def numpy_scalar_condition(x):
    if x > 0:
        return x * 2
    elif x < 0:
        return -x
    return x


@cases((np.array([1, -2, 3]),), (np.array([], dtype=np.int64),), (np.arange(6).reshape(2, 3),))
def loop_over_array(a):
    total = 0
    for v in a:
        if np.all(v > 0):
            total = total + v
    return total


@cases((np.array([3.0, 1.0, 2.0]),), (np.array([0.0]),))
def while_on_numpy_comparison(a):
    steps = 0
    while a.sum() > 1 and steps < 10:
        a = a / 2
        steps += 1
    return steps, a


@cases((np.array([1, 2]),), (np.array([1, 0]),))
def ambiguous_truth_value(a):
    if a:
        return "truthy"
    return "falsy"


@cases((np.array([[1, 2], [3, 4]]),), (np.zeros((0, 2)),))
def unpack_rows(m):
    out = []
    for x, y in m:
        out.append(x * y if x < y else x - y)
    return out


@cases((np.bool_(True),), (np.bool_(False),))
def numpy_bool_logic(flag):
    return flag and "yes" or "no", not flag


@cases((np.array([5, 1, 4]),), (np.array([1]),))
def argmax_loop(a):
    best_i, best = 0, a[0]
    for i in range(1, len(a)):
        if a[i] > best:
            best_i, best = i, a[i]
    return best_i, best


@cases((np.array([1.0, 2.0]),), (np.array([1.0, -2.0]),))
def assert_on_numpy(a):
    assert (a > 0).all(), "all entries must be positive"
    return float(a.sum())
