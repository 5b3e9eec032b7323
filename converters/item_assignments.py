"""Item assignment to a local variable becomes a functional update.

``x[i] = v`` -> ``x = ag__.setitem(x, i, v)`` and ``x[i] += v`` ->
``x = ag__.augitem(x, i, '+=', v)``; an in-place operator on the variable itself,
``x += v``, -> ``x = ag__.augassign(x, '+=', v)`` (the runtime sees a NumPy array given a
staged value, and a staged value that another name shares); ``to_code`` shows that
one as written (``shown_as``). On Python objects these update in place and
return the same object, so nothing changes; a staged array (JAX, the graph
engine) gets a new value, which the enclosing loop or branch then carries.
Only plain local names are rebound: rebinding a global or a closure variable
would change what the name refers to. An item of an attribute, ``obj.arr[i] = v``,
becomes ``ag__.setitem_attr(obj, 'arr', obj.arr, i, v)`` (the runtime rebinds the attribute where
a staged write gives a new value, or refuses), and an item of a global or closure variable
(``G[i] = v``) or of any other expression, ``a.T[0] = v`` or ``a.reshape(2, 3)[i] = v``,
``ag__.setitem_into(expr, i, v)`` (a staged write there is refused, naming the line, where
NumPy would raise its own error or the write would be lost); ``op=`` passes the operator last.

An item of an item of a local, ``x[i][j] = v`` (or ``x[i][j] += v``), becomes
``x = ag__.setitem_path(x, (i, j), v)`` (``ag__.augitem_path(x, (i, j), '+=', v)``): Python
writes into what ``x[i]`` gives, which a staged array gives as a new value, so the runtime
writes the updated item back into ``x`` wherever eager code writes through a view.

An assignment with several targets, or with a tuple or list target, one of them
an item of a local (``xs[j], xs[j + 1] = xs[j + 1], xs[j]``), is first split
so that Python's order is kept where each item becomes its own statement: the
right-hand side is evaluated (and unpacked) once, into fresh names, before any
target is written, then the targets are assigned left to right::

    xs[j], xs[j + 1] = xs[j + 1], xs[j]   ->   item, item_2 = (xs[j + 1], xs[j])
                                               xs = ag__.setitem(xs, j, item)
                                               xs = ag__.setitem(xs, j + 1, item_2)
"""

from __future__ import annotations

import gast

from autograph import templates, transformer, trees

_AUG_OPS = {
    gast.Add: "+=", gast.Sub: "-=", gast.Mult: "*=", gast.Div: "/=", gast.FloorDiv: "//=",
    gast.Mod: "%=", gast.Pow: "**=", gast.MatMult: "@=", gast.BitAnd: "&=", gast.BitOr: "|=",
    gast.BitXor: "^=", gast.LShift: "<<=", gast.RShift: ">>=",
}
AUG_OPERATORS = {text: op for op, text in _AUG_OPS.items()}  # '+=' -> gast.Add (python_paths)


class ItemAssignments(transformer.Base):
    enter_lambdas = False

    def _local_target(self, target):
        return (
            isinstance(target, gast.Subscript)
            and isinstance(target.value, gast.Name)
            and target.value.id in self.ctx.locals
        )

    def _nested_local_target(self, target):
        """The indexes of ``name[i][j]...`` (two or more, outermost first) of a local
        ``name``; None for any other target."""
        keys = []
        while isinstance(target, gast.Subscript):
            keys.append(target.slice)
            target = target.value
        if len(keys) < 2 or not isinstance(target, gast.Name) or target.id not in self.ctx.locals:
            return None
        return target.id, [index_expression(k) for k in reversed(keys)]

    def visit_Assign(self, node):
        if any(self._local_target(n) or self._nested_local_target(n)
               for t in node.targets for n in trees.walk(t)) and (
                len(node.targets) > 1 or isinstance(node.targets[0], (gast.Tuple, gast.List))):
            return self.visit_block(self._split(node))
        node = self.generic_visit(node)
        nested = self._nested_local_target(node.targets[0])
        if nested is not None:
            return templates.replace(
                "name = ag__.setitem_path(name, keys, value)", name=nested[0],
                keys=gast.Tuple(elts=nested[1], ctx=gast.Load()), value=node.value)
        if not self._local_target(node.targets[0]):
            return self._held_item(node.targets[0], None, node.value) or node
        target = node.targets[0]
        return templates.replace(
            "name = ag__.setitem(name, index, value)",
            name=target.value.id, index=index_expression(target.slice), value=node.value,
        )

    def visit_AugAssign(self, node):
        node = self.generic_visit(node)
        if isinstance(node.target, gast.Name) and node.target.id in self.ctx.locals:
            new = templates.replace(
                f"name = ag__.augassign(name, {_AUG_OPS[type(node.op)]!r}, value)",
                name=node.target.id, value=node.value)
            new[0].shown_as = node  # to_code shows what the user wrote
            return new
        nested = self._nested_local_target(node.target)
        if nested is not None:
            return templates.replace(
                f"name = ag__.augitem_path(name, keys, {_AUG_OPS[type(node.op)]!r}, value)",
                name=nested[0], keys=gast.Tuple(elts=nested[1], ctx=gast.Load()), value=node.value)
        if not self._local_target(node.target):
            return self._held_item(node.target, _AUG_OPS[type(node.op)], node.value) or node
        target = node.target
        return templates.replace(
            f"name = ag__.augitem(name, index, {_AUG_OPS[type(node.op)]!r}, value)",
            name=target.value.id, index=index_expression(target.slice), value=node.value,
        )

    def _held_item(self, target, op, value):
        """``obj.name[i] = v`` -> ``ag__.setitem_attr(obj, 'name', obj.name, i, v)`` (``obj`` a
        variable or an attribute of one, read again harmlessly) and any other item of an
        expression (``a.T[0] = v``, ``f()[i] = v``) -> ``ag__.setitem_into(expr, i, v)``
        (with the operator after ``v`` for ``op=``): a staged write there gives a new
        value, which the runtime rebinds the attribute to, or refuses. An item of a global
        or closure variable, ``G[i] = v``, becomes ``ag__.setitem_into(G, i, v)`` too: converted
        code does not rebind the name, so a staged write there is refused."""
        if not isinstance(target, gast.Subscript):
            return None
        holder, rest = target.value, [index_expression(target.slice), value]
        if op is not None:
            rest.append(templates.constant(op))
        attribute = _checked_read(holder) or holder
        if isinstance(attribute, gast.Attribute) and _names_only(attribute.value):
            call = templates.replace_expr("ag__.setitem_attr(obj, name, holder)",
                                          obj=attribute.value,
                                          name=templates.constant(attribute.attr), holder=holder)
        else:
            call = templates.replace_expr("ag__.setitem_into(holder)", holder=holder)
        call.args.extend(rest)
        return gast.Expr(value=call)

    def _split(self, node) -> list:
        """``node`` as one assignment of its value to fresh names, then one plain
        assignment per target, in Python's order."""
        namer = self.ctx.namer
        if len(node.targets) > 1:
            value = namer.new("value")
            first = templates.replace("value = rhs", value=value, rhs=node.value)
            return first + [templates.replace("target = value", target=t, value=value)[0] for t in node.targets]
        target = node.targets[0]
        fresh = [namer.new("item") for _ in target.elts]
        names = [gast.Starred(value=templates.load(f), ctx=gast.Load()) if isinstance(e, gast.Starred)
                 else templates.load(f) for f, e in zip(fresh, target.elts)]
        unpack = templates.replace("targets = rhs", targets=gast.Tuple(elts=names, ctx=gast.Load()), rhs=node.value)
        rest = []
        for f, e in zip(fresh, target.elts):
            inner = e.value if isinstance(e, gast.Starred) else e
            rest += templates.replace("target = value", target=inner, value=f)
        return unpack + rest


def _checked_read(node):
    """The attribute read inside ``ag__.ld_attribute(obj.name, obj, 'name')`` (the
    variables pass wraps a read of an attribute the function also assigns), else None."""
    if isinstance(node, gast.Call) and isinstance(node.func, gast.Attribute) \
            and node.func.attr == "ld_attribute" and isinstance(node.func.value, gast.Name) \
            and node.func.value.id == templates.RUNTIME and node.args:
        return node.args[0]
    return None


def _names_only(node) -> bool:
    """``node`` is a variable or a chain of attributes and items of one whose keys are
    variables or constants (``self.layer``, ``hs[0]``, ``self.layers[i]``): reading it
    twice reads the same object."""
    while isinstance(node, (gast.Attribute, gast.Subscript)):
        if isinstance(node, gast.Subscript) and not isinstance(node.slice, (gast.Name,
                                                                              gast.Constant)):
            return False
        node = node.value
    return isinstance(node, gast.Name)


def index_expression(node):
    """The index as an ordinary expression: ``a:b`` becomes ``slice(a, b, None)``."""
    if isinstance(node, gast.Slice):
        parts = [p if p is not None else templates.constant(None) for p in (node.lower, node.upper, node.step)]
        return templates.replace_expr("slice(lower, upper, step)", lower=parts[0], upper=parts[1], step=parts[2])
    if isinstance(node, gast.Tuple) and any(isinstance(e, gast.Slice) for e in node.elts):
        node.elts = [index_expression(e) for e in node.elts]
    return node


def transform(node, ctx) -> None:
    transformer.transform_function(ItemAssignments, ctx)
