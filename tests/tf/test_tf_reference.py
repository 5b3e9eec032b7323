"""A differential suite after TensorFlow's AutoGraph reference tests
(tensorflow/python/autograph/tests: loop control flow, conditionals, conditional
expressions, logical expressions, early returns, datasets, nested control flow),
written from their semantics: each function runs eagerly, under TensorFlow's own
AutoGraph (``tf.function(f)``) and under ours (``tf.function(ag.convert(f),
autograph=False)``), on Python values, tensors and datasets; all three agree."""

import inspect

import numpy as np
import pytest
import tensorflow as tf

import autograph as ag


def skip_odd(xs):
    total = 0
    for v in xs:
        if v % 2 == 1:
            continue
        total += v
    return total


def stop_at_odd(xs):
    total = 0
    for v in xs:
        if v % 2 == 1:
            break
        total += v
    return total


def count_down_even(n):
    total = 0
    while n > 0:
        n -= 1
        if n % 2 == 1:
            continue
        total += n
    return total


def count_down_until_odd(n):
    total = 0
    while n > 0:
        n -= 1
        if n % 2 == 1:
            break
        total += n
    return total


def two_exits(n):
    acc = 1
    i = 0
    while i < n:
        i += 1
        if i > 3 * n:
            break
        if i == n:
            break
        acc = acc * 3 + i
    return i, acc


def nested_skip(rows):
    total = 0
    for row in rows:
        for v in row:
            if v % 2 == 1:
                continue
            total += v
    return total


def nested_stop(rows):
    total = 0
    for row in rows:
        for v in row:
            if v % 2 == 0:
                break
            total += v
    return total


def nested_while(a, b):
    total = 0
    while a > 0:
        a -= 1
        while b > 0:
            b -= 1
            if (a + b) % 3 == 0:
                break
            total += a + b
    return total


def sign_of(x):
    if x > 0:
        y = 1
    elif x < 0:
        y = -1
    else:
        y = 0
    return y


def ternary(x):
    return x * 2 if x > 2 else x - 2


def lazy_logic(x, y):
    a = x > 0 and y > 0
    b = x > 0 or y > 0
    c = not x > 0
    return a, b, c


def early_return(x):
    if x > 10:
        return x * 10
    if x > 0:
        return x
    return -x


def return_from_loop(n):
    i = 0
    while i < 100:
        if i * i > n:
            return i
        i += 1
    return -1


def nested_branches(x, y):
    if x > 0:
        if y > 0:
            z = x + y
        else:
            z = x - y
    else:
        z = x * y
    return z


def _int(x):
    return tf.constant(x, tf.int32)


def _dataset(x):
    return tf.data.Dataset.from_tensor_slices(tf.constant(x, tf.int32))


LISTS = ([], [2, 4], [4, 2, 1, 6])
MATRICES = ([[2, 4], [1, 6]], [[0, 2, 5], [7, 8, 9]])


def cases():
    for fn in (skip_odd, stop_at_odd):
        for xs in LISTS:
            for make in (list, _int, _dataset):
                yield fn, (xs,), make
    for fn in (count_down_even, count_down_until_odd, two_exits, return_from_loop):
        for n in (0, 4, 7):
            yield fn, (n,), _int
    for fn in (nested_skip, nested_stop):
        for m in MATRICES:
            for make in (_int, _dataset):
                yield fn, (m,), make
    for a, b in ((0, 3), (2, 5), (4, 4)):
        yield nested_while, (a, b), _int
    for x in (-3, 0, 3):
        yield sign_of, (x,), _int
        yield ternary, (x,), _int
        yield early_return, (x * 5,), _int
        for y in (-1, 2):
            yield lazy_logic, (x, y), _int
            yield nested_branches, (x, y), _int


def _values(result):
    return tf.nest.map_structure(lambda v: np.asarray(v).tolist(), result)


def _eager_args(args, make):
    return [list(a) if make is _dataset else make(a) for a in args]


@pytest.mark.parametrize("fn,args,make", list(cases()),
                         ids=lambda v: getattr(v, "__name__", None) or str(v))
def test_both_converters_match_eager(fn, args, make):
    expected = _values(fn(*[make(a) if make is not _dataset else a for a in args]))
    ours = _values(tf.function(ag.convert(fn), autograph=False)(*[make(a) for a in args]))
    assert ours == expected
    if fn in THEY_REFUSE:
        with pytest.raises(ValueError, match=THEY_REFUSE[fn]):
            tf.function(fn)(*[make(a) for a in args])
        return
    theirs = _values(tf.function(fn)(*[make(a) for a in args]))
    assert theirs == expected


# Where TensorFlow's AutoGraph (2.21) refuses what eager Python computes, and ours does not.
THEY_REFUSE = {return_from_loop: "the else branch must also have a return statement"}


# -- loop basics, composite names, builtins (loop_basic, composite_names_in_control_flow,
# call_to_builtin_function): arguments made fresh for each run (variables, datasets)


def counts_in_a_variable(n, v):
    v.assign(0)
    while v.read_value() < n:  # nothing carried: the condition reads the variable
        v.assign_add(1)
    return v.read_value()


def counts_items(xs, v):
    v.assign(0)
    for _ in xs:
        v.assign_add(1)
    return v.read_value()


def last_item(xs):
    i = -7
    for i in xs:
        pass
    return i


def decimal_digits(n):
    s = 0
    i = 0
    while i < n:
        s = s * 10 + i
        i += 1
    return s


def assigned_in_the_loop(n):
    i = 0
    while i < n:
        i = n + 1
        j = i * 2
    return i, j


def two_loops(xs, ys):
    s = 0
    for v in xs:
        s = s * 10 + v
    for v in ys:
        s = s * 10 + v
    return s


def for_else(xs, stop):
    s = 0
    for v in xs:
        if v == stop:
            break
        s = s * 10 + v
    else:
        s = -1000
    return s


def while_else(x, y):
    s = 0
    while x > 0:
        x -= 1
        if x > y:
            break
        s += x
    else:
        s = -100
    return s


def collects_row_digits(rows):
    out = []
    for row in rows:
        s = 0
        for v in row:
            s = s * 10 + v
        out.append(s)
    return tf.stack(out)


def dict_in_branches(a):
    d = {"a": a}
    if d["a"] > 0:
        d["b"] = 1
    else:
        d["b"] = -1
    return d


def list_item_in_a_loop(x, a, b):
    y = [a, b]
    while x > 0:
        x -= 1
        y[0] += 1
    return y


def dict_items_only(a, b):
    y = {"a": a, "b": b}
    while y["b"] <= 10:
        y["a"] += 1
        y["b"] *= 2
    return y


def builtin_calls(xs):
    return dict(first=xs), len(xs), list(range(len(xs)))


def return_in_a_tf_range_loop(x, n):
    for i in tf.range(n):
        if x[i] > 2:
            return i
    return -1


def break_in_an_unrolled_loop(t):
    s = 0
    for v in [1, 2, 3]:  # a Python list: unrolled, its break staged
        if t < v:
            break
        s += v
    return s


def _ds(x):
    return tf.data.Dataset.from_tensor_slices(_int(x))


def more_cases():
    for n in (0, 2):
        yield counts_in_a_variable, lambda n=n: (_int(n), tf.Variable(0))
        yield decimal_digits, lambda n=n: (_int(n),)
        yield list_item_in_a_loop, lambda n=n: (_int(n), 3, 0)
        yield while_else, lambda n=n: (_int(2), _int(n))
        yield dict_in_branches, lambda n=n: (_int(n - 1),)
    for xs in ([], [1, 2]):
        yield counts_items, lambda xs=xs: (_int(xs), tf.Variable(0))
        yield last_item, lambda xs=xs: (_ds(xs),)
        yield builtin_calls, lambda xs=xs: (_int(xs),)
    yield last_item, lambda: (_int([1, 2]),)
    yield two_loops, lambda: (_int([1, 2]), _ds([3]))
    yield for_else, lambda: (_int([1, 2]), _int(2))
    yield for_else, lambda: (_int([1, 2]), _int(5))
    yield assigned_in_the_loop, lambda: (_int(2),)
    yield collects_row_digits, lambda: (_int([[1, 2], [3, 4]]),)
    yield collects_row_digits, lambda: (_ds([[0, 5, 6]]),)
    yield dict_items_only, lambda: (0, _int(6))
    for x in ([1, 3, 5], [1, 1, 1]):
        yield return_in_a_tf_range_loop, lambda x=x: (_int(x), _int(3))
    for t in (2, 5):
        yield break_in_an_unrolled_loop, lambda t=t: (_int(t),)


# Where TensorFlow's AutoGraph (2.21) fails and ours computes eager's value: it does not
# convert for/else and while/else (it runs the function as it is, and bool() of a graph
# tensor fails), a return in a tf.range loop under a tensor if and a tensor break in an
# unrolled Python loop are its NotImplementedError, and a Python list appended to in a loop over a tensor leaks the loop's
# tensors out of its graph (InaccessibleTensorError, a ValueError: its answer is a
# TensorArray, which ours refuses below).
THEY_FAIL = {for_else: tf.errors.OperatorNotAllowedInGraphError,
             while_else: tf.errors.OperatorNotAllowedInGraphError,
             collects_row_digits: ValueError,
             return_in_a_tf_range_loop: NotImplementedError,
             break_in_an_unrolled_loop: NotImplementedError}


def _eager(args):
    return [list(a) if isinstance(a, tf.data.Dataset) else a for a in args]


@pytest.mark.parametrize("fn,make", list(more_cases()),
                         ids=lambda v: getattr(v, "__name__", None) or "")
def test_loops_composites_and_builtins_match_eager(fn, make):
    expected = _values(fn(*_eager(make())))
    assert _values(tf.function(ag.convert(fn), autograph=False)(*make())) == expected
    if fn in THEY_FAIL:
        with pytest.raises(THEY_FAIL[fn]):
            tf.function(fn)(*make())
        return
    assert _values(tf.function(fn)(*make())) == expected


def table_in_a_tensor_array(n):
    out = tf.TensorArray(tf.int32, size=0, dynamic_size=True, element_shape=())
    i = 0
    while i < n:
        out = out.write(i, i * 10)
        i += 1
    return out.stack()


def test_a_tensor_array_carried_by_a_loop_is_refused_naming_the_list_form():
    # TensorFlow's AutoGraph carries the TensorArray; ours collects a Python list
    # (collects_row_digits), and names that form here
    n = _int(3)
    np.testing.assert_array_equal(tf.function(table_in_a_tensor_array)(n).numpy(), [0, 10, 20])
    lines, first = inspect.getsourcelines(table_in_a_tensor_array)
    line = first + next(i for i, t in enumerate(lines) if t.strip() == "while i < n:")
    with pytest.raises(ag.StagingError) as refused:
        tf.function(ag.convert(table_in_a_tensor_array), autograph=False)(n)
    assert str(refused.value) == (
        f"loop at {__file__}:{line} (`while i < n:`): 'out' is a tf.TensorArray, which "
        f"autograph's staged loops do not carry. Append to a Python list in the loop "
        f"(lst.append(x)) and stack it after the loop (np.stack(lst) or tf.stack(lst)): "
        f"autograph collects its items in the graph.")


def _python_float_joined_with_bfloat16(x):
    y = 0.0
    if tf.reduce_sum(x) > 0:
        y = tf.reduce_sum(x)
    s = 0
    for v in x:
        s = s + v
    return y, s


def test_a_python_number_joined_with_a_bfloat16_tensor_takes_its_type():
    """TensorFlow's bfloat16 is ml_dtypes' to NumPy (kind 'V'): a Python float beside it
    was refused."""
    staged = tf.function(ag.convert(_python_float_joined_with_bfloat16), autograph=False)
    for sign in (1.0, -1.0):
        x = tf.constant([sign] * 3, tf.bfloat16)
        want, got = _python_float_joined_with_bfloat16(x), staged(x)
        assert [t.dtype for t in got] == [tf.bfloat16, tf.bfloat16]
        assert [float(t) for t in got] == [float(t) for t in want]
