"""PyTorch: models in bfloat16 and float16 (mixed precision, LLM weights) with Python
control flow on their tensors, compiled and exported, equal to eager. NumPy has no
bfloat16: the staging core carries it as ml_dtypes' (``tensors.np_dtype``), and a Python
number joined with or carried into one takes its type as eagerly (``state.kind_of``)."""

from __future__ import annotations

import pytest
import torch

import autograph as ag


class Halving(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = torch.nn.Linear(4, 4)

    def forward(self, x):
        y = 0.0                      # a Python float joined with a low-precision tensor
        if x.mean() > 0:
            y = self.lin(x).sum()
        steps = 0
        while x.abs().max() > 0.1 and steps < 20:
            x = x * 0.5
            steps += 1
        for row in x:                # a Python float carried with a row's sum
            y = y + row.sum()
        return x, y


@pytest.mark.parametrize("dtype", [torch.bfloat16, torch.float16])
def test_low_precision_module_compiled_and_exported_equals_eager(dtype):
    torch.manual_seed(0)
    eager = Halving().to(dtype)
    converted = ag.convert(Halving().to(dtype))
    converted.load_state_dict(eager.state_dict())
    inputs = [torch.ones(2, 4, dtype=dtype), -3 * torch.ones(2, 4, dtype=dtype)]
    compiled = torch.compile(converted, fullgraph=True, backend="aot_eager")
    exported = torch.export.export(converted, (inputs[0],)).module()
    for x in inputs:
        for run in (compiled, exported):
            got = run(x)
            for want, have in zip(eager(x), got):
                assert have.dtype == want.dtype
                assert torch.equal(have, want)


def test_a_float8_tensor_staged_is_carried():
    def first_positive_scale(x):
        s = x.float()
        if s.sum() > 0:
            x = (s * 2).to(x.dtype)
        return x

    x = torch.tensor([1.0, 2.0]).to(torch.float8_e4m3fn)
    got = torch.compile(ag.convert(first_positive_scale), fullgraph=True,
                        backend="aot_eager")(x)
    assert got.dtype == torch.float8_e4m3fn
    assert torch.equal(got.float(), first_positive_scale(x).float())
