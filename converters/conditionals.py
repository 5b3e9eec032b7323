"""``if`` statements become branch functions that ``ag__.branch`` chooses from.

    if x > 0:                   def if_body(y):
        y = x                       y = x
    else:              ->           return (y,)
        y = -x                  def else_body(y):
                                    y = -x
                                    return (y,)
                                (y,) = ag__.branch(x > 0, if_body, else_body, ('y',))(y)

``branch`` returns the function to call (the chosen branch on a Python
condition), and the generated code calls it: the branch's caller is the user's
function, not the runtime.

Requires: liveness and definedness on the lowered function (``ctx.liveness``,
``ctx.definedness``); run after the jump-lowering passes. Guarantees: no ``If``
remains in the scope (in generated functions neither).
"""

from __future__ import annotations

import gast

from autograph import templates, trees

from . import shared, state


class Conditionals(state.StagedControlFlow):
    def visit_If(self, node):
        ctx = self.ctx
        names = state.carried(node, ctx, node.body + node.orelse)
        before = self.placeholders(node, names)
        results = state.names_tuple(names)
        body = state.function(ctx.namer.new("if_body"), names, node.body, results, ctx, node)
        defs = [body]
        orelse = None
        if node.orelse:
            defs.append(state.function(ctx.namer.new("else_body"), names, node.orelse, results, ctx, node))
            orelse = defs[-1].name
        choose = templates.replace_expr(
            "ag__.branch(test, body, orelse, labels)",
            test=node.test, body=body.name, orelse=orelse or templates.constant(None),
            labels=state.labels_tuple(names, ctx),
        )
        dead = _dead_after(node, names, ctx)
        if dead:
            choose.keywords.append(gast.keyword(arg="dead", value=state.labels_tuple(dead, ctx)))
        leaving = [_left_by_break(side, names, ctx) for side in (node.body, node.orelse)]
        if any(leaving):
            choose.keywords.append(gast.keyword(arg="leaves", value=gast.Tuple(
                elts=[state.labels_tuple(side, ctx) for side in leaving], ctx=gast.Load())))
        in_place = shared.carry(node, node.body + node.orelse, choose, ctx)  # before nested constructs are lowered
        defs = [self.visit(d) for d in defs] + in_place
        call = templates.replace_expr("choose(state)", choose=choose, state=[templates.load(n) for n in names])
        return before + defs + state.assign_result(names, call)


def _dead_after(node, names, ctx) -> list:
    """State variables that may be unassigned where ``node`` starts and that nothing reads
    after it: carried only because the ``if`` reads them first (``it`` after an early
    return, read by the loop that assigns it in one branch). A staged ``if`` may leave
    them unassigned on one side."""
    live_out = ctx.liveness.live_out.get(node, set())
    certain = ctx.definedness.at_entry.get(node, (frozenset(), frozenset()))[0]
    return [n for n in names if n not in live_out and n not in certain and n in ctx.locals]


def _left_by_break(side, names, ctx) -> list:
    """State variables a side that ends in a lowered ``break`` (``break_ = True``) may
    leave unassigned: plain locals nothing reads after the loop it leaves (the rest of
    the loop is guarded by the flag, so nothing reads them on that path)."""
    last = side[-1] if side else None
    if not (isinstance(last, gast.Assign) and len(last.targets) == 1
            and isinstance(last.targets[0], gast.Name) and last.targets[0].id in ctx.break_loops
            and isinstance(last.value, gast.Constant) and last.value.value is True):
        return []
    flag = last.targets[0].id
    loop = ctx.break_loops[flag]
    after = ctx.liveness.live_out.get(loop)
    if after is None:
        return []
    handled_outside = set()  # names a handler around the loop reads
    if ctx.liveness.on_exception:
        inside = {id(n) for n in trees.walk(loop)}
        handled_outside = handled_outside.union(*(
            landing for node, landing in ctx.liveness.on_exception.items() if id(node) not in inside))
    plain = [n for n in names if n in ctx.locals and n not in ctx.cells]
    return [n for n in plain + sorted(ctx.landing - set(names))  # (landing: cells for handlers)
            if n != flag and n not in after and n not in handled_outside]


def transform(node, ctx) -> None:
    Conditionals(ctx).visit(node)
