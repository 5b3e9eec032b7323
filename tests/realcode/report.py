"""Print the real-code table for the README (run by hand, from the repository root):

    PYTHONPATH=$PWD python tests/realcode/report.py          # the Markdown table
    PYTHONPATH=$PWD python tests/realcode/report.py -v       # and each error in full

Each case runs eagerly, under ``ag.function``, ``ag.function(jit_compile=True)``, under
``jax.jit(ag.convert(f))``, ``torch.compile(ag.convert(f), fullgraph=True)`` and
``tf.function(ag.convert(f), autograph=False)`` (tests/realcode/harness.py); the blocker
column is the table in test_realcode.py. ``--backends numpy,jax`` runs some backends
only, ``--only TEXT`` the cases whose source names TEXT (``--only "our words"``).
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


LABELS = {"numpy": "ag.function", "numpy-xla": "jit_compile=True", "jax": "jax.jit",
          "torch": "torch.compile", "tf": "tf.function"}


def main(argv) -> None:
    verbose = "-v" in argv
    backends = tuple(LABELS)
    if "--backends" in argv:
        backends = tuple(argv[argv.index("--backends") + 1].split(","))
    cases = all_cases()
    if "--only" in argv:
        only = argv[argv.index("--only") + 1]
        cases = [case for case in cases if only in case.source or only in case.name]
    print("| function | source | " + " | ".join(f"`{LABELS[b]}`" for b in backends)
          + " | first blocker |")
    print("| --- | --- | " + " | ".join("---" for _ in backends) + " | --- |")
    counts = dict.fromkeys(backends, 0)
    jax_applicable = 0
    for case in cases:
        results = {b: outcome(case, b, verbose) for b in backends}
        for b, result in results.items():
            counts[b] += result == "matches"
        jax_applicable += not case.jax
        blockers = [f"`{LABELS[b]}`: {BLOCKED[case.name, b][0]}"
                    for b in backends if (case.name, b) in BLOCKED]
        if case.jax:
            blockers.append(f"`jax.jit` n/a: {case.jax}")
        print(f"| `{case.name}` | {case.source} | "
              + " | ".join(results[b] for b in backends) + f" | {'; '.join(blockers)} |",
              flush=True)
    print()
    print("matches eager: " + ", ".join(f"{counts[b]} of {len(cases)} under {LABELS[b]}"
                                        for b in backends)
          + f" ({jax_applicable} of {len(cases)} can run under jax.jit at all)")
    for backend in backends:
        label = LABELS[backend]
        print(f"\nfirst blockers under {label}:")
        tally = collections.Counter(b[0] for (_, on), b in BLOCKED.items() if on == backend)
        for blocker, n in tally.most_common():
            print(f"  {n:2d}  {blocker}")


if __name__ == "__main__":
    main(sys.argv[1:])
