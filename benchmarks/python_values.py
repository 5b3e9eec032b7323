"""Section 2: converted code called on plain Python values.

The question a user asks before decorating a function that is also called
outside any trace: what does conversion cost there? Each row calls one function
of ``functions.CALLS`` on Python ints, lists or strings, as the original, as
converted by each tool, and as autograph's *staged body* forced on Python values
(what a trace runs when it unrolls Python control flow, and the code shape that
TensorFlow's and malt's output always has). Every converted result is checked
against the original before it is timed. Target: autograph within 1.5x of the
original.
"""

from __future__ import annotations

import functools

from . import contestants, functions
from .timing import Cell, Table, failure, interleave, per_call

STAGED = "autograph staged body"


def _staged_call(converted, args):
    from autograph.runtime.mode import force_staged

    def call():
        with force_staged():
            return converted(*args)

    return call


def _row(fn, args, tools: list, skip, budget: float, repeats: int) -> dict[str, Cell]:
    """The cells of one row: ``fn(*args)`` called every way, checked, interleaved."""
    expected = fn(*args)
    calls = {"original": lambda: fn(*args)}
    cells: dict[str, Cell] = {t: contestants.status(t, skip) for t in contestants.CONVERTERS
                              if t not in tools}
    if "autograph" not in tools:
        cells[STAGED] = cells["autograph"]
    for tool in tools:
        try:
            converted = contestants.to_graph(tool)(fn)
            got = converted(*args)
            if got != expected:
                raise AssertionError(f"returned {got!r}, expected {expected!r}")
        except Exception as exc:  # noqa: BLE001 - a contestant's failure is a result
            cells[tool] = failure(exc)
            continue
        calls[tool] = functools.partial(converted, *args)
        if tool == "autograph":
            calls[STAGED] = _staged_call(converted, args)
    cells.update(interleave({name: per_call(call, budget) for name, call in calls.items()},
                            repeats))
    return cells


def run(quick: bool = False, skip=()) -> Table:
    tools = [t for t in contestants.CONVERTERS if contestants.status(t, skip) is None]
    table = Table(
        "2. Converted code on plain Python values",
        "Seconds per call: median [25th, 75th percentile] over interleaved repeats. "
        "Ratios: converted ÷ original, the slowdown conversion costs outside a trace.",
        ["original", "autograph", STAGED, "TensorFlow", "malt"],
        [("autograph", "original"), (STAGED, "original"), ("TensorFlow", "original"),
         ("malt", "original")],
    )
    budget, repeats = (0.002, 3) if quick else (0.02, 15)
    for label, fn, args in functions.CALLS[:2] if quick else functions.CALLS:
        table.add(label, _row(fn, args, tools, skip, budget, repeats))
        table.check(f"autograph ÷ original ≤ 1.5 on {label}",
                    table.ratio(label, "autograph", "original"), lambda r: r <= 1.5)
    return table
