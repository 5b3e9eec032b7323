"""Converted closures of one function (a factory's), each given to ``torch.compile``:
each runs its own program, as eager PyTorch and ``torch.compile`` of the unconverted
closures do. (Dynamo keeps programs per code object and does not guard what a
non-strict region reads: the second closure ran the first one's program, a silent
wrong value, found by the real-code corpus's harness.)"""

import torch

import autograph as ag


def make(k):
    def scaled(x):
        if x > 0:
            return x * k
        return x - k
    return scaled


def test_each_closure_runs_its_own_program():
    x = torch.tensor(3.0, dtype=torch.float64)
    compiled = [torch.compile(ag.convert(make(k)), fullgraph=True, backend="aot_eager")
                for k in (2.0, 10.0)]
    assert [c(x).item() for c in compiled] == [6.0, 30.0]
    assert [c(-x).item() for c in compiled] == [-5.0, -13.0]
