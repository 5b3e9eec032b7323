"""A Python int a staged loop carries grows past int64 (``acc = acc * 1000``): Python's
int never overflows. The NumPy engine's graph, run as its NumPy code, keeps it a Python
int (exact: a 0-d array of NumPy's object dtype holding it); a compiled graph holds it in a fixed width and wraps past it, a documented
limit (docs/backends.rst, "Python numbers the graph computes"): int64 under XLA
(``jit_compile=True``), PyTorch and TensorFlow, int32 under JAX (without x64). This pins
what each backend gives, so a change (a check that raises, say) shows here."""

import numpy as np


def grows(n):
    acc = 1
    i = 0
    while i < n:
        acc = acc * 1000
        i += 1
    return acc


def _wrapped(value: int, bits: int) -> int:
    """``value`` in two's complement of ``bits`` bits, as a fixed-width int wraps it."""
    return (value + 2 ** (bits - 1)) % 2 ** bits - 2 ** (bits - 1)


_BITS = {"numpy-xla": 64, "jax": 32, "torch": 64, "tensorflow": 64}


def test_a_python_int_that_fits_is_exact(backend):
    backend.check(grows, np.int32(3))


def test_a_python_int_past_the_graph_width(backend):
    assert grows(10) == 10 ** 30
    staged = backend.staged(grows, np.int32(10))
    if backend.name == "numpy" or getattr(backend, "mode", None) == "explained":
        assert int(backend.to_numpy(staged)) == 10 ** 30  # (the explain mode: Python's run)
        return
    bits = _BITS["numpy-xla" if backend.name == "numpy-xla" else backend.engine]
    assert int(backend.to_numpy(staged)) == _wrapped(10 ** 30, bits)
