"""``np.f(..., out=t)`` on a tensor PyTorch traces writes into ``t`` as NumPy writes its
``out`` array: every name holding it sees the write, in a staged branch too, and NumPy's
casting rule holds. Each case is traced as AOTAutograd traces a converted function
(``make_fx`` in a compile session) and compared with the same code run on NumPy arrays."""

from __future__ import annotations

import numpy as np
import pytest
import torch
from torch.fx.experimental.proxy_tensor import make_fx

import autograph as ag


def _traced(fn, *arrays):
    converted = ag.convert(fn)
    tensors = [torch.tensor(a) for a in arrays]
    with torch.compiler._compile_session_context():
        graph = make_fx(converted, tracing_mode="fake")(*tensors)
    return graph(*tensors)


def alias_sees_it(x, y):
    z = x * 1.0
    w = z
    same = np.add(z, y, out=z)
    return w, same


def in_a_staged_branch(x, y):
    z = x * 1.0
    if y.sum() > 0:
        np.multiply(z, y, out=z)
    return z


@pytest.mark.parametrize("fn", [alias_sees_it, in_a_staged_branch])
@pytest.mark.parametrize("sign", [1.0, -1.0])
def test_out_writes_what_numpy_writes(fn, sign):
    x, y = np.arange(3.0, dtype=np.float32), sign * np.ones(3, np.float32)
    expected = fn(x.copy(), y.copy())
    got = _traced(fn, x, y)
    for e, g in zip(expected if isinstance(expected, tuple) else (expected,),
                    got if isinstance(got, tuple) else (got,)):
        np.testing.assert_array_equal(g.numpy(), e)
        assert g.dtype == torch.float32


def into_integers(x, n):
    np.add(n, x, out=n)
    return n


def test_out_keeps_numpys_casting_rule():
    x, n = np.arange(3.0), np.zeros(3, np.int64)
    with pytest.raises(TypeError) as eager:
        into_integers(x, n)
    with pytest.raises(TypeError) as traced:
        _traced(into_integers, x, n)
    assert str(traced.value) == str(eager.value)
