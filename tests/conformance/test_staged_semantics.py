"""Staged control flow keeps Python's semantics where the bugs issues found it did
not: jumps in ``finally``, jumps out of ``try`` in staged loops, chained
comparisons of staged values, swaps of items, dead branch-local variables, and
``range``/``enumerate``/``zip`` reached through a variable."""

import sys

import numpy as np


def return_in_finally(x):
    try:
        return x * 0 + 2
    finally:
        if x > 0:
            return x * 0 + 1
        else:
            return x * 0


def test_return_in_finally_replaces_the_pending_return(backend):
    for x in (np.int32(3), np.int32(-3)):
        backend.check(return_in_finally, x)


def return_in_finally_python_int(x):
    try:
        return 2
    finally:
        if x > 0:
            return 1
        else:
            return 0


def test_return_in_finally_with_python_ints(backend):
    # A staged if chooses between Python ints: the graph gives an array of the value.
    for x in (np.int32(1), np.int32(0)):
        assert int(backend.staged(return_in_finally_python_int, x)) == return_in_finally_python_int(x)
    backend.check(return_in_finally_python_int, 1)


def break_in_try_of_staged_loop(n):
    s = n * 0
    for i in range(n):
        try:
            if i > 2:
                break
            s += i
        finally:
            s += 1
    return s


def continue_in_try_with_else(n):
    s = n * 0
    t = n * 0
    for i in range(n):
        try:
            if i % 2 == 1:
                continue
            s += i
        except ValueError:
            s -= 100
        else:
            t += 10
        finally:
            t += 1
    return s, t


def break_in_finally_of_staged_loop(n):
    s = n * 0
    for i in range(n):
        try:
            s += i
        finally:
            if s > 3:
                break
    return s


def return_in_try_of_staged_while(n):
    i = n * 0
    while i < n:
        try:
            if i * i > n:
                return i
        finally:
            i += 1
    return -i


def test_jumps_out_of_try_in_staged_loops(backend):
    for n in (np.int32(0), np.int32(2), np.int32(6)):
        backend.check(break_in_try_of_staged_loop, n)
        backend.check(continue_in_try_with_else, n)
        backend.check(break_in_finally_of_staged_loop, n)
        if backend.engine != "torch":
            backend.check(return_in_try_of_staged_while, n)
    if backend.engine == "torch":  # eagerly `i += 1` changes the tensor returned before it
        assert backend.staging_error(return_in_try_of_staged_while, np.int32(6)) == (
            f"in-place operator at {backend.at(return_in_try_of_staged_while, 'i += 1')}: "
            f"eagerly it changes the array 'i' holds, and the return value holds the same "
            f"array or one sharing its memory (an alias, a view of it, or the array it views) "
            f"and is read later; under torch.compile and torch.export a staged if gave it a "
            f"copy, so the return value would keep the old contents. Write the operator out "
            f"(i += v -> i = i + v: a new array) if the return value should keep them, or "
            f"change the array through one name only.")


def chained_in_if(x, xp=np):
    if -1 < xp.min(x) <= 2:
        return x + 1
    return x - 1


def chained_in_while_ternary_and_bool_chain(x, y, xp=np):
    n = xp.sum(x) * 0
    while 0 <= n < xp.sum(x) and n < 10:
        n += 1
    label = n * 2 if 1 < n <= y else n * 3
    both = (0 < y < 5) or (xp.max(x) > 7 > y)
    return n, label, both


def test_chained_comparisons_of_staged_values(backend):
    backend.check(chained_in_if, np.arange(3), xp=backend.xp)
    backend.check(chained_in_if, np.arange(5), xp=backend.xp)
    backend.check(chained_in_if, np.arange(-3, 0), xp=backend.xp)
    for y in (np.int64(2), np.int64(9)):  # the sum's dtype: eager TensorFlow compares no others
        backend.check(chained_in_while_ternary_and_bool_chain, np.arange(4), y, xp=backend.xp)


def bubble(a, b, c):
    xs = [a, b, c]
    for i in range(2):
        for j in range(2):
            if xs[j] > xs[j + 1]:
                xs[j], xs[j + 1] = xs[j + 1], xs[j]
    return xs


def heap_top(x, item):
    heap = [x, x + 1]
    if heap[0] < item:
        item, heap[0] = heap[0], item
    return item, heap


def test_swapping_items_reads_every_value_first(backend):
    backend.check(bubble, np.int32(3), np.int32(1), np.int32(2))
    backend.check(bubble, np.int32(1), np.int32(2), np.int32(3))
    backend.check(heap_top, np.int32(1), np.int32(4))
    backend.check(heap_top, np.int32(5), np.int32(4))


def dead_branch_local(x):
    if x > 0:
        t = x + np.zeros(2, np.int32)
        y = t[1] * 2
    else:
        t = x
        y = t + 1
    return y


def dead_branch_local_in_loop(x):
    s = x * 0
    for i in range(x):
        if i % 2 == 0:
            t = np.zeros(3, np.int32) + i
            s += t[0]
        else:
            t = i
            s += t
    return s


def test_dead_branch_locals_are_not_carried(backend):
    for x in (np.int32(3), np.int32(-3)):
        backend.check(dead_branch_local, x)
        backend.check(dead_branch_local_in_loop, x)


def range_as_a_value(n):
    fn = range
    s = n * 0
    for i in fn(n):
        s += i
    return s


def enumerate_and_zip_as_values(x):
    en, z = enumerate, zip
    s = x[0] * 0
    for i, (a, b) in en(z(x, x * 2)):
        if a > 1:
            s += i * b
    return s


def test_range_enumerate_zip_reached_through_a_variable(backend):
    backend.check(range_as_a_value, np.int32(5))
    backend.check(range_as_a_value, np.int32(0))
    backend.check(enumerate_and_zip_as_values, np.arange(4))


def assigned_in_if_inside_try_inside_staged_if(a, b):
    c = a
    if 0 < a:
        try:
            a = a * 2
            if 0 < b:
                b = b * 3
        except ZeroDivisionError:
            a = a * 0
    return a, b, c


def closure_assigned_in_if_inside_with(a, b):
    import contextlib

    get_b = lambda: b  # noqa: E731
    if 0 < a:
        with contextlib.nullcontext():
            if 0 < b:
                b = b * 3
    return b, get_b()


def test_variables_assigned_in_place_under_try_and_with(backend):
    for a, b in ((1, 1), (1, -1), (-1, 1)):
        backend.check(assigned_in_if_inside_try_inside_staged_if, np.int32(a), np.int32(b))
        backend.check(closure_assigned_in_if_inside_with, np.int32(a), np.int32(b))


def jumps_in_try_with_closure_in_staged_loop(a, b):
    c = a
    get_c = lambda: c  # noqa: E731
    for i in range(a % 4):
        try:
            if 0 < i:
                break
            else:
                a = b
                continue
        except ZeroDivisionError:
            return c, b, get_c()
        else:
            c = a + i
            break
    else:
        a = get_c() * 2
    a -= c
    return a, b, c


def test_jumps_in_try_with_closure_in_staged_loop(backend):
    for a, b in ((6, -1), (3, 2), (4, 1)):
        backend.check(jumps_in_try_with_closure_in_staged_loop, np.int32(a), np.int32(b))


def count_then_alias(x):
    i = 0
    while x > i:
        i += 1
    j = i
    i += 1  # a Python int: j keeps its value
    j *= 2
    return i, j


def test_an_in_place_operator_on_a_staged_python_number_leaves_its_aliases(backend):
    backend.check(count_then_alias, np.float32(2.5))
    backend.check(count_then_alias, np.float32(-1.0))


def _caller_name_length():
    return len(sys._getframe(1).f_code.co_name)


def who_calls(x):
    if x > 0:
        y = x + _caller_name_length()
    else:
        y = x - 2 * _caller_name_length()
    return y


def test_getframe_sees_the_frames_eager_code_has(backend):
    """``sys._getframe(1)`` in converted code is its caller's frame, not the generated
    branch function or the frame that called the staged body (found on boltons:
    ``namedtuple`` and ``make_sentinel`` took their module from it, and pickling their
    classes failed)."""
    for x in (3, -3):
        backend.check(who_calls, np.int64(x))
