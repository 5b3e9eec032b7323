"""JAX-specific staged state, eagerly on concrete arrays vs ``jax.jit(ag.convert(f))``:
registered pytrees, ``.at[].set`` item assignment, concrete JAX arrays running as
Python. The constructs themselves are tested once, on every backend, in
tests/conformance/."""

from __future__ import annotations

import dataclasses

import jax
import jax.numpy as jnp
import pytest
from jax_helpers import assert_matches_eager, assert_same_values, staged

# ------------------------------------------------------------ pytree state


@jax.tree_util.register_dataclass
@dataclasses.dataclass
class Particle:
    pos: jax.Array
    vel: jax.Array


def dict_state(x):
    d = {"a": x, "b": 0}
    for _ in range(3):
        d["a"] = d["a"] * 2
    i = 0
    while d["a"] < 100:
        d = {"a": d["a"] + 7, "b": d["b"] + 1}
        i += 1
    if x > 1:
        d = {"a": d["a"] + 1, "b": d["b"]}
    return d["a"], d["b"], i


def tuple_and_list_state(x):
    pair = (x, x + 1)
    items = [x, 2 * x]
    while pair[0] < 50:
        pair = (pair[0] * 2, pair[1])
        items = [items[1], items[0] + 1]
    return pair, items


def particle_steps(p, dt):
    while p.pos < 10.0:
        p = Particle(p.pos + dt * p.vel, p.vel * 1.1)
    if p.vel > 3.0:
        p = Particle(p.pos, jnp.minimum(p.vel, 3.0))
    return p


def test_dict_state():
    assert_matches_eager(dict_state, jnp.float32(3.0))
    assert_matches_eager(dict_state, jnp.float32(0.5))


def test_tuple_and_list_state():
    assert_matches_eager(tuple_and_list_state, jnp.float32(1.5))


def test_dataclass_pytree_state():
    p = Particle(jnp.float32(0.0), jnp.float32(1.0))
    assert_matches_eager(particle_steps, p, jnp.float32(0.5))


# ------------------------------------------------------------ in-place updates


def fill(x):
    y = jnp.zeros(4)
    for i in range(4):
        y[i] = x * i
    y[0] += 5.0
    return y


def fill_traced(xs, n):
    out = jnp.zeros_like(xs)
    for i in range(n):
        out[i] = xs[i] * 2
        out[i] += 1
    return out


def test_setitem_in_static_loop():
    f = staged(fill)
    assert_same_values(jnp.array([5.0, 2.0, 4.0, 6.0]), f(jnp.float32(2.0)))


def test_setitem_in_traced_loop():
    out = staged(fill_traced)(jnp.arange(5.0), jnp.int32(3))
    assert_same_values(jnp.array([1.0, 3.0, 5.0, 0.0, 0.0]), out)


def test_concrete_values_run_as_python():
    # At top level the converted function is the user's own code on concrete arrays.
    import autograph as ag

    def halve_until_odd(n):
        steps = 0
        while n % 2 == 0:
            n = n // 2
            steps += 1
        return steps if n > 1 else -steps

    assert ag.convert(halve_until_odd)(jnp.int32(24)) == 3
    assert ag.convert(halve_until_odd)(jnp.int32(8)) == -3


def fill_list_and_constant(x):
    items = [0.0, 0.0]
    items[1] = x * 2  # a Python list is updated in place
    table = TABLE  # a concrete jax.Array, even under jit
    table[0] = x
    base = jnp.zeros(3)
    base[2] = x
    return items, table, base


TABLE = jnp.arange(3.0)


def test_setitem_with_traced_value_into_list_and_concrete_array():
    items, table, base = staged(fill_list_and_constant)(jnp.float32(5.0))
    assert_same_values([0.0, 10.0], items)
    assert_same_values(jnp.array([5.0, 1.0, 2.0]), table)
    assert_same_values(jnp.array([0.0, 0.0, 5.0]), base)


# ------------------------------------------------------------ bfloat16


def python_float_joined_with_bfloat16(x):
    y = 0.0
    if x.sum() > 0:
        y = x.sum()
    s = 0
    for v in x:
        s = s + v
    return y, s


def test_a_python_number_joined_with_a_bfloat16_value_takes_its_type():
    """ml_dtypes' bfloat16 is kind 'V' to NumPy: a Python float beside it was refused."""
    for sign in (1, -1):
        x = sign * jnp.ones(3, jnp.bfloat16)
        got = staged(python_float_joined_with_bfloat16)(x)
        assert [v.dtype for v in got] == [jnp.bfloat16, jnp.bfloat16]
        assert_matches_eager(python_float_joined_with_bfloat16, x)
