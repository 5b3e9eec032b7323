"""``and``, ``or``, ``not`` and chained comparisons become runtime calls.

``a and b`` -> ``ag__.and_(a, lambda: b)()``: the runtime says what to evaluate
(the right operand's thunk, or the left value back) and the generated code
calls it, so the user's function evaluates its operands itself. Longer chains
nest to the right, ``a and b and c`` -> ``ag__.and_(a, lambda: ag__.and_(b,
lambda: c)())()`` (Python's values, and each operand's truth asked once).
``not a`` -> ``ag__.not_(a)``.

A chained comparison is a lazy ``and`` of its links in which each middle operand
is evaluated once: ``a < b < c`` -> ``ag__.and_(a < b, lambda: b < c)()`` when the
shared operand ``b`` is a name or a constant (re-reading it is free of side
effects), and otherwise the operands are evaluated once, in Python's order, as
the arguments of lambdas that compare them:
``a < f() <= c`` -> ``(lambda left, right: ag__.and_(left < right, lambda: right
<= c)())(a, f())``. A chain with a walrus stays as it is (it must bind in this scope).

A comparison of two tuple (or list) displays, ``(a, b) < (c, d)``, becomes
``ag__.compare_sequences("<", (a, b), (c, d))``: Python compares the items pair by
pair and asks each ``==`` for a bool, which a staged item has only when the graph
runs; the runtime stages that order (the operands are evaluated first, in Python's order).
"""

from __future__ import annotations

import gast

from autograph import templates, transformer
from autograph.analysis import activity


class LogicalExpressions(transformer.Base):
    def __init__(self, ctx) -> None:
        super().__init__(ctx)
        self.conditions: set = set()  # ids of expressions used only for their truth

    def _mark_condition(self, node) -> None:
        if isinstance(node, gast.BoolOp):
            self.conditions.add(id(node))

    def visit_If(self, node):
        self._mark_condition(node.test)
        return self.generic_visit(node)

    visit_While = visit_If
    visit_IfExp = visit_If

    def visit_Assert(self, node):
        self._mark_condition(node.test)
        return self.generic_visit(node)

    def visit_BoolOp(self, node):
        is_condition = id(node) in self.conditions
        if is_condition:  # the operands of a condition count only by their truth too
            for value in node.values:
                self._mark_condition(value)
        if any(activity.has_walrus(v) for v in node.values[1:]):
            return self.generic_visit(node)  # a walrus must stay in this scope
        node = self.generic_visit(node)
        op = "ag__.and_" if isinstance(node.op, gast.And) else "ag__.or_"
        if is_condition:
            op += "cond"
        expr = node.values[-1]
        for value in reversed(node.values[:-1]):
            expr = templates.replace_expr(f"{op}(value, lambda: rest)()", value=value, rest=expr)
        return expr

    def visit_UnaryOp(self, node):
        if isinstance(node.op, gast.Not):
            self._mark_condition(node.operand)
        node = self.generic_visit(node)
        if isinstance(node.op, gast.Not):
            return templates.replace_expr("ag__.not_(value)", value=node.operand)
        return node

    def visit_Compare(self, node):
        node = self.generic_visit(node)
        if len(node.ops) == 1 and _displays(node.left, node.comparators[0]):
            op = _SEQUENCE_OPS.get(type(node.ops[0]))
            if op is not None:
                return templates.replace_expr("ag__.compare_sequences(op, left, right)",
                                              op=templates.constant(op), left=node.left,
                                              right=node.comparators[0])
        if len(node.ops) == 1 or activity.has_walrus(node):
            return node
        middles = node.comparators[:-1]
        if not all(isinstance(m, (gast.Name, gast.Constant)) for m in middles):
            left, right = self.ctx.namer.new("left"), self.ctx.namer.new("right")
            inner = self._links(templates.load(left), right, list(zip(node.ops, node.comparators)))
            return templates.replace_expr("(lambda left, right: inner)(first, second)", left=left, right=right,
                                          inner=inner, first=node.left, second=node.comparators[0])
        left = node.left
        parts = []
        for op, right in zip(node.ops, node.comparators):
            parts.append(gast.Compare(left=left, ops=[op], comparators=[right]))
            if right is not node.comparators[-1]:
                left = _copy_operand(right)
        return _and_chain(parts)

    def _links(self, left, right: str, links):
        """The chain ``left op right ...`` whose first right operand is already
        the lambda parameter ``right``; each later operand is evaluated once, when
        the links before it hold."""
        op = links[0][0]
        first = gast.Compare(left=left, ops=[op], comparators=[templates.load(right)])
        if len(links) == 2:
            last = gast.Compare(left=templates.load(right), ops=[links[1][0]], comparators=[links[1][1]])
            return _and_chain([first, last])
        following = self.ctx.namer.new("right")
        rest = templates.replace_expr("(lambda following: inner)(operand)", following=following,
                                      inner=self._links(templates.load(right), following, links[1:]),
                                      operand=links[1][1])
        return _and_chain([first, rest])


_SEQUENCE_OPS = {gast.Lt: "<", gast.LtE: "<=", gast.Gt: ">", gast.GtE: ">=", gast.Eq: "==",
                 gast.NotEq: "!="}


def _displays(left, right) -> bool:
    """Both operands tuple displays, or both list displays, without a starred item."""
    return (type(left) is type(right) and isinstance(left, (gast.Tuple, gast.List))
            and not any(isinstance(e, gast.Starred) for e in left.elts + right.elts))


def _and_chain(parts):
    """``ag__.and_(p0, lambda: ag__.and_(p1, lambda: p2)())()``."""
    expr = parts[-1]
    for part in reversed(parts[:-1]):
        expr = templates.replace_expr("ag__.and_(value, lambda: rest)()", value=part, rest=expr)
    return expr


def _copy_operand(node):
    if isinstance(node, gast.Name):
        return templates.load(node.id)
    return templates.constant(node.value)


def transform(node, ctx) -> None:
    transformer.transform_function(LogicalExpressions, ctx)
