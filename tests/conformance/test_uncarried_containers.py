"""Containers a staged construct cannot carry, and arrays held by containers.

A set, a deque, a bytearray, an ``array.array``, a dict/list subclass
(``collections.Counter``) or an iterator (``next(it)``) changed inside a staged ``if`` or loop would change once, at
trace time, whatever the condition says (``seen.add(k)`` happened on both paths: a
silent wrong value); each is a StagingError naming it. A NumPy array also held by a
list, a tuple or a dict sees eagerly what a write into it does: where a staged write
gives only the written name the new value, the container would keep the old contents,
so the write is refused (it was silently lost, even outside staged constructs).
"""

import array
import collections

import numpy as np
import pytest

import autograph as ag


def set_in_branch(x):
    seen = {1}
    if x.sum() > 0:
        seen.add(2)
    return x * len(seen)


def counter_in_branch(x):
    counts = collections.Counter()
    if x.sum() > 0:
        counts["a"] += 1
    return x * counts["a"]


def deque_in_branch(x):
    q = collections.deque([1.0])
    if x.sum() > 0:
        q.append(2.0)
    return x * len(q)


def bytearray_in_branch(x):
    b = bytearray(b"ab")
    if x.sum() > 0:
        b[0] = 120
    return x * b[0]


def array_module_in_branch(x):
    b = array.array("d", [1.0])
    if x.sum() > 0:
        b[0] = 5.0
    return x * b[0]


def set_in_loop(x):
    seen = set()
    i = 0
    while i < x.sum():
        seen.add(1)
        i += 1
    return x * len(seen)


def iterator_in_branch(x):
    it = iter([1.0, 2.0])
    if x.sum() > 0:
        next(it)
    return x * next(it)


def numbers():
    yield 1.0
    yield 2.0


def generator_in_branch(x):
    g = numbers()
    if x.sum() > 0:
        next(g)
    return x * next(g)


SEEN = set()


def global_set_in_branch(x):
    if x.sum() > 0:
        SEEN.add(2)
    return x


UNCARRIED = [(set_in_branch, "'seen', a set"), (counter_in_branch, "'counts', a Counter"),
             (deque_in_branch, "'q', a deque"), (bytearray_in_branch, "'b', a bytearray"),
             (array_module_in_branch, "'b', an array"),
             (iterator_in_branch, "'it', a list iterator"),
             (generator_in_branch, "'g', a generator"), (set_in_loop, "'seen', a set"),
             (global_set_in_branch, "'SEEN', a set")]


@pytest.mark.parametrize("fn, named", UNCARRIED, ids=[f.__name__ for f, _ in UNCARRIED])
def test_a_container_no_op_can_carry_is_refused_when_changed(backend, fn, named):
    SEEN.clear()
    text = backend.staging_error(fn, np.array([1.0, 2.0], np.float32))
    assert named in text, text
    assert "would happen once, at trace time, whatever the condition says" in text
    assert SEEN == set()  # put back as it was


def set_read_only_in_branch(x):
    seen = {1, 2}
    if x.sum() > 0:
        y = x * len(seen)
    else:
        y = x + (3 in seen)
    return y


def test_a_container_only_read_is_fine(backend):
    for x in ([1.0, 2.0], [-1.0, -2.0]):
        backend.numpy_code().check(set_read_only_in_branch, np.array(x, np.float32))


def held_by_a_list(x):
    c = np.zeros(2, np.float32)
    held = [c]
    c[1] = x[0] + x[1]
    return held[0]


def held_by_a_dict_in_branch(x):
    c = np.zeros(2, np.float32)
    held = {"c": c}
    if x[0] + x[1] > 0:
        c[0] = x[0] + x[1]
    return held["c"]


def held_by_a_tuple(x):
    c = np.zeros(2, np.float32)
    held = (c, 1)
    c[0] = x[0]
    return held[0]


@pytest.mark.parametrize("fn", [held_by_a_list, held_by_a_dict_in_branch, held_by_a_tuple])
def test_an_array_a_container_holds_is_written_or_refused(backend, fn):
    """``c[i] = v`` writes into the array eagerly (NumPy takes the value as a number, from
    every framework's scalar): every holder sees it; none may keep the old contents."""
    for x in ([1.0, 2.0], [-1.0, -2.0]):
        try:
            backend.numpy_code().check(fn, np.array(x, np.float32))
        except ag.StagingError as error:
            assert "keep the old contents" in str(error), str(error)
            return


def alias_of_an_in_place_operand(x):
    c = np.zeros(2, np.float32)
    d = c
    c += x.sum()
    return d


def parameters_updated_in_a_loop(x):
    w, b = np.ones(2, np.float32), np.zeros(2, np.float32)
    params = [w, b]
    for p, g in zip(params, [x * 1.0, x * 2.0]):
        p -= 0.1 * g
    return params[0] + params[1]


def item_alias(x):
    c = [np.zeros(2, np.float32)]
    v = c[0]
    if x.sum() > 0:
        c[0] += x.sum()
    return v


@pytest.mark.parametrize("fn", [alias_of_an_in_place_operand, parameters_updated_in_a_loop,
                                item_alias])
def test_in_place_operator_on_an_array_another_holder_shares(backend, fn):
    """NumPy's ``p -= g`` changes the array every holder sees (an optimizer's parameter
    list: it was silently left as it was on the NumPy engine). (JAX's and TensorFlow's
    arrays take over NumPy's operator eagerly, and the name alone gets their array:
    test_array_state.py.)"""
    if backend.engine != "numpy":
        return
    for x in ([1.0, 2.0], [-1.0, -2.0]):
        try:
            backend.check(fn, np.array(x, np.float32))
        except ag.StagingError as error:
            assert "keep the old contents" in str(error), str(error)
            return


COUNT = 0


def bump():
    global COUNT
    COUNT += 1


def helper_rebinds_a_global(x):
    if x.sum() > 0:
        bump()
    return x * 2


def test_a_global_a_called_function_rebinds_in_a_staged_branch_is_refused(backend):
    """``bump()`` (``global COUNT; COUNT += 1``) called in a staged branch ran at trace
    time whatever the condition (COUNT was 1 for a negative x): refused, put back."""
    global COUNT
    COUNT = 0
    text = backend.staging_error(helper_rebinds_a_global, np.array([-1.0, -2.0], np.float32))
    assert "the global 'COUNT' is rebound by bump() inside it" in text, text
    assert COUNT == 0


class Tally:
    count = 0


def class_attribute_in_a_staged_branch(x):
    if x.sum() > 0:
        Tally.count += 1
    return x * 2


def test_a_staged_value_left_in_a_class_attribute_is_refused(backend):
    """``Tally.count += 1`` in a staged branch left the class holding a staged value (a
    tracer, a symbolic tensor) after the trace: refused, and the class keeps its value."""
    Tally.count = 0
    text = backend.staging_error(class_attribute_in_a_staged_branch,
                                 np.array([1.0, 2.0], np.float32))
    assert "`Tally.count` (reached from the global 'Tally')" in text, text
    assert Tally.count == 0
