"""Print the real-code table for the README (run by hand, from the repository root):

    PYTHONPATH=$PWD python tests/realcode/report.py          # the Markdown table
    PYTHONPATH=$PWD python tests/realcode/report.py -v       # and each error in full

Each case runs eagerly, under ``ag.function``, ``ag.function(jit_compile=True)`` and under
``jax.jit(ag.convert(f))``
(tests/realcode/harness.py); the blocker column is the table in test_realcode.py.
"""

from __future__ import annotations

import collections
import os
import sys
import traceback

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from realcode.cases import all_cases  # noqa: E402
from realcode.harness import run  # noqa: E402
from realcode.test_realcode import BLOCKED  # noqa: E402


def outcome(case, backend: str, verbose: bool) -> str:
    if backend == "jax" and case.jax:
        return "n/a"
    try:
        run(case, backend)
    except Exception as error:  # noqa: BLE001 - a report of whatever stops the case
        if verbose:
            print(f"--- {case.name} [{backend}]", file=sys.stderr)
            traceback.print_exc()
        if isinstance(error, AssertionError):
            return "wrong value"
        return f"error ({type(error).__name__})"
    return "matches"


def main(argv) -> None:
    verbose = "-v" in argv
    cases = all_cases()
    print("| function | source | `ag.function` | `jit_compile=True` | `jax.jit` | first blocker |")
    print("| --- | --- | --- | --- | --- | --- |")
    counts = {"numpy": 0, "numpy-xla": 0, "jax": 0}
    jax_applicable = 0
    for case in cases:
        results = {b: outcome(case, b, verbose) for b in ("numpy", "numpy-xla", "jax")}
        for b, result in results.items():
            counts[b] += result == "matches"
        jax_applicable += not case.jax
        blockers = [f"{label}: {BLOCKED[case.name, b][0]}"
                    for b, label in (("numpy", "`ag.function`"),
                                     ("numpy-xla", "`jit_compile=True`"), ("jax", "`jax.jit`"))
                    if (case.name, b) in BLOCKED]
        if case.jax:
            blockers.append(f"`jax.jit` n/a: {case.jax}")
        print(f"| `{case.name}` | {case.source} | {results['numpy']} | {results['numpy-xla']} "
              f"| {results['jax']} "
              f"| {'; '.join(blockers)} |")
    print()
    print(f"matches eager: {counts['numpy']} of {len(cases)} under ag.function, "
          f"{counts['numpy-xla']} of {len(cases)} with jit_compile=True, "
          f"{counts['jax']} of {len(cases)} under jax.jit "
          f"({jax_applicable} of {len(cases)} can run under jax.jit at all)")
    for backend, label in (("numpy", "ag.function"), ("numpy-xla", "jit_compile=True"),
                           ("jax", "jax.jit")):
        print(f"\nfirst blockers under {label}:")
        tally = collections.Counter(b[0] for (_, on), b in BLOCKED.items() if on == backend)
        for blocker, n in tally.most_common():
            print(f"  {n:2d}  {blocker}")


if __name__ == "__main__":
    main(sys.argv[1:])
