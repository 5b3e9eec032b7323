"""``assert test, msg`` becomes ``ag__.assert_stmt(test, lambda: msg)``.

The message stays lazy, as in Python. Guarantees: no ``Assert`` nodes remain.
"""

from __future__ import annotations

from autograph import templates, transformer


class Asserts(transformer.Base):
    def visit_Assert(self, node):
        node = self.generic_visit(node)
        if node.msg is None:
            return templates.replace("ag__.assert_stmt(test)", test=node.test)
        return templates.replace("ag__.assert_stmt(test, lambda: msg)", test=node.test, msg=node.msg)


def transform(node, ctx) -> None:
    transformer.transform_function(Asserts, ctx)
