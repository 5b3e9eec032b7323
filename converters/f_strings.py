"""An f-string's field ``{value!r:spec}`` becomes ``{ag__.format_value(value, "r", spec)}``.

Formatting asks a value for its text, which a staged value has only when the graph
runs: ``f"x={x:.3f}"`` of a graph tensor is TensorFlow's TypeError while tracing.
``format_value`` formats exactly as the f-string does when the value is not staged,
and otherwise asks the backend to show it (``runtime.formatting``): a raise's message
then shows the run-time value. Guarantees: every ``FormattedValue`` of the staged body
has no conversion and no format spec, and formats a ``str``.
"""

from __future__ import annotations

import gast

from autograph import templates, transformer

_CONVERSIONS = {-1: "", 115: "s", 114: "r", 97: "a"}


class FStrings(transformer.Base):
    def visit_FormattedValue(self, node):
        node = self.generic_visit(node)
        spec = node.format_spec if node.format_spec is not None else templates.constant("")
        call = templates.replace_expr(
            "ag__.format_value(value, conversion, spec)", value=node.value,
            conversion=templates.constant(_CONVERSIONS[node.conversion]), spec=spec)
        return gast.FormattedValue(value=call, conversion=-1, format_spec=None)


def transform(node, ctx) -> None:
    transformer.transform_function(FStrings, ctx)
