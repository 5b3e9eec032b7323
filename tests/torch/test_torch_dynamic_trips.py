"""A ``for`` over a tensor whose length ``torch.compile`` keeps symbolic (``dynamic=True``,
or automatic dynamic shapes after a recompile): its first iteration runs wherever the
compiled program's guard holds (a length of at least 1), so the loop's target is
assigned after the loop, as with a static length (``Backend.runs_once``)."""

import numpy as np
import torch

import autograph as ag


def target_after_break(xs, t):
    total = xs[0] * 0
    for x in xs:
        if x > t:
            break
        total = total + x
    return total, x


def test_the_target_after_a_loop_over_a_symbolic_length():
    staged = torch.compile(ag.convert(target_after_break), fullgraph=True, backend="aot_eager",
                           dynamic=True)
    for n, t in ((4, 1.5), (6, 10.0), (5, -1.0)):
        xs = np.arange(float(n))
        total, last = staged(torch.tensor(xs), torch.tensor(t))
        assert (float(total), float(last)) == target_after_break(xs, t)


class RowSums(torch.nn.Module):
    def forward(self, x):
        t = torch.zeros(())
        for row in x:
            if row.sum() > 0:
                t = t + row.sum()
        n = 0
        while t > 1 and n < 40:
            t = t / 2
            n += 1
        return t, n


def test_a_loop_over_rows_keeps_the_length_symbolic():
    """The trip count of a loop over a tensor's rows is the symbolic length itself, not its
    value: ``dynamic=True`` compiles once for every length, and ``torch.export`` with a
    dynamic first dimension exports (it was "You marked B as dynamic but your code
    specialized it")."""
    torch.manual_seed(0)
    m = ag.convert(RowSums())
    torch._dynamo.reset()
    compiled = torch.compile(m, fullgraph=True, backend="aot_eager", dynamic=True)
    rows = torch.export.Dim("rows", min=2, max=64)
    exported = torch.export.export(m, (torch.randn(4, 3),),
                                   dynamic_shapes={"x": {0: rows}}).module()
    graphs = []
    for k in (4, 5, 9, 33):  # not 3: the width (duck sizing would tie the two)
        x = torch.randn(k, 3)
        want = RowSums()(x)
        for run in (compiled, exported):
            t, n = run(x)
            torch.testing.assert_close(t, want[0])
            assert int(n) == want[1]
        graphs.append(torch._dynamo.utils.counters["stats"]["unique_graphs"])
    assert len(set(graphs)) == 1  # no recompile after the first length
