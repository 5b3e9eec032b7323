"""Mutable containers a staged construct cannot carry: sets, deques, bytearrays,
``array.array``s, subclasses of dict and list (``collections.Counter``,
``OrderedDict``, a user's ``class Cache(dict)``), iterators (``next(it)``: those
of lists, tuples, ranges and strings, and generators), and the module globals a
called function rebinds (``global N; N += 1`` in a helper the body calls).

A staged ``if`` traces both branches and a staged loop traces its body once, so a
change such a container gets inside them (``seen.add(k)``, ``counts[k] += 1``) would
happen on every path, once, whatever the condition says; unlike a dict or a list
(``inplace.InPlace``), their contents cannot be joined item by item into the
construct's op. ``Uncarried`` keeps what each one reachable from the bodies held
before the construct, so that a body that changed one is a ``StagingError`` naming it
(and the container is put back as it was).
"""

from __future__ import annotations

import array
import collections
import types

from . import errors

# the exact classes carried item by item elsewhere (InPlace): everything else of these
# kinds is watched here
_CARRIED = (dict, list)
_ITERATORS = tuple({type(iter(kind)) for kind in ([], (), range(0), "")})
_KINDS = (set, collections.deque, bytearray, array.array, dict, list, types.GeneratorType,
          *_ITERATORS)


def watched(value) -> bool:
    """A container of a kind ``Uncarried`` watches."""
    return isinstance(value, _KINDS) and value.__class__ not in _CARRIED


class _Global:
    """A name in a module's namespace, watched as a container of one item."""

    __slots__ = ("namespace", "name")

    def __init__(self, namespace: dict, name: str) -> None:
        self.namespace, self.name = namespace, name


def held_items(value) -> list:
    """``(label suffix, item)`` of what a watched container holds that may be state of
    its own (a list in a deque, an array a Counter's subclass maps to)."""
    if isinstance(value, dict):
        return [(f"[{key!r}]", item) for key, item in dict.items(value)]
    if isinstance(value, (collections.deque, list)):
        return [(f"[{i}]", item) for i, item in enumerate(value)]
    return []


def _snapshot(value):
    """What ``value`` holds, compared by identity (its items may be arrays)."""
    if isinstance(value, (bytearray, array.array)):
        return value.tobytes() if isinstance(value, array.array) else bytes(value)
    if isinstance(value, _ITERATORS):  # (its position; none once exhausted)
        reduced = value.__reduce__()
        return reduced[2] if len(reduced) > 2 else None
    if isinstance(value, types.GeneratorType):
        return value.gi_frame.f_lasti if value.gi_frame is not None else None
    if isinstance(value, dict):
        return [(id(k), id(v)) for k, v in dict.items(value)]
    if isinstance(value, set):
        return frozenset(map(id, value))
    return [id(v) for v in value]


def _contents(value):
    if isinstance(value, (_ITERATORS, types.GeneratorType)):
        return _snapshot(value)
    if isinstance(value, dict):
        return dict(dict.items(value))
    if isinstance(value, (bytearray, array.array)):
        return value[:]
    return list(value)


def _put_back(value, contents) -> None:
    if isinstance(value, types.GeneratorType) or (
            isinstance(value, _ITERATORS) and (contents is None or _snapshot(value) is None)):
        return  # (a generator, or an exhausted iterator, cannot go back)
    if isinstance(value, _ITERATORS):
        value.__setstate__(contents)
    elif isinstance(value, dict):
        dict.clear(value)
        dict.update(value, contents)
    elif isinstance(value, (set, collections.deque)):
        value.clear()
        (value.update if isinstance(value, set) else value.extend)(contents)
    else:
        value[:] = contents


class Uncarried:
    """The watched containers reachable from a construct's bodies, as they were."""

    def __init__(self) -> None:
        self.entries: list = []  # (container, label, snapshot, contents)

    def add(self, value, label: str) -> None:
        self.entries.append((value, label, _snapshot(value), _contents(value)))

    def add_global(self, namespace: dict, name: str, label: str) -> None:
        """A module global a called function rebinds (``global N; N += 1``): rebound
        inside a staged body, it would change once at trace time too."""
        self.entries.append((_Global(namespace, name), label, None, namespace.get(name, _Global)))

    def first_change(self):
        """The label of the first container (or global) changed since the start, or None."""
        for value, label, snapshot, before in self.entries:
            if value.__class__ is _Global:
                if value.namespace.get(value.name, _Global) is not before:
                    return label
            elif _snapshot(value) != snapshot:
                return label
        return None

    def rebound(self, missing):
        """``[(namespace, name, before, now)]`` of the globals rebound since the start
        (``missing`` standing for an unbound one), or None if a container changed."""
        found = []
        for value, _, snapshot, before in self.entries:
            if value.__class__ is _Global:
                now = value.namespace.get(value.name, _Global)
                if now is not before:
                    found.append((value.namespace, value.name,
                                  missing if before is _Global else before,
                                  missing if now is _Global else now))
            elif _snapshot(value) != snapshot:
                return None
        return found

    def check(self, construct: str, where_fn) -> None:
        """A ``StagingError`` naming the first container a body changed."""
        for value, label, snapshot, before in self.entries:
            if value.__class__ is _Global:
                if value.namespace.get(value.name, _Global) is not before:
                    raise errors.StagingError(
                        f"{construct} at {errors.where(where_fn)}: {label} inside it, and the "
                        f"construct is staged (its condition is a staged value), so it would "
                        f"change once, at trace time, whatever the condition says. Keep the "
                        f"state in a local variable and return it, or in an "
                        f"autograph.Variable.")
                continue
            if _snapshot(value) != snapshot:
                kind = type(value).__name__.replace("_", " ")
                a = "an" if kind[0] in "aeiou" else "a"
                raise errors.StagingError(
                    f"{construct} at {errors.where(where_fn)}: {errors.subject(label)}, {a} "
                    f"{kind}, is changed inside it, and the construct is staged (its "
                    f"condition is a staged value): {a} {kind} cannot hold contents (or a "
                    f"position) that differ by path, so the change would happen once, at "
                    f"trace time, whatever the condition says. Make the change outside the "
                    f"{construct.split()[0]}, or keep the state in a dict, a list or a NumPy "
                    f"array.")

    def restore(self) -> None:
        for value, _, snapshot, contents in self.entries:
            if value.__class__ is _Global:
                if value.namespace.get(value.name, _Global) is not contents:
                    if contents is _Global:
                        value.namespace.pop(value.name, None)
                    else:
                        value.namespace[value.name] = contents
            elif _snapshot(value) != snapshot:
                _put_back(value, contents)
