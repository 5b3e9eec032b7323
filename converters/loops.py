"""``while`` and ``for`` loops become body functions that the generated code
calls in a loop ``ag__.while_loop`` / ``ag__.for_loop`` drives.

    while n != 1:                 def loop_test(n, steps):
        n = step(n)                   return n != 1
        steps += 1       ->       def loop_body(n, steps):
                                      n = step(n)
                                      steps += 1
                                      return (n, steps)
                                  loop = ag__.while_loop(loop_test, loop_body, (n, steps), ('n', 'steps'))
                                  for state in loop:
                                      loop.state = loop_body(*state)
                                  (n, steps) = loop.state

The body's caller is the user's function, not the runtime (see
``runtime.control_flow.Loop``). A ``for`` body takes the iterated item first; a
target that is not a plain name (or that the loop carries) is unpacked from it
at the top of the body. The lowered ``break``/``return`` test
(``ctx.extra_tests``) becomes ``for_loop``'s ``extra_test``. Requires what
``conditionals`` requires; guarantees: no ``While`` or ``For`` of the user's
remains in the scope.

``ag.set_loop_options(...)`` as the first statement of a loop is taken out of the
body; its keywords become the loop's ``options=ag__.loop_options(...)``, evaluated
before the loop (TensorFlow's converter does the same).
"""

from __future__ import annotations

import gast

from autograph import templates
from autograph.runtime.staging.loop_options import set_loop_options

from . import shared, state


class Loops(state.StagedControlFlow):
    def visit_While(self, node):
        ctx = self.ctx
        options = _take_options(node, ctx)
        names = state.carried(node, ctx, node.body)
        before = self.placeholders(node, names)
        test = state.function(ctx.namer.new("loop_test"), names, [], node.test, ctx, node)
        body = state.function(ctx.namer.new("loop_body"), names, node.body, state.names_tuple(names), ctx, node)
        call = templates.replace_expr(
            "ag__.while_loop(test, body, state, labels)",
            test=test.name, body=body.name, state=state.names_tuple(names),
            labels=state.labels_tuple(names, ctx),
        )
        _add_options(call, options)
        in_place = shared.carry(node, node.body, call, ctx)  # before nested constructs are lowered
        defs = [self.visit(test), self.visit(body)] + in_place
        return before + defs + _drive(call, body.name, names, ctx, item=False)

    def visit_For(self, node):
        ctx = self.ctx
        options = _take_options(node, ctx)
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
            "ag__.for_loop(iterable, body, state, labels)",
            iterable=node.iter, body=body_fn.name, state=state.names_tuple(names),
            labels=state.labels_tuple(names, ctx),
        )
        if extra is not None:
            call.args.append(templates.load(defs[-1].name))
        _add_options(call, options)
        in_place = shared.carry(node, [node.target] + node.body, call, ctx)  # before nested constructs are lowered
        defs = [self.visit(d) for d in defs] + in_place
        return before + defs + _drive(call, body_fn.name, names, ctx, item=True)


def _take_options(node, ctx):
    """The ``ag__.loop_options(...)`` call of the loop's first statement when it is
    ``set_loop_options(...)`` (autograph's, where the function's globals say), which is
    taken out of the body; else None."""
    first = node.body[0] if node.body else None
    if not (isinstance(first, gast.Expr) and isinstance(first.value, gast.Call)):
        return None
    call = first.value
    func = call.func
    name = func.attr if isinstance(func, gast.Attribute) else getattr(func, "id", None)
    if name != "set_loop_options" or call.args or _resolve(func, ctx) not in (None, set_loop_options):
        return None
    node.body = node.body[1:] or [gast.Pass()]
    options = templates.replace_expr("ag__.loop_options()")
    options.keywords = call.keywords
    return options


def _resolve(func, ctx):
    """What ``func`` (a name or attribute chain) is in the function's globals, or None
    where they do not say (a local, a closure, an unknown attribute)."""
    if isinstance(func, gast.Attribute):
        base = _resolve(func.value, ctx)
        return None if base is None else getattr(base, func.attr, None)
    namespace = getattr(ctx, "namespace", None) or {}
    return namespace.get(func.id) if isinstance(func, gast.Name) else None


def _add_options(call, options) -> None:
    if options is not None:
        call.keywords.append(gast.keyword(arg="options", value=options))


def _drive(call, body: str, names, ctx, item: bool) -> list:
    """``loop = call``, then the Python loop calling ``body`` (on the item, if
    ``item``, and the loop's state) over what ``loop`` yields, and the carried
    names taken back from ``loop.state``."""
    loop = ctx.namer.new("loop")
    if item:
        target = ctx.namer.new("itr")
        run = "loop.state = body(target, *loop.state)"
    else:
        target = ctx.namer.new("state")
        run = "loop.state = body(*target)"
    stmts = templates.replace(f"loop = call\nfor target in loop:\n    {run}", loop=loop, call=call, target=target, body=body)
    if names:
        stmts += state.assign_result(names, templates.replace_expr("loop.state", loop=loop))
    return stmts


def transform(node, ctx) -> None:
    Loops(ctx).visit(node)
