"""Section 1: how long each tool takes to convert a function.

* cold: a new Python process imports the tool, then converts one function; the
  clock runs around the conversion call only (the import is reported on its own
  row). Processes of the three tools are interleaved.
* warm, uncached: in one process that has converted other code before, every
  cache the tool keeps of conversions is emptied, then the function is converted.
  What stays warm is what any long-running process has: imported modules, the
  source lines ``inspect`` read before, and process-wide tables such as
  autograph's parsed templates.
* cache hit: converting the same function again.
* per line: autograph alone converts generated functions of 100 and 5,000 lines
  (``generated.py``): the cost of a line should not grow with the function; and
  a validator of 30 ``if ...: raise`` checks, the shape that once took
  exponential time. These rows count the process's CPU time, not the wall
  clock: seconds of work, steady on a shared machine.

All three convert the same functions from ``functions.py`` with their
``to_graph``; each converted function is checked once against the original.

The cold-start child is this module: ``python -m benchmarks.conversion TOOL FUNC``
prints ``{"import": seconds, "convert": seconds}`` or ``{"error": "..."}``.
"""

from __future__ import annotations

import gc
import json
import sys
import time

from . import contestants, functions, generated
from .timing import Cell, Stats, Table, child, failure, interleave, per_call


def _cold_child(tool: str, fn_name: str) -> None:
    start = time.perf_counter()
    to_graph = contestants.to_graph(tool)
    imported = time.perf_counter()
    fn = getattr(functions, fn_name)
    try:
        start_convert = time.perf_counter()
        to_graph(fn)
        result = {"import": imported - start, "convert": time.perf_counter() - start_convert}
    except Exception as exc:  # noqa: BLE001 - reported to the parent as "fails"
        result = {"error": failure(exc)}
    print(json.dumps(result))


def _cold_sampler(tool: str, fn_name: str, imports: list):
    def sample() -> float:
        result = child("conversion", tool, fn_name)
        if "error" in result:
            raise RuntimeError(result["error"][len("fails: "):])
        imports.append(result["import"])
        return result["convert"]

    return sample


def _warm_sampler(tool: str, fn):
    to_graph = contestants.to_graph(tool)

    def sample() -> float:
        contestants.clear_caches(tool)
        start = time.perf_counter()
        to_graph(fn)
        return time.perf_counter() - start

    return sample


def _per_line_sampler(lines: int):
    """Seconds per source line to convert a new generated function of ``lines`` lines."""
    to_graph = contestants.to_graph("autograph")

    def sample() -> float:
        fn = generated.long_function(lines)
        gc.collect()  # not the garbage of the conversions before
        start = time.process_time()
        to_graph(fn)
        return (time.process_time() - start) / generated.source_lines(fn)

    return sample


def _validator_sampler(checks: int):
    """CPU seconds to convert a new validator of ``checks`` consecutive checks."""
    to_graph = contestants.to_graph("autograph")

    def sample() -> float:
        fn = generated.validate_options(checks)
        start = time.process_time()
        to_graph(fn)
        return time.process_time() - start

    return sample


def _hit_sampler(tool: str, fn, batch_seconds: float):
    to_graph = contestants.to_graph(tool)
    return per_call(lambda: to_graph(fn), batch_seconds)


def _check(tool: str, fn, args) -> None:
    """Raise if the tool's conversion of ``fn`` disagrees with ``fn`` on ``args``."""
    expected = fn(*args)
    got = contestants.to_graph(tool)(fn)(*args)
    if got != expected:
        raise AssertionError(f"returned {got!r}, expected {expected!r}")


def _label(kind: str, fn) -> str:
    return f"{kind}: {fn.__name__} ({functions.source_lines(fn)} lines)"


def run(quick: bool = False, skip=()) -> Table:
    tools = [t for t in contestants.CONVERTERS if contestants.status(t, skip) is None]
    table = Table(
        "1. Conversion time",
        "Seconds to convert one function with the tool's `to_graph`: median [25th, 75th "
        "percentile] over repeats. *cold*: first conversion in a new process (import "
        "excluded, reported on its own row); *warm*: in-process with the tool's conversion "
        "caches emptied before each repeat. Ratios above 1: the contestant is slower.",
        list(contestants.CONVERTERS),
        [("TensorFlow", "autograph"), ("malt", "autograph")],
    )
    fns = functions.CONVERT[:2] if quick else functions.CONVERT
    repeats = {"cold": 1, "warm": 3} if quick else {"cold": 5, "warm": 15}
    sample_args = {fn.__name__: args for _, fn, args in functions.CALLS}
    sample_args["primes_below"] = (50,)

    # A tool that cannot convert a function, or converts it wrongly, gets "fails" there.
    broken: dict[tuple, str] = {}
    for fn in fns:
        for tool in tools:
            try:
                _check(tool, fn, sample_args[fn.__name__])
            except Exception as exc:  # noqa: BLE001 - a contestant's failure is a result
                broken[tool, fn] = failure(exc)

    def add(label: str, fn, measured: dict) -> None:
        cells: dict[str, Cell] = {t: contestants.status(t, skip) for t in contestants.CONVERTERS
                                  if t not in tools}
        cells.update(measured)
        cells.update({t: broken[t, fn] for t in tools if (t, fn) in broken})
        table.add(label, cells)

    imports: dict[str, list] = {t: [] for t in tools}
    for fn in fns[:1] if quick else fns:
        samplers = {t: _cold_sampler(t, fn.__name__, imports[t]) for t in tools
                    if (t, fn) not in broken}
        add(_label("cold", fn), fn, interleave(samplers, repeats["cold"]))
    for fn in fns:
        samplers = {t: _warm_sampler(t, fn) for t in tools if (t, fn) not in broken}
        add(_label("warm", fn), fn, interleave(samplers, repeats["warm"]))
    biggest = fns[-1]
    hits = {t: _hit_sampler(t, biggest, 0.002 if quick else 0.02) for t in tools}
    add(f"cache hit: {biggest.__name__}", biggest, interleave(hits, repeats["warm"]))
    add("import the tool (cold process)", None,
        {t: Stats(tuple(s)) for t, s in imports.items() if s})

    short, long = (100, 500) if quick else (100, 5000)
    for lines in (short, long):
        add(f"warm, per line: generated function of {lines} lines", None,
            interleave({"autograph": _per_line_sampler(lines)}, 1 if quick else 3))
    add("warm: validate_options (30 checks that raise)", None,
        interleave({"autograph": _validator_sampler(30)}, repeats["warm"]))

    per_line = [table.median(f"warm, per line: generated function of {n} lines", "autograph")
                for n in (short, long)]
    table.check(f"conversion per line of a {long}-line function within 1.3x of a {short}-line one",
                per_line[1] / per_line[0] if all(per_line) else None, lambda ratio: ratio <= 1.3)
    seconds = table.median(_label("cold", functions.nested_loops), "autograph")
    table.check("cold conversion of the 26-line nested_loops under 10 ms (in ms)",
                seconds and seconds * 1e3, lambda ms: ms < 10)
    return table


if __name__ == "__main__":
    _cold_child(sys.argv[1], sys.argv[2])
