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
        if node in self.ctx.finally_markers or not any(
                map(_may_catch_floating_point, node.handlers)):
            return node  # (finally_jumps' own try holds a pending exception: not the user's)
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
        chain = list(node.orelse)
        for i in reversed(range(len(node.handlers))):
            handler = node.handlers[i]
            if handler.name is not None or not _may_catch_floating_point(handler):
                continue  # never caught by the graph (a named one is refused: no exception object)
            (test,) = templates.replace(
                "if region.caught(i):\n    handler\nelse:\n    rest",
                region=region, i=templates.constant(i), handler=trees.copy(handler.body),
                rest=chain or [gast.Pass()])
            chain = [test]
        chain = templates.replace("region.check()", region=region) + chain
        origins.fill([guarded] + chain, node)
        node.body = [guarded]
        node.orelse = chain
        return node


def transform(node, ctx) -> None:
    transformer.transform_function(TryStatements, ctx)
