"""A Python ``for`` whose ``break`` turns staged runs each remaining iteration under a
staged ``if``: what those iterations change in place (a nested dict item, an item of
the loop's own dict, an attribute) is carried through that ``if`` like a variable,
as in eager code. (Found by the random programs: the NumPy engine refused the value
as escaped, JAX leaked a tracer.)"""

import numpy as np


def nested_item(a, b):
    x = {'k': {'v': b}}
    for x1 in (a, 2):
        if x1 <= b:
            break
        x['k']['v'] = b - 1
    return x['k']['v']


def nested_item_in_inner_loop(a, b):
    x = {'k': {'v': b}}
    for x1 in (a, 2):
        if x1 <= b:
            break
        for i in range(b % 4):
            x['k']['v'] = b - i
    return x['k']['v']


def loop_items(a, b):
    x = {'v': b}
    y = {'v': a}
    for d in (x, y):
        if a <= b:
            break
        d['v'] = b - 1
    return x['v'], y['v']


class Box:
    pass


def attribute(a, b):
    box = Box()
    box.v = b
    for i in (1, 2):
        if i + a <= b:
            break
        box.v = box.v - 1
    return box.v


def test_nested_dict_item_after_a_staged_break(backend):
    for a in (-2, 3):
        backend.check(nested_item, np.int32(a), np.int32(0))
        backend.check(nested_item_in_inner_loop, np.int32(a), np.int32(2))


def test_the_loop_items_own_dict_after_a_staged_break(backend):
    for a in (-2, 3):
        backend.check(loop_items, np.int32(a), np.int32(0))


def test_attribute_after_a_staged_break(backend):
    for a in (-2, 3):
        backend.check(attribute, np.int32(a), np.int32(0))
