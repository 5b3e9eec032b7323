"""Random programs (``tests/programs.py``, the graph-friendly kind) in the graph
engine: ``autograph.function(f)`` must compute what ``f`` computes eagerly on the
same int32 scalars, through staged ``if``/``while``/``for`` with ``break``/
``continue``/``return`` in any mix, ``try``/``finally`` blocks that jump, and
chained comparisons. ``pytest -m slow`` runs many more examples (see
``tests/programs.py`` for the shapes, and ``AUTOGRAPH_SLOW_EXAMPLES``)."""

from __future__ import annotations

import contextlib
import io
import os
import sys

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import autograph as ag

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from programs import SLOW_EXAMPLES, leaves, load, programs, same_outcome  # noqa: E402

INPUTS = st.lists(st.tuples(st.integers(-4, 6), st.integers(-4, 6)), min_size=1, max_size=2)


@pytest.fixture(scope="module")
def program_dir(tmp_path_factory):
    return tmp_path_factory.mktemp("graph_programs")


def _outcome(run):
    out = io.StringIO()
    with contextlib.redirect_stdout(out), np.errstate(all="ignore"):
        try:
            result = ("return", [float(np.asarray(v)) for v in leaves(run())])
        except Exception as e:  # noqa: BLE001 - the exception is the outcome
            result = ("raise", type(e), str(e))
    return result, out.getvalue()


def _check(program_dir, source, inputs):
    f = load(program_dir, source)
    graph_fn = ag.function(f)
    for a, b in inputs:
        def args():  # NumPy scalars: ``b += 1`` on a 0-d array would update it in place,
            return np.int32(a), np.int32(b)  # which a graph (immutable tensors) cannot mirror

        expected = _outcome(lambda: f(*args()))
        actual = _outcome(lambda: graph_fn(*args()))
        assert same_outcome(expected, actual, source), (
            f"f{(a, b)}: eager {expected}, graph {actual}\n--- program ---\n{source}")


# The default run draws a fixed sample (derandomize) so CI is deterministic; the slow
# run below explores new programs on every run.
@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
@given(source=programs(for_graphs=True), inputs=INPUTS)
def test_random_program_in_the_graph_engine_matches_eager(program_dir, source, inputs):
    _check(program_dir, source, inputs)


@pytest.mark.slow
@settings(max_examples=SLOW_EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
@given(source=programs(for_graphs=True), inputs=INPUTS)
def test_many_random_programs_in_the_graph_engine(program_dir, source, inputs):
    _check(program_dir, source, inputs)
