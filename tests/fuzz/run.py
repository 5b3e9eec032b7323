"""Run the differential tester from the command line (see tests/fuzz/README.md).

    python tests/fuzz/run.py --start 0 --count 500 --oracles python,concrete,numpy
    python tests/fuzz/run.py --seed 1234 --show        # one program, its source and findings
"""

from __future__ import annotations

import argparse
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import programs  # noqa: E402
from fuzz import oracles  # noqa: E402


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--start", type=int, default=0, help="first seed")
    parser.add_argument("--count", type=int, default=200, help="how many programs")
    parser.add_argument("--seed", type=int, help="one program only")
    parser.add_argument("--oracles", default="python,concrete,numpy",
                        help=f"comma-separated, of {','.join(oracles.ORACLES)}")
    parser.add_argument("--show", action="store_true", help="print each program's source")
    parser.add_argument("--minimize", action="store_true", help="minimise each finding")
    parser.add_argument("--inputs", type=int, default=3, help="inputs per program")
    parser.add_argument("--all", action="store_true",
                        help="also the new constructs (programs.FUZZ_NEW) and those of "
                             "programs.FUZZ_KNOWN_BUGS open on the oracles chosen")
    parser.add_argument("--features", default="",
                        help="comma-separated optional constructs to draw as well, of "
                             f"{','.join(sorted(programs.FUZZ_FEATURES))}")
    opts = parser.parse_args(argv)
    chosen = tuple(o for o in opts.oracles.split(",") if o)
    seeds = [opts.seed] if opts.seed is not None else range(opts.start, opts.start + opts.count)
    report = oracles.Report()
    asked = frozenset(f for f in opts.features.split(",") if f)
    if asked - programs.FUZZ_FEATURES:
        parser.error(f"unknown features: {sorted(asked - programs.FUZZ_FEATURES)}")
    features = programs.fuzz_features(chosen, opts.all) | asked
    began = time.time()
    for seed in seeds:
        source = programs.seeded_program(seed, features)
        raw = programs.seeded_inputs(seed, opts.inputs)
        if opts.show:
            print(f"--- seed {seed}\n{source}\ninputs {raw}")
        found = oracles.check_program(source, raw, chosen, report, seed, zero_d=opts.all)
        for oracle, _, i, why, _ in found:
            print(f"FINDING seed={seed} oracle={oracle} input={raw[i]}: {why}", flush=True)
            if opts.minimize:
                from fuzz.minimize import minimize

                small = minimize(source, raw[i], oracle, seed, zero_d=opts.all)
                print(f"minimal program:\n{small}", flush=True)
    print(report.summary())
    print(f"{len(list(seeds))} programs in {time.time() - began:.1f} s")
    return 1 if report.findings else 0


if __name__ == "__main__":
    sys.exit(main())
