"""Section 4: data-dependent loops under JAX: converted + jit vs hand-written ``lax`` vs eager.

Each workload is written once as plain Python (``while`` on array values) and run
three ways, interleaved:

* ``autograph + jit``: ``jax.jit(ag.convert(f))``, the user's code as autograph stages it;
* ``lax + jit``: the same algorithm written by hand with ``lax.while_loop`` /
  ``lax.cond`` (what a JAX user writes today), under ``jax.jit``;
* ``eager (no jit)``: the plain function on concrete arrays, op by op.

Every result is checked against the hand-written one first. Target: autograph
within 1.1x of hand-written.
"""

from __future__ import annotations

import functools

import numpy as np

import autograph as ag

from . import contestants
from .timing import Table, interleave, per_call

try:
    import jax
    import jax.numpy as jnp
    from jax import lax
except ImportError:  # reported as missing by run()
    jax = jnp = lax = None

COLUMNS = ["autograph + jit", "lax + jit", "eager (no jit)"]

# ------------------------------------------------------------ workloads (plain Python)


def collatz(n):
    """Total Collatz steps of every start value in ``n`` (one loop over the batch)."""
    steps = jnp.zeros_like(n)
    while jnp.any(n != 1):
        active = n != 1
        n = jnp.where(active, jnp.where(n % 2 == 0, n // 2, 3 * n + 1), n)
        steps = steps + active
    return steps


def newton_sqrt(a):
    """Square roots by Newton's method, until the worst residual is small."""
    x = jnp.maximum(a, 1.0)
    i = 0
    while jnp.max(jnp.abs(x * x - a)) > 1e-3 and i < 100:
        x = 0.5 * (x + a / x)
        i += 1
    return x


def bisect_cube_root(a):
    """Cube roots by bisection on a scalar, with a data-dependent ``if`` per step."""
    lo = 0.0
    hi = jnp.maximum(a, 1.0)
    while hi - lo > 1e-4:
        mid = (lo + hi) / 2
        if mid * mid * mid > a:
            hi = mid
        else:
            lo = mid
    return lo


# ------------------------------------------------------------ the same, by hand


def collatz_lax(n):
    def cond(state):
        n, _ = state
        return jnp.any(n != 1)

    def body(state):
        n, steps = state
        active = n != 1
        n = jnp.where(active, jnp.where(n % 2 == 0, n // 2, 3 * n + 1), n)
        return n, steps + active

    return lax.while_loop(cond, body, (n, jnp.zeros_like(n)))[1]


def newton_sqrt_lax(a):
    def cond(state):
        x, i = state
        return (jnp.max(jnp.abs(x * x - a)) > 1e-3) & (i < 100)

    def body(state):
        x, i = state
        return 0.5 * (x + a / x), i + 1

    return lax.while_loop(cond, body, (jnp.maximum(a, 1.0), 0))[0]


def bisect_cube_root_lax(a):
    def cond(state):
        lo, hi = state
        return hi - lo > 1e-4

    def body(state):
        lo, hi = state
        mid = (lo + hi) / 2
        return lax.cond(mid * mid * mid > a, lambda: (lo, mid), lambda: (mid, hi))

    return lax.while_loop(cond, body, (jnp.float32(0.0), jnp.maximum(a, 1.0)))[0]


def workloads() -> list:
    """(label, plain function, hand-written function under jit, argument)."""
    return [
        ("collatz (4096 starts)", collatz, jax.jit(collatz_lax),
         jnp.arange(1, 4097, dtype=jnp.int32)),
        ("newton sqrt (65536 values)", newton_sqrt, jax.jit(newton_sqrt_lax),
         jnp.linspace(0.5, 1e4, 65536, dtype=jnp.float32)),
        ("bisection cube root (scalar)", bisect_cube_root, jax.jit(bisect_cube_root_lax),
         jnp.float32(12345.678)),
    ]


def _blocked(fn, arg):
    return jax.block_until_ready(fn(arg))


def run(quick: bool = False, skip=()) -> Table:
    table = Table(
        "4. JAX: data-dependent loops",
        "Seconds per call (results blocked on): median [25th, 75th percentile] over "
        "interleaved repeats. Ratios above 1: the contestant is slower than autograph + jit.",
        COLUMNS, [("lax + jit", "autograph + jit"), ("eager (no jit)", "autograph + jit")],
    )
    missing = contestants.status("JAX", skip)
    if missing:
        table.add("every workload", dict.fromkeys(COLUMNS, missing))
        return table
    budget, repeats = (0.002, 3) if quick else (0.02, 15)
    for label, plain, by_hand, arg in workloads()[:1] if quick else workloads():
        converted = jax.jit(ag.convert(plain))
        expected = np.asarray(by_hand(arg))
        for fn in (converted, plain):
            np.testing.assert_allclose(np.asarray(fn(arg)), expected, rtol=1e-5)
        calls = {"autograph + jit": converted, "lax + jit": by_hand, "eager (no jit)": plain}
        samplers = {name: per_call(functools.partial(_blocked, fn, arg), budget)
                    for name, fn in calls.items()}
        table.add(label, interleave(samplers, repeats))
        table.check(f"autograph within 1.1x of hand-written lax on {label}",
                    table.ratio(label, "autograph + jit", "lax + jit"), lambda r: r <= 1.1)
    return table
