"""Variables a construct assigns in place, and the accessors that carry them.

Most of a construct's state goes in and out of its generated functions as
parameters and results (``state``). Some assignments must stay in place:
variables that closures capture (cells) or that are declared ``nonlocal`` or
``global`` — the generated functions redeclare them, so every closure keeps
seeing one variable — and attributes of objects (``self.total = ...``). Python
runs these as they are; a backend op, which traces its functions once and needs
every value they change as an output, gets them through accessors::

    def get_shared():                            def set_shared(ag__values):
        return (y, ag__.ldattr(self, 'total'))       nonlocal y
                                                     y = ag__values[0]
                                                     ag__.stattr(self, 'total', ag__values[1])
    ag__.branch(..., shared=(get_shared, set_shared, ('y', 'self.total')))

A variable that may be unassigned when the construct starts is read with
``ag__.ldu`` and a missing attribute with ``ag__.ldattr`` (an ``Undefined``
placeholder instead of an error); ``ag__.stattr`` leaves an attribute alone when
the construct did not assign it.
"""

from __future__ import annotations

import gast

from autograph import templates, trees
from autograph.analysis import activity


def names(ctx, node, parts) -> list:
    """Sorted in-place variables (``y``) and attributes (``self.total``) that
    construct ``node`` (statements ``parts``) assigns. An attribute of an object the
    construct rebinds is left out: it belongs to another object on each path. A
    variable in place only because an exception handler reads it (``ctx.landing``)
    counts where it is live, as state does."""
    act = activity.of(parts, ctx.activities)
    found = act.writes & (ctx.cells | ctx.nonlocals | ctx.globals)
    if ctx.rebound_by_calls and any(isinstance(n, gast.Call) for p in parts for n in trees.walk(p)):
        found |= ctx.rebound_by_calls  # a nested function called here may assign them
    dead = (found & ctx.landing) - ctx.liveness.live_out.get(node, set()) - ctx.liveness.live_in.get(node, set())
    found -= dead - ctx.liveness.on_exception.get(node, set())
    found.update(d for d in act.attribute_writes if d.partition(".")[0] not in act.writes)
    return sorted(found)


def carry(node, parts, call, ctx) -> list:
    """The accessor definitions for what construct ``node`` (statements ``parts``)
    assigns in place, with the ``shared=`` keyword they need added to ``call``
    (its ``ag__.branch``/``while_loop``/``for_loop``); nothing if there is none."""
    in_place = names(ctx, node, parts)
    if not in_place:
        return []
    defs, argument = accessors(node, in_place, ctx)
    call.keywords.append(argument)
    return defs


def accessors(node, shared: list, ctx) -> tuple:
    """(the getter and setter definitions, the ``shared=`` keyword) for ``shared``."""
    certain = ctx.definedness.at_entry.get(node, (frozenset(), frozenset()))[0]
    getter, setter = ctx.namer.new("get_shared"), ctx.namer.new("set_shared")
    values = ctx.namer.new("ag__values")
    reads, writes = [], []
    for i, name in enumerate(shared):
        value = templates.replace_expr("values[i]", values=values, i=templates.constant(i))
        if "." in name:
            obj, _, attr = name.rpartition(".")
            target = templates.user_expr(obj)
            reads.append(templates.replace_expr("ag__.ldattr(obj, attr)", obj=target, attr=templates.constant(attr)))
            writes += templates.replace("ag__.stattr(obj, attr, value)", obj=templates.user_expr(obj),
                                        attr=templates.constant(attr), value=value)
        else:
            reads.append(templates.load(name) if name in certain else
                         templates.replace_expr("ag__.ldu(lambda: name, label)", name=name, label=templates.constant(name)))
            writes += templates.replace("name = value", name=name, value=value)
    defs = templates.replace(
        "def getter():\n    return current\ndef setter(values):\n    writes",
        getter=getter, setter=setter, current=gast.Tuple(elts=reads, ctx=gast.Load()), values=values, writes=writes,
    )
    for kind, declared in ((gast.Global, ctx.globals), (gast.Nonlocal, ctx.nonlocals | ctx.cells)):
        needed = [n for n in shared if n in declared]
        if needed:
            defs[1].body.insert(0, kind(names=needed))
    for fn in defs:
        ctx.generated.add(id(fn))
    labels = gast.Tuple(elts=[templates.constant(n) for n in shared], ctx=gast.Load())
    argument = gast.keyword(
        arg="shared", value=gast.Tuple(elts=[templates.load(getter), templates.load(setter), labels], ctx=gast.Load()),
    )
    return defs, argument
