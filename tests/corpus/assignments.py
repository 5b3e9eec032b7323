# ruff: noqa  (user code as people write it, lint findings included)
"""Assignments with several targets: every right-hand value is read before any
target is written, and targets are written left to right."""

from . import cases


@cases(([3, 1, 2],), ([2, 1],), ([],))
def bubble_sort_swap(xs):
    for i in range(len(xs)):
        for j in range(len(xs) - 1 - i):
            if xs[j] > xs[j + 1]:
                xs[j], xs[j + 1] = xs[j + 1], xs[j]
    return xs


@cases(([5, 1, 3], 4), ([1], 0))
def heap_replace_top(heap, item):
    if heap and heap[0] < item:
        item, heap[0] = heap[0], item
    return item, heap


@cases(([0, 0, 0],), ([0, 0, 0, 0],))
def index_assigned_before_item(xs):
    i = 0
    if len(xs) > 3:
        i, xs[i] = 2, 9
    else:
        xs[i], i = 9, 2
    return i, xs


@cases(([1, 2, 3, 4],), ([1, 2],))
def starred_and_nested_item_targets(xs):
    out = [0, 0, 0]
    if len(xs) > 2:
        (out[0], *rest), out[2] = xs[:-1], xs[-1]
        out[1] = len(rest)
    return out


@cases(([1, 2],), ([],))
def chained_assignment_with_item(xs):
    d = {}
    if xs:
        d["first"] = last = xs[0] = xs[-1]
    else:
        last = None
    return d, last, xs


@cases(([1, 2, 3],), ([1, 2],))
def wrong_length_unpack_into_items(xs):
    out = [0, 0]
    if len(xs) != 5:
        out[0], out[1] = xs
    return out
