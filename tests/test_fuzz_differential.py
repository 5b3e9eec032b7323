"""The differential fuzzer (tests/fuzz) on a fixed sample: random small programs over
ints, floats, NumPy 0-d and 1-d arrays and a list (``programs.py``: ``seeded_program``), each run as
written and as autograph runs it, on the same inputs (``fuzz/oracles.py``): converted
on Python values and on concrete arrays (``python``, ``concrete``: identical outcomes),
and staged by the NumPy graph engine (``numpy``: the same values, dtypes, exceptions,
printed lines and argument writes, or an honest ``StagingError``).

The sample is seeded (seeds 0..``PROGRAMS``-1) so CI is deterministic; the programs
leave out the constructs of ``programs.FUZZ_KNOWN_BUGS`` open on these oracles, and the
new ones (``FUZZ_NEW``). ``python
tests/fuzz/run.py`` runs more seeds, more oracles (XLA, JAX) and those constructs too
(tests/fuzz/README.md).
"""

from __future__ import annotations

import os
import sys

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import programs  # noqa: E402
from fuzz import oracles  # noqa: E402

PROGRAMS = 120
CHUNK = 20
ORACLES = ("python", "concrete", "numpy")
FEATURES = programs.fuzz_features(ORACLES)  # the known bugs fixed on these (int_division)


@pytest.mark.parametrize("first", range(0, PROGRAMS, CHUNK))
def test_random_programs_match_the_original(first):
    report = oracles.Report()
    for seed in range(first, first + CHUNK):
        oracles.check_program(programs.seeded_program(seed, FEATURES),
                              programs.seeded_inputs(seed, 2), ORACLES, report, seed)
    findings = [f"seed {seed}, {oracle}, input {i}: {why}\n{source}"
                for oracle, seed, i, why, source in report.findings]
    assert not findings, "\n\n".join(findings[:3])
    # the sample stages something: not every program is refused
    assert report.runs["numpy"] > report.refusals["numpy"] * 2, report.summary()


def test_the_generator_is_seeded():
    assert programs.seeded_program(7) == programs.seeded_program(7)
    assert programs.seeded_inputs(7) == programs.seeded_inputs(7)
    assert programs.seeded_program(7) != programs.seeded_program(8)


def test_the_oracle_sees_a_wrong_value():
    """A converted function that differs from the original is a finding (the tester can
    fail): ``difference`` compares values, exception types and printed output."""
    good = oracles.Outcome("return", (1, 2.0), "", ())
    assert oracles.difference("numpy", good, good) is None
    assert oracles.difference("numpy", good, oracles.Outcome("return", (1, 2.5), "", ()))
    assert oracles.difference("python", good, oracles.Outcome("return", (1.0, 2.0), "", ()))
    assert oracles.difference("numpy", good, oracles.Outcome("return", (1, 2.0), "p\n", ()))
    raised = oracles.Outcome("raise", ValueError("r"), "", ())
    assert oracles.difference("numpy", raised, oracles.Outcome("raise", KeyError("r"), "", ()))
    import autograph as ag

    assert oracles.difference("numpy", good, oracles.Outcome("raise", ag.StagingError("no"), "", ())) is None
    assert oracles.difference("python", good, oracles.Outcome("raise", ag.StagingError("no"), "", ()))
