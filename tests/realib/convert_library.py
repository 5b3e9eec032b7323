"""Run a pure-Python library's own test suite three ways: unconverted, converted
on its default path (Python values), and converted with the staged bodies forced
(what runs under ``ag.function`` / ``jax.jit``). Prints the pytest counts of each
and the functions conversion refused. Not part of the test suite (it needs the
library and its tests, and takes a while).

    python tests/realib/convert_library.py --python VENV/bin/python \\
        --modules tabulate --tests SRC/tabulate-0.10.0/test --cwd SRC/tabulate-0.10.0

The venv needs pytest, numpy, gast and the library installed; this repository is
put on ``PYTHONPATH``. Every function and method of ``--modules`` is replaced by
``ag.convert`` of it before the tests run (``plugin.py``).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


def run(python: str, tests: list, cwd: str, modules: str, mode: str, do_not_convert: str = "") -> dict:
    env = dict(os.environ)
    env["AUTOGRAPH_DO_NOT_CONVERT"] = do_not_convert
    env["PYTHONPATH"] = os.pathsep.join([HERE, ROOT, env.get("PYTHONPATH", "")])
    report = tempfile.NamedTemporaryFile(suffix=".json", delete=False).name
    if mode != "original":
        env["AUTOGRAPH_CONVERT"] = modules
        env["AUTOGRAPH_REPORT"] = report
        env["AUTOGRAPH_STAGED"] = "1" if mode == "staged" else "0"
    plugin = [] if mode == "original" else ["-p", "plugin"]
    command = [python, "-m", "pytest", "-q", "-p", "no:cacheprovider", *plugin, *tests]
    start = time.perf_counter()
    result = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True)
    seconds = time.perf_counter() - start
    tail = result.stdout.strip().splitlines()[-1] if result.stdout.strip() else result.stderr[-500:]
    counts = {k: int(v) for v, k in re.findall(r"(\d+) (passed|failed|skipped|errors?|xfailed|xpassed)", tail)}
    out = {"summary": tail, "counts": counts, "seconds": round(seconds, 1)}
    failed = re.findall(r"^(?:FAILED|ERROR) (\S+)", result.stdout, re.M)
    out["failures"] = failed
    if mode != "original" and os.path.getsize(report):
        with open(report) as f:
            out["conversion"] = json.load(f)
    os.unlink(report)
    return out


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--python", default=sys.executable)
    parser.add_argument("--modules", required=True, help="comma-separated modules to convert")
    parser.add_argument("--tests", nargs="+", required=True)
    parser.add_argument("--cwd", default=os.getcwd())
    parser.add_argument("--json", help="write the results here")
    parser.add_argument("--do-not-convert", default="", help="comma-separated module.function to leave alone")
    args = parser.parse_args(argv)
    results = {}
    for mode in ("original", "python", "staged"):
        results[mode] = run(args.python, [*args.tests, "-rfE"], args.cwd, args.modules, mode, args.do_not_convert)
        r = results[mode]
        print(f"{mode:>9}: {r['summary']} ({r['seconds']} s wall)")
        conversion = r.get("conversion")
        if conversion:
            print(f"{'':>9}  converted {conversion['converted']} functions, refused {conversion['refused']}")
    for mode in ("python", "staged"):
        extra = sorted(set(results[mode]["failures"]) - set(results["original"]["failures"]))
        for name in extra:
            print(f"{mode} only: {name}")
    for refusal in results["python"].get("conversion", {}).get("refusals", []):
        print("refused:", refusal)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
