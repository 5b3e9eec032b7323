"""A StagingError raised while dynamo traces a converted function reaches the user as
itself under ``torch.compile(fullgraph=True)`` and strict ``torch.export``, with the
text the other backends give (naming the construct, the variable and the user's line),
not inside dynamo's "Unsupported output type for nonstrict_trace-ed function"."""

from __future__ import annotations

import inspect
import sys

import numpy as np
import pytest
import torch

import autograph as ag


def branch_only(x):
    if x.sum() > 0:
        y = x + 1
    return y


_LINE = inspect.getsourcelines(branch_only)[1] + 1
_EXPECTED = (f"if statement at {__file__}:{_LINE} (`if x.sum() > 0:`): 'y' is defined in the "
             f"true branch only, and the condition is a staged value, so both branches run in "
             f"the graph. Define 'y' before the if statement, or in both branches.")


class Program(torch.nn.Module):
    def forward(self, x):
        return branch_only(x)


def test_compile_fullgraph_raises_the_staging_error_itself():
    compiled = torch.compile(ag.convert(branch_only), fullgraph=True, backend="aot_eager")
    with pytest.raises(ag.StagingError) as info:
        compiled(torch.ones(3))
    assert type(info.value) is ag.StagingError and str(info.value) == _EXPECTED
    assert info.value.__suppress_context__  # not shown inside dynamo's errors


def test_compile_without_fullgraph_breaks_the_graph_there():
    """``fullgraph=False``: a construct PyTorch cannot stage is a graph break, as any code
    dynamo cannot trace, whose reason is the StagingError's text; the converted call then
    runs as Python, as eagerly (the branch the input takes, eager's UnboundLocalError
    where it takes none), dynamo never tracing autograph's runtime."""
    converted = ag.convert(branch_only)

    def caller(t, x):
        t = t + 1
        out = converted(x)
        return t * 2, out

    explained = torch._dynamo.explain(caller)(torch.ones(2), torch.ones(3))
    assert (explained.graph_count, len(explained.break_reasons)) == (2, 1)
    assert str(explained.break_reasons[0].reason).startswith(
        f"autograph: a construct PyTorch cannot stage\n  Explanation: {_EXPECTED}\n")
    compiled = torch.compile(caller, backend="aot_eager")
    assert torch.equal(compiled(torch.ones(2), torch.ones(3))[1], torch.full((3,), 2.0))
    with pytest.raises(UnboundLocalError):
        compiled(torch.ones(2), -torch.ones(3))


@pytest.mark.parametrize("strict", [False, True], ids=["nonstrict", "strict"])
def test_export_raises_the_staging_error_itself(strict):
    with pytest.raises(ag.StagingError) as info:
        torch.export.export(ag.convert(Program()), (torch.ones(3),), strict=strict)
    assert type(info.value) is ag.StagingError and str(info.value) == _EXPECTED


def adds_a_numpy_array(x):
    if x.sum() > 0:
        x = x * 2
    return x + np.ones(3)


def test_a_numpy_array_operated_with_a_traced_tensor_is_eager_pytorchs_value():
    """``t + a``: eagerly NumPy computes it (float64: NumPy's promotion) and PyTorch wraps
    the result in a tensor; compiled, PyTorch's NumPy computes the same."""
    compiled = torch.compile(ag.convert(adds_a_numpy_array), fullgraph=True,
                             backend="aot_eager")
    for x in (torch.ones(3), -torch.ones(3)):
        eager, staged = adds_a_numpy_array(x), compiled(x)
        assert staged.dtype == eager.dtype == torch.float64 and torch.equal(staged, eager)


def reads_values(x):
    if x.sum() > 0:
        x = x * 2
    return x.numpy()


def test_numpy_asking_a_traced_tensor_for_its_values_names_the_line():
    """NumPy asks a tensor PyTorch traces for its values: PyTorch's own error says only
    ".numpy() is not supported for tensor subclasses"; ours names the user's line."""
    line = inspect.getsourcelines(reads_values)[1] + 3
    compiled = torch.compile(ag.convert(reads_values), fullgraph=True, backend="aot_eager")
    with pytest.raises(ag.StagingError) as info:
        compiled(torch.ones(3))
    assert str(info.value) == (
        f"NumPy needs the values of a tensor PyTorch traces at {__file__}:{line} (`return "
        f"x.numpy()`) (.numpy(), or a NumPy function called on it by code autograph does not "
        f"convert), which a traced program does not have (torch.compile, torch.export). Make "
        f"the NumPy value a tensor first (torch.as_tensor(a)), or call the NumPy function on "
        f"the tensor itself (np.f(t) runs PyTorch's twin of it).")


def copies(x):
    y = x.copy()
    y[0] = 0.0
    return y


def raises_itself(x, n):
    if n > 0:
        raise ValueError(f"n is {n}")
    return x


def test_a_numpy_method_a_traced_tensor_lacks_names_the_line():
    """``x.copy()`` runs on a NumPy array; on the tensor dynamo traces it is an
    AttributeError, which dynamo reported as "Unsupported output type for
    nonstrict_trace-ed function" (found by the real-code corpus: a Hampel filter)."""
    compiled = torch.compile(ag.convert(copies), fullgraph=True, backend="aot_eager")
    with pytest.raises(ag.StagingError) as info:
        compiled(torch.ones(3))
    line = inspect.getsourcelines(copies)[1] + 1
    assert str(info.value).startswith(
        f"PyTorch could not trace the line at {__file__}:{line} (`y = x.copy()`): "
        f"AttributeError: 'FakeTensor' object has no attribute 'copy'. torch.compile and "
        f"torch.export run the converted function on the tensors they trace")


def test_the_programs_own_raise_is_raised_as_it_is():
    compiled = torch.compile(ag.convert(raises_itself), fullgraph=True, backend="aot_eager")
    with pytest.raises(ValueError, match="^n is 2$"):
        compiled(torch.ones(3), 2)
