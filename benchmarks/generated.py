"""Functions of any length, generated, for conversion time per line.

``long_function(n)`` is a function of about ``n`` lines made of one block of
ordinary code repeated: an ``if``/``else``, a ``for`` with ``continue``, a
``while``, an early ``return`` check and calls, each block with variables of its
own and some shared ones (a long function has many names, and several share a
base once generated ones are added). ``validate_options(n)`` is a run of ``n``
``if ...: raise`` checks, the shape of sqlparse's ``validate_options``: each
check's early exit nests the rest of the function, so this is the case that was
exponential.

The source is registered with ``linecache`` under a made-up file name, as
``exec``'d code is, so conversion reads it like any other function's.
"""

from __future__ import annotations

import itertools
import linecache

_BLOCK = """\
    a{i} = x * {i} + total
    if a{i} > limit:
        total = total - a{i} // 2
    else:
        total = total + len(items) + {i}
    for k in range(3):
        if k == skip:
            continue
        total = total + k * a{i}
    while total > 10 ** 6:
        total = total // 3
    if total == {i} - 7:
        return -{i}
"""
_BLOCK_LINES = _BLOCK.count("\n")

_counter = itertools.count()


def _make(source: str, name: str):
    filename = f"<autograph-benchmark-{name}-{next(_counter)}>"
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    namespace: dict = {}
    exec(compile(source, filename, "exec"), namespace)
    return namespace[name]


def long_function(lines: int):
    """A new function object of about ``lines`` lines (new each call: no cache hit)."""
    blocks = max(1, (lines - 3) // _BLOCK_LINES)
    body = "".join(_BLOCK.format(i=i) for i in range(blocks))
    source = f"def long_{lines}(x, limit, items, skip):\n    total = 0\n{body}    return total\n"
    return _make(source, f"long_{lines}")


def source_lines(fn) -> int:
    return len(linecache.getlines(fn.__code__.co_filename))


def validate_options(checks: int):
    """A new validator with ``checks`` consecutive ``if ...: raise`` checks."""
    lines = ["def validate_options(options):"]
    for i in range(checks):
        option = f"option_{i}"
        lines += [f"    {option} = options.get('{option}', {i})",
                  f"    if {option} not in (True, False, {i}):",
                  f"        raise ValueError('Invalid value for {option}: %r' % {option})"]
    lines.append("    return options")
    return _make("\n".join(lines) + "\n", "validate_options")
