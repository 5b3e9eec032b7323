"""The autograph.function object: cache keys, specs, kwargs, methods, nesting."""

import numpy as np

import autograph as ag

from python_values import Scale


def test_python_function_and_kwargs():
    def f(x, scale=2.0, *, shift=0):
        return x * scale + shift

    g = ag.function(f)
    assert g.python_function is f
    assert g(np.array(1.0)) == 2.0
    assert g(np.array(1.0), shift=1) == 3.0
    assert g(x=np.array(1.0), scale=3.0) == 3.0
    assert g.experimental_get_tracing_count() == 3


def test_concrete_function_from_a_spec_serves_matching_arrays():
    @ag.function
    def f(x):
        return x.sum()

    concrete = f.get_concrete_function(ag.TensorSpec((None,), np.float64))
    assert concrete(np.ones(3)) == 3.0
    assert f(np.ones(7)) == 7.0
    assert f(np.ones(2)) == 2.0
    assert f.experimental_get_tracing_count() == 1


def test_arrays_key_by_dtype_and_shape():
    @ag.function
    def f(x):
        return x + 1

    f(np.ones(2))
    f(np.zeros(2))
    f(np.float64(3))
    f(np.array(3.0))
    f(np.ones(2, np.float32))
    f(np.ones(3))
    # a NumPy scalar and a 0-d array are traced apart: an in-place operator changes the
    # array for the caller and rebinds the scalar (tests/conformance/test_zero_d_arguments)
    assert f.experimental_get_tracing_count() == 5


def test_outputs_keep_their_structure_and_are_arrays():
    @ag.function
    def f(x):
        return {"sum": x.sum(), "parts": [x[0], (x * 2,)], "name": "f"}

    out = f(np.arange(3.0))
    assert isinstance(out["sum"], np.ndarray) and out["sum"].shape == ()
    assert isinstance(out["parts"], list) and isinstance(out["parts"][1], tuple)
    assert out["name"] == "f"


def test_calling_one_function_from_another_inlines_it():
    @ag.function
    def inner(x):
        if x.sum() > 0:
            x = x * 2
        return x

    @ag.function
    def outer(x):
        return inner(x) + 1

    np.testing.assert_array_equal(outer(np.ones(2)), [3.0, 3.0])
    assert inner.experimental_get_tracing_count() == 0
    assert "cond" in str(outer.get_concrete_function(np.ones(2)).graph)


def test_variable_argument_and_list_of_arrays():
    @ag.function
    def f(v, xs):
        for x in xs:
            v.assign_add(x.sum())
        return v.read_value()

    v = ag.Variable(0.0)
    assert f(v, [np.ones(2), np.ones(3)]) == 5.0
    assert f(v, [np.ones(2), np.ones(3)]) == 10.0
    assert f.experimental_get_tracing_count() == 1


def test_the_fast_path_of_array_calls_keeps_every_check():
    """A call whose arguments are all arrays is looked up by class, dtype and shape; an
    object that has a dtype and a shape but is a Python value is still keyed by its
    value, a Variable by its dtype and shape, and an input_signature still checks."""

    @ag.function
    def scaled(x, s):
        return x * s.k

    x = np.ones(2)
    for k in (2.0, 3.0, 2.0):
        np.testing.assert_array_equal(scaled(x, Scale(k)), [k, k])
    assert scaled.experimental_get_tracing_count() == 2

    @ag.function
    def add(x, v):
        v.assign_add(x.sum())
        return v.read_value()

    v, w = ag.Variable(0.0), ag.Variable(10.0)
    assert [add(x, v), add(x, w), add(x, v)] == [2.0, 12.0, 4.0]
    assert add.experimental_get_tracing_count() == 1

    @ag.function(input_signature=[ag.TensorSpec([None], np.float64)])
    def total(x):
        return x.sum()

    assert total(np.ones(3)) == 3.0 and total(np.ones(3)) == 3.0
    for wrong, error in ((np.ones(3, np.int64), TypeError), (np.ones((1, 3)), ValueError)):
        try:
            total(wrong)
        except error:
            pass
        else:
            raise AssertionError(f"{wrong!r} was accepted")
