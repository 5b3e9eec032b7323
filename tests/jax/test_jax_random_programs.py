"""Random programs (``tests/programs.py``, the graph-friendly kind) under ``jax.jit``:
``jax.jit(ag.convert(f))`` must compute what ``f`` computes eagerly on the same
concrete int32 arrays (wrap-around included), through staged ``if``/``while``/
``for`` with ``break``/``continue``/``return`` in any mix, ``try``/``finally``
blocks that jump, and chained comparisons. ``pytest -m slow`` runs many more
examples (see ``tests/programs.py`` and ``AUTOGRAPH_SLOW_EXAMPLES``)."""

from __future__ import annotations

import contextlib
import io
import os
import sys

import jax
import jax.numpy as jnp
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
    return tmp_path_factory.mktemp("jax_programs")


def _outcome(run):
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        try:
            result = ("return", [float(np.asarray(v)) for v in leaves(run())])
            jax.effects_barrier()
        except Exception as e:  # noqa: BLE001 - the exception is the outcome
            result = ("raise", type(e), str(e))
    return result, out.getvalue()


def _check(program_dir, source, inputs):
    f = load(program_dir, source)
    jitted = jax.jit(ag.convert(f))
    for a, b in inputs:
        args = (jnp.int32(a), jnp.int32(b))
        expected = _outcome(lambda: f(*args))
        actual = _outcome(lambda: jitted(*args))
        assert same_outcome(expected, actual, source), (
            f"f{(a, b)}: eager {expected}, jit {actual}\n--- program ---\n{source}")


# The default run draws a fixed sample (derandomize) so CI is deterministic; the slow
# run below explores new programs on every run.
@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
@given(source=programs(for_graphs=True), inputs=INPUTS)
def test_random_program_under_jit_matches_eager(program_dir, source, inputs):
    _check(program_dir, source, inputs)


@pytest.mark.slow
@settings(max_examples=SLOW_EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
@given(source=programs(for_graphs=True), inputs=INPUTS)
def test_many_random_programs_under_jit(program_dir, source, inputs):
    _check(program_dir, source, inputs)
