"""Source origins: generated nodes take the file line of the construct they replace.

Converted code is compiled from the AST with the user's file name and line
numbers, so tracebacks, ``linecache`` and ``inspect`` point at the user's source
with no translation step at run time (the source map is the line table itself).
"""

from __future__ import annotations

from . import trees

_LOCATION = ("lineno", "col_offset", "end_lineno", "end_col_offset")


def fill(nodes, origin) -> None:
    """Give nodes under ``nodes`` lacking a location the location of ``origin``.

    A located node's subtree is not entered: it is user code, or generated code
    that got its location when it was made.
    """
    location = _first_line([getattr(origin, attr, None) for attr in _LOCATION])
    if location[0] is None:
        return
    located = dict(zip(_LOCATION, location))
    stack = list(nodes) if isinstance(nodes, list) else [nodes]
    while stack:
        node = stack.pop()
        if "lineno" in node._attributes:
            fields = node.__dict__  # (no node class has a lineno of its own)
            if fields.get("lineno") is not None:
                continue
            fields.update(located)
        stack.extend(trees.children(node))


def _first_line(location: list) -> list:
    """A construct's location narrowed to its first line (``for x in xs:``): generated
    code stands for the construct's header, not its whole body. (Spanning the body,
    a generated ``ag__.for_loop(...)`` call would run at the body's last line: Python
    puts a method call on the line where the method's name ends.)"""
    lineno, col, end_lineno, end_col = location
    if lineno is not None and end_lineno is not None and end_lineno != lineno:
        return [lineno, col, lineno, col]
    return location


def fill_missing(tree) -> None:
    """Give nodes without a location the location of their nearest located ancestor."""

    def walk(node, location):
        if "lineno" in node._attributes:
            if getattr(node, "lineno", None) is None:
                if location is not None:
                    for attr, value in zip(_LOCATION, location):
                        setattr(node, attr, value)
            else:
                location = _first_line([getattr(node, attr, None) for attr in _LOCATION])
        for child in trees.children(node):
            walk(child, location)

    walk(tree, None)
