"""Small fast tools over gast trees: copy, compare, walk, translate to and from ``ast``.

They replace ``copy.deepcopy``, ``gast.dump`` comparisons, ``gast.walk`` and
``gast.ast_to_gast``/``gast_to_ast`` on conversion's hot path: conversion copies
many small trees (every template use, the original body of each function), and
the generic versions spend most of their time on bookkeeping AST nodes do not
need (memo tables, reduce protocols, visiting contexts and operators).
"""

from __future__ import annotations

import ast

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
    """The direct child nodes of ``node`` that have children or values of their
    own: contexts and operators (``Load``, ``Add``, ...) are left out."""
    out = []
    fields = node.__dict__  # a node's fields live in its __dict__ (a missing one: None)
    for name in _NODE_FIELDS.get(node.__class__) or node_fields(node.__class__):
        value = fields.get(name)
        if value.__class__ is list:
            for item in value:
                if isinstance(item, _AST):
                    out.append(item)
        elif isinstance(value, _AST):
            out.append(value)
    return out


def node_fields(cls) -> tuple:
    """The fields of node class ``cls`` that may hold nodes with fields of their own."""
    fields = _NODE_FIELDS.get(cls)
    if fields is None:
        fields = _NODE_FIELDS[cls] = tuple(f for f in cls._fields if f not in _LEAF_FIELDS)
    return fields


# Fields that never hold a node with fields: contexts, operators, plain strings and numbers.
_LEAF_FIELDS = frozenset({"ctx", "op", "ops", "id", "attr", "kind", "type_comment", "level", "module", "arg", "conversion", "is_async"})
_NODE_FIELDS: dict = {gast.Constant: ()}  # a constant's value is a Python value


def walk(node):
    """Every node under ``node`` (itself included), in no particular order."""
    stack = [node]
    while stack:
        node = stack.pop()
        yield node
        stack.extend(children(node))


_SCOPES = (gast.FunctionDef, gast.AsyncFunctionDef, gast.Lambda, gast.ClassDef)


def walk_scope(nodes):
    """Every node of the statements ``nodes`` in their own scope: nested
    functions, lambdas and classes are yielded but not entered."""
    stack = list(nodes)
    while stack:
        node = stack.pop()
        yield node
        if not isinstance(node, _SCOPES):
            stack.extend(children(node))


_BLOCKS = ("body", "orelse", "finalbody", "handlers", "cases")


def scope_statements(stmts):
    """Every statement of the statements ``stmts`` in their own scope (and the
    ``except`` handlers and ``match`` cases that hold some), expressions not
    entered: what looks for statements only (``global``, ``return``) walks."""
    stack = list(stmts)
    while stack:
        node = stack.pop()
        yield node
        if not isinstance(node, _SCOPES):
            fields = node.__dict__
            for name in _BLOCKS:
                block = fields.get(name)
                if block.__class__ is list:
                    stack.extend(block)


class Constant:
    """In ``to_ast``'s ``names``: a variable read that becomes this constant."""

    def __init__(self, value) -> None:
        self.value = value


_NO_NAMES: dict = {}


def to_ast(node, location=None, names=_NO_NAMES):
    """The standard ``ast`` tree of a gast tree, ready for ``compile``: nodes
    without a source location take their nearest located ancestor's. ``names``
    maps variables (reads, writes, parameters) to new names, or reads to a
    ``Constant``.

    (``gast.gast_to_ast`` plus ``ast.fix_missing_locations``, in one pass and
    for the Python versions this package supports.)
    """
    if isinstance(node, list):
        return [to_ast(item, location, names) if isinstance(item, _AST) else item for item in node]
    return _to_ast(node, location, names, {})


def _to_ast(node, location, names, memo: dict):
    """``to_ast`` of one node; ``memo``: (id of a gast node, inherited location, id of
    names) -> its ast node, so that subtrees a tree shares are translated once
    (compiling a tree that shares a node in two places is fine)."""
    key = (id(node), location, id(names))
    done = memo.get(key)
    if done is not None:
        return done
    cls = node.__class__
    target = _AST_CLASSES.get(cls)
    if target is None:
        target = _AST_CLASSES[cls] = getattr(ast, cls.__name__)
    if "lineno" in cls._attributes:
        location = _location(node, location)
    if cls is gast.Name:
        name = names.get(node.id, node.id) if names else node.id
        if name.__class__ is Constant and type(node.ctx) is gast.Load:
            new = ast.Constant(name.value)
        else:
            new = ast.Name(name, type(node.ctx) is gast.Load and _LOAD or _store_or_del(node.ctx))
    elif cls is gast.arguments:
        new = ast.arguments(
            posonlyargs=[_arg(a, location, names, memo) for a in node.posonlyargs],
            args=[_arg(a, location, names, memo) for a in node.args],
            vararg=_arg(node.vararg, location, names, memo),
            kwonlyargs=[_arg(a, location, names, memo) for a in node.kwonlyargs],
            kw_defaults=[None if d is None else _to_ast(d, location, names, memo) for d in node.kw_defaults],
            kwarg=_arg(node.kwarg, location, names, memo),
            defaults=_all_to_ast(node.defaults, location, names, memo),
        )
    elif cls is gast.ExceptHandler:
        new = ast.ExceptHandler(
            None if node.type is None else _to_ast(node.type, location, names, memo),
            None if node.name is None else names.get(node.name.id, node.name.id),
            _all_to_ast(node.body, location, names, memo),
        )
    else:
        new = target.__new__(target)
        fields = new.__dict__
        given = node.__dict__  # a node's fields live in its __dict__ (a missing one: None)
        for name in target._fields:
            value = given.get(name)
            if isinstance(value, list):
                fields[name] = _all_to_ast(value, location, names, memo)
            elif isinstance(value, _AST):
                fields[name] = _to_ast(value, location, names, memo)
            else:
                fields[name] = value
    if location is not None and "lineno" in target._attributes:
        new.lineno, new.col_offset, new.end_lineno, new.end_col_offset = location
    memo[key] = new
    return new


def _all_to_ast(items: list, location, names, memo: dict) -> list:
    return [_to_ast(item, location, names, memo) if isinstance(item, _AST) else item for item in items]


_AST_CLASSES: dict = {}
_LOAD = ast.Load()


def _store_or_del(ctx):
    return ast.Store() if type(ctx) is not gast.Del else ast.Del()


def _arg(name, location, names, memo: dict):
    if name is None:
        return None
    annotation = None if name.annotation is None else _to_ast(name.annotation, location, names, memo)
    new = ast.arg(names.get(name.id, name.id) if names else name.id, annotation, name.type_comment)
    location = _location(name, location)
    if location is not None:
        new.lineno, new.col_offset, new.end_lineno, new.end_col_offset = location
    return new


def _location(node, inherited):
    """``node``'s (lineno, col_offset, end_lineno, end_col_offset), or ``inherited``."""
    fields = node.__dict__
    lineno = fields.get("lineno")
    if lineno is None:
        return inherited
    return lineno, fields.get("col_offset"), fields.get("end_lineno"), fields.get("end_col_offset")


def from_ast(node):
    """The gast tree of a standard ``ast`` tree (``gast.ast_to_gast``, faster)."""
    cls = type(node)
    if cls is ast.Name:
        new = gast.Name(node.id, _GAST_LOAD if type(node.ctx) is ast.Load else _gast_store_or_del(node.ctx), None, None)
    elif cls is ast.arg:
        annotation = None if node.annotation is None else from_ast(node.annotation)
        new = gast.Name(node.arg, gast.Param(), annotation, node.type_comment)
    elif cls is ast.ExceptHandler and node.name:
        new = gast.ExceptHandler(
            None if node.type is None else from_ast(node.type),
            gast.Name(node.name, gast.Store(), None, None),
            [from_ast(stmt) for stmt in node.body],
        )
    else:
        target = _GAST_CLASSES.get(cls)
        if target is None:
            target = _GAST_CLASSES[cls] = getattr(gast, cls.__name__)
        new = target.__new__(target)
        fields = new.__dict__
        for name in target._fields:
            value = getattr(node, name, _MISSING)
            if isinstance(value, list):
                fields[name] = [from_ast(item) if isinstance(item, _AST) else item for item in value]
            elif isinstance(value, _AST):
                fields[name] = from_ast(value)
            elif value is _MISSING:  # a field this Python's ast lacks (type_params before 3.12)
                fields[name] = [] if name == "type_params" else None
            else:
                fields[name] = value
    if "lineno" in type(new)._attributes:
        fields = new.__dict__
        for name in _LOCATION:
            fields[name] = getattr(node, name, None)
    return new


_GAST_CLASSES: dict = {}
_GAST_LOAD = gast.Load()
_MISSING = object()


def _gast_store_or_del(ctx):
    return gast.Store() if type(ctx) is not ast.Del else gast.Del()
