"""A 0-d NumPy array argument (``np.array(1.5)``) is an array: an in-place operator
changes it for the caller, where it rebinds a NumPy scalar (``np.float64(1.5)``). The
NumPy engine traced one graph for both; its signature now tells them apart, so that
a 0-d argument array is checked as arrays are: changed through an alias in a staged
loop (the alias read later keeps the old value) or chosen by a staged condition (the
graph cannot tell which array the operator changes), it is refused (found by the
differential fuzzer: 2.25 eagerly with the caller's array changed, 1.5 staged)."""

from __future__ import annotations

import copy

import numpy as np


def alias_scaled_in_loop(n, x):
    acc = x * 0.0
    for i in range(n):
        acc = x
        acc *= 1.5
    return acc


def chosen_then_doubled(n):
    t = n or 4
    t += t
    return t


def scaled_in_loop(n, x):
    acc = x
    for i in range(n):
        acc *= 1.5
    return acc


def test_in_place_operators_on_a_zero_d_argument_array(backend):
    if backend.engine != "numpy":
        return  # the other frameworks' arrays are theirs, not NumPy's 0-d arrays
    text = backend.staging_error(alias_scaled_in_loop, np.int64(2), np.array(1.0))
    assert text == (
        f"in-place operator at {backend.at(alias_scaled_in_loop, 'acc *= 1.5')}: eagerly it "
        f"changes the array 'acc' holds, and 'x' holds the same array or one sharing its "
        f"memory (an alias, a view of it, or the array it views) and is read later; under "
        f"autograph.function a staged branch gives only that name the new array, so 'x' would "
        f"keep the old contents. Write the operator out (acc += v -> acc = acc + v: a new "
        f"array) if 'x' should keep them, or change the array through one name only.")
    text = backend.staging_error(chosen_then_doubled, np.array(3))
    assert text == (
        f"in-place operator at {backend.at(chosen_then_doubled, 't += t')}: 't' is the 0-d "
        f"array argument 'n' on the paths where a staged condition chose it, and eagerly the "
        f"operator changes that array for the caller there; a graph cannot tell which array "
        f"the operator changes. Write the operator out (t = t + v: a new array), or pass a "
        f"NumPy scalar (np.float64, np.int64) if the argument is not to change.")
    # NumPy scalars: rebound, never changed (the same functions, traced apart)
    backend.check(alias_scaled_in_loop, np.int64(2), np.float64(1.0))
    backend.check(chosen_then_doubled, np.int64(3))
    backend.check(chosen_then_doubled, np.int64(0))
    # a 0-d argument array carried by a staged loop: written back, as eagerly
    staged = backend.function(scaled_in_loop)
    for kind in (np.array, np.float64):
        eager_x, staged_x = kind(1.0), kind(1.0)
        backend.assert_same(scaled_in_loop(np.int64(2), eager_x),
                            staged(*backend.split((np.int64(2), staged_x))))
        backend.assert_same(np.asarray(eager_x), np.asarray(staged_x))
