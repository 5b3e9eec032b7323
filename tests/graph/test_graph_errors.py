"""Error messages of the graph engine, pinned exactly (the staging errors every backend
shares are pinned in tests/conformance/test_staging_errors.py)."""

import numpy as np
import pytest

import autograph as ag
from autograph import StagingError

HERE = __file__


def line_of(fn, text):
    import inspect

    lines, start = inspect.getsourcelines(fn)
    for i, line in enumerate(lines):
        if text in line:
            return start + i
    raise AssertionError(text)


def test_variable_defined_in_one_branch():
    """The graph carries whether it was assigned; a read raises Python's error when not."""
    def f(x):
        if x > 0:
            y = x
        return y

    assert ag.function(f)(np.array(1.0)) == 1.0
    with pytest.raises(UnboundLocalError, match="cannot access local variable 'y'"):
        ag.function(f)(np.array(-1.0))


def test_shapes_may_vary_where_declared_unknown():
    @ag.function(input_signature=[ag.TensorSpec((None,), np.float64)])
    def f(x):
        while x.sum() < 100:
            x = np.concatenate([x, x])
        return x

    assert f(np.array([1.0])).shape == (128,)
    assert f(np.array([30.0, 40.0])).shape == (4,)


def test_unsupported_numpy_function():
    def f(x):
        return np.fft.hfft(x)

    with pytest.raises(TypeError) as info:
        ag.function(f)(np.array([1.0, 2.0]))
    line = line_of(f, "hfft")
    assert str(info.value) == (
        f"autograph.function: numpy.fft.hfft is not supported on symbolic tensors yet at "
        f"test_graph_errors.py:{line} (`return np.fft.hfft(x)`). Compute it outside the function "
        f"and pass the result in, or run the function eagerly with "
        f"autograph.run_functions_eagerly(True).")


def test_bool_of_tensor_without_conversion():
    def f(x):
        if x > 0:
            return x
        return -x

    with pytest.raises(TypeError, match=r"cannot be used as a Python bool while tracing"):
        ag.function(f, autograph=False)(np.array(1.0))


def test_concrete_function_rejects_other_python_value():
    @ag.function
    def f(x, n):
        return x * n

    concrete = f.get_concrete_function(np.array(1.0), 3)
    assert concrete(np.array(2.0), 3) == 6.0
    with pytest.raises(TypeError) as info:
        concrete(np.array(2.0), 4)
    assert str(info.value) == (
        "f(): argument 'n' was traced with the Python value 3, got 4. Call the "
        "autograph.function itself (which retraces for new Python values), or pass an array.")


def test_retracing_warning_names_the_argument():
    @ag.function
    def g(x, n):
        return x * n

    with pytest.warns(ag.RetracingWarning) as record:
        for i in range(6):
            g(np.array(1.0), i)
    assert str(record[0].message) == (
        "autograph.function 'g' has been traced 5 times; the last retrace was caused by "
        "argument 'n', which changed from int 3 to int 4. Tracing is slow: pass values that "
        "change as NumPy arrays, give an input_signature, or use reduce_retracing=True for "
        "changing shapes.")


def test_input_signature_rejects_wrong_dtype_and_rank():
    @ag.function(input_signature=[ag.TensorSpec((None, 2), np.float32)])
    def f(x):
        return x * 2

    assert f(np.ones((3, 2), np.float32)).shape == (3, 2)
    assert f(np.ones((5, 2), np.float32)).shape == (5, 2)
    assert f.experimental_get_tracing_count() == 1
    with pytest.raises(TypeError, match="argument 'x' must have dtype float32, got dtype float64"):
        f(np.ones((3, 2)))
    with pytest.raises(ValueError) as info:
        f(np.ones((3, 3), np.float32))
    assert str(info.value) == "f(): argument 'x' must have shape (None, 2), got shape (3, 3)."


_HOLDER = [None]


def test_a_value_escaping_a_branch_through_a_container_is_named():
    def f(x):
        _HOLDER[0] = x * 0
        if x > 0:
            _HOLDER[0] = x + 1
        return _HOLDER[0] * 2

    assert f(np.float32(3.0)) == 8.0  # fine eagerly
    with pytest.raises(StagingError) as info:
        ag.function(f)(np.float32(3.0))
    # issue 27: an item of a container reached only through a global is refused at the if
    assert str(info.value) == (
        f"if statement at {HERE}:{line_of(f, 'if x > 0:')} (`if x > 0:`): '_HOLDER[0]' "
        f"(reached through the global '_HOLDER') is changed inside it and the condition is a "
        f"staged value, so it would hold a staged value that outlives the trace. Keep the state "
        f"in a local variable (or an argument) and return it, or in an autograph.Variable.")

