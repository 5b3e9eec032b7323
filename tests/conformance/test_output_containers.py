"""Outputs in containers come back as arrays in the same container type (issue 9.4):
named tuples, nested lists, tuples and dicts, with branches and loops inside."""

import collections

import numpy as np

Pair = collections.namedtuple("Pair", ["a", "b"])
Stats = collections.namedtuple("Stats", ["total", "parts"])


def pair(x):
    if x > 0:
        y = x * 2
    else:
        y = -x
    return Pair(1, y)


def nested(x):
    total = x * 0
    for v in x:
        total = total + v
    return Stats(total, {"first": x[0], "rest": [x[1:], (total, Pair(x[0], 3.0))]})


def namedtuple_in_a_loop(x):
    acc = Pair(x[0] * 0, x[0] * 0 + 1)
    i = 0
    while i < x.shape[0]:
        acc = Pair(acc.a + x[i], acc.b * 2)
        i += 1
    return acc


def test_namedtuple_output(backend):
    out = backend.check(pair, np.int32(3))
    assert type(out) is Pair
    out = backend.check(pair, np.float64(-2.0))
    assert out.b == 2.0


def test_nested_containers(backend):
    out = backend.check(nested, np.arange(4.0))
    assert type(out) is Stats and type(out.parts["rest"][1][1]) is Pair


def test_namedtuple_carried_by_a_loop(backend):
    backend.check(namedtuple_in_a_loop, np.arange(1.0, 5.0))
