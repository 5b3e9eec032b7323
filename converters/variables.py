"""Reads of variables that may be unassigned go through ``ag__.ld``.

Requires: ``ctx.maybe_undefined`` (ids of Name loads and AugAssign statements
whose variable may be unassigned there), from ``analysis.definedness`` on the
original function. Guarantees: reading a variable that holds an ``Undefined``
placeholder raises the ``UnboundLocalError`` Python would raise.
"""

from __future__ import annotations

import gast

from autograph import templates, transformer


class Variables(transformer.Base):
    enter_lambdas = False

    def visit_Name(self, node):
        if id(node) in self.ctx.maybe_undefined:
            return templates.replace_expr("ag__.ld(name)", name=node)
        return node

    def visit_AugAssign(self, node):
        node = self.generic_visit(node)
        if id(node) in self.ctx.maybe_undefined:
            check = templates.replace("name = ag__.ld(name)", name=node.target.id)
            return check + [node]
        return node


def transform(node, ctx) -> None:
    transformer.transform_function(Variables, ctx)
