"""ndarray methods a tensor has under the same name with other arguments, in converted
NumPy code on tensors ``torch.compile`` traces: ``a.take(i, 1)``, ``a.take(i, axis=0,
mode="wrap")`` and the unbound ``np.ndarray.take(a, i, axis=1)`` are NumPy's ``take``
(a tensor's ``take`` has no axis and no mode); ``a.take(i)``, which both take alike,
stays PyTorch's. Traced as AOTAutograd traces a converted function (``make_fx`` in a
compile session) and compared with the same code run on NumPy arrays."""

from __future__ import annotations

import numpy as np
import pytest
import torch
from torch.fx.experimental.proxy_tensor import make_fx

import autograph as ag


def by_position(a, i):
    return a.take(i, 1)


def wrapped(a, i):
    return a.take(i - 4, axis=0, mode="wrap") + a.take(i + 7, axis=0, mode="clip")


def unbound(a, i):
    return np.ndarray.take(a, i, axis=1, mode="clip")


def flat(a, i):
    return a.take(i)


@pytest.mark.parametrize("fn", [by_position, wrapped, unbound, flat])
def test_take_is_numpys(fn):
    a, i = np.arange(12.0).reshape(3, 4), np.array([2, 0, 1])
    tensors = torch.tensor(a), torch.tensor(i)
    with torch.compiler._compile_session_context():
        graph = make_fx(ag.convert(fn), tracing_mode="fake")(*tensors)
    out = graph(*tensors)
    np.testing.assert_array_equal(out.numpy(), fn(a, i))
