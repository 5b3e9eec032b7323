"""Tests and indexes that may choose with a staged value go through the runtime.

    x is None        ->  ag__.is_none(x)
    x is not None    ->  ag__.is_not_none(x)
    ab[idx]          ->  ag__.getitem(ab, idx, 'ab')   (ab a name, idx a name or expression)
    self.ab[idx]     ->  ag__.getitem(self.ab, idx, 'self.ab')
    w[k, 1:]         ->  ag__.getitem(w, (k, slice(1, None, None)), 'w')
    [a, b][idx]      ->  ag__.getitem([a, b], idx, 'the list')
    ab[t][idx]       ->  ag__.getitem(ab[t], idx, 'ab[t]')
    np.add(a, b, out=x)  ->  x = np.add(a, b, out=x)   (NumPy returns ``out``)

``is`` cannot be overloaded, and a Python list cannot be indexed by a staged value;
the runtime (``runtime.choices``) answers both as Python does on Python values, and
with a graph op where a value is staged: the run-time flag of a value that is None
on some staged paths, a select among the stacked items of the list.
Guarantees: only ``is None`` comparisons with one operator, and loads from names
(locals, parameters, and the globals and closure variables a lookup table lives in:
mpmath's ``small_trailing[n & 0xff]``), from attributes of names (SciPy's TOMS 748
solver's ``self.ab[uix]``), from their items (``ab[t]``) and from list or tuple
displays, indexed by a name or a computed expression (or a tuple of indexes holding
one), are rewritten.
"""

from __future__ import annotations

import ast

import gast

from autograph import templates, transformer, trees
from autograph.converters import call_trees, item_assignments

# Indexes that may be staged values: a name, or an expression computing one.
_CHOOSERS = (gast.Name, gast.IfExp, gast.BinOp, gast.Call, gast.Compare, gast.UnaryOp)


def _chooses(index) -> bool:
    """An index that may hold a staged value: a name or computed expression, or a tuple
    of indexes with one (``weights[k, 1]``, ``a[i, :]``)."""
    if isinstance(index, gast.Tuple):
        return any(isinstance(e, _CHOOSERS) for e in index.elts)
    return isinstance(index, _CHOOSERS)


def _dotted(node):
    """``self.ab`` of a name or a chain of attributes on one, else None."""
    if isinstance(node, gast.Name):
        return node.id
    if isinstance(node, gast.Attribute):
        owner = _dotted(node.value)
        return None if owner is None else f"{owner}.{node.attr}"
    return None


class StagedChoices(transformer.Base):
    def visit_Expr(self, node):
        """``np.add(a, b, out=x)`` -> ``x = np.add(a, b, out=x)``: NumPy returns ``out``, so
        Python is unchanged, and a staged branch or loop now carries ``x``."""
        node = self.generic_visit(node)
        call = node.value
        if not isinstance(call, gast.Call) or not self._is_numpy(call.func):
            return node
        for keyword in call.keywords:
            if keyword.arg == "out" and isinstance(keyword.value, gast.Name) \
                    and keyword.value.id in self.ctx.locals:
                return templates.replace("name = call", name=keyword.value.id, call=call)
        return node

    @staticmethod
    def _named_root(node) -> bool:
        """Whether ``node`` indexes a name or an attribute of one (``tokens[t]``, ``w[i][j]``)."""
        while isinstance(node, gast.Subscript):
            node = node.value
        return _dotted(node) is not None

    def _is_numpy(self, func) -> bool:
        return call_trees.library_of(func, self.ctx) == "numpy"

    def visit_Compare(self, node):
        node = self.generic_visit(node)
        if len(node.ops) == 1 and isinstance(node.ops[0], (gast.Is, gast.IsNot)):
            right = node.comparators[0]
            if isinstance(right, gast.Constant) and right.value is None:
                fn = "is_none" if isinstance(node.ops[0], gast.Is) else "is_not_none"
                return templates.replace_expr(f"ag__.{fn}(value)", value=node.left)
        return node

    def visit_Subscript(self, node):
        # an item of a local's item (tokens[t][beam]), named as written, before the
        # inner subscript is rewritten
        item_of = isinstance(node.value, gast.Subscript) and self._named_root(node.value) \
            and ast.unparse(trees.to_ast(node.value))
        node = self.generic_visit(node)
        if not isinstance(node.ctx, gast.Load) or not _chooses(node.slice):
            return node
        label = _dotted(node.value)  # a local, a global's lookup table, an attribute's list
        if label is None and isinstance(node.value, (gast.List, gast.Tuple)):  # [a, b][i]
            label = "the " + type(node.value).__name__.lower()
        if label is None and item_of:  # tokens[t][beam]
            label = item_of
        if label is None:
            return node
        return templates.replace_expr("ag__.getitem(value, index, label)", value=node.value,
                                      index=item_assignments.index_expression(node.slice),
                                      label=templates.constant(label))


def transform(node, ctx) -> None:
    transformer.transform_function(StagedChoices, ctx)
