"""Backward liveness on structured statements, annotated per control-flow construct.

Run after ``break``/``continue``/``return`` have been lowered to flags, so the
only jumps left are ``return`` at the top level of the function and ``raise``.
For each ``if``/``while``/``for`` it records:
- ``live_out``: variables read after the construct before being reassigned;
- ``live_in``: variables read inside it before being assigned (for a loop: live
  at the loop head, which includes the next iteration).
A construct's state is then ``writes(construct) & (live_out | live_in)``.
Exceptions are approximated: every statement in a ``try`` body may jump to its
handlers (or its ``finally``), so their live variables are live throughout the
body; ``on_exception`` records them per construct. A block analysed on more
than one path (a ``finally`` runs after the body, and after an exception no
handler catches) records the union of what is live on each.
"""

from __future__ import annotations

import gast

from . import activity


class Liveness:
    def __init__(self, extra_tests: dict) -> None:
        self.extra_tests = extra_tests  # For node -> lowered break/return test
        self.live_out: dict = {}
        self.live_in: dict = {}
        self.on_exception: dict = {}  # construct -> live where an exception inside it lands

    def block(self, stmts, live_after: set, extra: frozenset = frozenset()) -> set:
        live = set(live_after)
        for stmt in reversed(stmts):
            live = self.stmt(stmt, live | extra, extra)
        return live | extra

    def stmt(self, node, after: set, extra: frozenset) -> set:
        if isinstance(node, (gast.If, gast.While, gast.For)) and extra:
            _record(self.on_exception, node, extra)
        if isinstance(node, gast.If):
            _record(self.live_out, node, after)
            inner = self.block(node.body, after, extra) | self.block(node.orelse, after, extra)
            _record(self.live_in, node, inner)
            return inner | activity.reads(node.test)
        if isinstance(node, gast.While):
            return self._loop(node, after, extra, activity.reads(node.test), set())
        if isinstance(node, gast.For):
            test_reads = activity.reads(self.extra_tests[node]) if node in self.extra_tests else set()
            live = self._loop(node, after, extra, test_reads, activity.writes(node.target))
            return live | activity.reads(node.iter)
        if isinstance(node, (gast.Return, gast.Raise)):
            return activity.reads(node) | extra
        if isinstance(node, gast.Try):
            return self._try(node, after, extra)
        if isinstance(node, (gast.With, gast.AsyncWith)):
            live = self.block(node.body, after, extra)
            for item in reversed(node.items):
                if item.optional_vars is not None:
                    live -= activity.writes(item.optional_vars)
                    live |= activity.reads(item.optional_vars)
                live |= activity.reads(item.context_expr)
            return live
        if isinstance(node, gast.Match):
            live = set(after)
            for case in node.cases:
                case_live = self.block(case.body, after, extra)
                if case.guard is not None:
                    case_live |= activity.reads(case.guard)
                live |= case_live - activity.writes(case.pattern)
            return live | activity.reads(node.subject)
        act = activity.of(node)
        killed = act.writes if _kills(node) else set()
        return (after - killed) | act.reads

    def _loop(self, node, after, extra, head_reads, target_writes) -> set:
        _record(self.live_out, node, after)
        head = set(after) | head_reads
        while True:
            body_live = self.block(node.body, head, extra) - target_writes
            new_head = head | body_live
            if new_head == head:
                break
            head = new_head
        _record(self.live_in, node, head)
        if node.orelse:
            head |= self.block(node.orelse, after, extra)
        return head

    def _try(self, node, after, extra) -> set:
        live = self.block(node.finalbody, after, extra) if node.finalbody else set(after)
        handlers = set()
        for handler in node.handlers:
            h = self.block(handler.body, live, extra)
            if handler.name is not None:
                h -= activity.writes(handler.name)
            if handler.type is not None:
                h |= activity.reads(handler.type)
            handlers |= h
        orelse = self.block(node.orelse, live, extra)
        if node.finalbody:
            # An exception that no handler catches still runs the finally block.
            handlers |= self.block(node.finalbody, set(), extra)
        return self.block(node.body, orelse, frozenset(extra | handlers)) | handlers


def _record(table: dict, node, live) -> None:
    table.setdefault(node, set()).update(live)


def _kills(node) -> bool:
    """Whether the names a simple statement writes are certainly assigned by it."""
    return not isinstance(node, gast.AugAssign) and not (isinstance(node, gast.AnnAssign) and node.value is None)


def analyze(body, extra_tests: dict) -> Liveness:
    result = Liveness(extra_tests)
    result.block(body, set())
    return result
