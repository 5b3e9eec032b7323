"""The array a loop iterates, followed through the writes its body makes into it.

Eager ``for e in v`` reads item k from the array object when iteration k starts (NumPy
iterates an array by index): a write into the array earlier in the loop (``v[2] = 10.0``)
changes the items read later, while rebinding the name (``v = v * 2``) does not. Under
staging a write may give the written name a new value instead of changing memory: a
staged array's functional update (``v = ag__.setitem(v, 2, x)``, ``v += x``), or a NumPy
array written under a staged condition, whose new contents the ``if``'s op gives the
names that held it. The loop's iterator, holding the array from before, would read the
old items: a silent wrong value.

A ``Watch`` follows the iterated array through those new values while the loop body
runs: ``wrote`` (setitem, augmented assignment) and ``joined`` (a staged ``if`` whose
branches all hand the array back, written or not) add each new value to ``definite``
(values that are the array, as written so far) and make it ``current``. A value that is
the array on some paths only (an ``if`` one of whose branches rebinds the name) is
``maybe`` the array: a write into it is refused, since the loop could not say which
array it changed. The loops then read items from ``current``: a Python loop (over a
NumPy array, unrolled while tracing) at each iteration; a staged loop whose body wrote
into the array it iterates becomes a loop over indices reading from the carried array
(``operators.control_flow``). A write the watch cannot follow (a staged loop or ``try``
inside the body, which carries the array as a new value of its own) is refused.
"""

from __future__ import annotations

import numpy as np

from . import errors
from .arrays import base_of

_active: list = []  # the Watches of the loops running now, innermost last


class Watch:
    """The array one loop iterates (``array``) and the values that are it since."""

    __slots__ = ("array", "current", "definite", "maybe", "written", "construct", "where_fn",
                 "label")

    def __init__(self, array, label: str, where_fn, construct: str = "for loop") -> None:
        self.array = self.current = array
        self.definite = {id(array): array}  # id -> value (held: ids stay unique)
        self.maybe: dict = {}
        self.written = False
        self.label, self.where_fn, self.construct = label, where_fn, construct

    def holds(self, value) -> bool:
        return id(value) in self.definite

    def refusal(self, what: str) -> errors.StagingError:
        """The ``StagingError`` for what the body did (``{name}``: the array's name)."""
        return errors.iterated_array_unfollowed(self.construct, self.where_fn,
                                                what.format(name=errors.subject(self.label)))


def start(array, label: str, where_fn, construct: str = "for loop") -> Watch:
    """Watch ``array`` (what ``label`` names) until ``stop``."""
    watch = Watch(array, label, where_fn, construct)
    _active.append(watch)
    return watch


def stop(watch: Watch) -> None:
    if watch in _active:
        _active.remove(watch)


def watching() -> bool:
    return bool(_active)


def wrote(old, new, in_place: bool = False) -> None:
    """``new`` is ``old`` after a write into it that gave the name a new value. With
    ``in_place`` it is a framework's in-place operator (``v += 1``) that gave the name a
    new array: eagerly that framework rebinds the name where NumPy writes into the array,
    so the loop could read either: refused."""
    if not _active or new is old:
        return
    for watch in _active:
        if in_place and (watch.holds(old) or id(old) in watch.maybe):
            raise watch.refusal(
                "the body applies an in-place operator to {name}, the array the loop "
                "iterates over, which gives the name a new array here (NumPy writes into "
                "the array)")
        if watch.holds(old):
            watch.definite[id(new)] = new
            watch.current, watch.written = new, True
        elif id(old) in watch.maybe:
            raise watch.refusal(
                "the body writes into a value that is {name}, the array the loop iterates "
                "over, on some paths only (a staged if gave the name another array on the "
                "others)")


def joined(given: list, results, written_bases: set) -> None:
    """After a staged ``if``: ``results[i]`` is the array where every branch that ran to its
    end hands back a value that is it (``given``: each branch's values), maybe the array
    where some do. A NumPy array written in place by a branch (its base's id in
    ``written_bases``) that no result stands for is refused: the
    loop would read its old items."""
    if not _active:
        return
    for watch in _active:
        followed = False
        for i, result in enumerate(results):
            gives = [g[i] for g in given if i < len(g)]
            if not gives:
                continue
            if all(watch.holds(g) for g in gives):
                if not watch.holds(result):
                    watch.definite[id(result)] = result
                    watch.current, watch.written = result, True
                followed = True
            elif any(watch.holds(g) or id(g) in watch.maybe for g in gives):
                watch.maybe[id(result)] = result
        if written_bases and not followed and _is_numpy(watch.array) \
                and id(base_of(watch.array)) in written_bases:
            raise watch.refusal(
                "the body writes into {name}, the array the loop iterates over, under a "
                "staged condition, and no variable the if assigns holds it")


def written_in_place(written_bases: set, construct: str) -> None:
    """A staged loop or ``try`` wrote in place into a NumPy array a loop iterates: its op
    gives the array's new contents to a value of its own, which the watch cannot follow."""
    for watch in _active:
        if _is_numpy(watch.array) and id(base_of(watch.array)) in written_bases:
            raise watch.refusal(
                "the body writes into {name}, the array the loop iterates over, inside a "
                f"staged {construct}, which gives it a value of its own")


def looped(before, after, construct: str) -> None:
    """A staged loop inside the body carried a value that is the iterated array
    (``before[k]``) and gives it a new one (``after[k]``): a write the watch cannot
    follow (the loop carries only what its body assigns)."""
    for watch in _active:
        for b, a in zip(before, after):
            if a is not b and watch.holds(b):
                raise watch.refusal(
                    "the body writes into {name}, the array the loop iterates over, inside "
                    f"a staged {construct}, which gives it a value of its own")


def _is_numpy(value) -> bool:
    return isinstance(value, np.ndarray)
