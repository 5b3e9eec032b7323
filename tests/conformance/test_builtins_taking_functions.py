"""Builtins given a function, and ``isinstance`` of staged arrays (numpy-financial, the
fourth real-code round).

(a) ``map(np.asarray, [rate, pmt])``: the function ``map`` calls is called as converted
code calls it (NumPy's function handed a staged value runs on its backend; a user's
lambda runs converted), as are ``filter``'s, ``functools.reduce``'s and ``sorted``'s key.
(b) ``isinstance(w, np.ndarray)`` of a staged array of one or more dimensions is True,
as it is for the NumPy array it stands for (``np.broadcast_arrays``' results).
"""

import functools

import numpy as np


def as_arrays(rate, pmt, xp):
    rate, pmt = map(np.asarray, [rate, pmt])
    halves = list(map(lambda v: v / 2 if v > 0 else -v, [pmt[0], pmt[1]]))
    total = functools.reduce(lambda a, b: a + b if b > 0 else a - b, [rate[0], rate[1], pmt[0]])
    kept = list(filter(lambda v: v is not None, [rate[0], None]))
    return rate * pmt, halves[0], halves[1], total, kept[0]


def test_map_reduce_and_filter_call_converted_functions(backend):
    for rate, pmt in (([0.1, 0.2], [3.0, -4.0]), ([-0.1, 0.2], [-3.0, 4.0])):
        backend.check(as_arrays, np.array(rate), np.array(pmt), xp=backend.xp)


def convert_when(when):
    if isinstance(when, np.ndarray):
        return when
    return when * 0 + 1


def broadcast_when(rate, when):
    rate, when = np.broadcast_arrays(rate, when)
    return convert_when(when) * rate, isinstance(rate, (list, np.ndarray))


def test_a_staged_array_is_an_ndarray(backend):
    backend.numpy_code().check(broadcast_when, np.array([0.5, 2.0]), np.array([3.0, 4.0]))
