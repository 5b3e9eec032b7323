"""PyTorch to ONNX (issue 28): ``torch.onnx.export(..., dynamo=True)`` of a converted
module puts its data-dependent ``if`` and ``while`` in the ONNX graph as ``If`` and
``Loop``, and onnxruntime runs that graph to the eager result on inputs that take each
branch and different trip counts (the graph is not specialised to the example input).
Needs onnx, onnxscript (PyTorch's exporter) and onnxruntime: a missing one is an error."""

from __future__ import annotations

import numpy as np
import onnx
import onnxruntime
import torch

import autograph as ag


class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = torch.nn.Linear(4, 4)

    def forward(self, x):
        if x.mean() > 0:
            y = self.lin(x)
        else:
            y = x * 2
        steps = 0
        while y.abs().sum() < 100:
            y = y * 1.5 + 1
            steps += 1
        return y, steps


def _op_types(graph, found):
    """Every node's op type in ``graph`` and in the graphs its nodes hold (If, Loop)."""
    for node in graph.node:
        found.add(node.op_type)
        for attribute in node.attribute:
            for inner in ([attribute.g] if attribute.HasField("g") else []) + list(attribute.graphs):
                _op_types(inner, found)
    return found


def test_onnx_export_has_if_and_loop_and_runs_to_the_eager_result(tmp_path):
    torch.manual_seed(0)
    m = ag.convert(Net()).eval()
    x = torch.arange(4.0) + 1
    path = tmp_path / "net.onnx"
    torch.onnx.export(m, (x,), dynamo=True, verbose=False).save(str(path))
    model = onnx.load(str(path))
    assert {"If", "Loop"} <= _op_types(model.graph, set())
    session = onnxruntime.InferenceSession(str(path), providers=["CPUExecutionProvider"])
    name = session.get_inputs()[0].name
    steps_seen, branches_seen = set(), set()
    for value in (x, -x, x * 100, -x / 1000):
        expected_y, expected_steps = Net.forward(m, value)
        got_y, got_steps = session.run(None, {name: value.numpy()})
        np.testing.assert_allclose(got_y, expected_y.detach().numpy(), rtol=1e-5, atol=1e-5)
        assert int(got_steps) == expected_steps
        steps_seen.add(expected_steps)
        branches_seen.add(bool(value.mean() > 0))
    assert branches_seen == {True, False} and 0 in steps_seen and len(steps_seen) >= 3
