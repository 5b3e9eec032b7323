"""Error messages, pinned exactly: construct, user's file:line, variable, what differed, fix."""

from __future__ import annotations

import contextlib

import jax
import jax.numpy as jnp
import pytest
from jax_helpers import at, staged

from autograph import StagingError


@contextlib.contextmanager
def raises(exc, message):
    """The exception's message is exactly ``message`` (JAX may add a note after it)."""
    with pytest.raises(exc) as info:
        yield
    assert str(info.value) == message


def defined_in_one_branch(x):
    if x > 0:
        y = x
    return y


def test_defined_in_one_branch():
    where = at(defined_in_one_branch, "if x > 0:")
    with raises(StagingError, (
        f"if statement at {where}: 'y' is assigned in the true branch but not in the false "
        f"branch, and the condition is a staged value, so both branches run in the graph. "
        f"Assign 'y' before the if statement, or in both branches.")):
        staged(defined_in_one_branch)(1.0)


def defined_in_else_only(x):
    if x > 0:
        pass
    else:
        y = x
    return y


def test_defined_in_else_only():
    where = at(defined_in_else_only, "if x > 0:")
    with raises(StagingError, (
        f"if statement at {where}: 'y' is assigned in the false branch but not in the true "
        f"branch, and the condition is a staged value, so both branches run in the graph. "
        f"Assign 'y' before the if statement, or in both branches.")):
        staged(defined_in_else_only)(1.0)


def branch_dtypes(x):
    if x > 0:
        y = jnp.int32(1)
    else:
        y = jnp.float32(2)
    return y


def test_branch_dtype_mismatch():
    where = at(branch_dtypes, "if x > 0:")
    with raises(StagingError, (
        f"if statement at {where}: 'y' is int32[] in the true branch but float32[] in the "
        f"false branch; a staged condition needs the same type and structure on both sides. "
        f"Convert one side so they match.")):
        staged(branch_dtypes)(1.0)


def branch_structures(x):
    if x > 0:
        y = (x, x)
    else:
        y = x
    return y


def test_branch_structure_mismatch():
    where = at(branch_structures, "if x > 0:")
    with raises(StagingError, (
        f"if statement at {where}: 'y' is a tuple with structure PyTreeDef((*, *)) in the "
        f"true branch but float32[] in the false branch; a staged condition needs the same "
        f"type and structure on both sides. Convert one side so they match.")):
        staged(branch_structures)(jnp.float32(1.0))


def loop_dtype_changes(n):
    x = jnp.int32(1)
    while n > 0:
        x = x * 1.5
        n -= 1
    return x


def test_loop_dtype_change():
    where = at(loop_dtype_changes, "while n > 0:")
    with raises(StagingError, (
        f"while loop at {where}: 'x' is int32[] before the loop but weakly typed float32[] "
        f"after one iteration; a staged loop must keep each variable's type and shape. Give "
        f"'x' its final dtype and shape before the loop (e.g. with astype).")):
        staged(loop_dtype_changes)(3)


def loop_shape_changes(x):
    y = jnp.zeros(2)
    while x > 1:
        x = x / 2
        y = jnp.concatenate([y, y])
    return y


def test_loop_shape_change():
    where = at(loop_shape_changes, "while x > 1:")
    with raises(StagingError, (
        f"while loop at {where}: 'y' is float32[2] before the loop but float32[4] after one "
        f"iteration; a staged loop must keep each variable's type and shape. Give 'y' its "
        f"final dtype and shape before the loop (e.g. with astype).")):
        staged(loop_shape_changes)(8.0)


def loop_structure_changes(xs):
    acc = (0.0,)
    for x in xs:
        acc = acc + (x,)
    return acc


def test_loop_structure_change():
    where = at(loop_structure_changes, "for x in xs:")
    with raises(StagingError, (
        f"for loop at {where}: 'acc' is a tuple with structure PyTreeDef((*,)) before the "
        f"loop but a tuple with structure PyTreeDef((*, *)) after one iteration; a staged "
        f"loop must keep each variable's type and shape. Give 'acc' its final dtype and "
        f"shape before the loop (e.g. with astype).")):
        staged(loop_structure_changes)(jnp.ones(3))


def loop_dict_leaf_changes(x):
    d = {"a": x}
    while x > 0:
        x -= 1
        d = {"a": jnp.int32(1)}
    return d


def test_loop_change_names_the_leaf():
    where = at(loop_dict_leaf_changes, "while x > 0:")
    with raises(StagingError, (
        f"while loop at {where}: 'd['a']' is float32[] before the loop but int32[] after one "
        f"iteration; a staged loop must keep each variable's type and shape. Give 'd['a']' "
        f"its final dtype and shape before the loop (e.g. with astype).")):
        staged(loop_dict_leaf_changes)(jnp.float32(2.0))


def first_defined_in_loop(n):
    i = 0
    while i < n:
        z = i * 2
        i += 1
    return z


def test_first_defined_in_loop():
    where = at(first_defined_in_loop, "while i < n:")
    with raises(StagingError, (
        f"while loop at {where}: 'z' is first assigned inside the loop and used after it, "
        f"but the loop runs in the graph, where it may run zero times. Assign 'z' before "
        f"the loop.")):
        staged(first_defined_in_loop)(3)


def first_defined_in_for(xs):
    for x in xs:
        last = x
    return last


def test_first_defined_in_for_loop():
    where = at(first_defined_in_for, "for x in xs:")
    with raises(StagingError, (
        f"for loop at {where}: 'last' is first assigned inside the loop and used after it, "
        f"but the loop runs in the graph, where it may run zero times. Assign 'last' before "
        f"the loop.")):
        staged(first_defined_in_for)(jnp.ones(3))


def vector_condition(x):
    if x > 0:
        x = -x
    return x


def test_non_scalar_condition():
    where = at(vector_condition, "if x > 0:")
    with raises(StagingError, (
        f"if statement at {where}: the condition is a bool[3] array, but a staged condition "
        f"must be a single value (the truth value of an array with several elements is "
        f"ambiguous). Reduce it with .any() or .all().")):
        staged(vector_condition)(jnp.ones(3))


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


def returns_differ(x):
    if x > 0:
        return x
    return (x, x)


def test_return_values_that_differ_are_called_the_return_value():
    where = at(returns_differ, "if x > 0:")
    with raises(StagingError, (
        f"if statement at {where}: the return value is float32[] in the true branch but a tuple "
        f"with structure PyTreeDef((*, *)) in the false branch; a staged condition needs the same "
        f"type and structure on both sides. Convert one side so they match.")):
        staged(returns_differ)(jnp.float32(1.0))


def picks_a_function(x):
    if x > 0:
        def h(v):
            return v + 1
    else:
        def h(v):
            return v - 1
    return h(x)


def test_different_python_objects_in_each_branch():
    where = at(picks_a_function, "if x > 0:")
    with raises(StagingError, (
        f"if statement at {where}: 'h' is a different Python function in each branch, and the "
        f"condition is a staged value: a graph chooses between arrays, not between Python "
        f"objects. Make that choice with a Python condition, or compute an array in both "
        f"branches.")):
        staged(picks_a_function)(jnp.float32(1.0))


def grows_a_list(x):
    out = []
    i = 0
    while i < x:
        out.append(i)
        i += 1
    return out


def test_a_list_grown_in_a_staged_loop_is_named():
    where = at(grows_a_list, "while i < x:")
    with raises(StagingError, (
        f"while loop at {where}: 'out' is a list of 0 items before the loop but 1 after one "
        f"iteration; a staged loop cannot change a list's length (it runs as one graph op). "
        f"Write into an array made before the loop instead (out = np.zeros(n); out[i] = v), "
        f"or loop over a Python range so the loop unrolls.")):
        staged(grows_a_list)(jnp.int32(3))
