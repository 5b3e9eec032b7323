"""``"literal" % args`` with staged arguments (the ``percent_formatting`` converter).

``%d``, ``%x``, ``%.3f``, ``%e``, ``%g`` and ``%c`` ask their argument for a Python
number, which a staged value only has when the graph runs. Without a staged
argument ``percent_format`` is ``fmt % args``, exactly. With one, each conversion
whose argument is staged is replaced by the backend's text for it
(``Backend.show(value, "%.3f")``): the NumPy engine gives a text that a raise's
message turns back into the run-time value formatted that way (``graph.raising``);
other backends show what the value is.
"""

from __future__ import annotations

import re

from ..staging.backend import backend_of

# one conversion: %[(key)][flags][width][.precision][length]type
_SPEC = re.compile(r"%(\([^)]*\))?([-#0 +]*)(\*|\d+)?(\.(?:\*|\d+))?[hlL]?([diouxXeEfFgGcrsa%])")


def _staged(value) -> bool:
    return value.__class__ is not bool and backend_of(value) is not None


def percent_format(fmt: str, args):
    """``fmt % args``; staged arguments shown by their backend."""
    mapping = isinstance(args, dict)
    items = args if args.__class__ is tuple else (args,)
    values = args.values() if mapping else items
    if not any(_staged(v) for v in values):
        return fmt % args
    parts, position, start = [], 0, 0
    out_args: list = []
    out_map: dict = {}
    for match in _SPEC.finditer(fmt):
        key, flags, width, precision, kind = match.groups()
        if kind == "%" or "*" in (width or "") + (precision or ""):
            continue  # '%%', or a width taken from the arguments: left to '%'
        if key is not None:
            value = args[key[1:-1]]
        else:
            value = items[position] if position < len(items) else None
            position += 1
        if not _staged(value) or kind in "sra":
            continue  # formatted by '%' itself (str/repr of a staged value: its own text)
        text = backend_of(value).show(value, "%" + (flags or "") + (width or "") +
                                      (precision or "") + kind)
        parts.append(fmt[start:match.start()] + (f"%({key[1:-1]})s" if key else "%s"))
        start = match.end()
        if key is not None:
            out_map[key[1:-1]] = text
        else:
            out_args.append((position - 1, text))
    parts.append(fmt[start:])
    new_fmt = "".join(parts)
    if mapping:
        return new_fmt % {**args, **out_map}
    replaced = list(items)
    for i, text in out_args:
        replaced[i] = text
    return new_fmt % (tuple(replaced) if args.__class__ is tuple or len(replaced) != 1
                      else replaced[0])
