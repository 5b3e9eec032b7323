"""State that staged bodies change in place, on every backend: variables that
closures capture (``shared``), ``nonlocal`` counters, attributes (``self.total``),
and dicts and lists updated in place inside staged branches and loops. Each case is
compared with the same function run eagerly."""

import numpy as np
import pytest


# Variables that closures capture are assigned in place by the generated functions;
# a staged branch or loop must still carry them (the ``shared=`` argument).
def captured_in_branch(x):
    y = x * 0
    if x > 0:
        y = x + 1
    g = lambda: y * 2
    return g()


def captured_in_while(x):
    y = x
    while y[0] + y[1] < 10:
        y = y + 3
    return (lambda: y)()


def captured_in_tensor_for(x):
    total = x[0] * 0
    for v in x:
        total = total + v
    get = lambda: total
    return get()


def captured_with_tensor_break(x):
    s = x[0] * 0
    for i in range(4):
        if s > 3:
            break
        s = s + x[i]
    return (lambda: s)()


def nonlocal_counter_in_branch(x):
    count = 0

    def bump(v):
        nonlocal count
        if v > 0:
            count += 1
        return v * 2

    y = bump(x)
    y = bump(y - 5)
    return y, count


class Acc:
    def __init__(self):
        self.total = 0.0
        self.steps = 0

    def update(self, x):
        if x > 0:
            self.total = self.total + x
        else:
            self.steps += 1
        return self.total


def attributes_in_branches(x):
    a = Acc()
    a.update(x)
    a.update(x - 10)
    for i in range(3):
        a.update(x * i)
    return a.total, a.steps


def attributes_in_while(x):
    a = Acc()
    while a.total < 10:
        a.total = a.total + x
        a.steps += 1
    return a.total, a.steps


# Containers updated in place: each traced branch works on its own copy.
def dict_updated_in_while(x):
    d = {"n": 0, "v": x}
    while d["v"] < 100:
        d["v"] = d["v"] * 2
        d["n"] += 1
    return d


def list_item_set_in_branch(x):
    pair = [x, x * 0]
    if x > 1:
        pair[1] = x * 3
    return pair


def dict_updated_in_branch(x, flag):
    out = {"a": x, "b": x * 2} if flag else {"a": -x, "b": x}
    if x > 0:
        out["a"] = out["a"] + 1
    return out


def dict_accumulated_in_tensor_for(xs):
    stats = {"pos": xs[0] * 0, "neg": xs[0] * 0}
    for v in xs:
        if v > 0:
            stats["pos"] += v
        else:
            stats["neg"] -= v
    return stats


def nested_dict_in_tensor_for(xs):
    totals = {"sum": {"pos": xs[0] * 0}}
    for v in xs:
        if v > 0:
            totals["sum"]["pos"] += v
    return totals


@pytest.mark.parametrize("x", [-3.0, 3.0])
@pytest.mark.parametrize("f", [captured_in_branch, captured_in_while, nonlocal_counter_in_branch,
                               attributes_in_branches, list_item_set_in_branch])
def test_branch_and_while_state(backend, f, x):
    if f is captured_in_while and x < 0:
        x = 2.0  # the loop must end
    backend.check(f, np.array([x, x + 1], np.float32) if f is captured_in_while else np.float32(x))


@pytest.mark.parametrize("xs", [[1.0, 2.0, 3.0, 4.0], [0.5, 0.5, 0.5, 0.5], [1.0, -2.0, 3.0, 0.0]])
@pytest.mark.parametrize("f", [captured_in_tensor_for, captured_with_tensor_break,
                               dict_accumulated_in_tensor_for, nested_dict_in_tensor_for])
def test_for_loop_state(backend, f, xs):
    backend.check(f, np.array(xs, np.float32))


@pytest.mark.parametrize("x", [0.5, 3.0])
def test_loops_until_done(backend, x):
    backend.check(attributes_in_while, np.float32(x))
    backend.check(dict_updated_in_while, np.float32(x))


@pytest.mark.parametrize("x,flag", [(2.0, True), (-2.0, False), (2.0, False)])
def test_dict_updated_in_branch(backend, x, flag):
    backend.check(dict_updated_in_branch, np.float32(x), flag)
