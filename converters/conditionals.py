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
        choose = templates.replace_expr(
            "ag__.branch(test, body, orelse, labels)",
            test=node.test, body=body.name, orelse=orelse or templates.constant(None),
            labels=state.labels_tuple(names, ctx),
        )
        in_place = shared.carry(node, node.body + node.orelse, choose, ctx)  # before nested constructs are lowered
        defs = [self.visit(d) for d in defs] + in_place
        call = templates.replace_expr("choose(state)", choose=choose, state=[templates.load(n) for n in names])
        return before + defs + state.assign_result(names, call)


def transform(node, ctx) -> None:
    Conditionals(ctx).visit(node)
