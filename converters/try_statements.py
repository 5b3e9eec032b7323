"""A ``try`` whose handlers may catch an error the graph raises when it runs.

Under a trace, a ``try`` runs its body once, on symbolic values: an op that raises
only when the graph runs (``np.errstate(divide='raise')`` around ``a / b``: NumPy's
``FloatingPointError``) raises after the ``try`` is long gone. So the body runs in a
catching region (``ag__.catching``, see ``runtime.staged_try``), and each handler
runs a second time, staged, in the ``try``'s ``else`` clause, on the region's
run-time flag::

    try:                            try:
        body                            with ag__.catching([E1, E2], [False, False], 7) as region:
    except E1:                              body
        h1                          except E1:
    except E2:              ->          h1
        h2                          except E2:
    else:                               h2
        rest                        else:
                                        region.check()
                                        if region.caught(0):
                                            h1
                                        elif region.caught(1):
                                            h2
                                        else:
                                            rest

On Python values nothing changes: an exception raised while tracing goes to the
original handlers, and ``caught(i)`` is ``False``. Only a ``try`` with a handler that
may catch ``FloatingPointError`` (bare, or naming it, ``ArithmeticError``,
``Exception`` or ``BaseException``) gets a region, and only such handlers that bind
no name are copied: the second list says which bind the exception to a name (a
graph cannot give it; the region refuses). A staged ``raise`` that any handler would
catch is refused by ``ag__.handled_by`` (``finally_jumps``, ``runtime.staged_raise``). ``check()`` raises the region's refusal
in the ``else`` clause, where the ``try``'s own handlers cannot swallow it; the line
is the ``try``'s, for messages.
Runs before the jump passes, so the copied handlers' returns are lowered like any
other. Guarantees: every ``try`` with a handler that may catch ``FloatingPointError`` has its
body in a catching region.
"""

from __future__ import annotations

import gast

from autograph import origins, templates, transformer, trees


# Handlers naming one of these may catch NumPy's FloatingPointError: only their ``try``s
# get a region (a shadowed name is harmless: the region checks the real types).
_CATCHES_FLOATING_POINT = frozenset({"FloatingPointError", "ArithmeticError", "Exception",
                                     "BaseException"})


def _may_catch_floating_point(handler) -> bool:
    t = handler.type
    if t is None:
        return True
    names = t.elts if isinstance(t, gast.Tuple) else [t]
    return any(isinstance(n, gast.Name) and n.id in _CATCHES_FLOATING_POINT for n in names)


class TryStatements(transformer.Base):
    def visit_Try(self, node):
        node = self.generic_visit(node)
        if node in self.ctx.finally_markers:
            return node  # (finally_jumps' own try holds a pending exception: not the user's)
        start = self._staged_raises(node)
        if not any(map(_may_catch_floating_point, node.handlers)):
            return self._handler_chain(node, None, start) if start else node
        region = self.ctx.namer.new("try_region")
        types = gast.List(elts=[h.type if h.type is not None else templates.constant(None)
                                for h in node.handlers], ctx=gast.Load())
        named = gast.List(elts=[templates.constant(h.name is not None) for h in node.handlers],
                          ctx=gast.Load())
        (guarded,) = templates.replace(
            """
            with ag__.catching(types, named, line) as region:
                body
            """,
            types=trees.copy(types), named=named, line=templates.constant(node.lineno),
            region=region, body=node.body)
        node.body = [guarded]
        return self._handler_chain(node, region, start)

    def _handler_chain(self, node, region, start):
        """The ``else`` clause: each handler the graph may take, staged on its flag
        (``region.caught(i)``: a floating-point error; ``caught == i``: a staged raise)."""
        caught = start[0].targets[0].id if start else None
        chain = list(node.orelse)
        for i in reversed(range(len(node.handlers))):
            handler = node.handlers[i]
            if caught is not None and _stageable(handler):
                (test,) = templates.replace(
                    "if caught == i:\n    handler\nelse:\n    rest",
                    caught=caught, i=templates.constant(i), handler=trees.copy(handler.body),
                    rest=chain or [gast.Pass()])
                chain = [test]
            if region is None or handler.name is not None or not _may_catch_floating_point(handler):
                continue  # never caught by the graph (a named one is refused: no exception object)
            (test,) = templates.replace(
                "if region.caught(i):\n    handler\nelse:\n    rest",
                region=region, i=templates.constant(i), handler=trees.copy(handler.body),
                rest=chain or [gast.Pass()])
            chain = [test]
        if region is not None:
            chain = templates.replace("region.check()", region=region) + chain
        origins.fill(node.body + chain, node)
        node.orelse = chain
        return start + [node]

    def _unread(self, body) -> set:
        """Variables the handler ``body`` never reads before assigning them; a handler
        that always returns leaves them all unread after it."""
        if _always_returns(body):
            return set(self.ctx.locals) - {n.id for stmt in body for n in gast.walk(stmt)
                                           if isinstance(n, gast.Name)}
        return _assigned_first(body)

    def _staged_raises(self, node) -> list:
        """Lower the raises that end the try's body (``if x < 0: raise E``) to a flag
        when their branch is staged (``ag__.staged_handler``); returns the flag's start."""
        raises = _tail_raises(node.body)
        if not raises or not node.handlers:
            return []
        caught = self.ctx.namer.new("caught")
        self.ctx.labels[caught] = "the handler a staged raise takes"
        types = gast.Tuple(elts=[h.type if h.type is not None else templates.constant(None)
                                 for h in node.handlers], ctx=gast.Load())
        ok = gast.Tuple(elts=[templates.constant(_stageable(h)) for h in node.handlers],
                        ctx=gast.Load())
        safe = gast.Tuple(elts=[templates.constant(tuple(sorted(self._unread(h.body))))
                                for h in node.handlers], ctx=gast.Load())
        for block, raise_ in raises:
            lowered = templates.replace(
                """
                caught = ag__.staged_handler(exc, types, ok, safe, line)
                if caught.__class__ is not int:
                    raise caught
                """,
                caught=caught, exc=raise_.exc, types=trees.copy(types), ok=trees.copy(ok),
                safe=trees.copy(safe), line=templates.constant(node.lineno))
            lowered[-1].body[0].cause = raise_.cause
            origins.fill(lowered, raise_)
            block[-1:] = lowered
        start = templates.replace("caught = -1", caught=caught)
        origins.fill(start, node)
        return start


def _tail_raises(stmts) -> list:
    """``(block, raise)`` for each ``raise E`` the block ``stmts`` ends in through
    ``if`` statements only: nothing of the try's body runs after it (``branch_exits``
    moved what followed its ``if`` into the other branch)."""
    if not stmts:
        return []
    last = stmts[-1]
    if isinstance(last, gast.Raise):
        return [(stmts, last)] if last.exc is not None else []
    if isinstance(last, gast.If):
        return _tail_raises(last.body) + _tail_raises(last.orelse)
    if isinstance(last, gast.With) and _is_handled_by(last):
        return _tail_raises(last.body)
    return []


def _always_returns(stmts) -> bool:
    last = stmts[-1] if stmts else None
    return isinstance(last, gast.Return) or (
        isinstance(last, gast.If) and _always_returns(last.body) and _always_returns(last.orelse))


def _is_handled_by(node) -> bool:
    call = node.items[0].context_expr if len(node.items) == 1 else None
    return (isinstance(call, gast.Call) and isinstance(call.func, gast.Attribute)
            and call.func.attr == "handled_by")


def _stageable(handler) -> bool:
    """Whether the graph can run ``handler`` on a flag: it reads no exception object
    and re-raises nothing."""
    if handler.name is not None and any(
            isinstance(n, gast.Name) and n.id == handler.name.id
            for stmt in handler.body for n in gast.walk(stmt)):
        return False
    return not any(isinstance(n, gast.Raise) and n.exc is None
                   for stmt in handler.body for n in gast.walk(stmt))


def _assigned_first(body) -> set:
    """Names the handler's body assigns, at its top, before anything reads them: the
    values a staged raise's branch may leave unassigned (the handler never reads them)."""
    read, assigned = set(), set()
    for stmt in body:
        loads = {n.id for n in gast.walk(stmt) if isinstance(n, gast.Name)
                 and isinstance(n.ctx, gast.Load)}
        read |= loads
        if isinstance(stmt, gast.Assign):
            for target in stmt.targets:
                for n in gast.walk(target):
                    if isinstance(n, gast.Name) and n.id not in read:
                        assigned.add(n.id)
        elif not isinstance(stmt, (gast.Expr, gast.Pass, gast.AugAssign)):
            break
    return assigned


def transform(node, ctx) -> None:
    transformer.transform_function(TryStatements, ctx)
