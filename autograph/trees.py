"""Copying and comparing gast trees, faster than ``copy.deepcopy`` and ``gast.dump``.

Conversion copies many small trees (every template use, the original body of
each function); the generic deep copy spends most of its time in bookkeeping
that AST nodes do not need (memo tables, reduce protocols).
"""

from __future__ import annotations

import gast

_AST = gast.AST
_LOCATION = ("lineno", "col_offset", "end_lineno", "end_col_offset")


def copy(node, locations: bool = True):
    """A deep copy of ``node`` (a node, a list of nodes, or a leaf value);
    without ``locations``, the copy's nodes have no source location."""
    if isinstance(node, list):
        return [copy(item, locations) for item in node]
    if not isinstance(node, _AST):
        return node
    cls = type(node)
    new = cls.__new__(cls)
    fields = new.__dict__
    for name in cls._fields:
        value = getattr(node, name, None)
        if isinstance(value, list):
            fields[name] = [copy(item, locations) if isinstance(item, _AST) else item for item in value]
        elif isinstance(value, _AST):
            fields[name] = copy(value, locations)
        else:
            fields[name] = value
    if locations:
        for name in cls._attributes:
            value = getattr(node, name, None)
            if value is not None:
                fields[name] = value
    return new


def equal(a, b) -> bool:
    """Whether two trees have the same node types and field values (locations aside)."""
    if isinstance(a, list):
        return isinstance(b, list) and len(a) == len(b) and all(equal(x, y) for x, y in zip(a, b))
    if not isinstance(a, _AST):
        return type(a) is type(b) and a == b
    cls = type(a)
    if type(b) is not cls:
        return False
    return all(equal(getattr(a, name, None), getattr(b, name, None)) for name in cls._fields)


def children(node) -> list:
    """The direct child nodes of ``node``, in field order."""
    out = []
    for name in type(node)._fields:
        value = getattr(node, name, None)
        if isinstance(value, list):
            out.extend(item for item in value if isinstance(item, _AST))
        elif isinstance(value, _AST):
            out.append(value)
    return out


def walk(node):
    """Every node under ``node`` (itself included), in no particular order."""
    stack = [node]
    while stack:
        node = stack.pop()
        yield node
        stack.extend(children(node))
