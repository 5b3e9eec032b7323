"""Benchmarks of the NumPy graph engine (autograph.function), measured side by side.

    python benchmarks/graph_engine.py

1. The tutorials' model: 100 Dense(64, relu) layers on a [20, 28, 28] batch, then
   Dense(10). Three implementations of the same arithmetic: naive NumPy (a new
   array per operation), NumPy with preallocated ``out=`` buffers (the hand-tuned
   reference), and the same naive code decorated with ``autograph.function``.
   Targets: faster than naive, within 1.5x of preallocated.
2. The call overhead of a trivial ``x + 1`` on a scalar. Target: under 10 us.
3. Tracing (convert + trace + optimize + compile) a 25-line function with a loop
   and branches. Target: milliseconds.
"""

from __future__ import annotations

import os

# Small matrices: one BLAS thread is fastest and keeps the timings steady.
for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import timeit

import numpy as np

import autograph as ag

LAYERS, WIDTH = 100, 64


class Model:
    """Flatten, 100 x Dense(64, relu), Dense(10), written as naive NumPy."""

    def __init__(self, seed: int = 0):
        rng = np.random.default_rng(seed)
        shapes = [(28 * 28, WIDTH)] + [(WIDTH, WIDTH)] * (LAYERS - 1)
        self.weights = [(rng.standard_normal(s, np.float32) * np.float32(0.1),
                         np.zeros(s[1], np.float32)) for s in shapes]
        self.head = (rng.standard_normal((WIDTH, 10), np.float32) * np.float32(0.1),
                     np.zeros(10, np.float32))

    def call(self, x):
        x = x.reshape(x.shape[0], -1)
        for w, b in self.weights:
            x = np.maximum(x @ w + b, 0)
        w, b = self.head
        return x @ w + b


def preallocated(model: Model, batch: int):
    """The same model with every intermediate written into two reused buffers."""
    a = np.empty((batch, WIDTH), np.float32)
    c = np.empty((batch, WIDTH), np.float32)
    out = np.empty((batch, 10), np.float32)

    def call(x):
        src = x.reshape(batch, -1)
        buffers = (a, c)
        for i, (w, b) in enumerate(model.weights):
            dst = buffers[i % 2]
            np.matmul(src, w, out=dst)
            np.add(dst, b, out=dst)
            np.maximum(dst, 0, out=dst)
            src = dst
        w, b = model.head
        np.matmul(src, w, out=out)
        np.add(out, b, out=out)
        return out.copy()

    return call


def per_call(fn, number: int, repeat: int = 5) -> float:
    return min(timeit.repeat(fn, number=number, repeat=repeat)) / number


def interleaved(fns: dict, number: int, rounds: int = 15) -> dict:
    """Best time per call of each function, measured in alternating rounds so that
    load on the machine affects all of them alike."""
    best = {name: float("inf") for name in fns}
    for _ in range(rounds):
        for name, fn in fns.items():
            best[name] = min(best[name], timeit.timeit(fn, number=number) / number)
    return best


def bench_model() -> dict:
    x = np.random.default_rng(1).random((20, 28, 28), dtype=np.float32)
    model = Model()
    graph_call = ag.function(model.call)
    fast = preallocated(model, 20)
    expected = model.call(x)
    np.testing.assert_allclose(graph_call(x), expected, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(fast(x), expected, rtol=1e-5, atol=1e-6)
    return interleaved({"naive": lambda: model.call(x), "preallocated": lambda: fast(x),
                        "graph": lambda: graph_call(x)}, number=20)


def bench_trivial() -> float:
    @ag.function
    def add_one(x):
        return x + 1

    x = np.array(1.0)
    add_one(x)
    return per_call(lambda: add_one(x), 20000)


def twenty_five_lines(x, n):
    total = np.zeros_like(x)
    count = 0
    i = 0
    while i < n:
        y = x * i
        if np.sum(y) > 10:
            y = y - 1
        elif np.sum(y) < -10:
            y = y + 1
        else:
            y = y * 0.5
        for v in y:
            if v > 3:
                break
            total = total + v
        count += 1
        i += 1
    scale = np.mean(total) if count > 0 else 0.0
    result = total / (1 + np.abs(scale))
    result = np.clip(result, -5, 5)
    result = np.where(result > 0, result, result * 0.1)
    return result, count


def bench_tracing() -> float:
    x, n = np.arange(4.0), np.array(5)

    def once():
        fn = ag.function(twenty_five_lines)
        fn.get_concrete_function(x, n)

    once()  # conversion is cached after the first time, as it is for any function
    return per_call(once, 20, repeat=3)


def main() -> None:
    model = bench_model()
    trivial = bench_trivial()
    tracing = bench_tracing()
    ms = 1e3
    print("100 x Dense(64, relu) on [20, 28, 28], per call:")
    print(f"  naive NumPy          {model['naive'] * ms:8.3f} ms")
    print(f"  preallocated out=    {model['preallocated'] * ms:8.3f} ms")
    print(f"  autograph.function   {model['graph'] * ms:8.3f} ms")
    print(f"  graph / naive        {model['graph'] / model['naive']:8.2f}x  (target < 1)")
    print(f"  graph / preallocated {model['graph'] / model['preallocated']:8.2f}x  (target <= 1.5)")
    print(f"trivial x + 1 call     {trivial * 1e6:8.2f} us  (target < 10 us)")
    print(f"tracing a 25-line fn   {tracing * ms:8.2f} ms  (target: milliseconds)")


if __name__ == "__main__":
    main()
