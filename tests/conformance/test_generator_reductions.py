"""``any``/``all``/``sum``/``next`` of a generator expression whose test is staged
(issue 22 leftovers, 3: scikit-learn's ``next(col for col in y.T if np.any(...))``).

Each item's test is traced; the result is the backend's combination of them, with
Python's values (``any``/``all`` give bools, ``sum`` the elements' dtype, ``next``
the first element whose test holds, or its default). A sum none of whose tests hold
is its start eagerly (``0``, a Python int) and a zero of the elements' dtype staged:
the tests give a float start. ``next`` without a default
raises ``StopIteration`` when no test holds: the NumPy engine when the graph runs;
JAX's compiled code cannot raise, so there it is a StagingError.
"""

import numpy as np

EPS = 0.5


def first_column(y, xp):  # y.T, written so that every framework's arrays take it
    return next(col for col in xp.swapaxes(y, 0, 1) if xp.any(xp.abs(col) > EPS))


def first_or_default(y, xp):
    return next((col * 2 for col in xp.swapaxes(y, 0, 1) if xp.any(xp.abs(col) > EPS)),
                y[:, 0] * 0 - 1)


def any_all_sum(x):
    return (any(v > 2 for v in x), all(v > 0 for v in x), sum((v for v in x if v > 1), 0.0),
            sum((v * v for v in x if v > 1), 10.0))


def pairs(x, y):
    return any(a > b for a, b in zip(x, y)), all(a >= b for a, b in zip(x, y))


def python_items_decide_first(x):
    # the first test is a Python bool that decides: nothing is staged
    return any(t for t in (True, x > 0)), all(t for t in (False, x > 0))


def test_next_first_match(backend):
    if backend.engine == "numpy":  # (JAX: see the next test)
        for y in (np.array([[0.0, 3.0], [0.1, 1.0]]), np.array([[1.0, 0.0], [0.0, 0.0]])):
            backend.check(first_column, y, xp=backend.xp)
    backend.check(first_or_default, np.array([[0.0, 0.1], [0.1, 0.0]]), xp=backend.xp)
    backend.check(first_or_default, np.array([[0.0, 2.0], [0.1, 0.0]]), xp=backend.xp)


def test_next_without_match_raises_stop_iteration(backend):
    y = np.array([[0.0, 0.1], [0.1, 0.0]])
    if not backend.raises_at_run_time:
        text = backend.staging_error(first_column, y, xp=backend.xp)
        assert text == ("next() of a generator expression whose test is staged: when no item "
                        f"passes, next() raises StopIteration, which {backend.name} cannot "
                        "raise when "
                        "the compiled function runs. Give next() a default "
                        "(next((... for ...), default)).")
        return
    backend.check_raises(first_column, StopIteration, "^$", y, xp=backend.xp)


def test_any_all_sum(backend):
    for x in (np.array([0.5, 3.0, 1.5]), np.array([-1.0, 0.5, 0.25])):
        backend.check(any_all_sum, x)


def test_tuple_targets(backend):
    backend.check(pairs, np.array([1, 5, 3]), np.array([2, 4, 3]))
    backend.check(pairs, np.array([3, 5, 3]), np.array([2, 4, 3]))


def test_python_tests_decide_before_any_staged_one(backend):
    backend.check(python_items_decide_first, np.float64(-1.0))


def first_positive_or_none(xs):
    try:
        return next(x for x in xs if x > 0)
    except StopIteration:
        return None


def test_next_inside_a_try_that_handles_stop_iteration_is_refused(backend):
    # Eager Python runs the handler when nothing passes; a graph could only raise
    # StopIteration when it runs, past the handler.
    f = first_positive_or_none
    assert backend.staging_error(f, np.array([-1.0, 2.0])) == (
        "next() of a generator expression whose test is staged: when the graph runs it may "
        f"raise StopIteration, which the try statement at {backend.at(f, 'try:')} handles, "
        "and a graph cannot run the handler then. Give the call a default, or test the "
        "condition on Python values.")
