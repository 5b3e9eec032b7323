"""Returns from inside ``if``/``while``/``for`` become a flag and a value.

    def f(x):                     def f(x):
        for y in x:                   do_return = False
            if y > 0:                 retval_ = ag__.NO_RETURN
                return y     ->       for y in x:
        return -1                         if y > 0:
                                              retval_ = y
                                              do_return = True
                                              break
                                      if ag__.not_(do_return):
                                          retval_ = -1
                                          do_return = True
                                      else:
                                          retval_ = ag__.returned(retval_)
                                      return ag__.retval(retval_)

Inside a loop a return also breaks (``break_statements`` then lowers it), and a
loop holding a return in a nested loop breaks when ``do_return`` is set. Outside
loops, what follows a statement that may return is guarded by the flag; the guard
tells a return value that staged paths may not have set (``runtime.staged_return``)
what it holds on each side: what a return gave (``ag__.returned``, in its ``else``),
and nothing yet (``NO_RETURN``, first in its body, unless every path through that
body returns), and after a ``while True:`` that only a return leaves, what a return
gave. Functions whose returns are all outside control flow are left alone.
Guarantees: the only ``return`` left is the final one.
"""

from __future__ import annotations

import gast

from autograph import origins, templates, trees

from . import flags

_LOOPS = (gast.While, gast.For)


def transform(node, ctx) -> None:
    if not any(_has_nested_return(stmt) for stmt in node.body):
        return
    do_return = ctx.namer.new("do_return")
    retval = ctx.namer.new("retval_")
    ctx.labels[retval] = "the return value"
    lowering = _Lowering(do_return, retval, ctx)
    body = _without_tail_flag(lowering.block(node.body, in_loop=False), do_return)
    if _reads(body, do_return):
        start = "do_return = False\nretval = ag__.NO_RETURN"
    else:  # every return was in a tail position or became a break: no flag at all
        start = "retval = ag__.NO_RETURN"
        body = _without_flag(body, do_return)
    node.body = (
        templates.replace(start, do_return=do_return, retval=retval)
        + body
        + templates.replace("return ag__.retval(retval)", retval=retval)
    )


def _has_nested_return(stmt) -> bool:
    return isinstance(stmt, (gast.If, gast.While, gast.For, gast.Try, gast.With, gast.Match)) and (
        flags.contains(stmt, gast.Return, cross_loops=True)
    )


class _Lowering:
    def __init__(self, do_return: str, retval: str, ctx) -> None:
        self.do_return = do_return
        self.retval = retval
        self.ctx = ctx
        self.lowered = 0  # returns lowered so far: a statement whose lowering adds one may return

    def block(self, stmts, in_loop: bool) -> list:
        out = []
        for i, stmt in enumerate(stmts):
            if isinstance(stmt, gast.Return):
                out.extend(self._lowered_return(stmt, in_loop))
                return out
            before = self.lowered
            endless = _endless(stmt)
            self._children(stmt, in_loop)
            out.append(stmt)
            if self.lowered == before:
                continue
            if endless:  # only a return leaves it: the value is set after it on every path
                out.extend(templates.replace("retval = ag__.returned(retval)", retval=self.retval))
            if in_loop:
                if isinstance(stmt, _LOOPS):
                    out.extend(templates.replace("if flag:\n    break", flag=self.do_return))
                continue
            rest = stmts[i + 1:]
            if rest:
                out.extend(self._guarded_rest(self.block(rest, in_loop)))
            return out
        return out

    def _guarded_rest(self, stmts) -> list:
        """``if not do_return: stmts``. Each side tells a staged return value what it
        holds there: nothing yet (``NO_RETURN``), or what a return gave (``ag__.returned``)."""
        returns = any(isinstance(s, gast.Assign) and _is_name(s.targets[0], self.retval, gast.Store)
                      for s in stmts)  # a return at this level: every path through it returns
        start = [] if returns else templates.replace("retval = ag__.NO_RETURN", retval=self.retval)
        orelse = templates.replace("retval = ag__.returned(retval)", retval=self.retval)
        origins.fill(start + orelse, stmts[0])
        guard_if = flags.guarded(start + stmts, self.do_return)
        guard_if[0].orelse = orelse
        return guard_if

    def _lowered_return(self, stmt, in_loop: bool) -> list:
        self.lowered += 1
        value = stmt.value if stmt.value is not None else templates.constant(None)
        lowered = templates.replace(
            "retval = value\ndo_return = True", retval=self.retval, value=value, do_return=self.do_return
        )
        if in_loop:
            lowered.append(gast.Break())
        origins.fill(lowered, stmt)
        return lowered

    def _children(self, stmt, in_loop: bool) -> None:
        if isinstance(stmt, _LOOPS):
            stmt.body = self.block(stmt.body, in_loop=True)
            stmt.orelse = self.block(stmt.orelse, in_loop)
            return
        if isinstance(stmt, gast.Try):
            self._try(stmt, in_loop)
            return
        for field in flags.blocks(stmt):
            setattr(stmt, field, self.block(getattr(stmt, field), in_loop))
        if isinstance(stmt, gast.Match):
            for case in stmt.cases:
                case.body = self.block(case.body, in_loop)

    def _try(self, stmt, in_loop: bool) -> None:
        """A return in the body skips the ``else``; a return pending when a
        ``finally`` that may jump starts waits for its end (``flags.run_finally``),
        the value with it: a ``break`` or ``continue`` there discards both."""
        before = self.lowered
        stmt.body = self.block(stmt.body, in_loop)
        body_returns = self.lowered > before
        for handler in stmt.handlers:
            handler.body = self.block(handler.body, in_loop)
        stmt.orelse = self.block(stmt.orelse, in_loop)
        if body_returns and stmt.orelse and not in_loop:  # (in a loop, the break's flag guards it)
            stmt.orelse = flags.guarded(stmt.orelse, self.do_return)
        pending = self.lowered > before
        stmt.finalbody = self.block(stmt.finalbody, in_loop)
        marker = self.ctx.finally_markers.get(stmt)
        if pending and marker is not None:
            saved = self.ctx.namer.new("pending_value")
            start = templates.replace("saved = retval\nretval = ag__.NO_RETURN", saved=saved, retval=self.retval)
            end = templates.replace("if ag__.not_(marker):\n    retval = saved", marker=marker, retval=self.retval,
                                    saved=saved)
            origins.fill(start + end, stmt.finalbody[0])
            stmt.finalbody = start + stmt.finalbody + end
            flags.run_finally(stmt, self.do_return, self.ctx)


def _endless(stmt) -> bool:
    """A ``while True:`` loop with no ``break`` of its own: only a return (or an
    exception) leaves it."""
    return (isinstance(stmt, gast.While) and isinstance(stmt.test, gast.Constant)
            and bool(stmt.test.value) and not flags.contains(stmt, gast.Break, cross_loops=False))


def _without_tail_flag(stmts: list, flag: str) -> list:
    """``stmts`` without the ``flag = True`` it runs last: nothing reads it then."""
    if not stmts:
        return stmts
    last = stmts[-1]
    if isinstance(last, gast.Assign) and _is_name(last.targets[0], flag, gast.Store):
        return stmts[:-1] or [gast.copy_location(gast.Pass(), last)]
    if isinstance(last, gast.If):
        last.body = _without_tail_flag(last.body, flag)
        last.orelse = _without_tail_flag(last.orelse, flag)
    return stmts


def _without_flag(stmts: list, flag: str) -> list:
    """``stmts`` without any ``flag = True``, in every nested block."""
    out = []
    for stmt in stmts:
        if isinstance(stmt, gast.Assign) and _is_name(stmt.targets[0], flag, gast.Store):
            continue
        for field in ("body", "orelse", "finalbody"):
            block = getattr(stmt, field, None)
            if isinstance(block, list) and block and isinstance(block[0], gast.stmt):
                setattr(stmt, field, _without_flag(block, flag) or [gast.copy_location(gast.Pass(), stmt)])
        for part in getattr(stmt, "handlers", []) + getattr(stmt, "cases", []):
            part.body = _without_flag(part.body, flag) or [gast.copy_location(gast.Pass(), part)]
        out.append(stmt)
    return out


def _reads(stmts, flag: str) -> bool:
    return any(_is_name(n, flag, gast.Load) for stmt in stmts for n in trees.walk(stmt))


def _is_name(node, name: str, ctx) -> bool:
    return isinstance(node, gast.Name) and node.id == name and isinstance(node.ctx, ctx)
