"""Staging errors, pinned once and checked on every backend: the same mistake gives
the same text everywhere. Each names the construct and its line, the exact leaf
that differs (``'x["a"]["b"]'``, ``'state[1]'``), what differed and the fix."""

import numpy as np
import pytest

import autograph as ag

BOTH = "and the condition is a staged value, so both branches run in the graph."
MATCH = "a staged condition needs the same type and structure on both sides. Convert one side so they match."
KEEP = "a staged loop must keep each variable's type and shape."


def one_branch(x):
    if x > 0:
        y = x
    return y


def else_only(x):
    if x > 0:
        pass
    else:
        y = x
    return y


def test_defined_in_one_branch(backend):
    if backend.raises_at_run_time:  # the graph carries whether it was assigned (issue 22)
        unbound = "^cannot access local variable 'y' where it is not associated with a value$"
        backend.check(one_branch, np.float32(1))
        backend.check_raises(one_branch, UnboundLocalError, unbound, np.float32(-1))
        backend.check(else_only, np.float32(-1))
        backend.check_raises(else_only, UnboundLocalError, unbound, np.float32(1))
        return
    where = backend.at(one_branch, "if x > 0:")
    assert backend.staging_error(one_branch, np.float32(1)) == (
        f"if statement at {where}: 'y' is defined in the true branch only, {BOTH} "
        f"Define 'y' before the if statement, or in both branches.")
    where = backend.at(else_only, "if x > 0:")
    assert backend.staging_error(else_only, np.float32(1)) == (
        f"if statement at {where}: 'y' is defined in the false branch only, {BOTH} "
        f"Define 'y' before the if statement, or in both branches.")


def captured_in_one_branch(x):
    if x > 0:
        y = x
    g = lambda: y
    return g()


def test_captured_variable_defined_in_one_branch(backend):
    where = backend.at(captured_in_one_branch, "if x > 0:")
    assert backend.staging_error(captured_in_one_branch, np.float32(1)) == (
        f"if statement at {where}: 'y' is defined in the true branch only, {BOTH} "
        f"Define 'y' before the if statement, or in both branches.")


def nested_key_added(a):
    x = {"a": {"a": a}}
    if x["a"]["a"] > 0:
        x["a"]["b"] = 1
    return x


def nested_key_set_in_both(a):
    x = {"a": {"a": a}}
    if x["a"]["a"] > 0:
        x["a"]["b"] = a
    else:
        x["a"]["b"] = a * 2
    return x


def test_a_key_added_in_one_branch_names_its_path(backend):
    """Issue 9 item 2: the key must not leak into the other branch."""
    where = backend.at(nested_key_added, 'if x["a"]["a"] > 0:')
    assert backend.staging_error(nested_key_added, np.int32(0)) == (
        f"if statement at {where}: 'x[\"a\"][\"b\"]' is defined in the true branch only, "
        f"{BOTH} Define 'x[\"a\"][\"b\"]' before the if statement, or in both branches.")
    backend.check(nested_key_set_in_both, np.int32(0))
    backend.check(nested_key_set_in_both, np.int32(3))


def dicts_differ(x):
    d = {"a": {"b": x}}
    if x > 0:
        d = {"a": {"b": x, "c": x}}
    return d


def test_dicts_that_differ_name_the_key(backend):
    where = backend.at(dicts_differ, "if x > 0:")
    assert backend.staging_error(dicts_differ, np.float32(1)) == (
        f"if statement at {where}: 'd[\"a\"][\"c\"]' is defined in the true branch only, "
        f"{BOTH} Define 'd[\"a\"][\"c\"]' before the if statement, or in both branches.")


def reads_key_of_other_branch(x):
    d = {}
    if x > 0:
        d["k"] = x
    else:
        d["m"] = d["k"] + 1
    return x


def test_reading_a_key_only_the_other_branch_defines(backend):
    where = backend.at(reads_key_of_other_branch, "if x > 0:")
    assert backend.staging_error(reads_key_of_other_branch, np.float32(1)) == (
        f"if statement at {where}: a branch reads 'd[\"k\"]', which only the other branch "
        f"defines; the condition is a staged value, so both branches run in the graph. "
        f"Define 'd[\"k\"]' before the if statement.")


def branch_dtypes(x, xp):
    if x > 0:
        y = xp.asarray(x, dtype=xp.int32)
    else:
        y = xp.asarray(x, dtype=xp.float32)
    return y


def branch_structures(x):
    if x > 0:
        y = (x, x)
    else:
        y = x
    return y


def returns_differ(x):
    if x > 0:
        return x
    return (x, x)


def test_branches_that_differ(backend):
    where = backend.at(branch_dtypes, "if x > 0:")
    assert backend.staging_error(branch_dtypes, np.float32(1), xp=backend.xp) == (
        f"if statement at {where}: 'y' is int32[] in the true branch but float32[] in the "
        f"false branch; {MATCH}")
    where = backend.at(branch_structures, "if x > 0:")
    assert backend.staging_error(branch_structures, np.float32(1)) == (
        f"if statement at {where}: 'y' is a tuple of 2 items in the true branch but float32[] "
        f"in the false branch; {MATCH}")
    where = backend.at(returns_differ, "if x > 0:")
    assert backend.staging_error(returns_differ, np.float32(1)) == (
        f"if statement at {where}: the return value is float32[] in the true branch but a "
        f"tuple of 2 items in the false branch; {MATCH}")


def picks_a_function(x):
    if x > 0:
        def h(v):
            return v + 1
    else:
        def h(v):
            return v - 1
    return h(x)


def test_different_python_objects_in_each_branch(backend):
    where = backend.at(picks_a_function, "if x > 0:")
    assert backend.staging_error(picks_a_function, np.float32(1)) == (
        f"if statement at {where}: 'h' is a different Python function in each branch, and the "
        f"condition is a staged value: a graph chooses between arrays, not between Python "
        f"objects. Make that choice with a Python condition, or compute an array in both "
        f"branches.")


def vector_condition(x):
    if x > 0:
        x = -x
    return x


def test_non_scalar_condition(backend):
    where = backend.at(vector_condition, "if x > 0:")
    assert backend.staging_error(vector_condition, np.ones(3, np.float32)) == (
        f"if statement at {where}: the condition is a bool[3] array, but a staged condition "
        f"must be a single value (the truth value of an array with several elements is "
        f"ambiguous). Reduce it with .any() or .all().")


# ---------------------------------------------------------------- loops


def state_dtype_changes(n, x, xp):
    state = (n, x)
    while state[0] > 0:
        state = (state[0] - 1, xp.asarray(state[1], dtype=xp.float32))
    return state


def test_a_loop_variable_that_changes_dtype_names_the_leaf(backend):
    where = backend.at(state_dtype_changes, "while state[0] > 0:")
    assert backend.staging_error(state_dtype_changes, np.int32(2), np.int32(1),
                                 xp=backend.xp) == (
        f"while loop at {where}: 'state[1]' is int32[] before the loop but float32[] after one "
        f"iteration; {KEEP} Give 'state[1]' its final dtype and shape before the loop (e.g. "
        f"with astype).")


def dict_leaf_changes(x, xp):
    d = {"a": x}
    while x > 0:
        x -= 1
        d = {"a": xp.asarray(x, dtype=xp.int32)}
    return d


def test_a_dict_leaf_that_changes_is_named(backend):
    where = backend.at(dict_leaf_changes, "while x > 0:")
    assert backend.staging_error(dict_leaf_changes, np.float32(2), xp=backend.xp) == (
        f"while loop at {where}: 'd[\"a\"]' is float32[] before the loop but int32[] after one "
        f"iteration; {KEEP} Give 'd[\"a\"]' its final dtype and shape before the loop (e.g. "
        f"with astype).")


def shape_changes(x, y, xp):
    while x > 1:
        x = x / 2
        y = xp.concatenate([y, y])
    return y


def structure_changes(xs):
    acc = (xs[0],)
    for x in xs:
        acc = acc + (x,)
    return acc


def test_a_loop_variable_that_changes_shape_or_structure(backend):
    where = backend.at(shape_changes, "while x > 1:")
    if backend.name == "tensorflow":  # TensorFlow's rule: only where shape_invariants says
        text = backend.staging_error(shape_changes, np.float32(8), np.zeros(2, np.float32),
                                     xp=backend.xp)
        assert text == (
            f"while loop at {where}: 'y' is float32[2] before the loop but float32[4] after "
            f"one iteration; tensorflow keeps a loop variable's shape unless the loop is given "
            f"one that may change. Write ag.set_loop_options(shape_invariants=[(y, (None,))]) "
            f"as the first statement of the loop (None: a dimension that changes), or append "
            f"the pieces to a list (parts.append(x)) and concatenate them after the loop.")
    elif backend.engine == "numpy":  # run-time dimensions where the shape changes (issue 29)
        backend.check(shape_changes, np.float32(8), np.zeros(2, np.float32), xp=backend.xp)
    else:
        text = backend.staging_error(shape_changes, np.float32(8), np.zeros(2, np.float32),
                                     xp=backend.xp)
        assert text == (
            f"while loop at {where}: 'y' is float32[2] before the loop but float32[4] after "
            f"one iteration; {backend.name} needs a loop variable to keep its shape. Append "
            f"the pieces to a list (parts.append(x)) and concatenate them after the loop, or "
            f"write into an array of the final shape made before the loop.")
    where = backend.at(structure_changes, "for x in xs:")
    assert backend.staging_error(structure_changes, np.ones(3, np.float32)) == (
        f"for loop at {where}: 'acc' is a tuple of 1 item before the loop but a tuple of 2 "
        f"items after one iteration; {KEEP} Give 'acc' its final dtype and shape before the "
        f"loop (e.g. with astype).")


def first_defined_in_while(n):
    i = 0
    while i < n:
        z = i * 2
        i += 1
    return z


def first_defined_in_for(xs):
    for x in xs:
        last = x
    return last


def test_first_defined_inside_a_loop(backend):
    if backend.raises_at_run_time:  # carried with a run-time flag (test_loop_maybe_none.py)
        backend.check(first_defined_in_while, np.int32(3))
        backend.check_raises(first_defined_in_while, UnboundLocalError, "'z'", np.int32(0))
        return
    def refused(fn, line, name):
        construct = line.split()[0]
        return (f"{construct} loop at {backend.at(fn, line)}: '{name}' is first assigned inside "
                f"the loop and used after it, but the loop runs in the graph, where it may run "
                f"zero times. Assign '{name}' before the loop.")

    assert backend.staging_error(first_defined_in_while, np.int32(3)) == refused(
        first_defined_in_while, "while i < n:", "z")
    # a for over a static nonzero length runs its first trip: 'last' is assigned
    backend.check(first_defined_in_for, np.ones(3, np.float32))
    try:  # no trip: refused (or eager's own error where the trace runs no loop)
        backend.staged(first_defined_in_for, np.ones(0, np.float32))
    except ag.StagingError as error:
        assert str(error) == refused(first_defined_in_for, "for x in xs:", "last")
    except UnboundLocalError as error:
        assert "'last'" in str(error)
    else:
        raise AssertionError("no error for a loop that ran no trip")


def grows_a_list(x):
    out = []
    i = 0
    while i < x:
        out.append(i)
        i += 1
    return out


def test_a_list_grown_in_a_staged_loop_is_named(backend):
    refusal = backend.unbounded_list(grows_a_list, "out.append(i)", "while i < x:")
    if refusal is not None:  # a buffer of a bound known when the loop starts (XLA, torch)
        assert backend.staging_error(grows_a_list, np.int32(3)) == refusal
        return
    refusal = backend.returned_list(grows_a_list, "out", "while i < x:")
    if refusal is not None:  # a tf.function returns tensors: the list is refused
        assert backend.staging_error(grows_a_list, np.int32(3)) == refusal
        return
    if not backend.pads_lists:  # collected with a run-time length (issue 29)
        backend.check(grows_a_list, np.int32(3))
        return
    where = backend.at(grows_a_list, "while i < x:")
    assert backend.staging_error(grows_a_list, np.int32(3)) == (
        f"while loop at {where}: the loop appends to 'out', and how many times it runs is "
        f"known only at run time (a while loop, a break, a range with staged bounds); "
        f"{backend.name} needs static shapes. Write ag.set_loop_options(maximum_iterations=N) "
        f"as the first statement of the loop: 'out' then holds N items per append, those past "
        f"len(out) zeros.")


def python_float_becomes_int_array(k, p):
    z = 2.5
    for i in range(k):
        z = (np.int32(2) - p[1] // 2) % 7
    return z


def python_int_becomes_float_array(k, p):
    z = 2
    for i in range(k):
        z = p[0] * 0.5
    return z


def test_a_python_number_carried_into_an_array_keeps_its_value(backend):
    """Issue 19 item 6: a Python float may not become an int array (2.5 would be lost
    when the loop runs zero times); an int may become a float array."""
    where = backend.at(python_float_becomes_int_array, "for i in range(k):")
    p = np.array([3, 4], np.int32)
    assert backend.staging_error(python_float_becomes_int_array, np.int32(0), p) == (
        f"for loop at {where}: 'z' is a Python float (2.5) before the loop but int32[] after "
        f"one iteration; {KEEP} Give 'z' its final dtype and shape before the loop (e.g. with "
        f"astype).")
    q = np.array([3.0, 4.0], np.float32)
    for k in (0, 2):
        out = backend.staged(python_int_becomes_float_array, np.int32(k), q)
        assert float(out) == (2.0 if k == 0 else 1.5)


@pytest.mark.parametrize("n", [0, 1, 3])
def test_a_deep_composite_updated_in_a_staged_loop_is_carried(backend, n):
    """Issue 9 item 6: ``tc.x['z'].x += 1`` in a staged loop under a staged if."""
    backend.check(deep_composite, np.int32(n))


class Box:
    def __init__(self, x):
        self.x = x


def deep_composite(n):
    tc = Box({"z": Box(n * 0)})
    if n < 2:
        while n > 0:
            tc.x["z"].x += 1
            n -= 1
    return tc.x["z"].x


def key_added_in_loop(n):
    d = {"a": n}
    while n > 0:
        d["b"] = n
        n -= 1
    return d["a"]


def test_a_key_first_added_in_a_staged_loop(backend):
    where = backend.at(key_added_in_loop, "while n > 0:")
    assert backend.staging_error(key_added_in_loop, np.int32(2)) == (
        f"while loop at {where}: 'd[\"b\"]' is first assigned inside the loop and used after "
        f"it, but the loop runs in the graph, where it may run zero times. Assign 'd[\"b\"]' "
        f"before the loop.")


def nan_on_one_side(a, b):
    if a == b:
        return float("nan")
    return a - b


def test_python_nan_joins_a_float_array(backend):
    """A Python NaN keeps its value as a float array: no 'value lost' refusal."""
    backend.check(nan_on_one_side, np.float32(1.0), np.float32(1.0))
    backend.check(nan_on_one_side, np.float32(2.0), np.float32(1.0))


def picks_a_function_in_an_expression(x):
    h = np.sin if x > 0 else np.cos
    return h(x)


def test_different_python_objects_in_a_conditional_expression(backend):
    where = backend.at(picks_a_function_in_an_expression, "h = np.sin if x > 0 else np.cos")
    assert backend.staging_error(picks_a_function_in_an_expression, np.float32(1)) == (
        f"conditional expression at {where}: the conditional expression is a different Python "
        f"ufunc in each branch, and the condition is a staged value: a graph chooses between "
        f"arrays, not between Python objects. Make that choice with a Python condition, or "
        f"compute an array in both branches.")
