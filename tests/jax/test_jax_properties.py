"""Property-based differential checks: random inputs, eager vs ``jax.jit(ag.convert(f))``.

Shapes are fixed per function, so each converted function compiles once and the
examples exercise the staged control flow on many data-dependent paths.
"""

from __future__ import annotations

import os
import sys

import jax.numpy as jnp
from hypothesis import given, settings
from hypothesis import strategies as st
from jax_helpers import assert_same_values, staged

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                                "conformance"))
from test_constructs import (  # noqa: E402  the constructs every backend runs
    early_return_in_while,
    first_negative,
    for_break,
    handed_over,
    range_break,
    return_in_scan,
    sign,
    static_range_traced_break,
)

# XLA flushes subnormal floats to zero under jit; eager NumPy-style evaluation keeps them.
floats = st.floats(-8, 8, allow_nan=False, allow_subnormal=False, width=32)
vectors = st.lists(floats, min_size=5, max_size=5).map(lambda v: jnp.asarray(v, jnp.float32))
SETTINGS = settings(max_examples=25, deadline=None)
_compiled: dict = {}


def check(f, *args):
    """Eager vs converted under jit; one jitted function per ``f`` (compiled once)."""
    if f not in _compiled:
        _compiled[f] = staged(f)
    assert_same_values(f(*args), _compiled[f](*args))


def mixed(xs, k):
    total = 0.0
    count = 0
    for x in xs:
        if x > k:
            total += x
        elif x < -k and count < 2:
            total -= 2 * x
            count += 1
        else:
            continue
        if total > 20:
            break
    return total if count else -total


@SETTINGS
@given(vectors, floats)
def test_mixed_control_flow(xs, k):
    check(mixed, xs, jnp.float32(k))


@SETTINGS
@given(vectors)
def test_loops_with_break_and_return(xs):
    for f in (for_break, first_negative, return_in_scan, static_range_traced_break):
        check(f, xs)


@SETTINGS
@given(st.integers(-5, 60), floats)
def test_while_loops(n, x):
    check(early_return_in_while, jnp.int32(n))
    check(range_break, jnp.int32(n))
    check(handed_over, jnp.float32(x))
    check(sign, jnp.float32(x))
