"""What the backend stages (``make_jaxpr``), and ``grad``/``vmap`` through converted code."""

from __future__ import annotations

import os
import sys

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from jax_helpers import assert_close, assert_same_values, primitives, staged

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                                "conformance"))
from test_constructs import (  # noqa: E402  the constructs every backend runs
    abs_twice,
    collatz,
    early_return,
    for_break,
    handed_over,
    sign,
    static_range_traced_break,
    sum_squares,
    traced_range,
)

import autograph as ag

# ------------------------------------------------------------ staged primitives


def polynomial(xs, x):
    acc = 0.0
    for c in xs:
        acc = acc * x + c
    return acc


def test_if_is_a_cond():
    prims = primitives(jax.make_jaxpr(ag.convert(sign))(1.0))
    assert prims.count("cond") == 2  # if and elif


def collatz_where(n):
    steps = 0
    while n != 1:
        n = jnp.where(n % 2 == 0, n // 2, 3 * n + 1)
        steps += 1
    return steps


def test_while_is_one_while_loop():
    prims = primitives(jax.make_jaxpr(ag.convert(collatz_where))(27))
    assert prims.count("while") == 1
    assert "cond" not in prims


@pytest.mark.parametrize("n", [4, 400])
def test_for_over_array_is_one_scan_not_unrolled(n):
    prims = primitives(jax.make_jaxpr(ag.convert(polynomial))(jnp.ones(n), 2.0))
    assert prims.count("scan") == 1
    assert prims.count("mul") == 1  # the body once, whatever the length


def test_traced_range_is_a_while_loop():
    prims = primitives(jax.make_jaxpr(ag.convert(traced_range))(3, 20))
    assert prims.count("while") == 3


def test_break_in_scan_guards_each_step_with_a_cond():
    prims = primitives(jax.make_jaxpr(ag.convert(for_break))(jnp.ones(5)))
    assert prims.count("scan") == 1
    assert "while" not in prims
    assert "cond" in prims


def test_static_range_is_unrolled():
    def three(x):
        for _ in range(3):
            x = x * 2.0
        return x

    prims = primitives(jax.make_jaxpr(ag.convert(three))(1.0))
    assert prims.count("mul") == 3
    assert not {"while", "scan"} & set(prims)


def test_python_values_stage_nothing():
    def count(n):
        total = 0
        while n > 0:
            total += n
            n -= 1
        return total

    # n is a Python int (static): the loop runs in Python while tracing.
    jaxpr = jax.make_jaxpr(lambda: ag.convert(count)(4))()
    assert primitives(jaxpr) == []
    assert jax.jit(lambda: ag.convert(count)(4))() == 10


# ------------------------------------------------------------ grad


@pytest.mark.parametrize("x, expected", [(-2.0, -2.0), (3.0, 2.0)])
def test_grad_through_cond(x, expected):
    assert jax.grad(ag.convert(abs_twice))(x) == expected
    assert jax.jit(jax.grad(ag.convert(abs_twice)))(x) == expected


@pytest.mark.parametrize("x, expected", [(2.0, 1.0), (-2.0, 3.0)])
def test_grad_through_early_return(x, expected):
    assert jax.grad(ag.convert(early_return))(x) == expected


def test_grad_through_scan():
    xs = jnp.arange(5.0)
    assert_same_values(2 * xs, jax.grad(ag.convert(sum_squares))(xs))
    grad_poly = jax.jit(jax.grad(ag.convert(polynomial), argnums=(0, 1)))
    d_xs, d_x = grad_poly(jnp.array([1.0, 2.0, 3.0]), 2.0)
    assert_close([4.0, 2.0, 1.0], d_xs)  # acc = x^2 + 2x + 3
    assert d_x == 6.0


def test_grad_through_scan_with_break():
    xs = jnp.array([1.0, 2.0, -1.0, 5.0])
    assert_close([1.0, 1.0, 0.0, 0.0], jax.jit(jax.grad(ag.convert(for_break)))(xs))


def test_grad_through_static_loop_with_traced_break():
    xs = jnp.array([1.0, 2.0, -1.0, 5.0, 3.0])
    g = jax.grad(ag.convert(static_range_traced_break))(xs)
    assert_close([1.0, 1.0, 0.0, 0.0, 0.0], g)


def test_forward_mode_through_while_loop():
    def power_until(x):
        y = x
        while y < 100.0:
            y = y * x
        return y

    # x = 3: y = 3^5 = 243, d/dx x^5 = 5 x^4 = 405
    assert jax.jvp(ag.convert(power_until), (3.0,), (1.0,))[1] == 405.0


# ------------------------------------------------------------ vmap


def test_vmap_cond():
    xs = jnp.array([-2.0, 0.0, 3.0])
    assert_close([-1.0, 0.0, 1.0], jax.vmap(ag.convert(sign))(xs))


def test_vmap_while_with_batched_test():
    ns = jnp.array([1, 6, 27, 97])
    expected = [collatz(n) for n in ns]
    assert_close(expected, jax.jit(jax.vmap(ag.convert(collatz)))(ns))


def test_vmap_handed_over_loop():
    xs = jnp.array([0.5, 1.0, 3.0, 0.0])
    assert_close([handed_over(x) for x in xs], jax.vmap(ag.convert(handed_over))(xs))


def test_vmap_scan_with_break():
    batch = jnp.array([[1.0, 2.0, -1.0, 5.0], [1.0, 1.0, 1.0, 1.0]])
    assert_close([3.0, 4.0], jax.vmap(ag.convert(for_break))(batch))


def test_vmap_of_grad():
    xs = jnp.array([-2.0, 3.0])
    assert_close([-2.0, 2.0], jax.vmap(jax.grad(ag.convert(abs_twice)))(xs))


def test_jit_twice_reuses_the_trace():
    f = staged(collatz)
    assert f(27) == 111
    assert f(np.int32(6)) == 8


# ------------------------------------------------------------ bounded while loops (issue 29)


def newton_sqrt(a, tol):
    x = a
    while abs(x * x - a) > tol:
        ag.set_loop_options(maximum_iterations=20)
        x = (x + a / x) / 2
    return x


def newton_sqrt_unbounded(a, tol):
    x = a
    while abs(x * x - a) > tol:
        x = (x + a / x) / 2
    return x


def test_grad_through_a_bounded_while():
    f = ag.convert(newton_sqrt)
    g = jax.jit(jax.grad(f))(jnp.float32(2.0), jnp.float32(1e-6))
    assert abs(float(g) - 0.5 / np.sqrt(2.0)) < 1e-4
    assert "while" not in primitives(jax.make_jaxpr(f)(jnp.float32(2.0), jnp.float32(1e-6)))


def test_grad_through_an_unbounded_while_names_the_option():
    f = ag.convert(newton_sqrt_unbounded)
    with pytest.raises(ValueError) as info:
        jax.grad(jax.jit(f))(jnp.float32(2.0), jnp.float32(1e-6))
    text = str(info.value)
    assert text.startswith("Reverse-mode differentiation does not work for lax.while_loop")
    assert text.endswith(
        "\nautograph: a staged while loop (or a for loop over a range with traced bounds) becomes "
        "a lax.while_loop; write ag.set_loop_options(maximum_iterations=N) as the first "
        "statement of the loop to make it a bounded loop that jax.grad can reverse.")


def compound(x, n):
    for i in range(n):
        ag.set_loop_options(maximum_iterations=10)
        x = x * 1.5
    return x


def test_grad_through_a_bounded_for_over_a_traced_range():
    f = jax.jit(ag.convert(compound))
    assert float(jax.grad(f)(2.0, 3)) == 1.5 ** 3
