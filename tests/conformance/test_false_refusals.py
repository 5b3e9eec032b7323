"""Refusals of states eager Python never reaches (issue 32.2).

(a) A variable assigned in a ``try`` under a Python-static ``if``/``elif`` with no
``else``, in a loop whose staged ``break`` comes first: the handler reads nothing, so
the variable is a plain local a staged branch may leave unassigned (with a run-time
flag, on the NumPy engine); the side that breaks leaves it unassigned, and nothing
reads it after the loop (every backend). (b) The ``s = None`` sentinel: in the branch of ``if s is
None`` that runs when it is not None, ``s`` is its value (and None in the other), as
eager Python knows there (under jax.jit too: a flag beside the value, and a closure's
reads in such a branch see the value). (c) An early ``return``: a variable the returning path never
reads after the ``if`` may stay unassigned there (``expm_frechet``'s shape).
"""

import numpy as np


def solve_steps(x, mode):
    for i in range(3):
        if x > 10:
            break
        try:
            if mode == "a":
                y = x * 2
            elif mode == "b":
                y = x * 3
        except ValueError:
            break
        x = x + y
    return x


def test_a_try_whose_handler_breaks(backend):
    backend.check(solve_steps, np.float32(2.0), "a")
    backend.check(solve_steps, np.float32(20.0), "b")
    backend.check(solve_steps, np.float32(1.0), "b")


def squarings(a):
    s = None
    for m in (1.0, 2.0):
        if a <= m:
            s = 0
            break
    if s is None:
        s = 3
    t = a
    for _ in range(s):
        t = t * 2
    return t


def squarings_not_none(a):
    s = None
    for m in (1.0, 2.0):
        if a <= m:
            s = m
            break
    if s is not None:
        scale = s * 2
    else:
        scale = 1.0 if s is None else s  # s is None here
    return scale


def test_the_none_sentinel(backend):
    for a in (0.5, 1.5, 3.0):
        backend.check(squarings, np.float32(a))
        backend.check(squarings_not_none, np.float32(a))


def steps(x):
    if x > 5:
        return x, 0
    for it in range(3):
        x = x + 1
        if x > 3:
            break
    return x, it + 1


def test_a_variable_the_early_return_never_reads(backend):
    backend.check(steps, np.float32(1.0))
    backend.check(steps, np.float32(2.5))
    backend.check(steps, np.float32(6.0))


def read_by_a_handler_around_the_loop(x):
    try:
        for i in range(3):
            if x > i:
                break
            y = x * 2
        raise ValueError
    except ValueError:
        return y  # noqa: F821 - unassigned when the first iteration breaks, as eagerly


def test_a_side_that_breaks_keeps_what_a_handler_around_the_loop_reads(backend):
    if not backend.raises_at_run_time:  # no run-time "unassigned" flag: refused, never a zero
        text = backend.staging_error(read_by_a_handler_around_the_loop, np.float64(0.5))
        assert text.startswith(f"if statement at "
                               f"{backend.at(read_by_a_handler_around_the_loop, 'if x > i:')}: "
                               f"'y' is defined in the false branch only")
        return
    backend.check(read_by_a_handler_around_the_loop, np.float64(-1.0))
    backend.check_raises(read_by_a_handler_around_the_loop, UnboundLocalError, "'y'",
                         np.float64(0.5))
