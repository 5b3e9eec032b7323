"""Data-dependent loops under JAX: converted + jit vs hand-written ``lax`` vs eager.

Each workload is written once as plain Python (``while`` on array values), run
three ways side by side:

* ``converted``: ``jax.jit(ag.convert(f))``, the user's code as autograph stages it;
* ``hand-written``: the same algorithm written directly with ``lax.while_loop``
  (what a JAX user writes today), under ``jax.jit``;
* ``eager``: the plain function on concrete arrays, op by op (no jit).

Reports the median and spread (interquartile range) of the per-call time over many
timed repeats, and the ratios to hand-written. The target is converted within
1.1x of hand-written. Run: ``python benchmarks/jax_loops.py [--quick]``.
"""

from __future__ import annotations

import argparse
import statistics
import time

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

import autograph as ag

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


@jax.jit
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


@jax.jit
def newton_sqrt_lax(a):
    def cond(state):
        x, i = state
        return (jnp.max(jnp.abs(x * x - a)) > 1e-3) & (i < 100)

    def body(state):
        x, i = state
        return 0.5 * (x + a / x), i + 1

    return lax.while_loop(cond, body, (jnp.maximum(a, 1.0), 0))[0]


@jax.jit
def bisect_cube_root_lax(a):
    def cond(state):
        lo, hi = state
        return hi - lo > 1e-4

    def body(state):
        lo, hi = state
        mid = (lo + hi) / 2
        return lax.cond(mid * mid * mid > a, lambda: (lo, mid), lambda: (mid, hi))

    return lax.while_loop(cond, body, (jnp.float32(0.0), jnp.maximum(a, 1.0)))[0]


WORKLOADS = [
    ("collatz (4096 starts)", collatz, collatz_lax,
     lambda: jnp.arange(1, 4097, dtype=jnp.int32)),
    ("newton sqrt (65536 values)", newton_sqrt, newton_sqrt_lax,
     lambda: jnp.linspace(0.5, 1e4, 65536, dtype=jnp.float32)),
    ("bisection cube root (scalar)", bisect_cube_root, bisect_cube_root_lax,
     lambda: jnp.float32(12345.678)),
]

# ------------------------------------------------------------ timing


def timings(fn, arg, repeats: int, number: int) -> list:
    """Per-call seconds of ``repeats`` timed batches of ``number`` calls each."""
    jax.block_until_ready(fn(arg))  # compile / warm up
    out = []
    for _ in range(repeats):
        start = time.perf_counter()
        for _ in range(number):
            result = fn(arg)
        jax.block_until_ready(result)
        out.append((time.perf_counter() - start) / number)
    return out


def summary(samples: list) -> tuple:
    q1, median, q3 = np.percentile(samples, [25, 50, 75])
    return median, q3 - q1


def fmt(seconds: float) -> str:
    for unit, scale in (("s", 1.0), ("ms", 1e-3), ("us", 1e-6)):
        if seconds >= scale:
            return f"{seconds / scale:.3g} {unit}"
    return f"{seconds / 1e-9:.3g} ns"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer repeats (smoke test)")
    args = parser.parse_args()
    repeats = 7 if args.quick else 31

    rows = []
    for title, plain, by_hand, make_arg in WORKLOADS:
        arg = make_arg()
        converted = jax.jit(ag.convert(plain))
        expected = np.asarray(by_hand(arg))
        for fn in (converted, plain):
            np.testing.assert_allclose(np.asarray(fn(arg)), expected, rtol=1e-5)
        # Calibrate: about 20 ms per timed batch of the hand-written version.
        once = statistics.median(timings(by_hand, arg, 3, 1))
        number = max(1, int(0.02 / max(once, 1e-7)))
        # Interleave converted and hand-written repeats so drift hits both alike.
        conv, hand = [], []
        for _ in range(repeats):
            conv += timings(converted, arg, 1, number)
            hand += timings(by_hand, arg, 1, number)
        eager = timings(plain, arg, 3 if args.quick else 5, 1)
        rows.append((title, summary(conv), summary(hand), summary(eager)))

    print(f"jax {jax.__version__}, backend {jax.default_backend()}, {repeats} repeats; "
          f"median (IQR) per call\n")
    print("| workload | converted + jit | hand-written lax | eager | converted / hand | "
          "eager / hand |")
    print("|---|---|---|---|---|---|")
    for title, (c, c_iqr), (h, h_iqr), (e, e_iqr) in rows:
        print(f"| {title} | {fmt(c)} ({fmt(c_iqr)}) | {fmt(h)} ({fmt(h_iqr)}) | "
              f"{fmt(e)} ({fmt(e_iqr)}) | {c / h:.3f}x | {e / h:.0f}x |")


if __name__ == "__main__":
    main()
