"""``continue`` becomes a flag reset at the top of each iteration.

    for x in xs:           for x in xs:
        if c(x):               continue_ = False
            continue   ->      if c(x):
        f(x)                       continue_ = True
                               if ag__.not_(continue_):
                                   f(x)

Guarantees: no ``Continue`` remains.
"""

from __future__ import annotations

import gast

from autograph import templates, transformer

from . import flags


class ContinueStatements(transformer.Base):
    def visit_While(self, node):
        return self._loop(self.generic_visit(node))

    def visit_For(self, node):
        return self._loop(self.generic_visit(node))

    def _loop(self, node):
        if not flags.contains(node, gast.Continue, cross_loops=False):
            return node
        flag = self.ctx.namer.new("continue_")
        node.body = templates.replace("flag = False", flag=flag) + flags.guard(
            node.body, gast.Continue, flag, self.ctx
        )
        return node


def transform(node, ctx) -> None:
    transformer.transform_function(ContinueStatements, ctx)
