"""Soak test: memory stays flat in a long-running process (run by hand, not in CI).

    python -m benchmarks.soak            # a million converted calls, 100,000
                                         # autograph.function calls over 300 signatures,
                                         # 1,000 discarded Functions; a few minutes
    python -m benchmarks.soak --scale 0.01   # the small version the test suite runs

The work is split into rounds that each do a tenth of every part: converted calls
on Python values, calls of one ``autograph.function`` cycling through its
signatures (all traced in the first round), and new ``autograph.function``s of new
closures, called once and dropped (what a notebook cell run again does). After
each round the process collects garbage and records the memory Python allocated
(``tracemalloc``) and its resident size (RSS). The first round is the warm-up;
memory is flat if the later rounds add nothing that grows with the work.
"""

from __future__ import annotations

import argparse
import gc
import sys
import time
import tracemalloc
import warnings

import numpy as np

import autograph as ag
from autograph.runtime.backends.numpy_graph.polymorphic import RetracingWarning


def probe(n):
    total = 0
    for i in range(n):
        if i % 3 == 0:
            total += i
    return total


def clipped(x, scale):
    total = np.zeros((), x.dtype)
    for v in x:
        if v > scale:
            total = total + scale
        else:
            total = total + v
    return total


def make_discarded(k):
    offset = float(k)

    def shifted(x):
        if np.sum(x) > offset:
            y = x - offset
        else:
            y = x + offset
        return y

    return shifted


def rss_kb() -> int:
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def soak(scale: float = 1.0, rounds: int = 10, signatures: int = 300, trace_memory: bool = True):
    """Run the soak; returns one (round, traced KB, RSS KB, seconds) row per round."""
    converted = ag.convert(probe)
    function = ag.function(clipped)
    half = signatures // 2  # two Python values of ``scale`` times half as many shapes
    inputs = [(np.arange(1 + k % half, dtype=np.float64), float(k // half))
              for k in range(signatures)]
    calls = int(1_000_000 * scale) // rounds
    fn_calls = int(100_000 * scale) // rounds
    discarded = max(1, int(1_000 * scale) // rounds)
    if trace_memory:
        tracemalloc.start()
    warnings.simplefilter("ignore", RetracingWarning)  # hundreds of signatures on purpose
    rows = []
    made = 0
    for r in range(rounds):
        start = time.perf_counter()
        for k in range(calls):
            assert converted(k % 10) == probe(k % 10)
        if r == 0:  # trace every signature in the warm-up round
            for x, s in inputs:
                function(x, s)
        for k in range(fn_calls):
            x, s = inputs[k % signatures]
            function(x, s)
        for _ in range(discarded):
            ag.function(make_discarded(made))(np.ones(3))
            made += 1
        seconds = time.perf_counter() - start
        gc.collect()
        traced = tracemalloc.get_traced_memory()[0] // 1024 if trace_memory else 0
        rows.append((r, traced, rss_kb(), seconds))
    if trace_memory:
        tracemalloc.stop()
    assert function.experimental_get_tracing_count() == signatures
    return rows


def report(rows) -> str:
    lines = ["round  traced KB   RSS KB  seconds"]
    lines += [f"{r:5d} {t:10d} {m:8d} {s:8.2f}" for r, t, m, s in rows]
    first, last = rows[1] if len(rows) > 1 else rows[0], rows[-1]
    lines.append(f"after warm-up (round 1 -> {last[0]}): traced {last[1] - first[1]:+d} KB, "
                 f"RSS {last[2] - first[2]:+d} KB")
    return "\n".join(lines)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", type=float, default=1.0)
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--no-tracemalloc", action="store_true",
                        help="RSS only (tracemalloc slows the calls and adds its own memory)")
    args = parser.parse_args(argv)
    rows = soak(args.scale, args.rounds, trace_memory=not args.no_tracemalloc)
    print(report(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
