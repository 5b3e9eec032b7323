"""A ``raise`` in a staged branch is a run-time check (issues 9.12, 22.1, 19.7).

The NumPy engine raises the same exception, with the same message, when a run takes
the branch, and never otherwise; JAX's compiled code cannot raise, so there the
trace stops with a StagingError naming the raise, its line and what to do.
"""

import numpy as np
import autograph as ag


def bracket(xa, xb, xc):
    if not (xa < xb and xb < xc):
        raise ValueError("Bracketing values (xa, xb, xc) do not fulfill this requirement: "
                         "(xa < xb) and (xb < xc)")
    return xb - xa, xc - xb


def newton(x0, a):
    x = x0
    for _ in range(20):
        fder = 2 * x
        if fder == 0:
            raise RuntimeError("Derivative was zero.")
        x = x - (x * x - a) / fder
    return x


def nested(x):
    y = x
    if x > 0:
        if x > 10:
            raise OverflowError("too big")
        y = x + 1
    return y


def both_sides(x):
    if x > 0:
        raise ValueError("positive")
    else:
        raise KeyError("not positive")


def python_error_in_branch(x, table):
    if x > 0:
        return table["missing"] + x
    return x


def not_yet_assigned(x):
    if x > 100:
        z = later + 1  # noqa: F821 - read before its assignment below, as in issue 19.7
    else:
        z = x
    later = 2
    return z + later


# Where a staged raise is refused: the compiler named and what the error advises.
REFUSALS = {
    "jax": ("jax.jit", "Check the inputs before the compiled function (outside jax.jit), "
                       "or use jax.experimental.checkify."),
    "torch": ("torch.compile", "Check the inputs before the compiled function (outside "
                               "torch.compile and torch.export), or use torch._assert_async "
                               "for a check without the exception's type."),
}


def _expect_raise(backend, fn, exc, match, good, bad):
    if not backend.raises_at_run_time:
        return backend.staging_error(fn, *good)
    backend.check(fn, *good)
    backend.check_raises(fn, exc, match, *bad)
    return None


def test_validation_raises_only_when_taken(backend):
    text = _expect_raise(backend, bracket, ValueError, r"do not fulfill this requirement",
                         (np.float64(0.0), np.float64(1.0), np.float64(2.0)),
                         (np.float64(0.0), np.float64(3.0), np.float64(2.0)))
    if text is not None:
        assert text.startswith("raise in a staged branch at ")
        assert "test_staged_raise.py:14 (`raise ValueError(\"Bracketing values" in text
        compiler, remedy = REFUSALS[backend.name]
        assert f"{compiler} cannot raise an exception when the compiled function runs" in text
        assert text.endswith(remedy)


def test_raise_in_a_staged_loop(backend):
    _expect_raise(backend, newton, RuntimeError, "^Derivative was zero.$",
                  (np.float64(1.0), np.float64(2.0)), (np.float64(0.0), np.float64(2.0)))


def test_nested_branch_raises(backend):
    _expect_raise(backend, nested, OverflowError, "^too big$", (np.int64(3),), (np.int64(30),))
    if backend.engine == "numpy":
        backend.check(nested, np.int64(-3))


def test_both_branches_raise(backend):
    if not backend.raises_at_run_time:
        backend.staging_error(both_sides, np.int64(1))
        return
    backend.check_raises(both_sides, ValueError, "^positive$", np.int64(1))
    backend.check_raises(both_sides, KeyError, "not positive", np.int64(-1))


def test_python_error_inside_a_staged_branch(backend):
    _expect_raise(backend, python_error_in_branch, KeyError, "missing",
                  (np.int64(-1), {}), (np.int64(1), {}))


def test_unassigned_variable_raises_only_when_read(backend):
    message = "cannot access local variable 'later' where it is not associated with a value"
    if not backend.raises_at_run_time:
        text = backend.staging_error(not_yet_assigned, np.int64(3))
        assert text.startswith("if statement at ")
        assert "'later' is read in a branch before it is assigned" in text
        assert text.endswith("Assign 'later' before the if statement.")
        return
    backend.check(not_yet_assigned, np.int64(3))
    backend.check_raises(not_yet_assigned, UnboundLocalError, message, np.int64(300))


def test_raise_is_printed_in_the_graph():
    graph = ag.function(bracket).get_concrete_function(1.0 * np.ones(()), np.ones(()),
                                                         np.ones(())).graph
    assert "raise ValueError('Bracketing values" in str(graph)


def assigned_in_one_branch(x):
    if x > 0:
        y = x * 2
    if x > 1:
        z = y + 1
    else:
        z = x
    return z


def assigned_on_one_path(x):
    if x > 0:
        y = x * 2
    if x < -5:
        y = x
    return y


def test_variable_assigned_in_one_branch_only(backend):
    if not backend.raises_at_run_time:
        text = backend.staging_error(assigned_in_one_branch, np.float64(3.0))
        assert "'y' is defined in the true branch only" in text
        return
    for v in (3.0, 0.5, -1.0):
        backend.check(assigned_in_one_branch, np.float64(v))
    backend.check(assigned_on_one_path, np.float64(-7.0))
    backend.check(assigned_on_one_path, np.float64(3.0))
    backend.check_raises(assigned_on_one_path, UnboundLocalError,
                         "^cannot access local variable 'y' where it is not associated with a "
                         "value$", np.float64(-1.0))


def python_assert_in_branch(n, limit):
    t = 0
    if n % 2 == 0:
        assert limit > 3, "limit too small"
        t = n + 1
    elif n > 0:
        raise ValueError("odd and positive")
    return t


def test_a_failing_assert_on_python_values_raises_only_when_taken(backend):
    """An ``assert`` on Python values that fails in a staged branch is the branch's raise
    (found by the differential fuzzer: it was raised while tracing, whatever the
    condition, so odd ``n`` raised AssertionError where eager code returns or raises
    ValueError)."""
    if not backend.raises_at_run_time:
        text = backend.staging_error(python_assert_in_branch, np.int64(3), 2)
        assert text.startswith("raise in a staged branch at ")
        return
    backend.check(python_assert_in_branch, np.int64(-3), 2)
    backend.check(python_assert_in_branch, np.int64(4), 5)
    backend.check_raises(python_assert_in_branch, AssertionError, "limit too small",
                         np.int64(4), 2)
    backend.check_raises(python_assert_in_branch, ValueError, "^odd and positive$",
                         np.int64(3), 2)


class WordedError(RuntimeError):
    """An exception whose ``__init__`` words its message (as SciPy's FitSolverError)."""

    def __init__(self, mesg):
        self.args = ("Solver failed to converge: " + mesg,)


def worded_raise(x):
    if np.isinf(x):
        raise WordedError("no bracket")
    return x


def test_an_exception_that_words_its_message_is_raised_once_worded(backend):
    """The graph raises a copy of the exception made while tracing; the copy was made by
    calling the class with its finished arguments, so an ``__init__`` that words its
    message worded it twice (found on SciPy's ``_get_left_bracket``)."""
    _expect_raise(backend, worded_raise, WordedError, "^Solver failed to converge: no bracket$",
                  (np.float64(1.0),), (np.float64(np.inf),))
