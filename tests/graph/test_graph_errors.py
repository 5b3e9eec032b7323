"""Error messages of the graph engine, pinned exactly."""

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


def test_loop_variable_changes_dtype():
    def f(x):
        acc = np.array(0, np.int64)
        while acc < x:
            acc = acc / 2 + 1
        return acc

    with pytest.raises(StagingError) as info:
        ag.function(f)(np.array(5))
    line = line_of(f, "while acc")
    assert str(info.value) == (
        f"while loop at {HERE}:{line} (`while acc < x:`): 'acc' is int64[] before the loop but "
        f"float64[] after one iteration; a staged loop must keep each variable's type and shape. "
        f"Give 'acc' its final dtype and shape before the loop (e.g. with astype).")


def test_loop_variable_changes_shape():
    def f(x):
        while x.sum() < 100:
            x = np.concatenate([x, x])
        return x

    with pytest.raises(StagingError, match=r"'x' is float64\[1\] before the loop but "
                                           r"float64\[2\] after one iteration"):
        ag.function(f)(np.array([1.0]))


def test_shapes_may_vary_where_declared_unknown():
    @ag.function(input_signature=[ag.TensorSpec((None,), np.float64)])
    def f(x):
        while x.sum() < 100:
            x = np.concatenate([x, x])
        return x

    assert f(np.array([1.0])).shape == (128,)
    assert f(np.array([30.0, 40.0])).shape == (4,)


def test_variable_first_defined_in_loop():
    def f(x):
        for v in x:
            last = v
        return last

    with pytest.raises(StagingError) as info:
        ag.function(f)(np.array([1.0, 2.0]))
    line = line_of(f, "for v in x")
    assert str(info.value) == (
        f"for loop at {HERE}:{line} (`for v in x:`): 'last' is first assigned inside the loop and "
        f"used after it, but the loop runs in the graph, where it may run zero times. Assign "
        f"'last' before the loop.")


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


def test_branches_with_different_dtypes():
    def f(x):
        if x > 0:
            y = x
        else:
            y = np.int32(1)
        return y

    with pytest.raises(StagingError, match=r"'y' is float64\[\] in the true branch but "
                                           r"int32\[\] in the false branch"):
        ag.function(f)(np.array(1.0))


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

    with pytest.warns(ag.runtime.graph.RetracingWarning) as record:
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


def test_return_values_that_differ_are_called_the_return_value():
    def f(x):
        if x > 0:
            return x
        return (x, x)

    with pytest.raises(StagingError) as info:
        ag.function(f)(np.float32(1.0))
    line = line_of(f, "if x > 0")
    assert str(info.value) == (
        f"if statement at {HERE}:{line} (`if x > 0:`): the return value is float32[] in the true "
        f"branch but a tuple in the false branch; a staged condition needs the same type and "
        f"structure on both sides. Convert one side so they match.")


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
    name = HERE.rsplit("/", 1)[-1]
    made, used = line_of(f, "_HOLDER[0] = x + 1"), line_of(f, "return _HOLDER[0] * 2")
    assert str(info.value) == (
        f"autograph.function: t4 (float32[]), computed inside a branch or loop body at "
        f"{name}:{made} (`_HOLDER[0] = x + 1`), is used after it at {name}:{used} "
        f"(`return _HOLDER[0] * 2`). A value that leaves a staged if/while/for must be assigned "
        f"there to a variable or an attribute, not stored in a container or by a method call.")


def test_captured_variable_defined_in_one_branch_points_at_the_if():
    def f(x):
        if x > 0:
            y = x
        g = lambda: y
        return g()

    with pytest.raises(StagingError) as info:
        ag.function(f)(np.array(1.0))
    line = line_of(f, "if x > 0")
    assert str(info.value) == (
        f"if statement at {HERE}:{line} (`if x > 0:`): 'y' is assigned in the true branch but "
        f"not in the false branch, and the condition is a staged value, so both branches run in "
        f"the graph. Assign 'y' before the if statement, or in both branches.")


def test_different_python_objects_in_each_branch():
    def f(x):
        if x > 0:
            def h(v):
                return v + 1
        else:
            def h(v):
                return v - 1
        return h(x)

    with pytest.raises(StagingError) as info:
        ag.function(f)(np.array(1.0))
    line = line_of(f, "if x > 0")
    assert str(info.value) == (
        f"if statement at {HERE}:{line} (`if x > 0:`): 'h' is a different Python function in "
        f"each branch, and the condition is a staged value: a graph chooses between arrays, not "
        f"between Python objects. Make that choice with a Python condition, or compute an array "
        f"in both branches.")


def test_a_list_grown_in_a_staged_loop_is_named():
    def f(x):
        out = []
        i = 0
        while i < x:
            out.append(i)
            i += 1
        return out

    with pytest.raises(StagingError) as info:
        ag.function(f)(np.int32(3))
    line = line_of(f, "while i < x")
    assert str(info.value) == (
        f"while loop at {HERE}:{line} (`while i < x:`): 'out' is a list of 0 items before the "
        f"loop but 1 after one iteration; a staged loop cannot change a list's length (it runs "
        f"as one graph op). Write into an array made before the loop instead (out = "
        f"np.zeros(n); out[i] = v), or loop over a Python range so the loop unrolls.")
