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

from .api import convert, do_not_convert, to_code, to_graph
from .runtime.errors import ConversionError, StagingError

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
