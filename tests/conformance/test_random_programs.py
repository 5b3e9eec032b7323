"""Random programs (``tests/programs.py``, the graph-friendly kind) on every backend:
the staged function (``ag.function(f)``, ``jax.jit(ag.convert(f))``) must compute
what ``f`` computes eagerly on the same int32 scalars (wrap-around included),
through staged ``if``/``while``/``for`` with ``break``/``continue``/``return`` in
any mix, ``try``/``except``/``else``/``finally`` blocks that jump, chained
comparisons, nested dicts, namedtuple results, prints, Python-scalar carries and
reads before definition — or refuse with the ``StagingError`` the semantics allow
(``same_outcome``). Each program is staged once and run on one or two inputs.

The default run draws a fixed sample (derandomized, so CI is deterministic);
``pytest -m slow`` explores new programs on every run, ``AUTOGRAPH_SLOW_EXAMPLES``
per backend (2000 by default). The array programs add a NumPy array made in the
function and a view of it, written (directly, through the view, in place) and read
before and after staged ``if``s and loops (issue 27)."""

from __future__ import annotations

import builtins
import contextlib
import io
import os
import re
import sys

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from programs import (  # noqa: E402
    ARRAY_SHAPES, SLOW_EXAMPLES, leaves, load, programs, same_outcome, staged_shapes)

INPUTS = st.lists(st.tuples(st.integers(-4, 6), st.integers(-4, 6)), min_size=1, max_size=2)


@pytest.fixture(scope="module")
def program_dir(tmp_path_factory):
    return tmp_path_factory.mktemp("staged_programs")


def _outcome(backend, run):
    out = io.StringIO()
    with contextlib.redirect_stdout(out), np.errstate(all="ignore"):
        try:
            result = ("return", [float(np.asarray(v)) for v in leaves(run())])
            backend.flush()
        except Exception as e:  # noqa: BLE001 - the exception is the outcome
            result = _raised(e)
    return result, out.getvalue()


def _raised(error):
    """``("raise", type, message)``; a staged raise that TensorFlow's graph reports as
    ``InvalidArgumentError`` (``assertion failed: [Type: message]``) as the user's."""
    found = type(error).__name__ == "InvalidArgumentError" and re.search(
        r"assertion failed: \[(\w+): ?(.*?)\]\n", str(error), re.S)
    cls = getattr(builtins, found.group(1), None) if found else None
    if isinstance(cls, type) and issubclass(cls, Exception):
        return "raise", cls, found.group(2).replace("\\'", "'")
    return "raise", type(error), str(error)


def _check(backend, program_dir, source, inputs):
    f = load(program_dir, source)
    staged = backend.function(f)
    for a, b in inputs:
        # NumPy scalars (JAX arrays on JAX): ``b += 1`` on a 0-d NumPy array would
        # update it in place, which a graph (immutable tensors) cannot mirror.
        args = backend.split((np.int32(a), np.int32(b)))
        expected = _outcome(backend, lambda: f(*args))
        actual = _outcome(backend, lambda: staged(*args))
        assert same_outcome(expected, actual, source), (
            f"f{(a, b)} on {backend.name}: eager {expected}, staged {actual}\n"
            f"--- program ---\n{source}")


@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
@given(source=programs(for_graphs=True), inputs=INPUTS)
def test_random_program_matches_eager(backend, program_dir, source, inputs):
    _check(backend, program_dir, source, inputs)


@pytest.mark.slow
@settings(max_examples=SLOW_EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
@given(source=programs(for_graphs=True), inputs=INPUTS)
def test_many_random_programs_match_eager(backend, program_dir, source, inputs):
    _check(backend, program_dir, source, inputs)


def _array_programs():
    return programs(for_graphs=True, shapes=staged_shapes() | ARRAY_SHAPES)


@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
@given(source=_array_programs(), inputs=INPUTS)
def test_random_array_program_matches_eager(backend, program_dir, source, inputs):
    _check(backend, program_dir, source, inputs)


@pytest.mark.slow
@settings(max_examples=SLOW_EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
@given(source=_array_programs(), inputs=INPUTS)
def test_many_random_array_programs_match_eager(backend, program_dir, source, inputs):
    _check(backend, program_dir, source, inputs)
