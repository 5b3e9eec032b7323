"""autograph: Python control flow for graph frameworks, by source-to-source conversion.

Conversion: ``convert`` (decorator) and ``to_graph`` return converted functions,
whose ``if``/``while``/``for`` on staged values become graph ops; ``to_code``
shows the converted source; ``do_not_convert`` marks functions converted code
calls as they are.

The NumPy graph engine (``tf.function`` for NumPy code): ``function`` traces a
function into compiled graphs, one per input signature; with ``TensorSpec``,
``Variable``, ``print``, ``load``, ``run_functions_eagerly`` and
``functions_run_eagerly``. It is imported on first use.

Errors and warnings: ``ConversionError``, ``StagingError``,
``RetracingWarning``, ``TraceTimeWarning``.

Example:
    >>> import numpy as np
    >>> import autograph as ag
    >>> @ag.function
    ... def relu_sum(x):
    ...     total = np.zeros(())
    ...     for v in x:
    ...         if v > 0:
    ...             total += v
    ...     return total
    >>> relu_sum(np.array([1.0, -2.0, 3.0]))
    array(4.)
"""

from __future__ import annotations

import os as _os
from typing import TYPE_CHECKING as _TYPE_CHECKING


def _source_checkout_subpackages() -> None:
    """In a source checkout (``converters/`` and ``runtime/`` beside this package,
    as the installer maps them), load ``autograph.runtime`` and
    ``autograph.converters`` from there: ``python -m autograph`` or ``import
    autograph`` run from the repository root then find this directory first,
    installed or not. Only these two are mapped, so the checkout's other
    directories never appear as parts of the package."""
    import importlib.util
    import sys

    here = _os.path.dirname(_os.path.abspath(__file__))
    root = _os.path.dirname(here)
    if _os.path.isdir(_os.path.join(here, "runtime")):
        return  # an installed copy: the subpackages are inside
    if not all(_os.path.isfile(_os.path.join(root, *parts)) for parts in (
            ("pyproject.toml",), ("runtime", "__init__.py"), ("converters", "__init__.py"))):
        return
    for name in ("runtime", "converters"):
        fullname = f"{__name__}.{name}"
        if fullname in sys.modules:
            continue
        directory = _os.path.join(root, name)
        spec = importlib.util.spec_from_file_location(
            fullname, _os.path.join(directory, "__init__.py"), submodule_search_locations=[directory])
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[fullname] = module
        spec.loader.exec_module(module)
        globals()[name] = module


_source_checkout_subpackages()

from .api import convert, do_not_convert, to_code, to_graph  # noqa: E402
from .runtime.staging.errors import ConversionError, StagingError  # noqa: E402
from .runtime.staging.loop_options import set_loop_options  # noqa: E402
from .runtime.staging.progress import set_verbosity  # noqa: E402

__version__ = "0.1.0"

if _TYPE_CHECKING:  # what the lazy names below are, for type checkers
    from .runtime.backends.numpy_graph import (
        RetracingWarning,
        TensorSpec,
        TraceTimeWarning,
        Variable,
        function,
        functions_run_eagerly,
        load,
        run_functions_eagerly,
    )
    from .runtime.operators.builtins import print_ as print

# The NumPy graph engine's public names, imported on first access.
_GRAPH_ENGINE_NAMES = frozenset({
    "function", "Variable", "TensorSpec", "print", "load",
    "run_functions_eagerly", "functions_run_eagerly", "RetracingWarning", "TraceTimeWarning",
})

__all__ = [
    "convert", "to_graph", "to_code", "do_not_convert", "set_loop_options",
    "function", "TensorSpec", "Variable", "print", "load",
    "run_functions_eagerly", "functions_run_eagerly",
    "ConversionError", "StagingError", "RetracingWarning", "TraceTimeWarning",
    "set_verbosity",
]


def __getattr__(name: str):
    if name == "print":  # prints when the graph runs: an operator, not the engine's
        from .runtime.operators.builtins import print_

        return print_
    if name in _GRAPH_ENGINE_NAMES:
        from .runtime.backends import numpy_graph as graph

        return getattr(graph, name)
    raise AttributeError(f"module 'autograph' has no attribute '{name}'")


def __dir__() -> list[str]:
    """The public names only (``__all__`` and ``__version__``), not the modules."""
    return sorted([*__all__, "__version__"])
