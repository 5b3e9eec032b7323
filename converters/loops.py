"""``while`` and ``for`` loops become ``ag__.while_stmt`` / ``ag__.for_stmt``.

    while n != 1:                 def loop_test(n, steps):
        n = step(n)                   return n != 1
        steps += 1       ->       def loop_body(n, steps):
                                      n = step(n)
                                      steps += 1
                                      return (n, steps)
                                  (n, steps) = ag__.while_stmt(loop_test, loop_body, (n, steps), ('n', 'steps'))

A ``for`` body takes the iterated item first; a target that is not a plain name
(or that the loop carries) is unpacked from it at the top of the body. The
lowered ``break``/``return`` test (``ctx.extra_tests``) becomes ``for_stmt``'s
``extra_test``. Requires what ``conditionals`` requires; guarantees: no ``While``
or ``For`` remains in the scope.
"""

from __future__ import annotations

import gast

from autograph import templates

from . import shared, state


class Loops(state.StagedControlFlow):
    def visit_While(self, node):
        ctx = self.ctx
        names = state.carried(node, ctx, node.body)
        before = self.placeholders(node, names)
        test = state.function(ctx.namer.new("loop_test"), names, [], node.test, ctx, node)
        body = state.function(ctx.namer.new("loop_body"), names, node.body, state.names_tuple(names), ctx, node)
        call = templates.replace_expr(
            "ag__.while_stmt(test, body, state, labels)",
            test=test.name, body=body.name, state=state.names_tuple(names),
            labels=state.labels_tuple(names, ctx),
        )
        in_place = shared.carry(node, node.body, call, ctx)  # before nested constructs are lowered
        defs = [self.visit(test), self.visit(body)] + in_place
        return before + defs + state.assign_result(names, call)

    def visit_For(self, node):
        ctx = self.ctx
        names = state.carried(node, ctx, [node.target] + node.body)
        before = self.placeholders(node, names)
        target = node.target
        if isinstance(target, gast.Name) and target.id not in names and target.id in ctx.locals - ctx.cells:
            item, body = target.id, node.body
        else:
            item = ctx.namer.new("itr")
            body = templates.replace("target = item", target=target, item=item) + node.body
        body_fn = state.function(ctx.namer.new("loop_body"), [item] + names, body, state.names_tuple(names), ctx, node)
        defs = [body_fn]
        extra = ctx.extra_tests.get(node)
        if extra is not None:
            defs.append(state.function(ctx.namer.new("loop_test"), names, [], extra, ctx, node))
        call = templates.replace_expr(
            "ag__.for_stmt(iterable, body, state, labels)",
            iterable=node.iter, body=body_fn.name, state=state.names_tuple(names),
            labels=state.labels_tuple(names, ctx),
        )
        if extra is not None:
            call.args.append(templates.load(defs[-1].name))
        in_place = shared.carry(node, [node.target] + node.body, call, ctx)  # before nested constructs are lowered
        defs = [self.visit(d) for d in defs] + in_place
        return before + defs + state.assign_result(names, call)


def transform(node, ctx) -> None:
    Loops(ctx).visit(node)
