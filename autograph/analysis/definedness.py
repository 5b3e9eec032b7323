"""Forward analysis: which local variables are certainly assigned at each point.

Used twice: on the original function, to find reads of variables that may be
unassigned (the converter wraps them in ``ag__.ld``, which raises Python's
``UnboundLocalError`` for a placeholder); and on the lowered function, to find
the state variables that need an ``Undefined`` placeholder before a construct.
``None`` stands for "unreachable" (after ``return``, ``raise``, ``break``,
``continue``): it is the identity of the intersection at merge points.
"""

from __future__ import annotations

import gast

from autograph import trees

from . import activity


def _meet(a, b):
    if a is None:
        return b
    if b is None:
        return a
    return a & b


class Definedness:
    def __init__(self) -> None:
        self.at_entry: dict = {}  # If/While/For node -> (certain, possible) at entry
        self.maybe_undefined_reads: set = set()  # ids of Name nodes that may be unbound
        self.locals: set = set()

    def block(self, stmts, certain, possible):
        last = certain
        for stmt in stmts:
            if certain is None:
                # Unreachable after a jump, but the lowering traces it under the jump's flag
                # with the state the jump left: its reads are checked against that state.
                self.stmt(stmt, last, possible)
                continue
            last = certain
            certain, possible = self.stmt(stmt, certain, possible)
        return certain, possible

    def stmt(self, node, certain, possible):
        if isinstance(node, (gast.If, gast.While, gast.For)):
            self.at_entry[node] = (frozenset(certain), frozenset(possible))
        if isinstance(node, gast.If):
            self._reads(node.test, certain)
            c1, p1 = self.block(node.body, certain, possible)
            c2, p2 = self.block(node.orelse, certain, possible)
            return _meet(c1, c2), p1 | p2
        if isinstance(node, (gast.While, gast.For)):
            head = node.test if isinstance(node, gast.While) else node.iter
            self._reads(head, certain)
            inner = set(certain)
            if isinstance(node, gast.For):
                inner |= activity.writes(node.target)
            possible = possible | activity.writes(node.body) | activity.writes(node.target if isinstance(node, gast.For) else [])
            self.block(node.body, inner, possible)
            _, p = self.block(node.orelse, certain, possible)
            # A break may skip the else clause: only what held at entry is certain.
            return certain, p
        if isinstance(node, (gast.Return, gast.Raise)):
            self._reads(node, certain)
            return None, possible
        if isinstance(node, (gast.Break, gast.Continue)):
            return None, possible
        if isinstance(node, gast.Try):
            possible = possible | activity.writes(node.body)
            cb, pb = self.block(node.body, certain, possible)
            if cb is not None:
                cb, pb = self.block(node.orelse, cb, pb)
            else:  # unreachable, but traced under the jump's flag (see ``block``)
                self.block(node.orelse, certain, pb)
            result = cb
            for handler in node.handlers:
                h_certain = set(certain)
                if handler.name is not None:
                    h_certain |= activity.writes(handler.name)
                ch, ph = self.block(handler.body, h_certain, possible | pb)
                if handler.name is not None and ch is not None:  # deleted when the handler ends
                    ch = ch - activity.writes(handler.name)
                result = _meet(result, ch)
                pb = pb | ph
            if node.finalbody:
                self.block(node.finalbody, certain, pb)
                cf, pf = self.block(node.finalbody, certain if result is None else result, pb)
                return (None if result is None else cf), pf
            return result, pb
        if isinstance(node, (gast.With, gast.AsyncWith)):
            for item in node.items:
                self._reads(item.context_expr, certain)
                if item.optional_vars is not None:
                    certain = certain | activity.writes(item.optional_vars)
                    possible = possible | activity.writes(item.optional_vars)
            return self.block(node.body, certain, possible)
        if isinstance(node, gast.Match):
            self._reads(node.subject, certain)
            last = node.cases[-1]
            exhaustive = last.guard is None and irrefutable(last.pattern)  # some case always runs
            result, poss = (None if exhaustive else set(certain)), set(possible)
            for case in node.cases:
                bound = activity.writes(case.pattern)
                if case.guard is not None:
                    self._reads(case.guard, certain | bound)
                c, p = self.block(case.body, certain | bound, possible | bound)
                result = _meet(result, c)
                poss |= p
            return result, poss
        if isinstance(node, gast.Delete):
            gone = activity.writes(node)
            for target in node.targets:
                if isinstance(target, gast.Name) and target.id in self.locals and target.id not in certain:
                    self.maybe_undefined_reads.add(id(target))
            self._reads(node, certain)
            return certain - gone, possible
        if isinstance(node, gast.AnnAssign) and node.value is None:
            return certain, possible  # ``y: int`` makes y local, assigns nothing (nor evaluates int)
        self._reads(node, certain)
        if isinstance(node, gast.AugAssign) and isinstance(node.target, gast.Name):
            if node.target.id in self.locals and node.target.id not in certain:
                self.maybe_undefined_reads.add(id(node))
        written = activity.writes(node)
        return certain | written, possible | written

    def _reads(self, node, certain) -> None:
        """Record reads of local variables not certainly assigned at this point."""
        for name in _direct_loads(node):
            if name.id in self.locals and name.id not in certain:
                self.maybe_undefined_reads.add(id(name))


def irrefutable(pattern) -> bool:
    """Whether a ``case`` pattern matches every subject (``_``, a bare name, an
    or-pattern ending in one, ``... as name`` of one)."""
    if isinstance(pattern, gast.MatchAs):
        return pattern.pattern is None or irrefutable(pattern.pattern)
    if isinstance(pattern, gast.MatchOr):
        return irrefutable(pattern.patterns[-1])
    return False


def _direct_loads(node):
    """Name loads evaluated where ``node`` runs (not inside nested function bodies)."""
    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, gast.Name) and isinstance(n.ctx, gast.Load):
            yield n
        elif isinstance(n, (gast.FunctionDef, gast.AsyncFunctionDef, gast.Lambda, gast.ClassDef)):
            if not isinstance(n, gast.Lambda):
                stack.extend(n.decorator_list)
            continue
        elif isinstance(n, (gast.If, gast.While, gast.For, gast.Try, gast.With, gast.Match)):
            continue  # handled statement by statement
        stack.extend(trees.children(n))


def analyze(fn_node, locals_: set) -> Definedness:
    result = Definedness()
    result.locals = locals_
    params = activity.parameters(fn_node.args)
    result.block(fn_node.body, set(params), set(params))
    return result
