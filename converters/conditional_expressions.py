"""``a if c else b`` becomes ``ag__.choose(c, lambda: a, lambda: b)()``.

Both branches stay lazy; ``choose`` returns the operand's thunk and the
generated code calls it (the thunk's caller is the user's function).
Guarantees: no ``IfExp`` nodes remain.
"""

from __future__ import annotations

from autograph import templates, transformer
from autograph.analysis import activity


class ConditionalExpressions(transformer.Base):
    def visit_IfExp(self, node):
        node = self.generic_visit(node)
        if activity.has_walrus(node.body) or activity.has_walrus(node.orelse):
            return node  # a walrus must stay in this scope
        return templates.replace_expr(
            "ag__.choose(test, lambda: body, lambda: orelse)()",
            test=node.test, body=node.body, orelse=node.orelse,
        )


def transform(node, ctx) -> None:
    transformer.transform_function(ConditionalExpressions, ctx)
