"""``"literal" % args`` becomes ``ag__.percent_format("literal", args)``.

A ``%d`` or ``%.3f`` asks its argument for a Python number, which a staged value
does not have while tracing. ``percent_format`` formats exactly as ``%`` does when no
argument is staged, and otherwise asks the backend how to show each staged one
(``runtime.formatting``): the NumPy engine then formats a raise's message from the
run-time values. Only a string literal on the left is rewritten (``a % b`` of
numbers stays an operator). Guarantees: no ``BinOp(Mod)`` with a ``str`` constant
on the left remains.
"""

from __future__ import annotations

import gast

from autograph import templates, transformer


class PercentFormatting(transformer.Base):
    def visit_BinOp(self, node):
        node = self.generic_visit(node)
        left = node.left
        if not (isinstance(node.op, gast.Mod) and isinstance(left, gast.Constant)
                and isinstance(left.value, str)):
            return node
        return templates.replace_expr("ag__.percent_format(fmt, args)", fmt=left,
                                      args=node.right)


def transform(node, ctx) -> None:
    transformer.transform_function(PercentFormatting, ctx)
