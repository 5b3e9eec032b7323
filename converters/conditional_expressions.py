"""``a if c else b`` becomes ``ag__.choose(c, lambda: a, lambda: b)()``.

Both branches stay lazy; ``choose`` returns the operand's thunk and the
generated code calls it (the thunk's caller is the user's function).
Guarantees: no ``IfExp`` nodes remain.
"""

from __future__ import annotations

from autograph import templates, transformer


class ConditionalExpressions(transformer.Base):
    """Counts the walruses it visits, so a chain of n nested ternaries is looked at
    once, not once per level (quadratic: 1,000 of them took seconds)."""

    def __init__(self, ctx) -> None:
        super().__init__(ctx)
        self.walruses = 0

    def visit_NamedExpr(self, node):
        self.walruses += 1
        return self.generic_visit(node)

    def visit_IfExp(self, node):
        node.test = self.visit(node.test)
        before = self.walruses
        node.body = self.visit(node.body)
        node.orelse = self.visit(node.orelse)
        if self.walruses != before:
            return node  # a walrus must stay in this scope
        return templates.replace_expr(
            "ag__.choose(test, lambda: body, lambda: orelse)()",
            test=node.test, body=node.body, orelse=node.orelse,
        )


def transform(node, ctx) -> None:
    transformer.transform_function(ConditionalExpressions, ctx)
