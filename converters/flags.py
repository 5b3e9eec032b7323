"""What the ``break``, ``continue`` and ``return`` passes share: lowering a jump
into a flag, and guarding the statements after it.

A jump out of the middle of a block cannot be expressed by a function that must
return its state at the end, so a jump becomes ``flag = True`` and the rest of
every enclosing block (up to the loop, or the function) runs under
``if ag__.not_(flag):``. Code after an unconditional jump is unreachable in
Python and is dropped.
"""

from __future__ import annotations

import gast

from autograph import origins, templates, trees

_SCOPES = (gast.FunctionDef, gast.AsyncFunctionDef, gast.Lambda, gast.ClassDef)
_LOOPS = (gast.While, gast.For, gast.AsyncFor)


def contains(node, kind, *, cross_loops: bool) -> bool:
    """Whether ``node`` holds a ``kind`` statement of this scope (and loop level)."""
    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, kind):
            return True
        if isinstance(n, _SCOPES) or isinstance(n, gast.expr):
            continue
        if n is not node and isinstance(n, _LOOPS) and not cross_loops:
            continue
        stack.extend(trees.children(n))
    return False


def blocks(node):
    """The statement lists directly inside a compound statement (not loop bodies)."""
    if isinstance(node, gast.If):
        return ["body", "orelse"]
    if isinstance(node, (gast.With, gast.AsyncWith)):
        return ["body"]
    if isinstance(node, gast.Try):
        return ["body", "orelse", "finalbody"]
    return []


def guard(stmts, jump, flag: str) -> list:
    """Replace ``jump`` statements (Break or Continue) of this loop level in
    ``stmts`` by ``flag = True`` and guard what follows them."""
    out = []
    for i, stmt in enumerate(stmts):
        if isinstance(stmt, jump):
            out.extend(templates.replace("flag = True", flag=flag))
            return out
        jumps = contains(stmt, jump, cross_loops=False)
        _guard_children(stmt, jump, flag)
        out.append(stmt)
        rest = stmts[i + 1:]
        if rest and jumps:
            out.extend(guarded(guard(rest, jump, flag), flag))
            return out
    return out


def _guard_children(stmt, jump, flag: str) -> None:
    for field in blocks(stmt):
        setattr(stmt, field, guard(getattr(stmt, field), jump, flag))
    if isinstance(stmt, gast.Try):
        for handler in stmt.handlers:
            handler.body = guard(handler.body, jump, flag)
    if isinstance(stmt, gast.Match):
        for case in stmt.cases:
            case.body = guard(case.body, jump, flag)


def guarded(stmts, flag: str) -> list:
    """``if ag__.not_(flag): stmts``, located at the first guarded statement."""
    guard_if = templates.replace("if ag__.not_(flag):\n    body", flag=flag, body=stmts)
    if stmts:
        origins.fill(guard_if, stmts[0])
    return guard_if
