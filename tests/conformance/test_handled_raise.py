"""A staged ``raise`` that a ``try`` around it handles (issue 32.5).

A raise that ends the ``try``'s body through ``if`` statements only (``if x < 0:
raise ValueError("neg")``, the rest of the body after it) leaves nothing of the
body to run: its staged branch gives the handler's index as a flag instead of
raising, and the handler runs staged on that flag, on the values the branch had at
the raise, as eager Python runs it. So it runs on every backend, JAX's compiled code
too. A raise the graph cannot take that way (inside a loop of the body, or whose
handler reads the exception) stays a StagingError naming the raise and the try.
"""

import numpy as np
import pytest


def sqrt_or_zero(x):
    try:
        if x < 0:
            raise ValueError("neg")
        y = np.sqrt(x)
    except ValueError:
        y = 0.0
    return y


def count_down(a, b):
    try:
        b = b * 2
        if a > 0:
            raise ValueError("no")
        b = b + 1
    except ValueError:
        b = b - 1
    return a, b


def two_handlers(x):
    scale = np.float64(1.0)
    try:
        if x > 10:
            scale = np.float64(2.0)
            raise OverflowError(f"too big: {x}")
        if x < -10:
            raise KeyError("too small")
        y = x * scale
    except OverflowError:
        y = x / scale
    except KeyError:
        y = -x
    else:
        y = y + 1
    return y


def handler_returns(x):
    try:
        if x < 0:
            raise ValueError
        y = x + 1
    except ValueError:
        return -1.0
    return y * 2


def handler_breaks(x):
    total = x * 0
    for i in range(4):
        try:
            if x > i:
                raise ArithmeticError("stop")
            total = total + x
        except ArithmeticError:
            break
        x = x + 1
    return total, x


def handler_leaves_unassigned(x):
    try:
        if x < 0:
            raise ValueError("neg")
        y = x + 1
    except ValueError:
        pass
    return y  # noqa: F821 - unassigned after the handler when x < 0, as eagerly


@pytest.mark.parametrize("x", [4.0, -1.0, 0.0])
def test_the_handler_runs_on_the_branch_taken(backend, x):
    backend.check(sqrt_or_zero, np.float64(x))


@pytest.mark.parametrize("a", [1, -1])
def test_the_handler_sees_the_values_at_the_raise(backend, a):
    backend.check(count_down, np.int32(a), np.int32(3))


@pytest.mark.parametrize("x", [20.0, -20.0, 3.0])
def test_each_raise_takes_its_own_handler(backend, x):
    backend.check(two_handlers, np.float64(x))


@pytest.mark.parametrize("x", [2.0, -2.0])
def test_a_handler_that_returns(backend, x):
    backend.check(handler_returns, np.float64(x))


@pytest.mark.parametrize("x", [2.0, -2.0, 0.5])
def test_a_handler_that_breaks(backend, x):
    backend.check(handler_breaks, np.float64(x))


def test_a_variable_the_handler_leaves_unassigned(backend):
    if not backend.raises_at_run_time:  # no run-time "unassigned" flag: the if is refused
        text = backend.staging_error(handler_leaves_unassigned, np.float64(1.0))
        assert text.startswith(
            f"if statement at {backend.at(handler_leaves_unassigned, 'if x < 0:')}: 'y' is "
            f"defined in the false branch only")
        return
    backend.check(handler_leaves_unassigned, np.float64(1.0))
    backend.check_raises(handler_leaves_unassigned, UnboundLocalError, "'y'", np.float64(-1.0))


def reads_the_exception(x):
    try:
        if x < 0:
            raise ValueError("neg")
        y = x
    except ValueError as e:
        y = len(str(e))
    return y


def test_a_handler_that_reads_the_exception_is_refused(backend):
    assert backend.eager(reads_the_exception, np.float64(-1.0)) == 3
    raise_at = backend.at(reads_the_exception, 'raise ValueError("neg")')
    try_at = backend.at(reads_the_exception, "try:")
    assert backend.staging_error(reads_the_exception, np.float64(1.0)) == (
        f"raise in a staged branch at {raise_at}: the try statement at {try_at} handles its "
        f"ValueError with a handler that reads the exception or raises it again, and the "
        f"condition is a staged value: the graph can run a handler on a flag, but cannot "
        f"give it the exception. Drop the 'as' name, or check the condition on Python values.")


def unread_name(x):
    try:
        if x < 0:
            raise ValueError("neg")
        y = x
    except ValueError as e:  # noqa: F841 - bound, never read
        y = -x
    return y


@pytest.mark.parametrize("x", [1.0, -1.0])
def test_a_handler_whose_name_is_not_read(backend, x):
    backend.check(unread_name, np.float64(x))
