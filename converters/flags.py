"""What the ``break``, ``continue`` and ``return`` passes share: lowering a jump
into a flag, and guarding the statements after it.

A jump out of the middle of a block cannot be expressed by a function that must
return its state at the end, so a jump becomes ``flag = True`` and the rest of
every enclosing block (up to the loop, or the function) runs under
``if ag__.not_(flag):``. Code after an unconditional jump is unreachable in
Python and is dropped.

A jump out of a ``try`` skips its ``else`` (guarded by the flag too) and runs its
``finally``. A ``finally`` that may jump itself (see ``finally_jumps``) runs with
the flag cleared, so that what it does is not skipped for a jump pending from the
``try``, and gets the pending flag back at its end unless it jumped.
"""

from __future__ import annotations

import gast

from autograph import origins, templates, trees

SCOPES = (gast.FunctionDef, gast.AsyncFunctionDef, gast.Lambda, gast.ClassDef)
LOOPS = (gast.While, gast.For, gast.AsyncFor)


def contains(node, kind, *, cross_loops: bool) -> bool:
    """Whether ``node`` holds a ``kind`` statement of this scope (and loop level)."""
    return next(find(node, kind, cross_loops=cross_loops), None) is not None


def find(node, kind, *, cross_loops: bool):
    """The ``kind`` statements ``node`` holds in this scope (and loop level)."""
    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, kind):
            yield n
            continue
        if isinstance(n, SCOPES) or isinstance(n, gast.expr):
            continue
        if n is not node and isinstance(n, LOOPS) and not cross_loops:
            continue
        stack.extend(trees.children(n))


def blocks(node):
    """The statement lists directly inside a compound statement (not loop bodies)."""
    if isinstance(node, gast.If):
        return ["body", "orelse"]
    if isinstance(node, (gast.With, gast.AsyncWith)):
        return ["body"]
    if isinstance(node, gast.Try):
        return ["body", "orelse", "finalbody"]
    return []


def guard(stmts, jump, flag: str, ctx) -> list:
    """Replace ``jump`` statements (Break or Continue) of this loop level in
    ``stmts`` by ``flag = True`` and guard what follows them. ``ctx`` gives the
    markers of the ``finally`` blocks that may jump (``finally_jumps``)."""
    out = []
    for i, stmt in enumerate(stmts):
        if isinstance(stmt, jump):
            out.extend(templates.replace("flag = True", flag=flag))
            return out
        jumps = contains(stmt, jump, cross_loops=False)
        _guard_children(stmt, jump, flag, ctx)
        out.append(stmt)
        rest = stmts[i + 1:]
        if rest and jumps:
            out.extend(guarded(guard(rest, jump, flag, ctx), flag))
            return out
    return out


def _guard_children(stmt, jump, flag: str, ctx) -> None:
    if isinstance(stmt, gast.Try):
        body_jumps = any(contains(s, jump, cross_loops=False) for s in stmt.body)
        pending = body_jumps or any(contains(s, jump, cross_loops=False) for s in _try_exits(stmt))
    for field in blocks(stmt):
        setattr(stmt, field, guard(getattr(stmt, field), jump, flag, ctx))
    if isinstance(stmt, gast.Try):
        for handler in stmt.handlers:
            handler.body = guard(handler.body, jump, flag, ctx)
        if body_jumps and stmt.orelse:
            stmt.orelse = guarded(stmt.orelse, flag)
        if pending:
            run_finally(stmt, flag, ctx)
    if isinstance(stmt, gast.Match):
        for case in stmt.cases:
            case.body = guard(case.body, jump, flag, ctx)


def _try_exits(node) -> list:
    """The statements of a ``try`` other than its body and ``finally``: its
    handlers and ``else``, which a jump may leave too."""
    return [s for h in node.handlers for s in h.body] + node.orelse


def run_finally(node, flag: str, ctx) -> None:
    """Give the ``finally`` of ``try`` statement ``node``, when it may jump, the
    flag of a jump pending from the ``try`` only at its end, unless it jumped:
    ``saved = flag; flag = False; finalbody; if not marker: flag = saved``."""
    marker = ctx.finally_markers.get(node)
    if marker is None:
        return
    saved = ctx.namer.new("pending_" + flag)
    start = templates.replace("saved = flag\nflag = False", saved=saved, flag=flag)
    end = templates.replace("if ag__.not_(marker):\n    flag = saved", marker=marker, flag=flag, saved=saved)
    origins.fill(start + end, node.finalbody[0])
    node.finalbody = start + node.finalbody + end


def guarded(stmts, flag: str) -> list:
    """``if ag__.not_(flag): stmts``, located at the first guarded statement."""
    guard_if = templates.replace("if ag__.not_(flag):\n    body", flag=flag, body=stmts)
    if stmts:
        origins.fill(guard_if, stmts[0])
    return guard_if
