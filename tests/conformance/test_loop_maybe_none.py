"""Variables that are None, or not assigned yet, before a staged loop and get a value
inside it (issue 22.5, loops).

The NumPy engine carries them with a run-time flag, as it does for a staged ``if``: after
the loop the variable is None (or unassigned: reading it raises Python's
UnboundLocalError) exactly when eager Python's is; ``is None`` tests it and arithmetic
raises Python's TypeError when it is None. jax.jit, torch.compile/export and tf.function
return arrays: a StagingError names the variable returned (TensorFlow raises the
TypeError and UnboundLocalError when the graph runs; JAX and PyTorch cannot, and refuse
those uses with a StagingError naming the variable and the loop)."""

import numpy as np

import autograph as ag


def last_above(xs, t):
    found = None
    for x in xs:
        if x > t:
            found = x
    return found


def doubles_last_above(xs, t):
    found = None
    for x in xs:
        if x > t:
            found = x
    return found * 2


def checked_after(n):
    r = None
    i = 0
    while i < n:
        r = i * 1.5
        i += 1
    if r is None:
        return -1.0
    return r


def assigned_in_loop(n):
    i = 0
    while i < n:
        z = i * 2
        i += 1
    return z


def assigned_in_branch_in_loop(xs, t):
    for x in xs:
        if x > t:
            hit = x
    return hit


def previous_candidate(xs, t):
    prev = 0.0
    cand = None
    for x in xs:
        prev = cand
        if x > t:
            cand = x
    return prev


def _one_trace(backend, fn, *argsets):
    """One ``ag.function`` over inputs that take every path: eager's results (values or
    exceptions), from a single trace."""
    staged = ag.function(fn)
    for args in argsets:
        try:
            expected = fn(*args)
        except Exception as error:  # noqa: BLE001 - compared with the staged run's
            try:
                staged(*args)
            except type(error) as staged_error:
                assert str(staged_error) == str(error)
            else:
                raise AssertionError(f"no {type(error).__name__} for {args}")
            continue
        backend.assert_same(expected, staged(*args))
    assert staged.experimental_get_tracing_count() == 1


XS = np.arange(4.0)


def test_none_before_the_loop(backend):
    if not backend.returns_none_at_run_time:  # carried with a flag, tested with 'is None'
        backend.check(checked_after, np.int32(3))
        backend.check(checked_after, np.int32(0))
        assert backend.staging_error(last_above, XS, np.float64(1.5)) == (
            f"'found' is None on some staged paths and a value on others, and is returned from "
            f"the compiled function (or given to a {backend.framework} function): a graph's "
            f"outputs are arrays. Return an array on every path (a NaN, or a success flag next "
            f"to the value).")
        if backend.raises_at_run_time:
            backend.check(doubles_last_above, XS, np.float64(1.5))
            backend.check_raises(doubles_last_above, TypeError,
                                 r"^unsupported operand type\(s\) for \*: 'NoneType' and 'int'$",
                                 XS, np.float64(7.0))
            return
        assert backend.staging_error(doubles_last_above, XS, np.float64(1.5)) == (
            f"'found' is None on some staged paths and a value on others, and is used here as "
            f"a value; under {backend.compiler} it can only be tested with 'is None' or 'is "
            f"not None' (compiled {backend.framework} code cannot raise the TypeError eager "
            f"Python raises where it is None). Test it first and use it only where it is not "
            f"None, or give it an array value (e.g. np.nan) instead of None.")
        return
    backend.check(last_above, XS, np.float64(1.5))
    backend.check(last_above, XS, np.float64(7.0))
    backend.check(checked_after, np.int32(3))
    backend.check(checked_after, np.int32(0))
    backend.check(doubles_last_above, XS, np.float64(1.5))
    backend.check_raises(doubles_last_above, TypeError,
                         r"^unsupported operand type\(s\) for \*: 'NoneType' and 'int'$",
                         XS, np.float64(7.0))
    _one_trace(backend, last_above, (XS, np.float64(1.5)), (XS, np.float64(7.0)))
    _one_trace(backend, doubles_last_above, (XS, np.float64(1.5)), (XS, np.float64(7.0)))
    _one_trace(backend, checked_after, (np.int32(3),), (np.int32(0),))


def test_a_value_before_the_loop_that_may_become_none(backend):
    if not backend.returns_none_at_run_time:
        backend.staging_error(previous_candidate, XS, np.float64(1.5))
        return
    for t in (1.5, 2.5, 7.0):
        backend.check(previous_candidate, XS, np.float64(t))
    _one_trace(backend, previous_candidate, *[(XS, np.float64(t)) for t in (1.5, 2.5, 7.0)])


def test_first_assigned_in_the_loop(backend):
    if not backend.raises_at_run_time:
        assert backend.staging_error(assigned_in_branch_in_loop, XS, np.float64(1.5)) == (
            f"if statement at {backend.at(assigned_in_branch_in_loop, 'if x > t:')}: 'hit' is "
            f"defined in the true branch only, and the condition is a staged value, so both "
            f"branches run in the graph. Define 'hit' before the if statement, or in both "
            f"branches.")
        assert backend.staging_error(assigned_in_loop, np.int32(3)) == (
            f"while loop at {backend.at(assigned_in_loop, 'while i < n:')}: 'z' is first "
            f"assigned inside the loop and used after it, but the loop runs in the graph, where "
            f"it may run zero times. Assign 'z' before the loop.")
        return
    unbound = "^cannot access local variable 'hit' where it is not associated with a value$"
    backend.check(assigned_in_branch_in_loop, XS, np.float64(1.5))
    backend.check_raises(assigned_in_branch_in_loop, UnboundLocalError, unbound,
                         XS, np.float64(7.0))
    backend.check(assigned_in_loop, np.int32(3))
    backend.check_raises(assigned_in_loop, UnboundLocalError, "'z'", np.int32(0))
    _one_trace(backend, assigned_in_branch_in_loop, (XS, np.float64(1.5)), (XS, np.float64(7.0)))
    _one_trace(backend, assigned_in_loop, (np.int32(3),), (np.int32(0),))


def target_after_break(xs, t):
    total = 0.0
    for n, x in enumerate(xs):
        if x > t:
            x = total
            break
        total = total + x
    return total, x, n


def assigned_after_the_break(xs, t):
    for x in xs:
        if x > t:
            break
        y = x * 2
    return y


def test_the_target_of_a_loop_over_a_static_length(backend):
    """A ``for`` over an array of a static, nonzero length runs its first iteration, which
    assigns the target: after the loop (ended by a staged break or not) the target holds
    the last item it took, as eagerly (found on properscoring's CRPS kernel: refused as
    possibly unassigned on jax.jit and torch.compile). A variable the first iteration may
    skip stays refused where the backend cannot raise UnboundLocalError when it runs."""
    for t in (1.5, 7.0, -1.0):
        backend.check(target_after_break, XS, np.float64(t))
    if not backend.raises_at_run_time:
        backend.staging_error(assigned_after_the_break, XS, np.float64(1.5))
        return
    backend.check(assigned_after_the_break, XS, np.float64(1.5))
    backend.check_raises(assigned_after_the_break, UnboundLocalError, "'y'", XS, np.float64(-1.0))
