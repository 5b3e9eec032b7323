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
"""

from __future__ import annotations

import textwrap
from functools import lru_cache

import gast

from . import trees


@lru_cache(maxsize=256)
def _parse(source: str) -> gast.Module:
    return gast.parse(textwrap.dedent(source))


def replace(template: str, **replacements) -> list:
    """The template's statements with placeholders substituted."""
    module = trees.copy(_parse(template), locations=False)
    return _Replacer(replacements).visit(module).body


def replace_expr(template: str, **replacements):
    """The template's single expression with placeholders substituted."""
    (stmt,) = replace(template, **replacements)
    return stmt.value


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


class _Replacer(gast.NodeTransformer):
    def __init__(self, replacements: dict) -> None:
        self.replacements = replacements

    def generic_visit(self, node):
        for field, old in gast.iter_fields(node):
            if isinstance(old, list):
                new = []
                for item in old:
                    result = self.visit(item) if isinstance(item, gast.AST) else item
                    if isinstance(result, list):
                        new.extend(result)
                    elif result is not None:
                        new.append(result)
                setattr(node, field, new)
            elif isinstance(old, gast.AST):
                setattr(node, field, self.visit(old))
        return node

    def visit_Name(self, node):
        if node.id not in self.replacements:
            return self.generic_visit(node)
        value = self.replacements[node.id]
        if isinstance(value, list):
            return [_as_name(v, type(node.ctx)()) for v in value]
        return _as_name(value, node.ctx)

    def visit_Expr(self, node):
        # A placeholder standing as a statement: replaced by statements.
        if isinstance(node.value, gast.Name) and node.value.id in self.replacements:
            value = self.replacements[node.value.id]
            if isinstance(value, list) and all(isinstance(v, gast.stmt) for v in value):
                return value or [gast.Pass()]
            if isinstance(value, gast.stmt):
                return value
        return self.generic_visit(node)

    def visit_FunctionDef(self, node):
        if node.name in self.replacements:
            node.name = self.replacements[node.name]
        return self.generic_visit(node)
