"""An ``if`` on a tensor whose branches only pick values, or compute cheap scalar ops,
is a ``torch.where`` of both sides (cheaper than ``cond``); a branch that could fail
when the program runs, or whose gradient on the side not taken could be NaN, stays a
``cond``: the compiled function gives what eager PyTorch gives on either side."""

from __future__ import annotations

import torch

import autograph as ag


def _compile(fn):
    return torch.compile(ag.convert(fn), fullgraph=True, backend="aot_eager")


def quotient(n, d):
    if d != 0:
        q = n // d  # integer division by zero fails when it runs: never on both sides
    else:
        q = n * 0
    return q


def root(x):
    if x > 0:
        y = torch.sqrt(x)  # its gradient at x < 0 is NaN: where would pass NaN on
    else:
        y = x * 0.0
    return y


def test_a_branch_that_could_fail_when_it_runs_is_not_run_on_both_sides():
    compiled = _compile(quotient)
    for n, d in ((7, 2), (7, 0)):
        n, d = torch.tensor(n), torch.tensor(d)
        assert torch.equal(compiled(n, d), quotient(n, d))


def test_gradients_on_the_side_not_taken_are_not_nan():
    compiled = _compile(root)
    for value in (4.0, -1.0):
        x = torch.tensor(value, requires_grad=True)
        (grad,) = torch.autograd.grad(compiled(x), x)
        eager_x = torch.tensor(value, requires_grad=True)
        (expected,) = torch.autograd.grad(root(eager_x), eager_x)
        assert torch.equal(grad, expected)
