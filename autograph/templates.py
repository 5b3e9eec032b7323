"""Code templates: write a rewrite as Python source with placeholders.

    templates.replace('''
        def body_name(state):
            body
            return (state,)
    ''', body_name='if_body', state=['x', 'y'], body=stmts)

A placeholder is a plain name in the template. Its replacement may be a string
(a name, given the placeholder's Load/Store/Param context), an AST node (an
expression, or a statement where the placeholder stands as a statement), or a
list of those, spliced into the surrounding list (function parameters, tuple
elements, statement bodies). Template nodes carry no source location: the
caller gives them the origin of the construct they replace (``origins.fill``).

Hygiene: the user's names and code go in only as replacements, which are never
searched for placeholders, so a user variable called ``fn`` or ``element`` is
just a variable. A template's own text names nothing but its placeholders,
builtins and the runtime (``ag__``); any other name in it is refused at once, as
user text pasted into a template would be (``f"lambda {names}: ..."`` made a
user's ``test_`` a placeholder).
"""

from __future__ import annotations

import ast
import builtins
import textwrap
from functools import lru_cache

import gast

from . import trees


# How generated code names the runtime: templates write ``ag__``, and their
# parsed form holds this instead, a name no user variable can have. So a user's
# own ``ag__`` (only ever put in by a replacement) stays the user's; compiled, it
# is a global read of this name, which the converted function's globals hold (the
# runtime module; ``conversion._publish_runtime``), and ``to_code`` shows it as
# ``ag__``, or as a fresh name when the function uses ``ag__`` itself.
RUNTIME = "ag__<runtime>"
_WRITTEN_RUNTIME = "ag__"


# What a template may name besides its placeholders: builtins and the runtime.
_VOCABULARY = frozenset(dir(builtins)) | {RUNTIME}


@lru_cache(maxsize=256)
def _parse(source: str, runtime: bool = True) -> gast.Module:
    module = trees.from_ast(ast.parse(textwrap.dedent(source)))
    if runtime:
        for node in trees.walk(module):
            if type(node) is gast.Name and node.id == _WRITTEN_RUNTIME:
                node.id = RUNTIME
    return module


def replace(template: str, **replacements) -> list:
    """The template's statements with placeholders substituted."""
    return _instantiate_list(_parse(template).body, replacements)


def replace_expr(template: str, **replacements):
    """The template's single expression with placeholders substituted."""
    (stmt,) = replace(template, **replacements)
    return stmt.value


def user_expr(source: str):
    """The expression ``source``, written by the user (an ``ag__`` in it is theirs)."""
    return trees.copy(_parse(source, runtime=False).body[0].value, locations=False)


def load(name: str) -> gast.Name:
    """A node reading the variable ``name``."""
    return gast.Name(id=name, ctx=gast.Load(), annotation=None, type_comment=None)


def constant(value) -> gast.Constant:
    """A node for the literal ``value`` (a string, number, bool or None)."""
    return gast.Constant(value=value, kind=None)


def _as_name(value, ctx):
    if isinstance(value, str):
        return gast.Name(id=value, ctx=ctx, annotation=None, type_comment=None)
    return set_context(value, ctx)


def set_context(node, ctx):
    """Give a target expression (name, tuple, starred ...) the context ``ctx``."""
    if isinstance(node, (gast.Name, gast.Attribute, gast.Subscript)):
        node.ctx = ctx
    elif isinstance(node, (gast.Tuple, gast.List)):
        node.ctx = ctx
        for elt in node.elts:
            set_context(elt, ctx)
    elif isinstance(node, gast.Starred):
        node.ctx = ctx
        set_context(node.value, ctx)
    return node


def _instantiate(node, replacements):
    """A location-free copy of template ``node`` with placeholders substituted:
    a node, or a list of nodes to splice into the enclosing list."""
    cls = type(node)
    if cls is gast.Name:
        if node.id in replacements:
            value = replacements[node.id]
            if isinstance(value, list):
                return [_as_name(v, type(node.ctx)()) for v in value]
            return _as_name(value, type(node.ctx)())
        if node.id not in _VOCABULARY:
            raise ValueError(f"template name '{node.id}' is neither a placeholder given nor a builtin: "
                             f"the user's names go in as replacements, never into a template's text")
    if cls is gast.Expr and type(node.value) is gast.Name and node.value.id in replacements:
        # A placeholder standing as a statement: replaced by statements.
        value = replacements[node.value.id]
        if isinstance(value, list) and all(isinstance(v, gast.stmt) for v in value):
            return value or [gast.Pass()]
        if isinstance(value, gast.stmt):
            return value
    new = cls.__new__(cls)
    fields = new.__dict__
    for name in cls._fields:
        value = getattr(node, name, None)
        if isinstance(value, list):
            fields[name] = _instantiate_list(value, replacements)
        elif isinstance(value, gast.AST):
            fields[name] = _instantiate(value, replacements)
        else:
            fields[name] = value
    if cls is gast.FunctionDef and node.name in replacements:
        new.name = replacements[node.name]
    return new


def _instantiate_list(nodes: list, replacements) -> list:
    out = []
    for item in nodes:
        if not isinstance(item, gast.AST):
            out.append(item)
            continue
        result = _instantiate(item, replacements)
        if isinstance(result, list):
            out.extend(result)
        elif result is not None:
            out.append(result)
    return out
