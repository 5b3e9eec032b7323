"""parsing: a def's source read off its code's line table is the source inspect finds.

The line-table reader skips inspect's tokenizer; when it cannot find where a def
ends it declines and inspect decides. Checked on every live
function and method of a set of standard library modules and of the corpus.
"""

from __future__ import annotations

import importlib
import inspect
import sys
import types

import gast
import pytest

from autograph import parsing

MODULES = ["argparse", "difflib", "textwrap", "dataclasses", "json.decoder", "email.message", "fractions", "statistics"]


def _functions(module):
    seen = set()
    stack = [module.__dict__]
    while stack:
        for value in list(stack.pop().values()):
            fn = getattr(value, "__func__", value)
            if isinstance(fn, types.FunctionType) and fn.__module__ == module.__name__ and fn.__code__ not in seen:
                seen.add(fn.__code__)
                yield fn
            elif isinstance(value, type) and value.__module__ == module.__name__ and id(value) not in seen:
                seen.add(id(value))
                stack.append(vars(value))


def _inspect_node(fn):
    lines, first = inspect.findsource(fn.__code__)
    tree = parsing.parse_source("".join(inspect.getblock(lines[first:])), fn.__code__.co_filename, first + 1)
    return next(n for n in tree.body if getattr(n, "name", None) == fn.__code__.co_name)


CORPUS = ["loops", "methods", "closures", "returns"] + (["matching"] if sys.version_info >= (3, 10) else [])


@pytest.mark.parametrize("name", MODULES + ["corpus." + m for m in CORPUS])
def test_line_table_source_is_inspects(name):
    module = importlib.import_module(name)
    taken = 0
    functions = [fn for fn in _functions(module) if fn.__code__.co_name != "<lambda>"]
    for fn in functions:
        node = parsing._def_node_from_line_table(fn)
        if node is None:
            continue
        taken += 1
        expected = _inspect_node(fn)
        parsing.mangle_private_names(expected, fn.__qualname__)
        assert gast.dump(node, include_attributes=True) == gast.dump(expected, include_attributes=True), fn.__qualname__
    assert functions and taken >= 0.9 * len(functions)


def _decorated(fn):
    return fn


@_decorated
def trailing_comment_and_string(x):  # noqa: D401
    y = (
        x
        + 1
    )
    """a string statement that compiles to nothing,
spanning lines at column zero"""
    # a trailing comment
    return y


def multi_line_header(
    a,
    b=2,
):
    pass


def test_edge_cases_match_inspect():
    for fn in (trailing_comment_and_string, multi_line_header):
        expected = _inspect_node(fn)
        node = parsing.function_node(fn)
        assert gast.dump(node, include_attributes=True) == gast.dump(expected, include_attributes=True)
