"""The benchmark suite: autograph side by side with the tools a user would pick instead.

    pip install -e '.[bench]'      # TensorFlow and malt; JAX comes with '.[jax]'
    python -m benchmarks           # full run, about 3 minutes; writes benchmarks/results.md
    python -m benchmarks --quick   # smoke run, a few seconds; writes nothing unless --output

Sections, one module each: conversion time (``conversion``), converted code on
Python values (``python_values``), the NumPy graph engine (``graph_engine``),
JAX loops (``jax_loops``), loops that collect outputs (``collected_lists``), PyTorch control flow (``torch_control_flow``). Every number is a median over interleaved repeats
with its interquartile range; ratios compare medians of the same run. A tool that
is not installed is reported as missing, one that fails on a function as
``fails: <reason>``. Performance targets are listed under each table as met or
MISSED; ``--check`` makes a missed target the exit status.
TensorFlow's first call and steady state: ``tf_first_call`` (``--only tf``).
"""

from __future__ import annotations

import os

# Small matrices: one BLAS thread is fastest and steadiest. Set before NumPy loads.
for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import argparse
import datetime
import importlib
import importlib.metadata
import platform
import subprocess
import sys

from .timing import Table

SECTIONS = {"conversion": "conversion", "python": "python_values", "graph": "graph_engine",
            "jax": "jax_loops", "xla": "xla_compile", "lists": "collected_lists",
            "torch": "torch_control_flow", "tf": "tf_first_call"}
RESULTS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "results.md")
LIBRARIES = ("numpy", "gast", "jax", "torch", "tensorflow-cpu", "tensorflow", "diastatic-malt")


def run_suite(quick: bool = False, skip=(), only=None) -> list[Table]:
    """Run the chosen sections (all by default) and return their tables."""
    tables = []
    for key, module in SECTIONS.items():
        if only and key not in only:
            continue
        section = importlib.import_module(f"{__package__}.{module}")
        tables.append(section.run(quick=quick, skip=skip))
    return tables


def machine() -> str:
    """One paragraph: when and where this run happened, and with which versions."""
    cpu = next((line.split(":", 1)[1].strip() for line in _read("/proc/cpuinfo").splitlines()
                if line.startswith("model name")), platform.processor() or "unknown CPU")
    versions = []
    for name in LIBRARIES:
        try:
            versions.append(f"{name} {importlib.metadata.version(name)}")
        except importlib.metadata.PackageNotFoundError:
            pass
    uname = platform.uname()
    return (f"{datetime.date.today().isoformat()}; {uname.system} {uname.release} "
            f"{uname.machine}, {os.cpu_count()} CPUs ({cpu}); Python {platform.python_version()}; "
            f"autograph {_revision()}; {', '.join(versions)}.")


def _read(path: str) -> str:
    try:
        with open(path) as f:
            return f.read()
    except OSError:
        return ""


def _revision() -> str:
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    try:
        head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=root, check=True,
                              capture_output=True, text=True).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--", "autograph", "converters",
                                "runtime"], cwd=root, check=True, capture_output=True,
                               text=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "(not a git checkout)"
    return head + (" with uncommitted changes" if dirty else "")


def report(tables: list[Table], quick: bool) -> str:
    title = "# Benchmark results" + (" (--quick: smoke run, not for comparison)" if quick else "")
    return "\n".join([title, "", machine(), "", "Command: `python -m benchmarks"
                      + (" --quick`" if quick else "`"), ""] + [t.markdown() for t in tables])


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks", description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="few, short repeats (smoke test)")
    parser.add_argument("--skip", action="append", default=[], metavar="TOOL",
                        choices=["TensorFlow", "malt", "JAX", "PyTorch"], help="leave a contestant out")
    parser.add_argument("--only", action="append", choices=list(SECTIONS),
                        help="run only this section (repeatable)")
    parser.add_argument("--output", help=f"write the report here (default for a full run: "
                        f"{os.path.relpath(RESULTS)})")
    parser.add_argument("--check", action="store_true", help="exit 1 if a target is missed")
    args = parser.parse_args(argv)

    tables = run_suite(args.quick, set(args.skip), args.only)
    text = report(tables, args.quick)
    print(text)
    output = args.output or (None if args.quick or args.only else RESULTS)
    if output:
        with open(output, "w") as f:
            f.write(text)
    missed = [c for t in tables for c in t.checks if c.startswith("MISSED")]
    return 1 if args.check and missed else 0


if __name__ == "__main__":
    sys.exit(main())
