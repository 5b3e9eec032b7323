"""Cases the differential fuzzer found in session 13 (tests/fuzz, the constructs of
``programs.SESSION13``: user objects, dicts of arrays, tuple swaps, nested returns,
enumerate(zip(...)), compound while conditions, closures returning arrays, list
comprehensions, NumPy calls, dtype mixes, values None on some paths, builtins), each the
minimal program of a seed, run on every backend against the same code run eagerly."""

import re

import numpy as np

import autograph as ag


def added_in_place_where_not_none(x, v):
    acc = v[1] * 1.0
    mb = v[0] if acc < x else None
    if mb is None:
        pass
    else:
        acc += mb
    return acc


def added_in_place_if_not_none(x, v):
    acc = v[1] * 1.0
    mb = v[0] if acc < x else None
    if mb is not None:
        acc += mb
    return acc


def test_an_in_place_operator_given_a_value_none_on_some_paths(backend):
    """``acc += mb`` in the branch where ``mb is None`` is false, ``mb`` None on some
    staged paths: the value, as ``acc + mb`` (the NumPy engine's in-place operator took
    the flag and value for a sequence: TypeError 'len() of unsized object'; seed 40199)."""
    for x in (2.25, 0.0):
        backend.numpy_code().check(added_in_place_where_not_none, np.float64(x), np.array([1.0, 2.0]))
        backend.numpy_code().check(added_in_place_if_not_none, np.float64(x), np.array([1.0, 2.0]))


def added_in_place_maybe_none(x, v):
    acc = v[1] * 1.0
    mb = v[0] if acc < x else None
    acc += mb
    return acc


def python_float_added_in_place_maybe_none(x, v):
    acc = 0.0
    mb = v[0] if v[1] < x else None
    acc += mb
    return acc


def test_an_in_place_operator_on_a_number_given_a_value_none_on_some_paths(backend):
    """``acc += mb``, ``mb`` maybe None: Python's TypeError where it is None (a Python
    float names '+=', a NumPy scalar '+'), the sum where not; a StagingError where the
    framework cannot raise when the program runs."""
    for fn, shown in ((added_in_place_maybe_none, "+"),
                      (python_float_added_in_place_maybe_none, "+=")):
        if not backend.raises_at_run_time:
            assert "is None on some staged paths" in backend.staging_error(
                fn, np.float64(2.25), np.array([1.0, 2.0]))
            continue
        backend.numpy_code().check(fn, np.float64(2.25), np.array([1.0, 2.0]))
        backend.numpy_code().check_raises(
            fn, TypeError, re.escape(f"unsupported operand type(s) for {shown}: 'float' and "
                                     f"'NoneType'"), np.float64(0.0), np.array([1.0, 2.0]))
