"""The ``if`` of a comprehension, ``[e for e in v if test]``, becomes
``if ag__.comprehension_test(test, kind)``.

Python asks each item's test for a bool; a staged test has one only when the graph
runs, so the comprehension's length would be known only then: the framework's own
error while tracing (JAX's ``TracerBoolConversionError``). ``comprehension_test``
gives the test back as it is where it is not staged (Python then asks its truth, as
the original does) and otherwise raises a StagingError naming the comprehension and
what to write instead. The generator expressions that ``any``/``all``/``sum``/``next``
take are staged (``call_trees``: ``ag__.generator_call``), before this pass runs.
Guarantees: every ``if`` of a comprehension in the staged body is such a call.
"""

from __future__ import annotations

import gast

from autograph import templates, transformer

_KINDS = {gast.ListComp: "list comprehension", gast.SetComp: "set comprehension",
          gast.DictComp: "dict comprehension", gast.GeneratorExp: "generator expression"}


class ComprehensionFilters(transformer.Base):
    def _filtered(self, node):
        node = self.generic_visit(node)
        kind = templates.constant(_KINDS[type(node)])
        for comp in node.generators:
            comp.ifs = [templates.replace_expr("ag__.comprehension_test(test, kind)", test=test,
                                               kind=kind) for test in comp.ifs]
        return node

    visit_ListComp = visit_SetComp = visit_DictComp = visit_GeneratorExp = _filtered


def transform(node, ctx) -> None:
    transformer.transform_function(ComprehensionFilters, ctx)
