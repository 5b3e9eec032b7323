"""The tools measured side by side, found without importing them.

``status(name, skip)`` says why a tool has no column in this run (skipped on the
command line, or not installed: ``missing (pip install ...)``) or returns None;
only then does ``load(name)`` import it. The test suite skips TensorFlow and
malt, so it never imports them even where they are installed.

For the three source-to-source converters the module also knows how to convert
(``to_graph``) and how to empty the conversion caches (``clear_caches``), so
that "warm but uncached" conversion is measured alike for all of them:
autograph caches by code object in ``autograph.conversion`` and by function in
``runtime.calls``; TensorFlow's AutoGraph and malt keep one code-object cache
in their transpiler object, which we empty.
"""

from __future__ import annotations

import importlib
import importlib.util
import os
from collections.abc import Callable, Iterable
from types import ModuleType

# column name -> (import name, the pip extra that installs it)
TOOLS: dict[str, tuple] = {
    "autograph": ("autograph", None),
    "TensorFlow": ("tensorflow", "bench"),
    "malt": ("malt", "bench"),
    "JAX": ("jax", "jax"),
    "PyTorch": ("torch", "torch"),
}
CONVERTERS = ("autograph", "TensorFlow", "malt")


def status(name: str, skip: Iterable[str] = ()) -> str | None:
    """Why ``name`` is not measured in this run, or None if it is."""
    module, extra = TOOLS[name]
    if name in skip:
        return "skipped (--skip)"
    spec = importlib.util.find_spec(module)
    if spec is None or spec.origin is None:  # (a bare directory, e.g. tests/jax, is not the tool)
        return f"missing (pip install '.[{extra}]')"
    return None


def load(name: str) -> ModuleType:
    module = TOOLS[name][0]
    if module == "tensorflow":
        os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")  # no start-up banner
    # malt 2.15.3 calls importlib.util without importing it; importing it here
    # (see the top of this module) is what a malt user has to do as well.
    return importlib.import_module(module)


def to_graph(name: str) -> Callable:
    """The tool's "convert this function" entry point."""
    tool = load(name)
    return tool.autograph.to_graph if name == "TensorFlow" else tool.to_graph


def clear_caches(name: str) -> None:
    """Forget every conversion the tool has cached, so the next one is done afresh."""
    if name == "autograph":
        from autograph.runtime.operators import calls

        from autograph import conversion

        conversion._code_cache.clear()
        calls._cache.clear()
        return
    if name == "TensorFlow":
        from tensorflow.python.autograph.impl import api
    else:
        from malt.impl import api
    api._TRANSPILER._cache._cache.clear()
