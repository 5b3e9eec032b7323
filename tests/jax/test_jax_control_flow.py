"""Differential tests: each function eagerly on concrete arrays vs ``jax.jit(ag.convert(f))``.

Eagerly, JAX arrays are concrete and Python control flow on them just works; under
``jit`` the same source must give the same answers through the JAX backend.
"""

from __future__ import annotations

import dataclasses

import jax
import jax.numpy as jnp
import pytest
from jax_helpers import assert_matches_eager, assert_same_values, staged


# ------------------------------------------------------------ conditionals


def sign(x):
    if x > 0:
        s = 1.0
    elif x < 0:
        s = -1.0
    else:
        s = 0.0
    return s


def abs_twice(x):
    if x < 0:
        x = -x
    return x * 2


def ternary(x):
    return x * 2 if x > 0 else x - 1


def logic(x, y):
    return (x > 0 and y > 0) or not (x < -5)


def short_circuit(xs, i):
    # The right operand must not run when the left decides: here it would divide by 0.
    return i > 0 and 10 // i > 2


def early_return(x):
    if x > 0:
        return x
    x = x * 3
    return x - 1


def return_in_elif(x):
    if x > 10:
        return 2 * x
    elif x > 0:
        return x
    return -x


def python_cond_inside(x, flag):
    # ``flag`` is a Python bool: its if runs as Python, x's as lax.cond.
    if flag:
        y = x + 1
    else:
        y = x - 1
    if y > 0:
        y = y * 10
    return y


def int_float_branches(x):
    if x > 0:
        y = 1
    else:
        y = 0.5
    return y + x


def same_python_value(x):
    k = 3
    if x > 0:
        x = x + 1
    else:
        k = 3
    return x * k


@pytest.mark.parametrize("x", [-2.0, 0.0, 3.5])
@pytest.mark.parametrize("f", [sign, abs_twice, ternary, early_return, return_in_elif,
                               int_float_branches, same_python_value])
def test_conditionals(f, x):
    assert_matches_eager(f, jnp.float32(x))


@pytest.mark.parametrize("x, y", [(1.0, 2.0), (-1.0, 2.0), (-7.0, -1.0), (2.0, -3.0)])
def test_and_or_not(x, y):
    assert_matches_eager(logic, jnp.float32(x), jnp.float32(y))


@pytest.mark.parametrize("i", [0, 1, 5])
def test_short_circuit_keeps_right_operand_lazy(i):
    assert_matches_eager(short_circuit, jnp.zeros(3), jnp.int32(i))


@pytest.mark.parametrize("flag", [True, False])
def test_python_and_traced_conditions_mix(flag):
    f = staged(python_cond_inside)
    for x in (-3.0, 0.5, 4.0):
        assert_same_values(python_cond_inside(jnp.float32(x), flag),
                           jax.jit(lambda x: f(x, flag))(jnp.float32(x)))


# ------------------------------------------------------------ while loops


def collatz(n):
    steps = 0
    while n != 1:
        n = jnp.where(n % 2 == 0, n // 2, 3 * n + 1)
        steps += 1
    return steps


def newton_sqrt(a):
    x = a
    i = 0
    while abs(x * x - a) > 1e-4 and i < 50:
        x = (x + a / x) / 2
        i += 1
    return x, i


def while_break(x):
    i = 0
    while i < 100:
        x = x * 1.5
        if x > 1000:
            break
        i += 1
    return x, i


def while_continue(n):
    i = 0
    total = 0
    while i < n:
        i += 1
        if i % 3 == 0:
            continue
        total += i
    return total


def handed_over(x):
    # The test starts as a Python comparison; the traced break makes it traced.
    i = 0
    while i < 50:
        if x * i > 10:
            break
        i += 1
    return i


def early_return_in_while(n):
    i = 0
    while i < n:
        if i * i > n:
            return i
        i += 1
    return -1


def nested_loops(n):
    total = 0
    i = 0
    while i < n:
        j = 0
        while j < i:
            if (i + j) % 3 == 0:
                total += i * j
            j += 1
        i += 1
    return total


def weak_promotion(x):
    acc = 0  # a Python int, widened to float32 by the body like a JAX weak type
    while acc < 10:
        acc = acc + x
    return acc


@pytest.mark.parametrize("n", [1, 6, 27])
def test_collatz(n):
    assert_matches_eager(collatz, jnp.int32(n))


@pytest.mark.parametrize("a", [2.0, 9.0, 0.25])
def test_while_with_and(a):
    assert_matches_eager(newton_sqrt, jnp.float32(a))


@pytest.mark.parametrize("f, arg", [
    (while_break, 0.5), (while_break, 2000.0), (while_continue, 10), (while_continue, 0),
    (handed_over, 0.5), (handed_over, 0.0), (early_return_in_while, 20),
    (early_return_in_while, 0), (nested_loops, 9), (weak_promotion, 0.75),
])
def test_while_loops(f, arg):
    assert_matches_eager(f, jnp.asarray(arg))


# ------------------------------------------------------------ for loops


def sum_squares(xs):
    s = 0.0
    for x in xs:
        s = s + x * x
    return s


def rows(m):
    total = jnp.zeros(m.shape[1])
    for row in m:
        total = total + row
    return total


def traced_range(a, b):
    s = 0
    for i in range(a, b, 2):
        s += i
    for i in range(b, a, -3):
        s += i
    for i in range(b):
        s -= 1
    return s


def for_break(xs):
    s = 0.0
    for x in xs:
        if x < 0:
            break
        s += x
    return s


def range_break(n):
    total = 0
    for i in range(n):
        if total > 20:
            break
        total += i
    return total


def static_range_traced_break(xs):
    s = 0.0
    for i in range(5):
        if xs[i] < 0:
            break
        s += xs[i]
    return s


def first_negative(xs):
    for i in range(xs.shape[0]):
        if xs[i] < 0:
            return i
    return -1


def return_in_scan(xs):
    for x in xs:
        if x > 2:
            return x * 10
    return 0.0


def enumerate_zip(xs, ys):
    t = 0.0
    for i, x in enumerate(xs):
        t += i * x
    for a, b in zip(xs, ys):
        t += a * b
    for i, (a, b) in enumerate(zip(xs, ys), 1):
        t -= i * a + b
    return t


def enumerate_traced_range(n):
    t = 0
    for k, i in enumerate(range(2, n), 10):
        t += k * i
    return t


def for_continue(xs):
    s = 0.0
    for x in xs:
        if x < 0:
            continue
        s += x
    return s


@pytest.mark.parametrize("f, args", [
    (sum_squares, [jnp.arange(5.0)]),
    (rows, [jnp.arange(12.0).reshape(4, 3)]),
    (traced_range, [jnp.int32(3), jnp.int32(20)]),
    (traced_range, [jnp.int32(20), jnp.int32(3)]),
    (for_break, [jnp.array([1.0, 2.0, -1.0, 5.0])]),
    (for_break, [jnp.array([1.0, 2.0])]),
    (range_break, [jnp.int32(100)]),
    (range_break, [jnp.int32(3)]),
    (static_range_traced_break, [jnp.array([1.0, 2.0, -1.0, 5.0, 3.0])]),
    (static_range_traced_break, [jnp.array([1.0, 2.0, 1.0, 5.0, 3.0])]),
    (first_negative, [jnp.array([1.0, 2.0, -3.0, 4.0])]),
    (first_negative, [jnp.array([1.0, 2.0])]),
    (return_in_scan, [jnp.array([1.0, 3.0, 5.0])]),
    (return_in_scan, [jnp.array([1.0, 0.0])]),
    (enumerate_zip, [jnp.arange(4.0), jnp.ones(4)]),
    (enumerate_traced_range, [jnp.int32(7)]),
    (for_continue, [jnp.array([1.0, -2.0, 3.0])]),
])
def test_for_loops(f, args):
    assert_matches_eager(f, *args)


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

    assert_same_values(collatz(jnp.int32(27)), ag.convert(collatz)(jnp.int32(27)))
    assert ag.convert(sign)(jnp.float32(-4.0)) == -1.0


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
