"""Falling off the end of a function on some staged paths (issue 9.3).

Python returns None from a function that ends without a ``return``. When a staged
``if`` or loop decides whether a ``return`` runs, the NumPy engine returns None exactly
when eager Python does (a run-time flag, rebuilt at the function's boundary); the
outputs of jax.jit, torch.compile/export and tf.function are arrays on every run, so
there it is a StagingError naming the function and the path that returns nothing. A function that returns on every path (a ``return``
after the loop) runs on every backend."""

import numpy as np
import pytest

import autograph as ag


def nested(x):
    if x > 0:
        if x < 5:
            return x
    else:
        return x * x * x


def first_above(xs, t):
    for x in xs:
        if x > t:
            return x
    return -1.0


def first_above_or_nothing(xs, t):
    for x in xs:
        if x > t:
            return x


def countdown(x):
    while x > 0:
        if x < 3:
            return x
        x = x - 2


def guarded_rest(x):
    if x > 0:
        if x > 10:
            return 10
        x = x + 1
    x = x * 2
    return x


def none_or_nothing(x):
    if x > 0:
        return None


def pair_or_nothing(x):
    if x > 0:
        return x, x * 2


def none_inside_or_nothing(x):
    if x > 0:
        if x < 5:
            return None, x
    else:
        return x, x


def first_in_rows(m, t):
    for row in m:
        for v in row:
            if v > t:
                return v


def more_after_the_loop(xs, t):
    s = 0.0
    for x in xs:
        if x > t:
            return x
        s = s + x
    if s > 3:
        return s


def until_above(x):
    while True:
        if x > 3:
            return x
        x = x + 1


def until_above_or_stop(x):
    while True:
        if x > 3:
            return x
        if x < -5:
            break
        x = x - 2


def checks_result(x):
    r = nested(x)
    if r is None:
        return x * 0 - 1
    return r * 2


def adds_to_result(x):
    return nested(x) + 1


def unpacks_result(x):
    a, b = pair_or_nothing(x)
    return a + b


def _one_trace(backend, fn, *argsets):
    """The NumPy engine: one ``ag.function`` over inputs that take every path, with
    eager's results, from a single trace."""
    staged = ag.function(fn)
    for args in argsets:
        backend.assert_same(fn(*args), staged(*args))
    assert staged.experimental_get_tracing_count() == 1


def _message(backend, fn, path):
    return (f"{fn.__name__}() returns a value on some staged paths and nothing (None) on "
            f"others: {path}. A {backend.name} graph returns arrays on every run, never None on some runs "
            f"only. Return a value on every path of {fn.__name__}() (a NaN, or a flag next to "
            f"the value, where it now returns nothing).")


def test_under_a_staged_if(backend):
    if not backend.returns_none_at_run_time:
        assert backend.staging_error(nested, np.int32(5)) == _message(
            backend, nested,
            f"the false branch of the if statement at {backend.at(nested, 'if x < 5:')} ends "
            f"without a return")
        return
    for x in (5, 3, -2):
        backend.check(nested, np.int32(x))
    _one_trace(backend, nested, (np.int32(5),), (np.int32(3),), (np.int32(-2),), (np.int32(9),))


@pytest.mark.parametrize("fn,line", [(first_above_or_nothing, "for x in xs:"),
                                     (countdown, "while x > 0:")])
def test_through_a_staged_loop(backend, fn, line):
    args = {first_above_or_nothing: [(np.arange(4.0), np.float64(1.5)), (np.arange(4.0), np.float64(7.0))],
            countdown: [(np.int32(7),), (np.int32(8),), (np.int32(-1),)]}[fn]
    if not backend.returns_none_at_run_time:
        assert backend.staging_error(fn, *args[0]) == _message(
            backend, fn,
            f"the {line.split()[0]} loop at {backend.at(fn, line)} may end without a return")
        return
    for a in args:
        backend.check(fn, *a)
    _one_trace(backend, fn, *args)
    if fn is first_above_or_nothing:  # no trip at all
        backend.check(fn, np.zeros(0), np.float64(0))


def test_a_return_after_the_loop_runs_everywhere(backend):
    backend.check(first_above, np.arange(4.0), 1.5)
    backend.check(first_above, np.arange(4.0), 7.0)
    for x in (12, 3, -3):
        backend.check(guarded_rest, np.int32(x))


def test_none_on_every_path_is_none_everywhere(backend):
    backend.check(none_or_nothing, np.float32(1))
    backend.check(none_or_nothing, np.float32(-1))


def test_a_tuple_or_nothing(backend):
    if not backend.returns_none_at_run_time:
        backend.staging_error(pair_or_nothing, np.float64(1))
        return
    backend.check(pair_or_nothing, np.float64(1))
    backend.check(pair_or_nothing, np.float64(-1))


def test_the_result_in_a_converted_caller(backend):
    """What the function returns to converted code inside the trace is None exactly when
    eager; ``is None`` tests it, arithmetic and unpacking raise Python's TypeError."""
    if not backend.returns_none_at_run_time:
        text = backend.staging_error(checks_result, np.int32(5))
        assert text.startswith("nested() returns a value on some staged paths and nothing")
        return
    for x in (5, 3, -2):
        backend.check(checks_result, np.int32(x))
    backend.check(adds_to_result, np.int32(3))
    backend.check_raises(adds_to_result, TypeError,
                         r"^unsupported operand type\(s\) for \+: 'NoneType' and 'int'$",
                         np.int32(5))
    backend.check(unpacks_result, np.float64(2))
    backend.check_raises(unpacks_result, TypeError,
                         r"^cannot unpack non-iterable NoneType object$", np.float64(-2))
    _one_trace(backend, checks_result, (np.int32(5),), (np.int32(3),), (np.int32(-2),))


def test_a_tuple_holding_none_or_nothing(backend):
    if not backend.returns_none_at_run_time:
        backend.staging_error(none_inside_or_nothing, np.float64(3))
        return
    for x in (3, 7, -2):
        backend.check(none_inside_or_nothing, np.float64(x))
    _one_trace(backend, none_inside_or_nothing, *[(np.float64(x),) for x in (3, 7, -2)])


def test_nested_loops(backend):
    m = np.arange(6.0).reshape(2, 3)
    if not backend.returns_none_at_run_time:
        assert backend.staging_error(first_in_rows, m, np.float64(2.5)) == _message(
            backend, first_in_rows,
            f"the for loop at {backend.at(first_in_rows, 'for row in m:')} may end without a "
            f"return")
        return
    _one_trace(backend, first_in_rows, (m, np.float64(2.5)), (m, np.float64(9.0)))


def test_the_path_after_the_loop_is_named(backend):
    """After a loop that may return, the rest of the function runs where no return ran:
    the path that returns nothing is the ``if`` there."""
    xs = np.arange(4.0)
    if not backend.returns_none_at_run_time:
        assert backend.staging_error(more_after_the_loop, xs, np.float64(1.5)) == _message(
            backend, more_after_the_loop,
            f"the false branch of the if statement at "
            f"{backend.at(more_after_the_loop, 'if s > 3:')} ends without a return")
        return
    _one_trace(backend, more_after_the_loop, (xs, np.float64(1.5)), (xs, np.float64(7.0)))
    backend.check(more_after_the_loop, np.arange(2.0), np.float64(7.0))


def test_a_loop_only_a_return_leaves(backend):
    """``while True:`` without a ``break`` of its own ends only by returning."""
    for x in (1, 5):
        backend.check(until_above, np.int32(x))
    if not backend.returns_none_at_run_time:
        assert backend.staging_error(until_above_or_stop, np.int32(1)).startswith(
            "until_above_or_stop() returns a value on some staged paths and nothing (None)")
        return
    for x in (5, 1):
        backend.check(until_above_or_stop, np.int32(x))
    _one_trace(backend, until_above_or_stop, (np.int32(5),), (np.int32(1),))
