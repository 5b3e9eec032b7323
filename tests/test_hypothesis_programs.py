"""Property-based differential test: random small programs (see ``programs.py``),
original vs converted. The converted function must match the original, on its
default path and under ``force_staged()``, in return value, exception, and
printed output. ``pytest -m slow`` runs many more examples
(``AUTOGRAPH_SLOW_EXAMPLES``, 2000 by default).
"""

from __future__ import annotations

import contextlib
import io

import pytest

hypothesis = pytest.importorskip("hypothesis")
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from programs import SLOW_EXAMPLES, load, programs

INPUTS = st.lists(st.tuples(st.integers(-4, 6), st.integers(-4, 6)), min_size=1, max_size=3)


@pytest.fixture(scope="module")
def program_dir(tmp_path_factory):
    return tmp_path_factory.mktemp("hypothesis_programs")


def _outcome(fn, args, staged=False):
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        try:
            if staged:
                from autograph.runtime.staging.mode import force_staged

                with force_staged():
                    value = fn(*args)
            else:
                value = fn(*args)
            result = ("return", value, [type(v) for v in value] if isinstance(value, tuple) else type(value))
        except Exception as e:  # noqa: BLE001 - the exception is the outcome
            result = ("raise", type(e), str(e))
    return result, out.getvalue()


def _check(program_dir, source, inputs):
    ag = pytest.importorskip("autograph")
    original = load(program_dir, source)
    converted = ag.to_graph(original)
    for args in inputs:
        expected = _outcome(original, args)
        for staged in (False, True):
            actual = _outcome(converted, args, staged)
            assert actual == expected, (
                f"{'staged' if staged else 'default'} path differs on f{args}\n"
                f"--- program ---\n{source}--- original ---\n{expected}\n"
                f"--- converted ---\n{actual}")


# The default run draws a fixed sample (derandomize) so CI is deterministic; the slow
# run below explores new programs on every run.
@settings(max_examples=100, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
@given(source=programs(), inputs=INPUTS)
def test_random_program_matches_original(program_dir, source, inputs):
    _check(program_dir, source, inputs)


@pytest.mark.slow
@settings(max_examples=SLOW_EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
@given(source=programs(), inputs=INPUTS)
def test_many_random_programs_match_original(program_dir, source, inputs):
    _check(program_dir, source, inputs)
