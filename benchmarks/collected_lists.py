"""Section 5: a staged loop that collects its outputs with ``append`` (issue 29).

One RNN over ``[T, B, D]`` inputs, written as users write it::

    outs = []
    for x in xs:
        h = tanh(x @ W + h @ U)
        outs.append(h)
    return stack(outs)

against what they write by hand today: on the NumPy engine, the output preallocated
and written row by row (``out[t] = h``), both under ``autograph.function`` and as
plain NumPy; under JAX, ``lax.scan`` with the states as its stacked outputs. Every
result is checked against the hand-written one first. Targets: the NumPy engine
within 1.2x of the preallocated loop in plain NumPy, JAX within 1.1x of ``lax.scan``.
"""

from __future__ import annotations

import functools

import numpy as np

import autograph as ag

from . import contestants
from .timing import Table, interleave, per_call

T, B, D, H = 100, 16, 32, 32


def rnn_append(xs, h, W, U):
    outs = []
    for x in xs:
        h = np.tanh(x @ W + h @ U)
        outs.append(h)
    return np.stack(outs)


def rnn_preallocated(xs, h, W, U):
    out = np.zeros((xs.shape[0],) + h.shape, h.dtype)
    for t in range(xs.shape[0]):
        h = np.tanh(xs[t] @ W + h @ U)
        out[t] = h
    return out


def rnn_scan(xs, h, W, U):
    import jax.numpy as jnp
    from jax import lax

    def step(h, x):
        h = jnp.tanh(x @ W + h @ U)
        return h, h

    return lax.scan(step, h, xs)[1]


def _args():
    rng = np.random.default_rng(0)
    return (rng.standard_normal((T, B, D)).astype(np.float32), np.zeros((B, H), np.float32),
            (rng.standard_normal((D, H)) * 0.2).astype(np.float32),
            (rng.standard_normal((H, H)) * 0.2).astype(np.float32))


NUMPY_COLUMNS = ["append, ag.function", "preallocated, ag.function", "preallocated, NumPy"]
JAX_COLUMNS = ["append, autograph + jit", "lax.scan + jit"]


def run(quick: bool = False, skip=()) -> Table:
    table = Table(
        "6. Collecting a loop's outputs: an RNN with append",
        f"Seconds per call, T={T} steps of a [{B}, {D}] x [{D}, {H}] cell: median [25th, 75th "
        f"percentile] over interleaved repeats. Ratios above 1: the hand-written contestant "
        f"is slower than append.",
        NUMPY_COLUMNS + JAX_COLUMNS,
        [("preallocated, NumPy", "append, ag.function"),
         ("lax.scan + jit", "append, autograph + jit")],
    )
    budget, repeats = (0.002, 3) if quick else (0.05, 15)
    args = _args()
    expected = rnn_preallocated(*args)
    calls = {"append, ag.function": ag.function(rnn_append),
             "preallocated, ag.function": ag.function(rnn_preallocated),
             "preallocated, NumPy": rnn_preallocated}
    for fn in calls.values():
        np.testing.assert_allclose(fn(*args), expected, rtol=1e-4, atol=1e-5)
    samplers = {name: per_call(functools.partial(fn, *args), budget) for name, fn in calls.items()}
    label = "NumPy engine"
    table.add(label, interleave(samplers, repeats))
    table.check("append under ag.function within 1.2x of a preallocated loop in NumPy",
                table.ratio(label, "append, ag.function", "preallocated, NumPy"),
                lambda r: r <= 1.2)
    missing = contestants.status("JAX", skip)
    label = "JAX"
    if missing:
        table.add(label, dict.fromkeys(JAX_COLUMNS, missing))
        return table
    import jax

    jax_calls = {"append, autograph + jit": jax.jit(ag.convert(rnn_append)),
                 "lax.scan + jit": jax.jit(rnn_scan)}
    jargs = tuple(jax.numpy.asarray(a) for a in args)
    for fn in jax_calls.values():
        np.testing.assert_allclose(np.asarray(fn(*jargs)), expected, rtol=1e-4, atol=1e-5)
    samplers = {name: per_call(functools.partial(_blocked, fn, jargs), budget)
                for name, fn in jax_calls.items()}
    table.add(label, interleave(samplers, repeats))
    table.check("append under jax.jit within 1.1x of hand-written lax.scan",
                table.ratio(label, "append, autograph + jit", "lax.scan + jit"),
                lambda r: r <= 1.1)
    return table


def _blocked(fn, args):
    import jax

    return jax.block_until_ready(fn(*args))
