"""Source that is not what a function's code was compiled from is refused, not
converted: a file edited after its module was imported, and ``exec``'d sources
that share one file name. The check must never refuse the right source: it runs
on every conversion (here over a set of standard-library modules)."""

from __future__ import annotations

import importlib
import importlib.util
import linecache
import sys

import pytest

import autograph as ag
from autograph import conversion, parsing
from autograph.runtime.staging.mode import force_staged

ORIGINAL = '''\
def f(x):
    if x > 0:
        return x + 1
    return 0


g = lambda x: x * 2 if x else 1


def h(values):
    total = 0
    for v in values:
        total += v
    return total
'''

EDITS = {
    "constant": ("return x + 1", "return x + 7"),
    "name": ("return x + 1", "return y + 1"),
    "lines": ("    if x > 0:\n        return x + 1\n    return 0", "    if x > 0: return x + 1\n\n    return 0"),
    "lambda": ("x * 2 if x", "x * 3 if x"),
    "loop": ("total = 0", "total = 10"),
}


def _import(tmp_path, name, text):
    path = tmp_path / f"{name}.py"
    path.write_text(text, encoding="utf-8")
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module, path


@pytest.mark.parametrize("edit", sorted(EDITS))
def test_file_edited_after_import_is_refused(tmp_path, edit):
    module, path = _import(tmp_path, f"stale_{edit}", ORIGINAL)
    old, new = EDITS[edit]
    path.write_text(ORIGINAL.replace(old, new), encoding="utf-8")
    linecache.checkcache(str(path))
    fn = {"lambda": module.g, "loop": module.h}.get(edit, module.f)
    with pytest.raises(ag.ConversionError, match=r"the source there is not the code that runs.*reload the module"):
        ag.to_graph(fn)


@pytest.mark.parametrize("path", ["python", "staged"])
def test_unchanged_file_converts(tmp_path, path):
    module, _ = _import(tmp_path, f"fresh_{path}", ORIGINAL)
    f, g, h = (ag.to_graph(fn) for fn in (module.f, module.g, module.h))
    if path == "staged":
        with force_staged():
            assert (f(2), f(-1), g(3), g(0), h([1, 2])) == (3, 0, 6, 1, 3)
    else:
        assert (f(2), f(-1), g(3), g(0), h([1, 2])) == (3, 0, 6, 1, 3)


def test_exec_sources_sharing_a_file_name_are_refused():
    name = "<shared-exec-name>"
    first = "def k(x):\n    if x:\n        return 1\n    return 2\n"
    second = "def k(x):\n    if x:\n        return 10\n    return 20\n"
    namespace = {}
    exec(compile(first, name, "exec"), namespace)
    linecache.cache[name] = (len(second), None, second.splitlines(True), name)
    try:
        with pytest.raises(ag.ConversionError, match="Two sources may have been run under this file name"):
            ag.to_graph(namespace["k"])
    finally:
        linecache.cache.pop(name, None)


MODULES = ["argparse", "difflib", "inspect", "typing", "email._header_value_parser", "_pydecimal", "tarfile", "pathlib"]


@pytest.mark.parametrize("name", MODULES)
def test_right_source_is_never_refused(name):
    sys.path.insert(0, __file__.rsplit("/", 1)[0])
    from test_parsing import _functions

    checked = 0
    for fn in _functions(importlib.import_module(name)):
        try:
            node = parsing.function_node(fn)
        except ag.ConversionError as e:
            assert "not the code that runs" not in str(e), fn.__qualname__
            continue
        assert node is not None
        checked += 1
    assert checked > 20


DEAD_CODE = '''\
import numpy as np


def dead_operand():
    return np.zeros(3) if False else np.ones(3)


def dead_statements(x):
    if False:
        y = np.zeros(2)
    while 0:
        z = q
    k: int
    return x if x else -1
'''


@pytest.mark.parametrize("path", ["python", "staged"])
def test_code_the_compiler_leaves_out_is_not_a_mismatch(tmp_path, path):
    """A dead operand keeps its names in the code, a dead `if` its constants; a
    bare annotation compiles to nothing: none of these is taken for an edit."""
    module, _ = _import(tmp_path, f"dead_code_{path}", DEAD_CODE)
    f, g = ag.to_graph(module.dead_operand), ag.to_graph(module.dead_statements)
    if path == "staged":
        with force_staged():
            assert (list(f()), g(0), g(2)) == ([1.0] * 3, -1, 2)
    else:
        assert (list(f()), g(0), g(2)) == ([1.0] * 3, -1, 2)


ANNOTATED_NESTED = '''\
def outer(words):
    def shout(word: str) -> str:
        return word.upper()

    out = []
    for w in words:
        if w:
            out.append(shout(w))
    return out
'''


def test_nested_def_annotations_are_not_a_mismatch(tmp_path):
    """The enclosing code holds a nested def's annotations as ('word', str, 'return', str)."""
    module, _ = _import(tmp_path, "annotated_nested", ANNOTATED_NESTED)
    converted = ag.to_graph(module.outer)
    with force_staged():
        assert converted(["a", "", "b"]) == ["A", "B"]


INSTRUMENTED = '''\
import ast
import inspect
import textwrap


def instrumented(fn):
    """As typeguard's @typechecked: the function's tree, with a check added, compiled
    and placed in the function (the check imports a dotted module name)."""
    tree = ast.parse(textwrap.dedent(inspect.getsource(fn)))
    check = ast.parse("import os.path\\nos.path.join(str(x), 'checked')").body
    tree.body[0].body[:0] = check
    tree.body[0].decorator_list = []
    ast.increment_lineno(tree, fn.__code__.co_firstlineno - 1)
    namespace = {}
    exec(compile(tree, fn.__code__.co_filename, "exec"), fn.__globals__, namespace)
    fn.__code__ = namespace[fn.__name__].__code__
    return fn


@instrumented
def checked(x):
    if x > 0:
        return x + 1
    return 0


def imports_a_dotted_name(x):
    import os.path
    return os.path.join(x, "a")
'''


def test_code_a_decorator_compiled_itself_is_refused(tmp_path):
    """A function whose code a decorator compiled from a rewritten tree (typeguard's
    ``@typechecked``: inflect's ``engine.plural_noun``) is not converted: its converted
    code, compiled from the source, would drop what the decorator added (the type
    checks). A dotted name ``import a.b`` puts in the code's names is a name too."""
    module, _ = _import(tmp_path, "instrumented", INSTRUMENTED)
    with pytest.raises(ag.ConversionError, match=r"its code uses 'join', which the source does "
                                                 r"not mention.*some decorators do"):
        ag.to_graph(module.checked)
    assert ag.to_graph(module.imports_a_dotted_name)("x") == module.imports_a_dotted_name("x")
