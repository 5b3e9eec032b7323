"""Signatures and what a user sees around them: TensorSpecs of unknown rank, nested
input signatures, Python arguments bound in a concrete function, saving and loading
a whole ``autograph.function``, and the warnings about retracing and ``np.random``,
which point at the user's line."""

from __future__ import annotations

import inspect
import random
import warnings

import numpy as np
import pytest

import autograph as ag

HERE = __file__


# --- TensorSpec of unknown rank -----------------------------------------------------------


def test_tensor_spec_of_unknown_rank():
    spec = ag.TensorSpec(None, np.float32)
    assert spec.shape is None and spec.dtype == np.float32
    assert repr(spec) == "TensorSpec(shape=None, dtype=float32)"
    assert spec.fits(()) and spec.fits((3, 4, 5))
    assert spec == ag.TensorSpec(None, "float32") and spec != ag.TensorSpec((), np.float32)


def test_tensor_spec_shape_must_be_a_sequence():
    with pytest.raises(TypeError) as info:
        ag.TensorSpec(3)
    assert str(info.value) == ("TensorSpec: the shape must be a sequence of ints and None (or "
                               "None for any rank), got 3.")


def test_input_signature_of_unknown_rank_traces_once_per_rank():
    @ag.function(input_signature=[ag.TensorSpec(None, np.float64)])
    def total(x):
        return np.sum(x * 2)

    assert total(np.ones(3)) == 6.0
    assert total(np.ones(5)) == 10.0
    assert total(np.ones((2, 2))) == 8.0
    assert total(np.ones((3, 3))) == 18.0
    assert total.experimental_get_tracing_count() == 2  # rank 1 and rank 2
    with pytest.raises(TypeError):
        total(np.ones(3, np.int64))
    concrete = total.get_concrete_function(ag.TensorSpec([None, None, None]))
    assert concrete.specs == [ag.TensorSpec([None, None, None], np.float64)]
    assert concrete(np.ones((1, 2, 3))) == 12.0


def test_concrete_function_of_unknown_rank_needs_a_rank():
    @ag.function(input_signature=[ag.TensorSpec(None, np.float64)])
    def f(x):
        return x

    with pytest.raises(TypeError) as info:
        f.get_concrete_function()
    assert str(info.value) == (
        "f: its input_signature has a TensorSpec of unknown rank; pass arrays or TensorSpecs "
        "of known rank to get_concrete_function to choose the ranks.")

    @ag.function
    def g(x):
        return x

    with pytest.raises(TypeError) as info:
        g.get_concrete_function(ag.TensorSpec(None))
    assert str(info.value) == (
        "g: argument 'x' is a TensorSpec of unknown rank; a graph is traced for one rank. Give "
        "the TensorSpec a shape (None for each size that may vary), or pass an array.")


# --- nested input signatures and Python lists for arrays --------------------------------

PAIR = [ag.TensorSpec([None], np.float64), ag.TensorSpec([None], np.float64)]


def test_input_signature_as_a_list_of_lists():
    @ag.function(input_signature=[PAIR, ag.TensorSpec([], np.float64)])
    def weighted(pair, w):
        return pair[0] * w + pair[1]

    expected = np.array([3.0, 5.0])
    np.testing.assert_array_equal(weighted([np.ones(2), np.array([1.0, 3.0])], np.array(2.0)),
                                  expected)
    # a tuple where the signature has a list, and Python numbers for the arrays
    np.testing.assert_array_equal(weighted((np.ones(2), [1.0, 3.0]), 2.0), expected)
    np.testing.assert_array_equal(weighted([[1, 1], [1, 3]], 2), expected)
    assert weighted.experimental_get_tracing_count() == 1
    with pytest.raises(TypeError) as info:
        weighted([np.ones(2)], 2.0)
    assert str(info.value) == (
        "weighted(): argument 'pair' must be [float64 array, shape=(None,), float64 array, "
        "shape=(None,)], got list [array([1., 1.])].")
    with pytest.raises(TypeError) as info:
        weighted([["a"], [1.0]], 2.0)
    assert str(info.value).startswith("weighted(): argument 'pair[0]' must have dtype float64")


def test_python_lists_for_an_array_argument_follow_numpy_casting():
    @ag.function(input_signature=[ag.TensorSpec([None], np.int64)])
    def f(x):
        return x + 1

    np.testing.assert_array_equal(f([1, 2]), [2, 3])
    with pytest.raises(TypeError):
        f([1.5, 2.0])  # float to int64 is not a safe cast


# --- Python arguments bound in a concrete function (issue 9) ------------------------------


def _normalize():
    @ag.function
    def normalize(x, eps, scale=2.0):
        return x / (np.abs(x) + eps) * scale

    return normalize


def _bound_calls(concrete):
    x = np.array([1.0, -1.0])
    expected = np.array([2.0, -2.0])
    for call in (lambda: concrete(x), lambda: concrete(x, 1e-10), lambda: concrete(x, 1e-10, 2.0),
                 lambda: concrete(x=x), lambda: concrete(x, eps=1e-10),
                 lambda: concrete(x=x, eps=1e-10, scale=2.0)):
        np.testing.assert_allclose(call(), expected)
    with pytest.raises(TypeError) as info:
        concrete(x, 1e-3)
    assert str(info.value) == (
        "normalize(): argument 'eps' was traced with the Python value 1e-10, got 0.001. Call "
        "the autograph.function itself (which retraces for new Python values), or pass an array.")
    with pytest.raises(TypeError) as info:
        concrete()
    assert str(info.value) == (
        "normalize() missing array argument 'x'; this concrete function is called with (x) "
        "(its Python arguments are fixed: eps=1e-10, scale=2.0).")
    with pytest.raises(TypeError) as info:
        concrete(x, other=1)
    assert str(info.value) == "normalize() got an unexpected keyword argument 'other'."


def test_bound_python_arguments_are_part_of_the_concrete_function():
    _bound_calls(_normalize().get_concrete_function(ag.TensorSpec([None]), 1e-10))


def test_bound_python_arguments_survive_save_and_load(tmp_path):
    concrete = _normalize().get_concrete_function(ag.TensorSpec([None]), 1e-10)
    concrete.save(tmp_path / "normalize.npz")
    _bound_calls(ag.load(tmp_path / "normalize.npz"))


# --- saving a whole function ---------------------------------------------------------------


def test_polymorphic_function_saves_every_graph_and_loads_dispatching(tmp_path):
    steps = ag.Variable(0)

    @ag.function
    def step(x, scale):
        steps.assign_add(1)
        if np.sum(x) > 0:
            x = x * scale
        return x

    step(np.ones(2), 2)
    step(np.ones((2, 2), np.float32), 3)
    step(np.array(-1), 2)
    step.save(tmp_path / "step.npz")
    assert steps.numpy() == 3

    loaded = ag.load(tmp_path / "step.npz")
    assert len(loaded.concrete_functions) == 3
    assert len(loaded.variables) == 1  # shared by the three graphs, still shared
    np.testing.assert_array_equal(loaded(np.ones(2), 2), [2.0, 2.0])
    out = loaded(np.ones((2, 2), np.float32), scale=3)
    assert out.dtype == np.float32 and out.tolist() == [[3.0, 3.0], [3.0, 3.0]]
    assert loaded(np.array(-1), 2) == -1
    assert loaded.get_concrete_function(np.array(5), 2) is loaded.concrete_functions[2]
    assert loaded.variables[0].numpy() == 6
    with pytest.raises(TypeError) as info:
        loaded(np.ones(3), 5)
    message = str(info.value)
    assert message.startswith(
        "step(): none of the 3 saved graphs was traced for these arguments (a float64[3] array, "
        "int 5). Saved signatures:\n\nstep(x, scale)\n  Args:\n    x: float64 array, "
        "shape=(2,)\n    scale: python int 2\n")
    assert message.endswith(loaded.pretty_printed_concrete_signatures())


def test_saving_before_any_trace_says_what_to_do(tmp_path):
    @ag.function
    def f(x):
        return x

    with pytest.raises(ValueError) as info:
        f.save(tmp_path / "f.npz")
    assert str(info.value) == (
        "autograph.function 'f': nothing to save, no graph has been traced yet. Call the "
        "function (or get_concrete_function) with each signature to save first.")


def test_saved_input_signature_function_loads(tmp_path):
    @ag.function(input_signature=[ag.TensorSpec(None, np.float64)])
    def double(x):
        return x * 2

    double(np.ones(2))
    double(np.ones((2, 2)))
    double.save(tmp_path / "double.npz")
    loaded = ag.load(tmp_path / "double.npz")
    np.testing.assert_array_equal(loaded(np.ones(4)), np.full(4, 2.0))
    np.testing.assert_array_equal(loaded(np.ones((1, 3))), np.full((1, 3), 2.0))


# --- warnings at the user's line -----------------------------------------------------------


def test_retracing_warning_points_at_the_users_call():
    @ag.function
    def g(x, n):
        return x * n

    with pytest.warns(ag.RetracingWarning) as record:
        for i in range(6):
            g(np.array(1.0), i); line = inspect.currentframe().f_lineno  # noqa: E702
    assert (record[0].filename, record[0].lineno) == (HERE, line)


def test_retracing_warning_of_a_method_points_at_the_users_call():
    class Model:
        @ag.function
        def apply(self, x, n):
            return x * n

    model = Model()
    with pytest.warns(ag.RetracingWarning) as record:
        for i in range(6):
            model.apply(np.array(1.0), i); line = inspect.currentframe().f_lineno  # noqa: E702
    assert (record[0].filename, record[0].lineno) == (HERE, line)


def noisy(x):
    y = x + np.random.normal(size=x.shape)
    if np.sum(x) > 0:
        y = y * np.random.rand()
    return y + np.random.default_rng(0).normal()  # seeded: the same numbers in Python too


NOISY_LINE = noisy.__code__.co_firstlineno + 1


def test_np_random_in_a_trace_warns_at_its_line():
    f = ag.function(noisy)
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        first = f(np.ones(2))
        again = f(np.ones(2))
    found = [(w.category, w.filename, w.lineno) for w in record]
    assert found == [(ag.TraceTimeWarning, HERE, NOISY_LINE),
                     (ag.TraceTimeWarning, HERE, NOISY_LINE + 2)]
    np.testing.assert_array_equal(first, again)  # what the warning is about
    assert str(record[0].message) == (
        f"autograph.function 'noisy': np.random.normal at {HERE}:{NOISY_LINE} "
        f"(`y = x + np.random.normal(size=x.shape)`) runs while tracing, so its numbers become "
        f"constants of the graph and every call returns the same ones. For new numbers on each "
        f"call, draw them outside the function and pass them as an argument "
        f"(rng = np.random.default_rng(); f(x, rng.normal(size=n))).")


RNG = np.random.default_rng(7)


def test_generators_the_function_reads_warn_by_name():
    local = np.random.RandomState(0)

    @ag.function
    def f(x):
        return x + RNG.normal(size=x.shape) + local.rand()

    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        f(np.ones(2))
    line = f.python_function.__code__.co_firstlineno
    assert [(w.category, w.filename, w.lineno) for w in record] == [
        (ag.TraceTimeWarning, HERE, line)] * 2
    assert [str(w.message) for w in record] == [
        "autograph.function 'f': the Generator 'RNG' drew numbers while tracing, so they are "
        "constants of the graph and every call returns the same ones. For new numbers on each "
        "call, draw them outside the function and pass them as an argument "
        "(f(x, RNG.normal(size=n))).",
        "autograph.function 'f': the RandomState 'local' drew numbers while tracing, so they are "
        "constants of the graph and every call returns the same ones. For new numbers on each "
        "call, draw them outside the function and pass them as an argument "
        "(f(x, local.normal(size=n))).",
    ]


PYTHON_RNG = random.Random(3)


def test_pythons_random_warns_like_np_random():
    @ag.function
    def f(x):
        return x + random.random() + PYTHON_RNG.random()

    random_random = random.random
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        first = f(np.ones(2))
        again = f(np.ones(2))
    np.testing.assert_array_equal(first, again)  # what the warnings are about
    line = f.python_function.__code__.co_firstlineno
    assert [(w.category, w.filename, w.lineno) for w in record] == [
        (ag.TraceTimeWarning, HERE, line + 2), (ag.TraceTimeWarning, HERE, line)]
    assert str(record[0].message).startswith(
        f"autograph.function 'f': random.random at {HERE}:{line + 2} "
        f"(`return x + random.random() + PYTHON_RNG.random()`) runs while tracing")
    assert str(record[1].message).endswith(
        "the Random 'PYTHON_RNG' drew numbers while tracing, so they are constants of the graph "
        "and every call returns the same ones. For new numbers on each call, draw them outside "
        "the function and pass them as an argument (f(x, PYTHON_RNG.random())).")
    assert random.random is random_random


def test_a_generator_that_does_not_draw_does_not_warn():
    @ag.function
    def f(x):
        return x if RNG.bit_generator is not None else None  # read, never drawn from

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        f(np.ones(2))


def test_np_random_is_itself_again_after_a_trace():
    normal = np.random.normal
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ag.function(noisy)(np.ones(2))
    assert np.random.normal is normal


def test_np_random_watch_is_per_thread_and_nests():
    import threading

    from autograph.runtime.backends.numpy_graph import captures

    normal = np.random.normal
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        with captures.watch_random("outer"):
            with captures.watch_random("inner"):
                pass
            other = threading.Thread(target=np.random.normal)  # not tracing: no warning
            other.start()
            other.join()
            np.random.normal()  # this thread still traces "outer"
    assert [str(w.message).split(":")[0] for w in record] == ["autograph.function 'outer'"]
    assert np.random.normal is normal


def test_np_random_outside_a_trace_does_not_warn():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        noisy(np.ones(2))
        ag.run_functions_eagerly(True)
        try:
            ag.function(noisy)(np.ones(2))
        finally:
            ag.run_functions_eagerly(False)


# --- functions that cannot be graphs --------------------------------------------------------


def test_generator_function_is_refused():
    def gen(x):
        for i in range(3):
            yield x + i

    with pytest.raises(TypeError) as info:
        ag.function(gen)
    assert str(info.value) == (
        "autograph.function: test_generator_function_is_refused.<locals>.gen is a generator "
        "function; a graph returns its results at once and cannot yield them one by one. "
        "Return the values instead (collect them in a list and return np.stack(values)).")


def test_coroutine_function_is_refused_saying_why():
    async def fetch(x):
        return x

    with pytest.raises(TypeError) as info:
        ag.function(fetch)
    assert str(info.value) == (
        "autograph.function: test_coroutine_function_is_refused_saying_why.<locals>.fetch is a "
        "coroutine function (async def); a graph runs to its end in one call, with no event loop, "
        "and cannot await. Make it a plain def: await what it needs outside, and pass the results "
        "in as arguments.")


def test_graph_text_is_a_string():
    @ag.function
    def f(x):
        return x + 1

    text = str(f.get_concrete_function(np.ones(2)).graph)
    assert isinstance(text, str) and text.startswith("graph f(x: float64[2]) -> float64[2]\n")
    assert hasattr(text, "_repr_html_")
