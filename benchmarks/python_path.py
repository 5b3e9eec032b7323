"""Converted code on plain Python values, and conversion time, side by side.

    python benchmarks/python_path.py

For each function: the original, the converted function as users call it
(default path), and its staged body forced on Python values (what runs while a
trace unrolls Python control flow). Ratios are against the original, measured
in one run, interleaved; medians of repeats. Then the cold conversion time of a
25-line function with nested loops (cache cleared each time) and a cache hit.
"""

from __future__ import annotations

import statistics
import sys
import time
import timeit

import autograph as ag
from autograph import conversion
from autograph.runtime.mode import force_staged


def collatz(n):
    steps = 0
    while n != 1:
        if n % 2 == 0:
            n = n // 2
        else:
            n = 3 * n + 1
        steps += 1
    return steps


def sum_odd(n):
    total = 0
    for i in range(n):
        if i % 2 == 0:
            continue
        total += i
    return total


def sign(x):
    if x > 0:
        y = 1
    else:
        y = -1
    return y


def square(x):
    return x * x


def calls_helper(x):
    return square(x) + 1


def nested_loops(rows, limit):
    """25 lines: nested loops with break, continue and an early return."""
    found = []
    total = 0
    for r, row in enumerate(rows):
        if not row:
            continue
        for c, value in enumerate(row):
            if value < 0:
                break
            if value > limit:
                return r, c, total
            total += value
            if total % 7 == 0:
                found.append((r, c))
        else:
            total -= 1
        k = 0
        while k < len(found) and total > 100:
            total -= found[k][0]
            k += 1
    if found:
        return found[-1][0], found[-1][1], total
    return -1, -1, total


CASES = [
    ("collatz(27)", collatz, (27,)),
    ("sum_odd(100)", sum_odd, (100,)),
    ("sign(3)", sign, (3,)),
    ("calls_helper(3)", calls_helper, (3,)),
]


def per_call(fn, args, number):
    return min(timeit.repeat(lambda: fn(*args), number=number, repeat=5)) / number


def main() -> None:
    print(f"Python {sys.version.split()[0]}; times per call, median of 5 rounds\n")
    print("| function | original | converted | ratio | staged on Python values | ratio |")
    print("|---|---|---|---|---|---|")
    for label, fn, args in CASES:
        converted = ag.to_graph(fn)
        number = 2000 if label.startswith("collatz") else 50000
        rounds = {"orig": [], "conv": [], "staged": []}
        for _ in range(5):
            rounds["orig"].append(per_call(fn, args, number))
            rounds["conv"].append(per_call(converted, args, number))
            with force_staged():
                rounds["staged"].append(per_call(converted, args, number))
        o, c, s = (statistics.median(rounds[k]) for k in ("orig", "conv", "staged"))
        print(f"| {label} | {o * 1e9:.0f} ns | {c * 1e9:.0f} ns | {c / o:.2f}x | {s * 1e9:.0f} ns | {s / o:.1f}x |")

    cold = []
    for _ in range(30):
        conversion._code_cache.clear()
        start = time.perf_counter()
        ag.to_graph(nested_loops)
        cold.append(time.perf_counter() - start)
    hit = per_call(ag.to_graph, (nested_loops,), 20000)
    print(f"\nconversion of a 25-line function with nested loops: median {statistics.median(cold) * 1e3:.2f} ms "
          f"(min {min(cold) * 1e3:.2f}, max {max(cold) * 1e3:.2f}); cache hit: {hit * 1e6:.2f} us")


if __name__ == "__main__":
    main()
