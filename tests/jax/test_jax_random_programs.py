"""Random programs (``tests/programs.py``, the graph-friendly kind) under ``jax.jit``:
``jax.jit(ag.convert(f))`` must compute what ``f`` computes eagerly on the same
concrete int32 arrays (wrap-around included), through staged ``if``/``while``/
``for`` with ``break``/``continue``/``return`` in any mix."""

from __future__ import annotations

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
from programs import load, programs  # noqa: E402


@pytest.fixture(scope="module")
def program_dir(tmp_path_factory):
    return tmp_path_factory.mktemp("jax_programs")


@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(source=programs(for_graphs=True),
       inputs=st.lists(st.tuples(st.integers(-4, 6), st.integers(-4, 6)), min_size=1, max_size=2))
def test_random_program_under_jit_matches_eager(program_dir, source, inputs):
    f = load(program_dir, source)
    jitted = jax.jit(ag.convert(f))
    for a, b in inputs:
        args = (jnp.int32(a), jnp.int32(b))
        expected = f(*args)
        actual = jitted(*args)
        assert len(actual) == len(expected), source
        for e, x in zip(expected, actual):
            assert int(np.asarray(x)) == int(np.asarray(e)), (
                f"f{(a, b)}: eager {expected}, jit {actual}\n--- program ---\n{source}")
