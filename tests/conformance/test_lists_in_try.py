"""A list written under a staged ``if`` inside a ``try`` is the same list after it: the
``try``'s body holds its names as nonlocals (shared), and the ``if`` used to give the
name a copy holding the new items, so that later changes (an append, the write back
into the caller's list) missed the caller's list (found by the differential fuzzer:
``[5, 0, 1]`` eagerly, ``[5, 0]`` staged)."""

from __future__ import annotations

import numpy as np


def write_in_try(x, lst):
    try:
        if x > 0:
            lst[0] = 5
    except ZeroDivisionError:
        pass
    return x


def write_in_try_then_append(x, lst):
    try:
        if x > 0:
            lst[0] = 5
    except ZeroDivisionError:
        pass
    lst.append(1)
    return x


def local_list_in_try(x):
    out = [0, 0]
    alias = out
    try:
        if x > 0:
            out[0] = 5
    except ZeroDivisionError:
        pass
    out.append(1)
    return alias


def test_a_list_written_in_a_staged_if_inside_a_try(backend):
    for x in (1.0, -1.0):
        backend.check(local_list_in_try, np.float64(x))
    if backend.engine != "numpy":
        return  # the other frameworks trace with the caller's list itself
    for x in (1.0, -1.0):
        eager, staged = [0, 0], [0, 0]
        backend.assert_same(write_in_try(np.float64(x), eager),
                            backend.staged(write_in_try, np.float64(x), staged))
        assert [int(v) for v in staged] == eager
    text = backend.staging_error(write_in_try_then_append, np.float64(1.0), [0, 0])
    assert text == ("autograph.function 'write_in_try_then_append': the trace changed the "
                    "length of the list argument 'lst' (2 items before, 3 after: an append, "
                    "pop, insert or new key); a graph cannot change the caller's list on every "
                    "call as eager code does. Work on a copy (lst = list(lst)) and return it.")
