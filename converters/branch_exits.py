"""Statements after an ``if`` whose branch always leaves move into its other branch.

    for x in xs:                 for x in xs:
        if x < 0:                    if not x < 0:
            continue       ->            total += x
        total += x

    if x < 0:                    if x < 0:
        return -1        ->          return -1
    y = x                        else:
                                     y = x

A branch that ends in ``return``, ``raise``, ``break`` or ``continue`` (or in an
``if`` whose branches all do) never reaches the statements after the ``if``, so
they can run as the other branch instead: the same program, with no flag and no
guard for the jump passes to add. A ``continue`` left as the last statement a
loop body runs does nothing and is dropped (``if c: continue`` + rest becomes
``if not c:`` + rest). Runs first: the ``not`` it may add is lowered like the
user's own.
Guarantees: no ``If`` with a leaving branch is followed by statements in its block.
"""

from __future__ import annotations

import gast

from autograph import transformer

_EXITS = (gast.Return, gast.Raise, gast.Break, gast.Continue)
_LOOPS = (gast.While, gast.For)


def always_exits(stmts) -> bool:
    """Whether running ``stmts`` always ends in a return, raise, break or continue."""
    if not stmts:
        return False
    last = stmts[-1]
    if isinstance(last, _EXITS):
        return True
    return isinstance(last, gast.If) and always_exits(last.body) and always_exits(last.orelse)


def restructure(stmts: list) -> list:
    """``stmts`` with the statements after a leaving branch moved into the other one."""
    out = []
    for i, stmt in enumerate(stmts):
        out.append(stmt)
        rest = stmts[i + 1:]
        if not isinstance(stmt, gast.If) or not rest:
            continue
        if always_exits(stmt.body) and not always_exits(stmt.orelse):
            stmt.orelse = stmt.orelse + rest
            return out
        if stmt.orelse and always_exits(stmt.orelse) and not always_exits(stmt.body):
            stmt.body = stmt.body + rest
            return out
    return out


def drop_tail_continue(stmts: list) -> list:
    """A loop body without the ``continue`` statements it runs last."""
    if not stmts:
        return stmts
    last = stmts[-1]
    if isinstance(last, gast.Continue):
        return stmts[:-1] or [_pass(last)]
    if isinstance(last, gast.If):
        last.body = drop_tail_continue(last.body)
        if last.orelse:
            last.orelse = drop_tail_continue(last.orelse)
            if len(last.body) == 1 and isinstance(last.body[0], gast.Pass):
                _swap_branches(last)
    return stmts


def _swap_branches(node) -> None:
    """``if c: pass else: s`` -> ``if not c: s`` (``if not c: pass else: s`` -> ``if c: s``)."""
    test = node.test
    if isinstance(test, gast.UnaryOp) and isinstance(test.op, gast.Not):
        node.test = test.operand
    else:
        node.test = gast.copy_location(gast.UnaryOp(op=gast.Not(), operand=test), test)
    node.body, node.orelse = node.orelse, []


def _pass(origin):
    return gast.copy_location(gast.Pass(), origin)


class BranchExits(transformer.Base):
    def generic_visit(self, node):
        for field in ("body", "orelse", "finalbody"):
            block = getattr(node, field, None)
            if isinstance(block, list) and block and isinstance(block[0], gast.stmt):
                setattr(node, field, restructure(block))
        node = super().generic_visit(node)
        if isinstance(node, _LOOPS):
            node.body = drop_tail_continue(node.body)
        return node


def transform(node, ctx) -> None:
    transformer.transform_function(BranchExits, ctx)
