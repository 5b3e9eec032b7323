"""Cases the differential fuzzer found in session 12 (tests/fuzz, the features
``containers``, ``views``, ``after_use``, ``counters``, ``state``), each the minimal
program of a seed, run on every backend against the same NumPy code run eagerly."""

import numpy as np

import pytest

import autograph as ag
from test_array_state import _counted, _half  # the counted helper a loop condition calls


def add_into_argument(v, x):
    np.add(v, x, out=v)
    return v * 2.0


def test_out_argument_writes_into_the_callers_array(backend):
    """``np.add(v, x, out=v)`` with ``v`` an argument: the caller's array holds the sum
    afterwards, as ``v += x`` leaves it (the NumPy engine's write was lost: seed 20)."""
    if backend.name == "jax":
        return  # out= needs a NumPy array to write into: eager JAX refuses it too
    v = np.array([1.0, -0.5, 2.0, 3.0])
    eager = v.copy()
    expected = add_into_argument(eager, 1.5)
    staged = backend.asarray(v)
    try:
        result = backend.stage(add_into_argument, (staged, 1.5), {})()
    except ag.StagingError as error:  # an honest refusal names out=
        assert "out=" in str(error)
        return
    backend.numpy_code().assert_same(expected, result)
    backend.numpy_code().assert_same(eager, staged, "argument v")


def counted_in_a_ternary(x):
    k = 0

    def tick():
        nonlocal k
        k += 1
        return k

    y = tick() * x if x > 0 else x
    z = x > 1 and tick() > 0
    w = x < 3 or tick() > 0
    return y, z, w, k


def test_a_counter_a_conditional_expression_calls_counts_only_the_side_taken(backend):
    """A closure counting by ``nonlocal``, called in one operand of a staged ternary,
    ``and`` or ``or``: the count is the side the run takes (both sides counted, seed 15:
    1 where eagerly 0)."""
    for x in (-1.0, 2.0, 5.0):
        backend.check(counted_in_a_ternary, np.float32(x))


def alias_written_in_a_staged_loop(v):
    p = np.zeros(3, np.float32)
    q = p
    for e in v:
        q[1] += e
    return p[1]


def listed_array_written_in_a_staged_loop(v):
    p = np.zeros(3, np.float32)
    params = [p]
    for e in v:
        params[0][1] += e
    return p[1]


def held_array_written_in_a_staged_loop(v):
    p = np.zeros(3, np.float32)
    held = [p]
    for e in v:
        p[1] += e
    return held[0][1]


def dict_item_updated_in_a_staged_loop(v):
    q = np.array([1.0, 2.0, 3.0], np.float32)
    opt = {"q": q}
    for e in v:
        opt["q"] += 0.5
    return q[1]


@pytest.mark.parametrize("fn,holder", [(alias_written_in_a_staged_loop, "p"),
                                       (listed_array_written_in_a_staged_loop, "p"),
                                       (held_array_written_in_a_staged_loop, "held[0]"),
                                       (dict_item_updated_in_a_staged_loop, "q")])
def test_a_staged_loop_writing_a_numpy_array_another_name_reads(backend, fn, holder):
    """A NumPy array made before a staged loop, written in it through one name (a
    variable, a list item) and read after it through another (an alias, the list that
    holds it): the loop carries only the name it writes, so the other would read the old
    contents (0.0 where eagerly 4.0: seed 20062); that is refused, naming both."""
    v = np.array([2.0, 2.0], np.float32)
    expected = fn(v.copy())
    try:
        staged = backend.staged(fn, v)
    except ag.StagingError as error:
        # the NumPy engine names the loop; the others the write in its body
        assert f"'{holder}' holds the same array or one sharing its memory" in str(error)
        return
    type(backend).__mro__[-2].assert_same(backend, expected, staged)  # as NumPy values


def counted_in_a_loop_condition(n):
    k = 0

    def tick():
        nonlocal k
        k += 1
        return k

    c = 0
    while c < 3 and tick() >= n:
        c += 1
    return c, k


def counted_calls_in_a_loop_condition(x):
    ncalls, f = _counted(_half)
    while f(x) > 1.0:
        x = x * 0.5
    return x, ncalls[0]


def counted_calls_tested_in_the_body(x):
    ncalls, f = _counted(_half)
    while True:
        if not f(x) > 1.0:
            break
        x = x * 0.5
    return x, ncalls[0]


def _condition_changes(backend, fn, line, name):
    return (f"while loop at {backend.at(fn, line)}: its condition changes '{name}' (directly or "
            f"in a function it calls), and the condition is a staged value: a staged loop's "
            f"condition gives only its truth, so the change would be lost. Test in the body "
            f"instead (while True: ... if not (condition): break), or make the change outside "
            f"the condition.")


def test_a_staged_loop_condition_that_changes_state_is_refused(backend):
    """A staged ``while`` whose condition calls a function that counts (by ``nonlocal``,
    or in its closure's list): the count changed once, at trace time (1 where eagerly 3,
    and the loop ran 3 times where eagerly none: seed 24152); refused, and the rewrite
    the message gives computes eager's values."""
    assert backend.staging_error(counted_in_a_loop_condition, np.int32(2)) == _condition_changes(
        backend, counted_in_a_loop_condition, "while c < 3 and tick() >= n:", "k")
    assert backend.staging_error(counted_calls_in_a_loop_condition, np.float32(8.0)) == \
        _condition_changes(backend, counted_calls_in_a_loop_condition, "while f(x) > 1.0:", "ncalls[0]")
    backend.check(counted_calls_tested_in_the_body, np.float32(8.0))
    backend.check(counted_calls_tested_in_the_body, np.float32(0.5))


CACHE = {}


def stores_into_a_new_global_list(n):
    CACHE.setdefault("seen", []).append(n * 2)
    return n


def test_a_staged_value_in_a_list_the_trace_added_to_a_global_is_taken_out(backend):
    """The trace puts a new list holding a staged value into a global dict: refused, and
    the dict is put back as it was (the list and its staged value stayed: seed 30045)."""
    CACHE.clear()
    CACHE["kept"] = 1
    with pytest.raises(ag.StagingError):
        backend.staged(stores_into_a_new_global_list, np.int32(3))
    assert CACHE == {"kept": 1}
