"""What crosses the boundary of a converted function that code ``torch.compile`` reads
calls (``backends/torch/region_boundary.py``): ``None`` in, ``None``, strings and NumPy
values out, as eagerly, in one graph with no break; a NumPy array or scalar in is a
StagingError naming the argument and the line. And two writes the torch backend
computes as eager PyTorch does: a parameter rebound before a staged write, a NumPy
array updated in place by a staged Python number."""

from __future__ import annotations

import collections
import dataclasses
import inspect
from typing import Optional

import numpy as np
import pytest
import torch

import autograph as ag


def _caller(converted):
    def caller(t, *args):  # the region between two tensor operations of the caller's
        t = t + 1
        return t * 2, converted(*args)
    return caller


def _one_graph(converted, *args):
    """Explained: one graph, no break; then compiled (fullgraph): the region's value."""
    torch._dynamo.reset()
    explained = torch._dynamo.explain(_caller(converted))(torch.ones(2), *args)
    assert (explained.graph_count, explained.break_reasons) == (1, []), \
        [str(r.reason) for r in explained.break_reasons]
    compiled = torch.compile(_caller(converted), fullgraph=True, backend="aot_eager")
    return compiled(torch.ones(2), *args)[1]


def add_unless_none(x, y, k):
    if y is None:
        return x + k
    return x + y


def test_none_given_to_a_converted_function():
    converted = ag.convert(add_unless_none)
    for x in (torch.arange(3.0), -torch.arange(3.0)):
        out = _one_graph(converted, x, None, 2.5)
        torch.testing.assert_close(out, add_unless_none(x, None, 2.5))


def many_kinds(x, n):
    if x.sum() > 0:  # a staged if beside them
        x = x * n
    return x, None, "done", np.float32(1.5), np.arange(3), {"k": None}


def test_none_strings_and_numpy_values_returned():
    converted = ag.convert(many_kinds)
    for x in (torch.arange(3.0), -torch.arange(3.0)):
        out, expected = _one_graph(converted, x, 2), many_kinds(x, 2)
        torch.testing.assert_close(out[0], expected[0])
        assert out[1:3] == (None, "done") and out[5] == {"k": None}
        assert type(out[3]) is np.float32 and out[3] == expected[3]
        assert type(out[4]) is np.ndarray and out[4].dtype == expected[4].dtype
        np.testing.assert_array_equal(out[4], expected[4])


Pair = collections.namedtuple("Pair", "a b")


def nested_pairs(x):
    if x.sum() > 0:
        x = x * 2
    return Pair(x, {"rest": [x + 1, Pair(x[0], 3.0)]})


def test_namedtuples_returned():
    """Dynamo's own rebuild of a region's output (``tree_unflatten``, traced) fails on a
    namedtuple and gives up on the caller's frame (no graph at all): ours rebuilds it."""
    converted = ag.convert(nested_pairs)
    for x in (torch.arange(3.0), -torch.arange(3.0)):
        out, expected = _one_graph(converted, x), nested_pairs(x)
        assert type(out) is Pair and type(out.b["rest"][1]) is Pair
        torch.testing.assert_close(out, expected)


@dataclasses.dataclass
class Output:  # a model's output record, as transformers' ModelOutput (not registered)
    logits: torch.Tensor
    loss: Optional[torch.Tensor] = None
    extra: tuple = ()


@dataclasses.dataclass(frozen=True)
class Scores:
    best: torch.Tensor
    steps: int


def dataclass_outputs(x, labels):
    if x.sum() > 0:
        x = x * 2
    loss = None if labels is None else ((x - labels) ** 2).mean()
    return Output(x, loss, (Scores(x.max(), 3),)), [Scores(x.min(), 1)]


def test_dataclasses_returned():
    """An unregistered dataclass came out as one pytree leaf: dynamo's "SourcelessBuilder
    does not know how to wrap" (the unconverted code compiles)."""
    converted = ag.convert(dataclass_outputs)
    for x in (torch.arange(3.0), -torch.arange(3.0)):
        for labels in (None, torch.ones(3)):
            out, expected = _one_graph(converted, x, labels), dataclass_outputs(x, labels)
            assert type(out[0]) is Output and type(out[0].extra[0]) is Scores
            torch.testing.assert_close(dataclasses.astuple(out[0]),
                                       dataclasses.astuple(expected[0]))
            torch.testing.assert_close(dataclasses.astuple(out[1][0]),
                                       dataclasses.astuple(expected[1][0]))


def sizes_from_values(x):
    kept = x[x > 0]  # a size only the run knows
    n = (x > 1).sum().item()  # a number only the run knows
    return kept.sum() * n


def test_sizes_and_items_only_the_run_knows_in_one_graph():
    """Without ``fullgraph=True`` dynamo breaks the graph at a ``nonzero`` or an ``.item()``
    of code it reads; a region goes into the graph whole, traced as under fullgraph (by
    dynamo and by AOTAutograd: compiled without fullgraph too)."""
    converted = ag.convert(sizes_from_values)
    compiled = torch.compile(_caller(converted), backend="aot_eager")
    for x in (torch.arange(4.0), -torch.arange(4.0)):
        torch.testing.assert_close(_one_graph(converted, x), sizes_from_values(x))
        torch.testing.assert_close(compiled(torch.ones(2), x)[1], sizes_from_values(x))


def test_a_numpy_array_given_to_a_converted_function_is_refused():
    converted = ag.convert(add_unless_none)

    def caller(x, a):
        return converted(x, a, 1)

    line = inspect.getsourcelines(caller)[1] + 1
    with pytest.raises(ag.StagingError) as info:
        torch.compile(caller, fullgraph=True, backend="aot_eager")(torch.ones(3), np.ones(3))
    assert str(info.value) == (
        f"the converted function 'add_unless_none' is given a NumPy array or scalar (argument "
        f"2) at {__file__}:{line} (`return converted(x, a, 1)`), code torch.compile traces, "
        f"which holds it as a tensor: the function would run its NumPy code on a tensor "
        f"PyTorch traces. Pass torch.as_tensor(value) (a Python number for a scalar), or "
        f"call the converted function outside the compiled code.")
    # without fullgraph: a graph break, the call run eagerly
    out = torch.compile(caller, backend="aot_eager")(torch.ones(3), np.ones(3))
    torch.testing.assert_close(out, add_unless_none(torch.ones(3), np.ones(3), 1))


def rebound_then_written(v):
    v = v.clone()
    if v.sum() > 0:
        v[0] = 1
    return v


def written(v):
    if v.sum() > 0:
        v[0] = 1
    return v


@pytest.mark.parametrize("strict", [False, True])
def test_a_parameter_rebound_before_a_staged_write_is_no_argument_write(strict):
    class Program(torch.nn.Module):
        def forward(self, x):
            return rebound_then_written(x)

    ag.convert(rebound_then_written)
    program = torch.export.export(ag.convert(Program()), (torch.arange(3.0),),
                                  strict=strict).module()
    for x in (torch.arange(3.0), -torch.arange(3.0) - 1):
        given = x.clone()
        torch.testing.assert_close(program(x), rebound_then_written(x.clone()))
        torch.testing.assert_close(x, given)  # as eagerly, the caller's tensor is unchanged
    with pytest.raises(ag.StagingError, match="'v' is an argument of written()"):
        torch.compile(ag.convert(written), fullgraph=True, backend="aot_eager")(torch.ones(3))


def counted_into_an_array(x):
    n = 0
    while x > n:  # n: a Python int eagerly, staged here
        n += 1
    v = np.ones(3, np.float32)
    v += n
    return v


def test_a_numpy_array_updated_in_place_by_a_staged_python_number():
    compiled = torch.compile(ag.convert(counted_into_an_array), fullgraph=True,
                             backend="aot_eager")
    for x in (torch.tensor(2.5), torch.tensor(-1.0)):
        out, expected = compiled(x), counted_into_an_array(x)
        assert type(out) is np.ndarray and out.dtype == np.float32
        np.testing.assert_array_equal(out, expected)


class Scaled(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = torch.nn.Linear(4, 4)

    def forward(self, x, scale=None):
        if x.mean() > 0:
            x = self.lin(x)
        return (x if scale is None else x * scale), None


def test_a_module_returning_none_keeps_its_parameters_gradients():
    torch.manual_seed(0)
    m = ag.convert(Scaled())
    c = torch.compile(m, fullgraph=True, backend="aot_eager")
    x = torch.arange(4.0) + 1
    out, nothing = c(x)
    out.sum().backward()
    grad, m.lin.weight.grad = m.lin.weight.grad, None
    Scaled.forward(m, x)[0].sum().backward()
    assert nothing is None
    torch.testing.assert_close(grad, m.lin.weight.grad)


SCALE = 2.0
MODE = "a"


def scaled_by_globals(x):
    x = x * SCALE
    if MODE == "b":
        x = x - 100
    if x.sum() > 0:
        x = x + 1
    return x


def test_globals_changed_after_a_compile_are_read_again():
    """PyTorch does not guard what a non-strict region reads: the compiled converted
    function kept ``SCALE`` as its first compile saw it (silently). Dynamo now guards on
    the Python constants of the module's globals the function reads."""
    global SCALE, MODE
    converted = ag.convert(scaled_by_globals)
    for caller in (converted, _caller(converted)):
        torch._dynamo.reset()
        SCALE, MODE = 2.0, "a"
        run = torch.compile(caller, fullgraph=True, backend="aot_eager")
        args = (torch.ones(2),) if caller is converted else (torch.ones(2), torch.ones(2))
        try:
            for scale, mode in ((2.0, "a"), (5.0, "a"), (5.0, "b")):
                SCALE, MODE = scale, mode
                got = run(*args)
                got = got if caller is converted else got[1]
                assert torch.equal(got, scaled_by_globals(torch.ones(2))), (scale, mode)
        finally:
            SCALE, MODE = 2.0, "a"
