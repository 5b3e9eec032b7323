"""``if`` statements become ``ag__.if_stmt`` with branch functions.

    if x > 0:                   def if_body(y):
        y = x                       y = x
    else:              ->           return (y,)
        y = -x                  def else_body(y):
                                    y = -x
                                    return (y,)
                                (y,) = ag__.if_stmt(x > 0, if_body, else_body, (y,), ('y',))

Requires: liveness and definedness on the lowered function (``ctx.liveness``,
``ctx.definedness``); run after the jump-lowering passes. Guarantees: no ``If``
remains in the scope (in generated functions neither).
"""

from __future__ import annotations

from autograph import templates

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
        call = templates.replace_expr(
            "ag__.if_stmt(test, body, orelse, state, labels)",
            test=node.test, body=body.name, orelse=orelse or templates.constant(None), state=state.names_tuple(names),
            labels=state.labels_tuple(names, ctx),
        )
        in_place = shared.carry(node, node.body + node.orelse, call, ctx)  # before nested constructs are lowered
        defs = [self.visit(d) for d in defs] + in_place
        return before + defs + state.assign_result(names, call)


def transform(node, ctx) -> None:
    Conditionals(ctx).visit(node)
