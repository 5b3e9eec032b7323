"""autograph: Python control flow for graph frameworks, by source-to-source conversion.

    import autograph as ag

    @ag.convert
    def f(x): ...

``convert``/``to_graph`` return converted functions, ``to_code`` their source,
``do_not_convert`` marks functions converted code must call as they are.
``function`` (the NumPy graph engine: ``tf.function`` for NumPy code) and its
companions are loaded on first use.
"""

from __future__ import annotations

import os as _os


def _source_checkout_subpackages() -> None:
    """In a source checkout (``converters/`` and ``runtime/`` beside this package,
    as the installer maps them), let ``autograph.runtime`` and
    ``autograph.converters`` resolve there too: ``python -m autograph`` or
    ``import autograph`` run from the repository root then find this directory
    first, installed or not."""
    here = _os.path.dirname(_os.path.abspath(__file__))
    root = _os.path.dirname(here)
    if _os.path.isdir(_os.path.join(here, "runtime")):
        return  # an installed copy: the subpackages are inside
    if all(_os.path.isfile(_os.path.join(root, *parts)) for parts in (
            ("pyproject.toml",), ("runtime", "__init__.py"), ("converters", "__init__.py"))):
        __path__.append(root)


_source_checkout_subpackages()

from .api import convert, do_not_convert, to_code, to_graph  # noqa: E402
from .runtime.errors import ConversionError, StagingError  # noqa: E402

__version__ = "0.1.0"

# The NumPy graph engine's public names, imported on first access.
_GRAPH_ENGINE_NAMES = {
    "function", "Variable", "TensorSpec", "print", "load",
    "run_functions_eagerly", "functions_run_eagerly",
}


def __getattr__(name: str):
    if name in _GRAPH_ENGINE_NAMES:
        from .runtime import graph

        return getattr(graph, name)
    raise AttributeError(f"module 'autograph' has no attribute '{name}'")


__all__ = [
    "convert", "to_graph", "to_code", "do_not_convert",
    "ConversionError", "StagingError",
    *sorted(_GRAPH_ENGINE_NAMES),
]
