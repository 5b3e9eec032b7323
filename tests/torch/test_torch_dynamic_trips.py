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
