"""Reads of a variable not assigned yet in code a jump makes unreachable (the ``else`` of
a ``try`` whose body continues, statements after a ``break``): the lowering traces that
code under the jump's flag, so the read must be the checked read of a maybe-unassigned
variable there, never the trace's own UnboundLocalError (the random programs' gated
``undefined_read`` bug). A staged loop whose body always raises (a read before
assignment on every path) may run zero times: refused, never a trace-time raise."""

import numpy as np

I = np.int32


def read_in_else_of_a_try_that_continues(a, b):
    while b < a:
        try:
            continue
        except ZeroDivisionError:
            break
        else:
            b = u + b  # noqa: F821 - unreachable eagerly: the try body continues
    u = 0
    return a, b + u


def read_after_a_break(a, b):
    while b < a:
        b = b + 1
        if b > 0:
            break
        continue
        b = u + b  # noqa: F821 - after continue: never runs
    u = 1
    return b + u


def read_in_a_body_that_always_raises(a, b):
    while b < a:
        b = u + b  # noqa: F821 - raises whenever the body runs
    u = 0
    return b + u


def test_unreachable_reads_are_not_trace_errors(backend):
    backend.check(read_in_else_of_a_try_that_continues, I(-4), I(5))
    backend.check(read_after_a_break, I(3), I(-2))
    backend.check(read_after_a_break, I(-3), I(2))


def test_a_loop_body_that_always_raises_is_refused(backend):
    text = backend.staging_error(read_in_a_body_that_always_raises, I(-4), I(5))
    assert text == (
        f"while loop at {backend.at(read_in_a_body_that_always_raises, 'while b < a:')}: 'u' "
        f"is read in its body before it is assigned, and the condition is a staged value, so "
        f"the body is traced although the loop may run zero times. Assign 'u' before the "
        f"while loop.")
