"""A StagingError raised while dynamo traces a converted function reaches the user as
itself under ``torch.compile(fullgraph=True)`` and strict ``torch.export``, with the
text the other backends give (naming the construct, the variable and the user's line),
not inside dynamo's "Unsupported output type for nonstrict_trace-ed function"."""

from __future__ import annotations

import inspect

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


@pytest.mark.parametrize("strict", [False, True], ids=["nonstrict", "strict"])
def test_export_raises_the_staging_error_itself(strict):
    with pytest.raises(ag.StagingError) as info:
        torch.export.export(ag.convert(Program()), (torch.ones(3),), strict=strict)
    assert type(info.value) is ag.StagingError and str(info.value) == _EXPECTED
