"""``and``, ``or``, ``not`` and chained comparisons become runtime calls.

``a and b and c`` -> ``ag__.and_(a, lambda: b, lambda: c)`` (right operands lazy,
Python's value semantics kept), ``not a`` -> ``ag__.not_(a)``.

A chained comparison is a lazy ``and`` of its links in which each middle operand
is evaluated once: ``a < b < c`` -> ``ag__.and_(a < b, lambda: b < c)`` when the
shared operand ``b`` is a name or a constant (re-reading it is free of side
effects), and otherwise ``ag__.compare(a, '<', lambda: f(), '<=', lambda: c)``,
which evaluates each operand once, when Python would, and stages the ``and``
of a staged link. A chain with a walrus stays as it is (it must bind in this scope).
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
        thunks = [templates.replace_expr("lambda: value", value=v) for v in node.values[1:]]
        call = templates.replace_expr(f"{op}(first)", first=node.values[0])
        call.args.extend(thunks)
        return call

    def visit_UnaryOp(self, node):
        if isinstance(node.op, gast.Not):
            self._mark_condition(node.operand)
        node = self.generic_visit(node)
        if isinstance(node.op, gast.Not):
            return templates.replace_expr("ag__.not_(value)", value=node.operand)
        return node

    def visit_Compare(self, node):
        node = self.generic_visit(node)
        if len(node.ops) == 1 or activity.has_walrus(node):
            return node
        middles = node.comparators[:-1]
        if not all(isinstance(m, (gast.Name, gast.Constant)) for m in middles):
            call = templates.replace_expr("ag__.compare(left)", left=node.left)
            for op, right in zip(node.ops, node.comparators):
                call.args.append(templates.constant(_OPERATORS[type(op)]))
                call.args.append(templates.replace_expr("lambda: value", value=right))
            return call
        left = node.left
        parts = []
        for op, right in zip(node.ops, node.comparators):
            parts.append(gast.Compare(left=left, ops=[op], comparators=[right]))
            if right is not node.comparators[-1]:
                left = _copy_operand(right)
        call = templates.replace_expr("ag__.and_(first)", first=parts[0])
        call.args.extend(templates.replace_expr("lambda: value", value=p) for p in parts[1:])
        return call


_OPERATORS = {
    gast.Lt: "<", gast.LtE: "<=", gast.Gt: ">", gast.GtE: ">=", gast.Eq: "==", gast.NotEq: "!=",
    gast.Is: "is", gast.IsNot: "is not", gast.In: "in", gast.NotIn: "not in",
}


def _copy_operand(node):
    if isinstance(node, gast.Name):
        return templates.load(node.id)
    return templates.constant(node.value)


def transform(node, ctx) -> None:
    transformer.transform_function(LogicalExpressions, ctx)
