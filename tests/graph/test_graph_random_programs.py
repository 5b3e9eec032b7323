"""Random programs (``tests/programs.py``, the graph-friendly kind) in the graph
engine: ``autograph.function(f)`` must compute what ``f`` computes eagerly on the
same int32 scalars, through staged ``if``/``while``/``for`` with ``break``/
``continue``/``return`` in any mix."""

from __future__ import annotations

import os
import sys

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import autograph as ag

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from programs import load, programs  # noqa: E402


@pytest.fixture(scope="module")
def program_dir(tmp_path_factory):
    return tmp_path_factory.mktemp("graph_programs")


@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(source=programs(for_graphs=True),
       inputs=st.lists(st.tuples(st.integers(-4, 6), st.integers(-4, 6)), min_size=1, max_size=2))
def test_random_program_in_the_graph_engine_matches_eager(program_dir, source, inputs):
    f = load(program_dir, source)
    graph_fn = ag.function(f)
    for a, b in inputs:
        def args():  # NumPy scalars: ``b += 1`` on a 0-d array would update it in place,
            return np.int32(a), np.int32(b)  # which a graph (immutable tensors) cannot mirror

        with np.errstate(all="ignore"):
            expected = f(*args())
            actual = graph_fn(*args())
        assert len(actual) == len(expected), source
        for e, x in zip(expected, actual):
            assert int(np.asarray(x)) == int(np.asarray(e)), (
                f"f{(a, b)}: eager {expected}, graph {actual}\n--- program ---\n{source}")
