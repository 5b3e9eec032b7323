"""Source origins: generated nodes take the file line of the construct they replace.

Converted code is compiled from the AST with the user's file name and line
numbers, so tracebacks, ``linecache`` and ``inspect`` point at the user's source
with no translation step at run time (the source map is the line table itself).
"""

from __future__ import annotations

import gast

_LOCATION = ("lineno", "col_offset", "end_lineno", "end_col_offset")


def fill(nodes, origin) -> None:
    """Give every node under ``nodes`` lacking a location the location of ``origin``."""
    location = [getattr(origin, attr, None) for attr in _LOCATION]
    if location[0] is None:
        return
    for root in nodes if isinstance(nodes, list) else [nodes]:
        for node in gast.walk(root):
            if "lineno" in node._attributes and getattr(node, "lineno", None) is None:
                for attr, value in zip(_LOCATION, location):
                    setattr(node, attr, value)


def fill_missing(tree) -> None:
    """Give nodes without a location the location of their nearest located ancestor."""

    def walk(node, location):
        if "lineno" in node._attributes:
            if getattr(node, "lineno", None) is None:
                if location is not None:
                    for attr, value in zip(_LOCATION, location):
                        setattr(node, attr, value)
            else:
                location = [getattr(node, attr, None) for attr in _LOCATION]
        for child in gast.iter_child_nodes(node):
            walk(child, location)

    walk(tree, None)
