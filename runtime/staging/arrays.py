"""Concrete NumPy arrays that a staged construct writes into.

A NumPy array is a Python value during a trace, but a mutable one. A staged ``if``
traces both branches and a staged loop traces its body once, so a write into an
array made before the construct (``d[1] = -1.0``, ``d += 1.0``, ``inner[0] = 5.0``
through a view, ``np.copyto(d, ...)``) would otherwise happen at trace time whatever
the condition. Here such an array is state of the construct, exactly like a carried
variable: ``Arrays`` remembers the contents of every writeable array a body can
reach (its state, its shared variables, the containers ``inplace`` walks), grouped by
the memory they share (a view and its base are one state); after a body ran,
``changed`` tells which were written, ``now`` gives a leaf's value as that body left
it (a copy the join or the carry takes), and ``restore`` puts the contents back
before the other branch (or the next trace) runs. The construct's op then gives the
new value to every place that held the array: carried variables, shared variables
and container items.

A place the construct cannot rebind would keep the old array and so be silently
wrong; ``check_unreached`` refuses it with a ``StagingError`` that names the variable
and the line: a local variable of the user's function that the construct does not
carry (the base of a view the branch wrote through, an alias), a variable of a
calling function, or a global.
"""

from __future__ import annotations

from sys import _getframe  # the runtime's own: a user may take it off sys
import types

import numpy as np

from . import converted, errors, holders
from .arg_writes import GENERATED, user_location
from .state import is_node, items, remake


def base_of(array: np.ndarray) -> np.ndarray:
    """The array that owns ``array``'s memory (itself if it owns it)."""
    while isinstance(array.base, np.ndarray):
        array = array.base
    return array


def is_array(x) -> bool:
    return isinstance(x, np.ndarray) and x.flags.writeable


def same_bytes(a: np.ndarray, b: np.ndarray) -> bool:
    """Equal dtype, shape and bytes (exact: -0.0 differs from 0.0, a NaN is itself)."""
    return a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes()


class ReadByValue:
    """The contents of the concrete arrays a trace's staged ops read, by value.

    A framework that keeps an array it was handed by reference until it compiles the
    trace (``jax.jit`` does) would let a later in-place change in the same trace
    (``scale *= 10``, ``w[0] = 5``) reach back into the ops recorded before it. A
    backend hands the framework ``snapshot(array)`` instead: a read-only copy of what
    the array holds at that read, the same copy while its contents stay unchanged (so
    the framework's own per-object cache still makes one constant of many reads), a new
    one after a change."""

    def __init__(self) -> None:
        self.read: dict = {}  # id(array) -> (array, its read-only copy)

    def snapshot(self, array: np.ndarray) -> np.ndarray:
        seen = self.read.get(id(array))
        if seen is not None and seen[0] is array and same_bytes(array, seen[1]):
            return seen[1]
        copy = array.copy()  # keeps the array's class (a framework's typed array)
        copy.flags.writeable = False
        self.read[id(array)] = (array, copy)
        return copy


def may_change(array) -> bool:
    """``array`` is a NumPy array whose memory some array can write (its own or its
    base's): what a staged op must read by value."""
    return isinstance(array, np.ndarray) and base_of(array).flags.writeable


def in_converted_code(frame) -> bool:
    """Some frame from ``frame`` outwards runs converted code."""
    while frame is not None:
        if frame.f_code in converted.codes:
            return True
        frame = frame.f_back
    return False


class Arrays:
    """The writeable NumPy arrays a construct's bodies reach, and their contents before."""

    def __init__(self) -> None:
        self.bases: dict = {}  # id(base) -> (base, copy of its contents before)

    def add(self, array: np.ndarray) -> None:
        base = base_of(array)
        if id(base) not in self.bases:
            self.bases[id(base)] = (base, np.array(base, copy=True, subok=False))

    def changed(self) -> set:
        """The ids of the bases whose contents differ from the start."""
        return {k for k, (base, before) in self.bases.items() if not same_bytes(base, before)}

    def restore(self) -> None:
        for base, before in self.bases.values():
            if not same_bytes(base, before):
                np.copyto(base, before, casting="no")

    def written(self, x, changed: set) -> bool:
        """``x`` is an array a body wrote into (through it or through a view)."""
        return bool(changed) and is_array(x) and id(base_of(x)) in changed

    def touches(self, value, changed: set) -> bool:
        """Some leaf of ``value`` (a state) is an array a body wrote into."""
        if is_node(value):
            return any(self.touches(v, changed) for _, v in items(value))
        return self.written(value, changed)

    def now(self, value, changed: set):
        """``value`` (a state) with each array a body wrote into replaced by a copy of
        what it holds now: the value that body gives the construct."""
        if not changed:
            return value
        if is_node(value):
            return remake(value, [self.now(v, changed) for _, v in items(value)])
        return np.array(value, copy=True, subok=False) if self.written(value, changed) else value

    def check_unreached(self, changed: set, carried, construct: str, where_fn) -> None:
        """A ``StagingError`` if an array a body wrote into is held where the construct
        cannot give it its new value: a local variable of a user function that is not
        among ``carried`` (names of the innermost function's carried variables), or a
        global the bodies read."""
        if not changed:
            return
        for function, own, frame in _frames(_getframe(1)):
            for name, value in frame.f_locals.items():
                if own and name in carried:
                    continue
                if self.written(value, changed):
                    raise _unreached(construct, where_fn, name, function, own)
        for name, value in globals_read(where_fn):
            if self.written(value, changed):
                raise _unreached(construct, where_fn, name, None, False)


def check_staged_write(target: np.ndarray, construct: str = "item assignment") -> None:
    """A staged value written into the concrete array ``target`` (``d[i] = x``, or
    ``out=d``; the name rebound to the staged result): a ``StagingError`` if another
    array held in the user's frames shares its memory (its base, a view of it), which
    would keep the old contents."""
    _refuse_sharing(target, lambda: f"{construct} at {user_location()}",
                    "a staged value is written into a NumPy array, which becomes a staged "
                    "value")
    held = holders.stale(lambda value: value is target)
    if held is not None:
        name, rebound = held[0], holders.rebound_name()
        raise errors.StagingError(
            f"{construct} at {user_location()}: a staged value is written into a NumPy "
            f"array, which becomes a staged value; but '{name}' holds the same array and is "
            f"read later, so it would keep the old contents. Write through one name only, or "
            f"copy the array ({rebound} = {name}.copy()) if the two should not share.")


def check_carried(value, label: str, construct: str, where_fn) -> None:
    """A concrete array that a staged loop carries (and so changes) as a staged value:
    a ``StagingError`` if another array held in the user's frames shares its memory."""
    if is_node(value):
        for suffix, v in items(value):
            check_carried(v, label + suffix, construct, where_fn)
    elif is_array(value):
        _refuse_sharing(value, lambda: f"{construct} at {errors.where(where_fn)}",
                        f"'{label}', a NumPy array, is changed inside it and the condition is "
                        f"a staged value, so it becomes a staged value there")


def _refuse_sharing(target, where, what: str) -> None:
    """(``where()``: the construct and its location, for the message only.)"""
    base = base_of(target)
    for _, _, frame in _frames(_getframe(2)):
        for name, value in (held for local in frame.f_locals.items()
                            for held in holders.held_in(local[1], local[0])):
            if value is not target and is_array(value) and base_of(value) is base:
                raise errors.StagingError(
                    f"{where()}: {what}; but '{name}' shares its memory (a view of it, or the "
                    f"array it views) and would keep the old contents. Write through one of "
                    f"them only, or copy the view (v = a[1:].copy()) if the two should not "
                    f"share.")


def _frames(frame):
    """``(function name, own, frame)`` for the frames of converted code from ``frame``
    outwards; ``own`` for the function running the construct and the branch and loop
    bodies generated inside it (where the construct's carried names are the variables)."""
    own, function = True, None
    while frame is not None:
        code = frame.f_code
        if code in converted.codes:
            user = not GENERATED.match(code.co_name) and code.co_name != "<lambda>"
            if user and function is None:
                function = code.co_name
                yield function, True, frame
                own = False
            elif user:
                yield code.co_name, False, frame
            elif own:
                yield None, True, frame
        frame = frame.f_back


def globals_read(fn) -> list:
    """``(name, value)`` of the globals ``fn``'s code (and the code nested in it) reads."""
    code, space = getattr(fn, "__code__", None), getattr(fn, "__globals__", None)
    if code is None or space is None:
        return []
    names = {name for c in nested_codes(code) for name in c.co_names}
    return [(n, space[n]) for n in sorted(names) if n in space]


def nested_codes(code):
    """``code`` and the code objects nested in it (its functions, lambdas, classes)."""
    stack = [code]
    while stack:
        c = stack.pop()
        yield c
        stack.extend(k for k in c.co_consts if k.__class__ is types.CodeType)


def _unreached(construct: str, where_fn, name: str, function, own: bool):
    if function is None and not own:
        holder = f"the global '{name}'"
    elif own:
        holder = f"'{name}', which the {construct} does not assign"
    else:
        holder = f"'{name}' of {function}(), which calls the function with the {construct}"
    return errors.StagingError(
        f"{construct} at {errors.where(where_fn)}: a NumPy array is written inside it "
        f"(directly, through a view, or in place) and the condition is a staged value, so the "
        f"array becomes a staged value there; but it is also held by {holder}, which would "
        f"keep the old contents. Write through '{name}' itself in the {construct} (so that the "
        f"{construct} carries it), or copy the array before the {construct} if '{name}' is to "
        f"keep its old contents.")
