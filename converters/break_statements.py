"""``break`` becomes a flag; loop ``else`` clauses move after the loop.

    while test:            break_ = False
        ...                while ag__.and_(ag__.not_(break_), lambda: test)():
        break      ->          ...
    else:                      break_ = True
        orelse             if ag__.not_(break_):
                               orelse

A ``for`` loop's flag goes to ``ctx.extra_tests[loop]`` (checked after every
iteration by ``for_stmt``). Guarantees: no ``Break`` and no loop ``orelse``
remain; run after ``return_statements`` (which turns returns in loops into breaks).
A ``while`` whose test assigns with ``:=`` gets its test moved into the body.
"""

from __future__ import annotations

import gast

from autograph import templates, transformer
from autograph.analysis import activity

from . import flags


class BreakStatements(transformer.Base):
    def visit_While(self, node):
        if activity.has_walrus(node.test):
            node = _test_inside(node)
        return self._loop(self.generic_visit(node))

    def visit_For(self, node):
        return self._loop(self.generic_visit(node))

    def _loop(self, node):
        orelse, node.orelse = node.orelse, []
        if not flags.contains(node, gast.Break, cross_loops=False):
            return [node] + orelse
        flag = self.ctx.namer.new("break_")
        self.ctx.break_loops[flag] = node
        node.body = flags.guard(node.body, gast.Break, flag, self.ctx)
        stop = templates.replace_expr("ag__.not_(flag)", flag=flag)
        if isinstance(node, gast.While):
            node.test = templates.replace_expr("ag__.and_(stop, lambda: test)()", stop=stop, test=node.test)
        else:
            self.ctx.extra_tests[node] = stop
        after = flags.guarded(orelse, flag) if orelse else []
        return templates.replace("flag = False", flag=flag) + [node] + after


def _test_inside(node):
    """``while (x := f()) > 0: body else: orelse`` -> ``while True: if not ...:
    orelse; break`` so that the walrus assigns in the loop body (a state variable)
    rather than in a separate test function."""
    (stop,) = templates.replace(
        "if ag__.not_(test):\n    orelse\n    break", test=node.test, orelse=node.orelse or [gast.Pass()]
    )
    node.test = templates.constant(True)
    node.body = [stop] + node.body
    node.orelse = []
    return node


def transform(node, ctx) -> None:
    transformer.transform_function(BreakStatements, ctx)
