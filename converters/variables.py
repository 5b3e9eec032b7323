"""Reads of variables that may be unassigned go through ``ag__.ld``.

Requires: ``ctx.maybe_undefined`` (ids of Name loads and AugAssign statements
whose variable may be unassigned there), from ``analysis.definedness`` on the
original function. ``del x`` of a local
becomes ``x = ag__.Undefined('x')``. The name of ``except E as e`` is deleted when
the handler ends: where it is read outside its handler, the ``try`` gets a
``finally`` that leaves ``e = ag__.ldu(lambda: e, 'e')`` (its value if still
bound, else a placeholder), so that a generated function reading it raises
Python's ``UnboundLocalError``, not a closure's ``NameError``. Guarantees: reading a variable that holds an ``Undefined``
placeholder raises the ``UnboundLocalError`` Python would raise.

An attribute of a variable that the function also assigns (``self.brackt``, set on
one path of a staged ``if``, read on a later call) is read through
``ag__.ld_attribute(self.brackt, self, 'brackt')``: where a staged construct left it
absent on some paths, the read raises the ``AttributeError`` Python would raise there
when the program runs (a call's own ``self.method(...)`` is left as it is).
"""

from __future__ import annotations

import gast

from autograph import templates, transformer, trees
from autograph.analysis import activity


class Variables(transformer.Base):
    enter_lambdas = False

    def __init__(self, ctx) -> None:
        super().__init__(ctx)
        self.assigned_attributes = _assigned_attributes(ctx.fn_node.body)

    def visit_Attribute(self, node):
        node = self.generic_visit(node)
        if isinstance(node.ctx, gast.Load) and isinstance(node.value, gast.Name) and (
                node.value.id, node.attr) in self.assigned_attributes:
            return templates.replace_expr("ag__.ld_attribute(read, obj, label)", read=node,
                                          obj=gast.Name(node.value.id, gast.Load(), None, None),
                                          label=templates.constant(node.attr))
        return node

    def visit_Call(self, node):
        if isinstance(node.func, gast.Attribute):  # a method call reads no flagged value
            node.func.value = self.visit(node.func.value)
            node.args = [self.visit(a) for a in node.args]
            node.keywords = [self.visit(k) for k in node.keywords]
            return node
        return self.generic_visit(node)

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

    def visit_Try(self, node):
        node = self.generic_visit(node)
        deleted = sorted({h.name.id for h in node.handlers if h.name is not None} & self.ctx.locals)
        read_after = [name for name in deleted if _read_outside(self.ctx.fn_node.body, node.handlers, name)]
        if read_after:
            restore = [templates.replace("name = ag__.ldu(lambda: name, label)", name=name, label=templates.constant(name))[0]
                       for name in read_after]
            node.finalbody = restore + node.finalbody
        return node

    def visit_AugAssign(self, node):
        node = self.generic_visit(node)
        if id(node) in self.ctx.maybe_undefined:
            check = templates.replace("name = ag__.ld(name)", name=node.target.id)
            return check + [node]
        return node


def _assigned_attributes(body) -> set:
    """(variable, attribute) of every ``variable.attribute = ...`` in ``body``'s scope."""
    return {(n.value.id, n.attr) for n in trees.walk_scope(body)
            if isinstance(n, gast.Attribute) and isinstance(n.ctx, gast.Store)
            and isinstance(n.value, gast.Name)}


def _read_outside(body, handlers, name: str) -> bool:
    """Whether ``name`` is read in ``body`` (or by a function nested in it) other
    than in the ``handlers``."""
    inside = {id(n) for h in handlers for n in trees.walk(h)}
    return any(id(n) not in inside and (
        (isinstance(n, gast.Name) and n.id == name and isinstance(n.ctx, gast.Load))
        or (isinstance(n, (gast.FunctionDef, gast.Lambda)) and name in activity.free_reads(n)))
        for n in trees.walk_scope(body))


def transform(node, ctx) -> None:
    transformer.transform_function(Variables, ctx)
