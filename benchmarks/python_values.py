"""Section 2: converted code called on plain Python values.

The question a user asks before decorating a function that is also called
outside any trace: what does conversion cost there? Each row calls one function
of ``functions.CALLS`` on Python ints, lists or strings, of
``numpy_functions.CALLS`` (numerical code with ``np.*`` calls) on Python floats and
small arrays, or of ``parser_element.CALLS`` (a parser's method shaped like
pyparsing's ``_parseNoCache``: ``try``, ``and``/``or`` tests, a loop reading many
locals), as the original, as converted by each tool, and as autograph's *staged
body* forced on Python values (what a trace runs when it unrolls Python control
flow, and the code shape that TensorFlow's and malt's output always has). Every
converted result is checked against the original before it is timed.

autograph's entry test costs one attribute read while nothing traces: JAX,
TensorFlow and PyTorch report when their traces (a compile, an export) begin and end
(``staging.mode``), so importing them (TensorFlow 2.21 imports JAX itself when it is
installed) changes nothing here. autograph and the original are also measured in a
fresh process that imports no framework (``python -m benchmarks.python_values
[--quick]`` prints those samples as JSON).
Target: autograph within 1.5x of the original, 1.1x on the parser's method.
"""

from __future__ import annotations

import functools
import json
import sys

from . import contestants, functions, numpy_functions, parser_element
from .timing import Cell, Stats, Table, child, failure, interleave, per_call

STAGED = "autograph staged body"
FRESH = ("original, no JAX/TF", "autograph, no JAX/TF")
PROBED = ("jax", "tensorflow", "torch")  # frameworks whose import turns autograph's probe on


def _staged(sampler):
    """``sampler`` run with converted functions forced onto their staged body."""
    from autograph.runtime.staging.mode import force_staged

    def sample() -> float:
        with force_staged():
            return sampler()

    return sample


def _row(fn, args, tools: list, skip, budget: float, repeats: int) -> dict[str, Cell]:
    """The cells of one row: ``fn(*args)`` called every way, checked, interleaved."""
    expected = fn(*args)
    calls = {"original": functools.partial(fn, *args)}  # called alike: no extra frame
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
    samplers = {name: per_call(call, budget) for name, call in calls.items()}
    if "autograph" in calls and STAGED not in skip:
        samplers[STAGED] = _staged(per_call(calls["autograph"], budget))
    cells.update(interleave(samplers, repeats))
    return cells


def _settings(quick: bool) -> tuple:
    """(rows, batch seconds, repeats)."""
    if quick:
        return functions.CALLS[:2] + numpy_functions.CALLS[:1] + parser_element.CALLS, 0.002, 3
    return functions.CALLS + numpy_functions.CALLS + parser_element.CALLS, 0.02, 15


def _fresh_process_child(quick: bool) -> None:
    """Original and autograph only, in this process that imports no framework."""
    rows, budget, repeats = _settings(quick)
    skip = {"TensorFlow", "malt", STAGED}
    out = {}
    for label, fn, args in rows:
        cells = _row(fn, args, ["autograph"], skip, budget, repeats)
        out[label] = [list(cells[c].samples) for c in ("original", "autograph")]
    assert not any(name in sys.modules for name in PROBED), "a framework was imported"
    print(json.dumps(out))


def run(quick: bool = False, skip=()) -> Table:
    tools = [t for t in contestants.CONVERTERS if contestants.status(t, skip) is None]
    table = Table(
        "2. Converted code on plain Python values",
        "Seconds per call: median [25th, 75th percentile] over interleaved repeats. "
        "Ratios: converted ÷ original, the slowdown conversion costs outside a trace. "
        "The *no JAX/TF* columns come from a fresh process that imports no framework; the "
        "others from the suite's process, where these frameworks were imported by the time "
        "this section ran: {imported}.",
        [*FRESH, "original", "autograph", STAGED, "TensorFlow", "malt"],
        [(FRESH[1], FRESH[0]), ("autograph", "original"), (STAGED, "original"),
         ("TensorFlow", "original"), ("malt", "original")],
    )
    rows, budget, repeats = _settings(quick)
    fresh = child("python_values", *(["--quick"] if quick else []))
    try:  # measured with every framework imported that reports its traces
        import torch  # noqa: F401
    except ImportError:
        pass
    for label, fn, args in rows:
        cells = _row(fn, args, tools, skip, budget, repeats)
        cells.update({c: Stats(tuple(s)) for c, s in zip(FRESH, fresh[label])})
        table.add(label, cells)
    imported = [name for name in PROBED if name in sys.modules]
    table.note = table.note.format(imported=", ".join(imported) or "none")
    for label, _, _ in rows:
        for numerator, denominator in ((FRESH[1], FRESH[0]), ("autograph", "original")):
            table.check(f"{numerator} ÷ {denominator} ≤ 1.5 on {label}",
                        table.ratio(label, numerator, denominator), lambda r: r <= 1.5)
    for label, _, _ in parser_element.CALLS:  # real code's shape: the headline claim, ~1x
        table.check(f"autograph ÷ original ≤ 1.1 on {label}",
                    table.ratio(label, "autograph", "original"), lambda r: r <= 1.1)
    return table


if __name__ == "__main__":
    _fresh_process_child("--quick" in sys.argv)
