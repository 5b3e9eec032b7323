"""``ag.function`` given PyTorch or TensorFlow tensors (issue 32, item 6): a clear
TypeError saying what to use, on the first call, before any trace (a NumPy graph
would key on each tensor object and fix its value into the graph)."""

from __future__ import annotations

import numpy as np
import pytest
import tensorflow as tf
import torch

import autograph as ag


def doubled_if_positive(x):
    if x.sum() > 0:
        return x * 2
    return -x


def _message(param, framework, type_name, compiler):
    return (f"autograph.function 'doubled_if_positive': argument '{param}' is a {framework} "
            f"tensor ({type_name}); autograph.function builds NumPy graphs and would treat it "
            f"as a constant. For {framework}, use "
            f"{compiler}(autograph.convert(doubled_if_positive)) (the converted function stages "
            f"its control flow on {framework} tensors); or pass NumPy arrays ({param}.numpy()).")


@pytest.mark.parametrize("make, framework, type_name, compiler", [
    (lambda: torch.ones(2), "PyTorch", "torch.Tensor", "torch.compile"),
    (lambda: torch.nn.Parameter(torch.ones(2)), "PyTorch", "torch.nn.parameter.Parameter",
     "torch.compile"),
    (lambda: tf.ones(2), "TensorFlow", "tensorflow.python.framework.ops.EagerTensor",
     "tf.function"),
    (lambda: tf.Variable([1.0, 2.0]), "TensorFlow",
     "tensorflow.python.ops.resource_variable_ops.ResourceVariable", "tf.function"),
])
def test_a_framework_tensor_argument_is_a_clear_error(make, framework, type_name, compiler):
    graph_fn = ag.function(doubled_if_positive)
    for _ in range(6):  # every call, never a trace (nor a retracing warning)
        with pytest.raises(TypeError) as caught:
            graph_fn(make())
        assert str(caught.value) == _message("x", framework, type_name, compiler)
    assert graph_fn.experimental_get_tracing_count() == 0
    np.testing.assert_array_equal(graph_fn(np.ones(2)), [2.0, 2.0])


def test_a_nested_framework_tensor_is_named_by_its_path():
    graph_fn = ag.function(doubled_if_positive)
    with pytest.raises(TypeError) as caught:
        graph_fn.get_concrete_function([np.ones(2), {"a": torch.ones(1)}])
    assert str(caught.value) == _message("x[1]['a']", "PyTorch", "torch.Tensor", "torch.compile")
