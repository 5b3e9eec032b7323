"""Errors the JAX backend leaves to JAX or to Python (the staging errors are pinned once, in tests/conformance/test_staging_errors.py)."""

from __future__ import annotations

import contextlib

import jax
import pytest
from jax_helpers import staged


@contextlib.contextmanager
def raises(exc, message):
    """The exception's message is exactly ``message`` (JAX may add a note after it)."""
    with pytest.raises(exc) as info:
        yield
    assert str(info.value) == message


def loop_over_scalar(x):
    t = 0.0
    for v in x:
        t += v
    return t


def test_iterating_a_0d_array():
    with raises(TypeError, "iteration over a 0-d array"):
        staged(loop_over_scalar)(2.0)


def float_range(x):
    t = 0
    for i in range(x):
        t += i
    return t


def test_range_of_a_float():
    with raises(TypeError, "'float32' object cannot be interpreted as an integer"):
        staged(float_range)(2.0)


def reverse_mode_through_while(x):
    while x < 10.0:
        x = x * 2.0
    return x


def test_reverse_mode_through_a_staged_while_loop_is_jaxs_error():
    import autograph as ag

    # Without jit the predicate is concrete under grad, so the loop runs as Python;
    # under jit it is a lax.while_loop, which JAX cannot reverse.
    assert jax.grad(ag.convert(reverse_mode_through_while))(1.0) == 16.0
    with pytest.raises(ValueError, match="Reverse-mode differentiation does not work"):
        jax.jit(jax.grad(ag.convert(reverse_mode_through_while)))(1.0)

