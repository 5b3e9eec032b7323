"""Round trip over real code: every function and method of the standard library's
pure-Python modules is converted from source, unparsed and compiled."""

from __future__ import annotations

import os
import sysconfig

import pytest

from autograph import cli, parsing
from autograph.runtime.staging.errors import ConversionError

STDLIB = sysconfig.get_paths()["stdlib"]
MODULES = sorted(
    name for name in os.listdir(STDLIB)
    if name.endswith(".py") and not name.startswith(("test_", "__"))
)


@pytest.mark.parametrize("module", MODULES)
def test_every_function_converts_and_compiles(module):
    path = os.path.join(STDLIB, module)
    with open(path, encoding="utf-8") as f:
        source = f.read()
    try:
        tree = parsing.parse_source(source, path)
    except ConversionError:
        pytest.skip("not valid syntax for this Python (a lib2to3-style fixture)")
    namespace = cli._static_namespace(tree)
    count = 0
    for name, node in cli._functions(tree):
        converted = cli._convert(node, name, namespace)
        compile(converted, f"{path}:{name}", "exec")
        count += 1
    assert count or not any(True for _ in cli._functions(tree))


def test_corpus_is_large():
    assert len(MODULES) > 100
