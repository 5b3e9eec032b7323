"""``any``/``all`` of a list, and NumPy functions given a list, holding staged scalars.

SciPy's TOMS 748 solver asks ``all(fs) and all(np.isfinite(fs))`` of a Python list
of function values. Eagerly ``all`` takes each item's truth (stopping at the first
false one) and ``np.isfinite`` makes an array of the list. Staged, the items are
traced scalars: ``all``/``any`` are the and/or of their truths (a Python item that
decides the result decides it wherever it stands: ``all([x, None])`` is False as a
Python value), and a NumPy function given a list of scalars gets the array NumPy
would make of it. A list of arrays stays a list (``np.concatenate``).
"""

import numpy as np


def all_nonzero(a, b):
    fs = [a, b, 1.5]
    return all(fs), any([a, b]), all(np.isfinite(fs))


def decided_by_python_items(a):
    return all([a, None, 2.0]), any([a, 3, 0.0]), all([]), any(())


def isfinite_of_list(a, b):
    return np.isfinite([a, b, 2.0]), np.isclose(a, [b, a + 1.0])


def concatenated(x, y):
    return np.concatenate([x, y])


def test_all_and_any_of_a_list_of_staged_scalars(backend):
    for a, b in ((1.0, 2.0), (0.0, 2.0), (0.0, 0.0), (np.inf, 1.0)):
        backend.check(all_nonzero, np.float64(a), np.float64(b))


def test_a_python_item_decides_wherever_it_stands(backend):
    backend.check(decided_by_python_items, np.float64(1.0))


def test_numpy_functions_of_a_list_of_staged_scalars(backend):
    for a, b in ((1.0, 1.0), (np.nan, 2.0), (1.0, np.inf)):
        backend.check(isfinite_of_list, np.float64(a), np.float64(b))


def test_a_list_of_arrays_stays_a_list(backend):
    backend.check(concatenated, np.arange(3.0), np.ones(2))
