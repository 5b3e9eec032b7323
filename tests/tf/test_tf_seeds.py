"""The TensorFlow examples of the seeds (../shared/seeds), as written but with our
converter in place of TensorFlow's AutoGraph: ``tf.function(ag.convert(f),
autograph=False)``. Each result is compared with eager TensorFlow; printed output
with what the seeds describe (a plain ``print`` once per trace, ``tf.print`` at every
run)."""

import sys

import numpy as np
import pytest
import tensorflow as tf

import autograph as ag


def staged(fn):
    return tf.function(ag.convert(fn), autograph=False)


def same(eager, graph):
    np.testing.assert_array_equal(np.asarray(graph), np.asarray(eager))
    assert graph.dtype == eager.dtype


def function_to_get_faster(x, y, b):
    x = tf.matmul(x, y)
    x = x + b
    return x


def test_a_function_that_uses_a_graph():
    args = tf.constant([[1.0, 2.0]]), tf.constant([[2.0], [3.0]]), tf.constant(4.0)
    same(function_to_get_faster(*args), staged(function_to_get_faster)(*args))


def inner_function(x, y, b):
    return tf.matmul(x, y) + b


def outer_function(x):
    y = tf.constant([[2.0], [3.0]])
    b = tf.constant(4.0)
    return inner_function(x, y, b)


def test_functions_called_from_a_graph_are_traced_too():
    x = tf.constant([[1.0, 2.0]])
    same(outer_function(x), staged(outer_function)(x))


def my_function(x):
    if tf.reduce_sum(x) <= 1:
        return x * x
    else:
        return x - 1


def test_flow_control_takes_both_branches():
    a_function = staged(my_function)
    for x in (tf.constant(1.0), tf.constant([5.0, 5.0])):
        same(my_function(x), a_function(x))
    assert a_function(tf.constant(1.0)).numpy() == 1.0
    np.testing.assert_array_equal(a_function(tf.constant([5.0, 5.0])).numpy(), [4.0, 4.0])


def test_print_once_per_trace_tf_print_every_run(capfd):
    def f(x):
        print("Traced with", x)
        tf.print("Executed with", x)
        ag.print("Printed with", x)

    g = staged(f)
    g(1)
    g(1)
    printed = capfd.readouterr()
    assert printed.out == "Traced with 1\nPrinted with 1\nPrinted with 1\n"
    assert printed.err.count("Executed with 1\n") == 2  # tf.print's stream: standard error


def test_iterator_advances_only_while_tracing(capfd):
    var = tf.Variable(0)

    def side_effect(iterator):
        var.assign_add(next(iterator))
        tf.print("Value of variable:", var, output_stream=sys.stdout)

    g = staged(side_effect)
    iterator = iter([0, 1, 2, 3])
    for _ in range(3):
        g(iterator)
    assert capfd.readouterr().out == "Value of variable: 0\n" * 3


def test_polymorphic_function_retraces_per_dtype(capfd):
    def poly_func(a):
        print("Tracing with", a)
        return a

    g = staged(poly_func)
    assert g(tf.constant(1)).numpy() == 1
    assert g(tf.constant(1.1)).numpy() == np.float32(1.1)
    assert g(tf.constant("a")).numpy() == b"a"
    assert g(tf.constant(3.6)).numpy() == np.float32(3.6)
    out = capfd.readouterr().out.splitlines()
    assert out == ['Tracing with Tensor("a:0", shape=(), dtype=int32)',
                   'Tracing with Tensor("a:0", shape=(), dtype=float32)',
                   'Tracing with Tensor("a:0", shape=(), dtype=string)']
    polyfunc_int = g.get_concrete_function(tf.constant(3))
    assert polyfunc_int(tf.constant(5)).numpy() == 5
    with pytest.raises((tf.errors.InvalidArgumentError, TypeError)):
        polyfunc_int(tf.constant(7.4))


def sum_even(items):
    s = 0
    for c in items:
        if c % 2 > 0:
            continue
        s += c
    return s


def test_sum_even():
    items = tf.constant([10, 12, 15, 20])
    same(sum_even(items), staged(sum_even)(items))


def test_debugging_runs_the_converted_function_eagerly():
    def f(x):
        if x > 0:
            x = x + 1
        return x

    g = staged(f)
    tf.config.run_functions_eagerly(True)
    try:
        assert g(tf.constant(1)).numpy() == 2
    finally:
        tf.config.run_functions_eagerly(False)
    assert g(tf.constant(1)).numpy() == 2
    assert g(tf.constant(-1)).numpy() == -1


def test_each_tf_function_traces_again(capfd):
    def f():
        print("Tracing!")
        tf.print("Executing")

    staged(f)()
    staged(f)()
    printed = capfd.readouterr()
    assert printed.out == "Tracing!\nTracing!\n"
    assert printed.err.count("Executing\n") == 2


class SequentialModel(tf.keras.Model):
    """The seeds' model of many small layers (fewer of them here)."""

    def __init__(self, num_layers=10, **kwargs):
        super().__init__(**kwargs)
        self.flatten = tf.keras.layers.Flatten()
        self.my_layers = [tf.keras.layers.Dense(16, activation="relu") for _ in range(num_layers)]
        self.dropout = tf.keras.layers.Dropout(0.2)
        self.dense_2 = tf.keras.layers.Dense(10)

    def call(self, x):
        x = self.flatten(x)
        for layer in self.my_layers:
            x = layer(x)
        x = self.dropout(x)
        x = self.dense_2(x)
        return x


def test_a_model_of_many_small_layers():
    input_data = tf.random.uniform([4, 28, 28], seed=1)
    eager_model = SequentialModel()
    expected = eager_model(input_data)
    graph_model = ag.convert(eager_model)
    graph_model.call = tf.function(graph_model.call, autograph=False)
    np.testing.assert_allclose(graph_model(input_data).numpy(), expected.numpy(), rtol=1e-6)


# -- seed 000: a function that builds its constants and a variable (its `A` a typo)


def mul():
    a = tf.constant([[10, 10], [11., 1.]])
    x = tf.constant([[1., 0.], [0., 1.]])
    b = tf.Variable(12.)
    y = tf.matmul(A, x) + b  # noqa: F821 - the seed's typo: a NameError both ways
    return y


def test_the_seeds_mul_as_written_raises_its_name_error():
    for fn in (mul, staged(mul)):
        with pytest.raises(NameError, match="name 'A' is not defined"):
            fn()


# -- seed 001: a tf.Variable made in the function; its three fixes


def makes_a_variable():
    a = tf.constant([[10, 10], [11., 1.]])
    x = tf.constant([[1., 0.], [0., 1.]])
    b = tf.Variable(12.)
    y = tf.matmul(a, x) + b
    print("PRINT: ", y)
    tf.print("TF-PRINT: ", y)
    return y


def test_a_variable_made_on_every_call_fails_as_under_tensorflows_autograph(capfd):
    np.testing.assert_array_equal(makes_a_variable().numpy(), [[22., 22.], [23., 13.]])
    capfd.readouterr()
    for graph in (tf.function(makes_a_variable), staged(makes_a_variable)):
        with pytest.raises(ValueError, match="tf.function only supports singleton "
                                             "tf.Variables created on the first call"):
            graph()
        assert capfd.readouterr().out == 'PRINT:  Tensor("add:0", shape=(2, 2), dtype=float32)\n'


_b = None


def made_once_global():
    a = tf.constant([[10, 10], [11., 1.]])
    x = tf.constant([[1., 0.], [0., 1.]])
    global _b
    if _b is None:
        _b = tf.Variable(12.)
    return tf.matmul(a, x) + _b


class MadeOnce:
    def __init__(self):
        self._b = None

    def __call__(self):
        a = tf.constant([[10, 10], [11., 1.]])
        x = tf.constant([[1., 0.], [0., 1.]])
        if self._b is None:
            self._b = tf.Variable(12.)
        return tf.matmul(a, x) + self._b


def counts(b):
    b.assign_add(1)
    return b


def test_a_variable_made_once_or_passed_in():
    global _b
    _b = None
    for fn in (staged(made_once_global), tf.function(ag.convert(MadeOnce()), autograph=False)):
        for _ in range(2):
            np.testing.assert_array_equal(fn().numpy(), [[22., 22.], [23., 13.]])
    b = tf.Variable(0)
    g = staged(counts)
    assert [int(g(b)) for _ in range(3)] == [1, 2, 3]


# -- seed 002: a decorated function, a callable made a Function, a whole model


def constants(x):
    a = tf.constant([[2.0], [3.0]])
    b = tf.constant(4.0)
    return a + b


def callable_func(a, b):
    return tf.matmul(a, b)


def test_decorated_and_callable_functions():
    same(constants(2), staged(constants)(2))
    a1, b1 = tf.constant([[1.0, 2.0]]), tf.constant([[2.0], [3.0]])
    got = staged(callable_func)(a1, b1)
    same(callable_func(a1, b1), got)
    np.testing.assert_array_equal(got.numpy(), [[8.0]])


def test_the_model_itself_made_a_function():
    input_data = tf.random.uniform([6, 28, 28], seed=2)
    eager_model = SequentialModel(num_layers=2)
    expected = eager_model(input_data)
    graph_model = tf.function(ag.convert(eager_model), autograph=False)
    np.testing.assert_allclose(graph_model(input_data).numpy(), expected.numpy(), rtol=1e-6)


def test_concrete_signatures_as_tensorflows():
    def poly_func(a):
        return a

    ours, theirs = staged(poly_func), tf.function(poly_func)
    for g in (ours, theirs):
        for v in (tf.constant(1), tf.constant(1.1), tf.constant("a")):
            g(v)
    assert ours.pretty_printed_concrete_signatures() == \
        theirs.pretty_printed_concrete_signatures()
