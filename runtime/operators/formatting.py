"""Text made from staged values: ``"literal" % args`` (the ``percent_formatting``
converter), an f-string's fields (``f_strings``), ``str``/``repr``/``format`` and
``"literal".format(...)`` called in staged code.

``%d``, ``%x``, ``%.3f``, ``%e``, ``%g`` and ``%c`` ask their argument for a Python
number, which a staged value only has when the graph runs. Without a staged
argument ``percent_format`` is ``fmt % args``, exactly. With one, each conversion
whose argument is staged is replaced by the backend's text for it
(``Backend.show(value, "%.3f")``): the NumPy engine gives a text that a raise's
message turns back into the run-time value formatted that way (``graph.raising``);
other backends show what the value is. The same holds for an f-string's field
(``format_value``), ``str(x)``, ``repr(x)``, ``format(x, spec)`` and ``str.format``
(``format_method``): a staged value is shown by ``Backend.show`` with ``""`` (str),
``"!r"`` (repr) or its format spec; anything else is formatted as Python formats it.
"""

from __future__ import annotations

import re
import string

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
        if not _staged(value) or (kind in "sra" and flags + (width or "") + (precision or "")):
            continue  # formatted by '%' itself (a padded str/repr: the value's own text)
        conversion = "%" + (flags or "") + (width or "") + (precision or "") + kind
        text = backend_of(value).show(value, {"%s": "", "%r": "!r", "%a": "!r"}.get(
            conversion, conversion))
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


def format_value(value, conversion: str, spec: str) -> str:
    """An f-string's field ``{value!conversion:spec}`` (``conversion`` "", "s", "r" or
    "a"): a staged value shown by its backend."""
    if _staged(value):
        show = backend_of(value).show
        if conversion:
            return format(show(value, "" if conversion == "s" else "!r"), spec)
        return show(value, spec)
    if conversion:
        value = {"s": str, "r": repr, "a": ascii}[conversion](value)
    return format(value, spec)


def str_(*args, **kwargs):
    """``str(x)`` in staged code."""
    if len(args) == 1 and not kwargs and _staged(args[0]):
        return backend_of(args[0]).show(args[0], "")
    return str(*args, **kwargs)


def repr_(value):
    """``repr(x)`` in staged code."""
    return backend_of(value).show(value, "!r") if _staged(value) else repr(value)


def format_(value, spec: str = ""):
    """``format(x, spec)`` in staged code."""
    return backend_of(value).show(value, spec) if _staged(value) else format(value, spec)


class _Formatter(string.Formatter):
    """``str.format``'s rules, staged values shown by their backend."""

    def convert_field(self, value, conversion):
        if conversion is None or not _staged(value):
            return super().convert_field(value, conversion)
        return backend_of(value).show(value, "" if conversion == "s" else "!r")

    def format_field(self, value, format_spec):
        return format_value(value, "", format_spec)


_FORMATTER = _Formatter()


def format_method(template: str):
    """``template.format`` in staged code."""
    def format(*args, **kwargs):
        return _FORMATTER.vformat(template, args, kwargs)
    return format
