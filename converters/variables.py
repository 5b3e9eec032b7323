"""Reads of variables that may be unassigned go through ``ag__.ld``.

Requires: ``ctx.maybe_undefined`` (ids of Name loads and AugAssign statements
whose variable may be unassigned there), from ``analysis.definedness`` on the
original function. ``del x`` of a local
becomes ``x = ag__.Undefined('x')``. Guarantees: reading a variable that holds an ``Undefined``
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

    def visit_Delete(self, node):
        """``del x`` of a local: ``x`` holds a placeholder again (staged state must
        stay assigned); other targets are deleted as usual."""
        out, kept = [], []
        for target in node.targets:
            if isinstance(target, gast.Name) and target.id in self.ctx.locals:
                if id(target) in self.ctx.maybe_undefined:
                    out.extend(templates.replace("ag__.ld(name)", name=target.id))
                out.extend(templates.replace("name = ag__.Undefined(label)", name=target.id, label=templates.constant(target.id)))
            else:
                kept.append(self.visit(target))
        if kept:
            node.targets = kept
            out.insert(0, node)
        return out

    def visit_AugAssign(self, node):
        node = self.generic_visit(node)
        if id(node) in self.ctx.maybe_undefined:
            check = templates.replace("name = ag__.ld(name)", name=node.target.id)
            return check + [node]
        return node


def transform(node, ctx) -> None:
    transformer.transform_function(Variables, ctx)
