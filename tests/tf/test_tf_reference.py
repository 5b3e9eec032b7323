"""A differential suite after TensorFlow's AutoGraph reference tests
(tensorflow/python/autograph/tests: loop control flow, conditionals, conditional
expressions, logical expressions, early returns, datasets, nested control flow),
written from their semantics: each function runs eagerly, under TensorFlow's own
AutoGraph (``tf.function(f)``) and under ours (``tf.function(ag.convert(f),
autograph=False)``), on Python values, tensors and datasets; all three agree."""

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
