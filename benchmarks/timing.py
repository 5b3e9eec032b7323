"""Timing and reporting shared by every section of the suite.

One way to measure: each contestant is a *sampler*, a function of no arguments
that returns one sample in seconds. ``interleave`` runs the samplers in rounds,
one sample of each per round in a rotating order, so that drift on a shared
machine (another process, frequency scaling) hits every contestant alike.
``per_call`` turns "call this" into a sampler: it calibrates once how many calls
fill a batch of a fixed duration, then each sample is one timed batch divided by
its size. A sampler that raises is reported as ``fails: <reason>`` and dropped
from later rounds; the other contestants go on.

One way to report: a ``Table`` has one row per measurement, one cell per
contestant (the median and the interquartile range of the samples, or a short
reason why there is no number), and ratio columns between named contestants,
computed from the medians of the same run.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Union


@dataclass(frozen=True)
class Stats:
    """Samples in seconds; shown as the median and [25th, 75th percentile] in its unit."""

    samples: tuple[float, ...]

    @property
    def median(self) -> float:
        return statistics.median(self.samples)

    @property
    def quartiles(self) -> tuple[float, float]:
        if len(self.samples) < 2:
            return self.samples[0], self.samples[0]
        q1, _, q3 = statistics.quantiles(self.samples, n=4, method="inclusive")
        return q1, q3

    def __str__(self) -> str:
        unit, scale = _unit(self.median)
        q1, q3 = (_number(q / scale) for q in self.quartiles)
        return f"{_number(self.median / scale)} {unit} [{q1}, {q3}]"


# A cell is a measurement, or a short text saying why there is none
# ("missing (pip install ...)", "fails: ...", "n/a").
Cell = Union[Stats, str]


def _number(x: float) -> str:
    """Three significant digits, never in exponent notation."""
    return f"{x:.0f}" if x >= 100 else f"{x:.3g}"


def _unit(seconds: float) -> tuple[str, float]:
    for unit, scale in (("s", 1.0), ("ms", 1e-3), ("µs", 1e-6)):
        if seconds >= scale:
            return unit, scale
    return "ns", 1e-9


def failure(exc: BaseException) -> str:
    """``fails: <reason>`` in one short line, fit for a table cell."""
    text = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
    reason = f"{type(exc).__name__}: {text}" if text else type(exc).__name__
    reason = reason.replace("|", "/")
    return "fails: " + (reason if len(reason) <= 60 else reason[:57] + "...")


def interleave(samplers: dict[str, Callable[[], float]], repeats: int) -> dict[str, Cell]:
    """``repeats`` samples of every sampler, taken in rotating rounds, every other round
    in reverse order (so no contestant always runs right after the same other one: a
    call after an XLA call or a big NumPy one meets colder caches)."""
    names = list(samplers)
    samples: dict[str, list[float]] = {name: [] for name in names}
    failed: dict[str, str] = {}
    for r in range(repeats):
        shift = r % len(names) if names else 0
        order = names[shift:] + names[:shift]
        for name in order[::-1] if r % 2 else order:
            if name in failed:
                continue
            try:
                samples[name].append(samplers[name]())
            except Exception as exc:  # noqa: BLE001 - a contestant's failure is a result
                failed[name] = failure(exc)
    return {name: failed.get(name) or Stats(tuple(samples[name])) for name in names}


def per_call(fn: Callable[[], object], batch_seconds: float) -> Callable[[], float]:
    """A sampler: seconds per call of ``fn``, timed over batches of about ``batch_seconds``."""
    number = 0

    def sample() -> float:
        nonlocal number
        if not number:
            fn()  # warm up
            once = _batch(fn, 1)
            number = max(1, int(batch_seconds / max(once, 1e-9)))
            if number > 1:  # calibrate again on a bigger batch: the first call is noisy
                number = max(1, int(batch_seconds / max(_batch(fn, min(number, 100)), 1e-9)))
        return _batch(fn, number)

    return sample


def _batch(fn: Callable[[], object], number: int) -> float:
    start = time.perf_counter()
    for _ in range(number):
        fn()
    return (time.perf_counter() - start) / number


ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def child(module: str, *args: str):
    """Run ``python -m benchmarks.<module> *args`` in a new process and return the
    JSON value its last line of output holds."""
    path = [ROOT] + [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]
    proc = subprocess.run([sys.executable, "-m", f"benchmarks.{module}", *args], cwd=ROOT,
                          env=dict(os.environ, PYTHONPATH=os.pathsep.join(path)),
                          capture_output=True, text=True, timeout=600, check=False)
    if proc.returncode:
        raise RuntimeError(proc.stderr.strip().splitlines()[-1] if proc.stderr else "crashed")
    return json.loads(proc.stdout.strip().splitlines()[-1])


@dataclass
class Table:
    """One section's results: rows of cells, and ratios ``(numerator, denominator)``."""

    title: str
    note: str
    columns: list[str]
    ratios: list[tuple[str, str]]
    rows: list[tuple[str, dict[str, Cell]]] = field(default_factory=list)
    checks: list[str] = field(default_factory=list)

    def add(self, label: str, cells: dict[str, Cell]) -> None:
        self.rows.append((label, {name: cells.get(name, "n/a") for name in self.columns}))

    def median(self, label: str, column: str) -> float | None:
        """The median in row ``label`` and ``column``; None if there is no number."""
        cell = dict(self.rows).get(label, {}).get(column)
        return cell.median if isinstance(cell, Stats) else None

    def ratio(self, label: str, numerator: str, denominator: str) -> float | None:
        """The ratio of two medians in row ``label``; None if either is not a number."""
        a, b = self.median(label, numerator), self.median(label, denominator)
        return a / b if a is not None and b else None

    def check(self, what: str, value: float | None, ok: Callable[[float], bool]) -> None:
        """Record a performance target and whether this run met it."""
        if value is None:
            self.checks.append(f"not measured: {what}")
        else:
            self.checks.append(f"{'met' if ok(value) else 'MISSED'}: {what} "
                               f"(measured {_number(value)})")

    def markdown(self) -> str:
        header = ["measurement"] + self.columns + [f"{a} ÷ {b}" for a, b in self.ratios]
        lines = [f"### {self.title}", "", self.note, "",
                 "| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
        for label, cells in self.rows:
            ratios = []
            for a, b in self.ratios:
                value = self.ratio(label, a, b)
                ratios.append("–" if value is None else f"{_number(value)}x")
            lines.append("| " + " | ".join([label] + [str(cells[c]) for c in self.columns]
                                           + ratios) + " |")
        if self.checks:
            lines += [""] + [f"- {c}" for c in self.checks]
        return "\n".join(lines) + "\n"
