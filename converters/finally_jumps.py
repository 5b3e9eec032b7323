"""A ``finally`` that may jump (``return``, or ``break``/``continue`` of its loop)
is made explicit, so that the jump passes can lower its jumps to flags.

Python's rule: a jump in ``finally`` replaces whatever was pending when the
``finally`` started — a return value, a ``break`` or ``continue`` from the ``try``,
or an exception, which is then discarded. Once jumps are flags, nothing leaves
the ``try`` for real and a flag set in the ``finally`` cannot discard an
exception, so the ``try`` catches it and the ``finally`` re-raises it unless it
jumped. A ``StagingError`` (the body could not be staged) is not the user's
exception: no jump discards it::

    try:                          pending_exc = None
        body                      try:
    except E:                         try:
        handler                           body
    finally:              ->          except E:
        if c:                             handler
            return 1              except ag__.StagingError:
        cleanup                       raise
                                  except BaseException as caught:
                                      pending_exc = caught
                                  finally:
                                      finally_jumped = False
                                      if c:
                                          finally_jumped = True
                                          return 1
                                      cleanup
                                      if pending_exc is not None:
                                          if not finally_jumped:
                                              raise pending_exc

The marker (``finally_jumped``) is recorded in ``ctx.finally_markers`` for the
outer ``try``: each jump pass saves and clears its own flag where the ``finally``
starts, so that the ``finally`` runs as if nothing were pending, and restores it
at the end unless the ``finally`` jumped (``flags.run_finally``).
Runs before ``branch_exits`` and the jump passes; guarantees: every ``finally``
that may jump belongs to a ``try`` in ``ctx.finally_markers``.

For the same reason a handler that could catch a ``StagingError`` (a bare
``except``, ``except Exception``, any class it cannot tell apart from the builtin
exceptions) is preceded by ``except ag__.StagingError: raise``: the user's handler
runs for the user's exceptions, never for a refusal to stage what eager code runs.

And the body of every ``try`` with a handler or a ``finally`` that jumps runs in
``with ag__.handled_by((E1, E2), line):``, naming the classes it handles, so that a
staged branch's raise inside it is refused (``runtime.staged_raise``) rather than
made a check the graph would raise, when it runs, past the handler.
"""

from __future__ import annotations

import builtins
import copy

import gast

from autograph import templates, transformer

from . import flags

_JUMPS = (gast.Return, gast.Break, gast.Continue)


def jumps(stmts) -> list:
    """The jumps that leave ``stmts``: returns, and breaks and continues outside
    the loops nested in it."""
    return [j for stmt in stmts for kind in _JUMPS
            if kind is gast.Return or not isinstance(stmt, flags.LOOPS)
            for j in flags.find(stmt, kind, cross_loops=kind is gast.Return)]


class FinallyJumps(transformer.Base):
    def visit_Try(self, node):
        node = self.generic_visit(node)
        handled = [self._handled_type(h.type) for h in node.handlers]
        if node.finalbody and jumps(node.finalbody):
            handled.append(gast.Name("BaseException", gast.Load(), None, None))
        if handled:
            (with_,) = templates.replace(
                "with ag__.handled_by(types, line):\n    body",
                types=gast.Tuple(handled, gast.Load()), body=node.body,
                line=gast.Constant(getattr(node, "lineno", 0), None))
            node.body = [with_]
        if any(_may_catch_staging_error(h) for h in node.handlers):
            (try_,) = templates.replace("try:\n    pass\nexcept ag__.StagingError:\n    raise")
            node.handlers.insert(0, try_.handlers[0])
        if not node.finalbody or not jumps(node.finalbody):
            return node
        namer = self.ctx.namer
        marker, pending, caught = namer.new("finally_jumped"), namer.new("pending_exc"), namer.new("caught")
        _mark(node.finalbody, marker)
        inner = node.body
        if node.handlers or node.orelse:
            inner = [gast.Try(body=node.body, handlers=node.handlers, orelse=node.orelse, finalbody=[])]
        (outer,) = templates.replace(
            """
            try:
                inner
            except ag__.StagingError:
                raise
            except BaseException as caught:
                pending = caught
            finally:
                marker = False
                final
                if pending is not None:
                    if not marker:
                        raise pending
            """,
            inner=inner, caught=caught, pending=pending, marker=marker, final=node.finalbody,
        )
        self.ctx.finally_markers[outer] = marker
        return templates.replace("pending = None", pending=pending) + [outer]

    def _handled_type(self, expr):
        """A handler's class expression, evaluated where the ``try`` starts: as written
        when it reads no local variable (those may not be assigned yet), else
        ``BaseException`` (any raise counts as handled)."""
        if expr is not None and not any(isinstance(n, gast.Name) and n.id in self.ctx.locals
                                        for n in gast.walk(expr)):
            return copy.deepcopy(expr)
        return gast.Name("BaseException", gast.Load(), None, None)


def _may_catch_staging_error(handler) -> bool:
    """Whether ``except <handler.type>`` may catch a ``StagingError``: yes unless
    every class it names is a builtin exception narrower than ``Exception``
    (``ValueError``, ``ZeroDivisionError``, ...)."""
    if handler.type is None:
        return True
    names = handler.type.elts if isinstance(handler.type, gast.Tuple) else [handler.type]
    for name in names:
        cls = getattr(builtins, name.id, None) if isinstance(name, gast.Name) else None
        narrow = isinstance(cls, type) and issubclass(cls, BaseException)
        if not narrow or issubclass(Exception, cls):
            return True
    return False


def _mark(stmts, marker: str) -> None:
    """``marker = True`` before every jump that leaves ``stmts``."""
    targets = {id(j) for j in jumps(stmts)}
    _insert_before(stmts, targets, marker)


def _insert_before(stmts: list, targets: set, marker: str) -> None:
    i = 0
    while i < len(stmts):
        stmt = stmts[i]
        if id(stmt) in targets:
            stmts.insert(i, templates.replace("marker = True", marker=marker)[0])
            i += 2
            continue
        for field in ("body", "orelse", "finalbody"):
            block = getattr(stmt, field, None)
            if isinstance(block, list) and block and isinstance(block[0], gast.stmt):
                _insert_before(block, targets, marker)
        for part in getattr(stmt, "handlers", []) + getattr(stmt, "cases", []):
            _insert_before(part.body, targets, marker)
        i += 1


def transform(node, ctx) -> None:
    transformer.transform_function(FinallyJumps, ctx)
