"""The tf.function tutorials' examples (the seeds), rewritten for NumPy and autograph.function."""

import io
import sys

import numpy as np
import pytest

import autograph as ag


def test_branch_on_a_sum():
    @ag.function
    def my_function(x):
        if np.sum(x) <= 1:
            return x * x
        else:
            return x - 1

    assert my_function(np.array(1.0)) == 1.0
    np.testing.assert_array_equal(my_function(np.array([5.0, 5.0])), [4.0, 4.0])
    assert my_function.experimental_get_tracing_count() == 2


def test_sum_even_with_continue():
    @ag.function
    def sum_even(items):
        s = np.array(0, items.dtype)
        for c in items:
            if c % 2 > 0:
                continue
            s += c
        return s

    items = np.array([10, 12, 15, 20], np.int64)
    result = sum_even(items)
    assert result == 42 and result.dtype == np.int64
    text = str(sum_even.get_concrete_function(items).graph)
    assert text.count(" = for ") == 1  # the loop is one op


def test_polymorphic_function(capsys):
    @ag.function
    def poly_func(a):
        print("Tracing with", a)
        return a

    assert poly_func(np.array(1)) == 1
    assert poly_func(np.array(1.1)) == 1.1
    assert poly_func(np.array("a")) == "a"
    out = capsys.readouterr().out
    assert out.count("Tracing with") == 3
    assert "dtype=int64" in out and "dtype=float64" in out and "dtype=<U1" in out or "str" in out
    poly_func(np.array(3.6))  # no retrace
    assert capsys.readouterr().out == ""
    assert poly_func.experimental_get_tracing_count() == 3
    text = poly_func.pretty_printed_concrete_signatures()
    assert text.split("\n\n")[0] == (
        "poly_func(a)\n  Args:\n    a: int64 array, shape=()\n  Returns:\n"
        "    int64 array, shape=()")


def test_python_values_retrace_by_value(capsys):
    @ag.function
    def f(x):
        print("Tracing with", x)
        return x

    f(1)
    f(1)
    f(2)
    f(1.0)
    f("a")
    assert capsys.readouterr().out.count("Tracing") == 4


def test_concrete_function_rejects_a_float():
    @ag.function
    def poly_func(a):
        return a

    polyfunc_int = poly_func.get_concrete_function(np.array(3))
    assert polyfunc_int(np.array(5)) == 5
    assert polyfunc_int(a=np.array(6)) == 6
    with pytest.raises(TypeError) as info:
        polyfunc_int(np.array(7.4))
    assert str(info.value) == "poly_func(): argument 'a' must have dtype int64, got dtype float64."
    with pytest.raises(ValueError) as info:
        polyfunc_int(np.array([7, 8]))
    assert str(info.value) == "poly_func(): argument 'a' must have shape (), got shape (2,)."


def test_print_versus_ag_print(capsys):
    @ag.function
    def f(x):
        print("Traced with", x)
        ag.print("Executed with", x)

    f(1)
    f(1)
    assert capsys.readouterr().out == "Traced with 1\nExecuted with 1\nExecuted with 1\n"


def test_ag_print_goes_to_stdout_at_execution_time():
    @ag.function
    def f(x):
        ag.print("value:", x + 1)
        return x

    f(np.array([1, 2]))
    saved = sys.stdout
    sys.stdout = buffer = io.StringIO()
    try:
        f(np.array([3, 4]))
    finally:
        sys.stdout = saved
    assert buffer.getvalue() == "value: [4 5]\n"


def test_iterator_advances_once_per_trace(capsys):
    var = ag.Variable(0)

    @ag.function
    def side_effect(iterator):
        var.assign_add(next(iterator))
        ag.print("Value of variable:", var)

    iterator = iter([0, 1, 2, 3])
    side_effect(iterator)
    side_effect(iterator)
    side_effect(iterator)
    assert capsys.readouterr().out == "Value of variable: 0\n" * 3


def test_assign_add_counter_prints_1_2_3(capsys):
    @ag.function
    def f(b):
        b.assign_add(1)
        ag.print(b)

    b = ag.Variable(0)
    f(b)
    f(b)
    f(b)
    assert capsys.readouterr().out == "1\n2\n3\n"
    assert b.numpy() == 3
    other = ag.Variable(10)
    f(other)  # same signature: no retrace, updates the variable it is given
    assert other.numpy() == 11 and f.experimental_get_tracing_count() == 1


def test_captured_variable_on_self():
    class F:
        def __init__(self):
            self._b = None

        @ag.function
        def __call__(self):
            a = np.array([[10, 10], [11.0, 1.0]])
            x = np.array([[1.0, 0], [0, 1.0]])
            if self._b is None:
                self._b = ag.Variable(12.0)
            y = a @ x + self._b
            return y

    f = F()
    np.testing.assert_array_equal(f(), [[22.0, 22.0], [23.0, 13.0]])
    f._b.assign(0.0)
    np.testing.assert_array_equal(f(), [[10.0, 10.0], [11.0, 1.0]])


class Scaled:
    """The seeds' object-oriented pattern, with several instances."""

    def __init__(self, scale):
        self.scale = scale
        self._b = None

    @ag.function
    def __call__(self, x):
        if self._b is None:
            self._b = ag.Variable(np.zeros(2))
        self._b.assign_add(x * self.scale)
        return self._b + 0.0


def test_each_instance_has_its_own_function_and_variables():
    a, b = Scaled(1.0), Scaled(10.0)
    np.testing.assert_array_equal(a(np.ones(2)), [1.0, 1.0])
    np.testing.assert_array_equal(b(np.ones(2)), [10.0, 10.0])  # creates b's Variable
    np.testing.assert_array_equal(a(np.ones(2)), [2.0, 2.0])
    np.testing.assert_array_equal(b(np.full(2, 2.0)), [30.0, 30.0])
    assert a._b is not b._b
    assert a.__call__.experimental_get_tracing_count() == 1
    assert b.__call__.experimental_get_tracing_count() == 1
    assert a.__call__._function is a.__call__._function  # kept while the instance lives
    assert a.__call__._function is not b.__call__._function
    assert Scaled.__dict__["__call__"].experimental_get_tracing_count() == 0


def test_an_instance_without_weak_references_has_its_function():
    class Slotted:
        __slots__ = ("scale",)

        def __init__(self, scale):
            self.scale = scale

        @ag.function
        def times(self, x):
            return x * self.scale

    one, two = Slotted(2.0), Slotted(3.0)
    assert one.times(np.float64(1.0)) == 2.0 and two.times(np.float64(1.0)) == 3.0
    assert one.times._function is not two.times._function


def test_variable_created_on_a_non_first_trace():
    @ag.function
    def f(x):
        v = ag.Variable(1.0)
        return v + x

    assert f(1.0) == 2.0
    with pytest.raises(ValueError) as info:
        f(2.0)
    assert str(info.value) == (
        "autograph.function 'f' tried to create a Variable on a trace other than its first; it "
        "may only create variables the first time it is traced. Create the Variable outside the "
        "function (or once, guarded by a check) and use it there.")


def test_new_function_object_traces_again(capsys):
    def f():
        print("Tracing!")
        ag.print("Executing")

    ag.function(f)()
    ag.function(f)()
    assert capsys.readouterr().out == "Tracing!\nExecuting\n" * 2


def test_run_functions_eagerly(capsys):
    @ag.function
    def f(x):
        print("python print")
        return x + 1

    ag.run_functions_eagerly(True)
    try:
        assert ag.functions_run_eagerly()
        f(np.array(1))
        f(np.array(1))
    finally:
        ag.run_functions_eagerly(False)
    assert capsys.readouterr().out == "python print\n" * 2
    assert f.experimental_get_tracing_count() == 0


def test_nested_functions_are_traced_into_one_graph():
    def inner_function(x, y, b):
        x = np.matmul(x, y)
        x = x + b
        return x

    @ag.function
    def outer_function(x):
        y = np.array([[2.0], [3.0]])
        b = np.array(4.0)
        return inner_function(x, y, b)

    np.testing.assert_array_equal(outer_function(np.array([[1.0, 2.0]])), [[12.0]])


def test_method_branch_on_mean():
    class CustomModel:
        @ag.function
        def call(self, input_data):
            if np.mean(input_data) > 0:
                return input_data
            else:
                return input_data // 2

    model = CustomModel()
    np.testing.assert_array_equal(model.call(np.array([-2, -4])), [-1, -2])
    np.testing.assert_array_equal(model.call(np.array([2, 4])), [2, 4])
