"""Issue 9.11: in-place operators on an ``autograph.Variable`` assign to it, and a
symbolic tensor stored where it outlives its trace is an error naming where."""

import numpy as np
import pytest

import autograph as ag
from autograph import StagingError

counter = ag.Variable(np.zeros(2))
last = None
history: list = []


class Model:
    def __init__(self):
        self.w = ag.Variable(np.ones(2))
        self.cache = {}

    @ag.function
    def sgd_step(self, g, lr):
        self.w -= lr * g
        return self.w.read_value()

    @ag.function
    def remember(self, x):
        self.cache["y"] = x * 3
        return x


def accumulate(x):
    global counter
    for i in range(2):
        counter += x * (i + 1)
    counter *= 2.0
    return counter.read_value()


def test_in_place_operators_on_a_global_variable_assign_to_it():
    counter.assign(np.zeros(2))
    fn = ag.function(accumulate)
    np.testing.assert_allclose(fn(np.ones(2)), [6.0, 6.0])
    np.testing.assert_allclose(fn(np.ones(2)), [18.0, 18.0])
    assert isinstance(counter, ag.Variable)
    np.testing.assert_allclose(counter.value, [18.0, 18.0])


def test_in_place_operators_on_an_attribute_variable_assign_to_it():
    model = Model()
    model.sgd_step(np.array([1.0, 2.0]), 0.5)
    out = model.sgd_step(np.array([1.0, 2.0]), 0.5)
    assert isinstance(model.w, ag.Variable)
    np.testing.assert_allclose(out, [0.0, -1.0])
    np.testing.assert_allclose(model.w.value, [0.0, -1.0])


def test_in_place_operators_work_eagerly_too():
    v = ag.Variable(np.array([1, 2]))
    v += 1
    v *= 3
    assert isinstance(v, ag.Variable)
    np.testing.assert_array_equal(v.value, [6, 9])


def store_global(x):
    global last
    last = x * 2
    return x


def append_to_global(x):
    history.append(x + 1)
    return x


def store_in_closure():
    held = None

    def inner(x):
        nonlocal held
        held = x - 1
        return x

    return inner


def _message(fn, *args):
    with pytest.raises(StagingError) as info:
        fn(*args)
    return str(info.value)


def _line(fn, text):
    import inspect

    lines, start = inspect.getsourcelines(fn)
    return start + next(i for i, line in enumerate(lines) if text in line)


def test_a_tensor_stored_in_a_global_is_named():
    message = _message(ag.function(store_global), np.ones(2))
    assert message == (
        f"autograph.function 'store_global': the symbolic tensor t2 (float64[2]) made while "
        f"tracing at test_graph_escapes.py:{_line(store_global, 'last = x * 2')} "
        f"(`last = x * 2`) was stored in the global 'last', which outlives the trace; it has no "
        f"value outside the graph. Return it from the function, or keep the state in an "
        f"autograph.Variable and assign to it (v.assign(x), v += x).")


@pytest.mark.parametrize("fn, args, where", [
    (append_to_global, (np.ones(2),), "`history[0]` (reached from the global 'history')"),
    (store_in_closure(), (np.ones(2),), "the closure variable 'held'"),
])
def test_a_tensor_stored_in_a_container_or_closure_is_named(fn, args, where):
    history.clear()
    assert f"was stored in {where}, which outlives the trace" in _message(ag.function(fn), *args)
    history.clear()


def test_a_tensor_stored_in_an_attribute_of_self_is_named():
    message = _message(Model().remember, np.ones(2))
    assert "was stored in `self.cache['y']` (reached from the argument 'self')" in message


COUNT = 0


def count_in_global(x):
    global COUNT
    while x > 0:
        COUNT += 1
        x = x - 1
    return x


def test_a_failed_trace_leaves_the_globals_as_they_were():
    """Issue 27.6: the global is not left holding the tensor, and the error names the
    line that computed it (not the line after the loop's last)."""
    global COUNT
    COUNT = 0
    with pytest.raises(StagingError) as info:
        ag.function(count_in_global)(np.float64(3.0))
    assert COUNT == 0
    assert (f"made while tracing at test_graph_escapes.py:{_line(count_in_global, 'COUNT += 1')} "
            f"(`COUNT += 1`) was stored in the global 'COUNT'") in str(info.value)


# --- the search looks only at globals the trace could have touched (issue 32, item 11) ---

stash: list = []
unrelated = [[0] * 10 for _ in range(50)]


def _stash_it(x):
    stash.append(x * 2)


class Stasher:
    @staticmethod
    def keep(x):
        stash.append(x + 1)


def stashes_through_a_helper(x):
    _stash_it(x)
    return x


def stashes_through_a_class(x):
    Stasher.keep(x)
    return x


@pytest.mark.parametrize("fn", [stashes_through_a_helper, stashes_through_a_class])
def test_a_tensor_stored_by_a_helper_of_the_module_is_found(fn):
    stash.clear()
    with pytest.raises(StagingError, match=r"`stash\[0\]` \(reached from the global 'stash'\)"):
        ag.function(fn)(np.ones(2))
    stash.clear()


def test_the_search_looks_only_at_globals_the_function_can_reach():
    from autograph.runtime.staging.kept import touchable as _touchable

    names = set(_touchable(stashes_through_a_helper))
    assert {"_stash_it", "stash"} <= names
    assert "unrelated" not in names and "history" not in names
    assert {"Stasher", "keep", "stash"} <= set(_touchable(stashes_through_a_class))
