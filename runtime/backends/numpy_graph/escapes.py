"""Finding symbolic tensors that a trace left behind in long-lived places.

A symbolic tensor means something only inside the graph being traced. Stored in
a global, a closure variable, an attribute of an object that existed before the
trace (an argument such as ``self``, an object held by a global) or a container
reachable from those, it would outlive the call as a meaningless object. After
each trace ``find`` looks in those places, a short way down, for a tensor of the
new graph; the trace then fails with an error that names where it went.

The search is bounded (two levels of attributes and containers, the last
``_ITEMS`` items of each container), so its cost does not grow with the size of
the user's data; and among the globals it looks only at those the trace could
have touched: the names the function's code uses, and those of the functions and
classes of its module that it names, transitively (``kept.touchable``), not every
global of the module.

A trace that fails leaves the user's state as it found it: ``Bindings`` remembers
the function's globals and closure variables before the trace and puts back every
one the trace rebound (a global assigned a symbolic tensor by a staged loop, say),
and the items of the lists and dicts they hold that it changed (``kept.Contents``).
"""

from __future__ import annotations

import types
from typing import Optional

from ...staging.kept import Contents, touchable
from .tensor import Tensor

_ITEMS = 256  # items of one container looked at (the last ones: appends go there)
_DEPTH = 2
_OPAQUE = (types.ModuleType, types.FunctionType, types.BuiltinFunctionType,
           types.MethodType, types.CodeType)


class Bindings:
    """The globals and closure variables of ``fn`` as they were when the trace started."""

    def __init__(self, fn) -> None:
        fn = getattr(fn, "__func__", fn)
        self.globals = getattr(fn, "__globals__", None)
        self.before = dict(self.globals) if self.globals is not None else {}
        self.cells = []
        for cell in getattr(fn, "__closure__", None) or ():
            try:
                self.cells.append((cell, cell.cell_contents))
            except ValueError:  # an empty cell
                continue
        touched = [self.before[n] for n in touchable(fn) if n in self.before]
        self.contents = Contents(touched + [value for _, value in self.cells])

    def restore(self) -> None:
        """Rebind what the trace rebound; remove the globals it added (but the runtime's,
        under a name that is no identifier: conversion during the trace published it, and
        the converted code it made reads it)."""
        if self.globals is not None:
            for name in [n for n in self.globals if n not in self.before and n.isidentifier()]:
                del self.globals[name]
            for name, value in self.before.items():
                if self.globals.get(name, _GONE) is not value:
                    self.globals[name] = value
        for cell, value in self.cells:
            if cell.cell_contents is not value:
                cell.cell_contents = value
        self.contents.restore()


_GONE = object()


def find(graph, fn, params, args) -> Optional[tuple]:
    """``(where, tensor)`` for the first tensor of ``graph`` stored in a global or closure
    variable of ``fn``, or in an attribute or container reachable from those or from an
    argument; None if there is none."""
    fn = getattr(fn, "__func__", fn)
    roots = []
    namespace = getattr(fn, "__globals__", {})
    for name in touchable(fn):
        if name in namespace:
            roots.append((name, namespace[name], "the global", True))
    code = getattr(fn, "__code__", None)
    for name, cell in zip(code.co_freevars if code else (), getattr(fn, "__closure__", None) or ()):
        try:
            roots.append((name, cell.cell_contents, "the closure variable", True))
        except ValueError:  # an empty cell
            pass
    for name, value in zip(params, args):
        roots.append((name, value, "the argument", False))
    for name, value, kind, direct in roots:
        found = _search(graph, value, name, _DEPTH, direct)
        if found is not None:
            where, tensor = found
            if where == name:
                return f"{kind} '{name}'", tensor
            return f"`{where}` (reached from {kind} '{name}')", tensor
    return None


def _search(graph, value, where: str, depth: int, direct: bool):
    if value.__class__ is Tensor:
        return (where, value) if direct and value._graph is graph else None
    if depth == 0 or isinstance(value, _OPAQUE):
        return None
    cls = value.__class__
    if cls is list or cls is tuple:
        start = max(0, len(value) - _ITEMS)
        items = ((f"{where}[{i}]", value[i]) for i in range(start, len(value)))
    elif cls is dict:
        items = ((f"{where}[{k!r}]", v) for k, v in list(value.items())[-_ITEMS:])
    elif isinstance(value, type):  # a user's class: its attributes (``Box.count``)
        if (value.__module__ or "").partition(".")[0] in _LIBRARIES:
            return None
        items = ((f"{where}.{k}", v) for k, v in list(vars(value).items())[:_ITEMS]
                 if not k.startswith("__"))
    else:
        try:
            attributes = object.__getattribute__(value, "__dict__")
        except AttributeError:
            return None
        if not isinstance(attributes, dict) or cls.__module__.partition(".")[0] in _LIBRARIES:
            return None
        items = ((f"{where}.{k}", v) for k, v in list(attributes.items())[:_ITEMS])
    for inner_where, inner in items:
        found = _search(graph, inner, inner_where, depth - 1, True)
        if found is not None:
            return found
    return None


_LIBRARIES = frozenset({"autograph", "numpy", "jax", "jaxlib", "builtins", "functools",
                        "collections", "threading", "asyncio", "_pytest", "pytest"})
