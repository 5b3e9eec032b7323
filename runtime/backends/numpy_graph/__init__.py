"""The built-in NumPy graph engine: ``autograph.function``, ``tf.function`` for NumPy code.

Decorating a NumPy function with ``autograph.function`` converts it (Python control
flow becomes functional operators), traces it with symbolic tensors into a graph
per input signature, optimizes the graph and compiles it into straight-line
Python/NumPy code. The modules, in the order data flows through them:

- ``tensor``/``trace``: symbolic tensors and recording ops, with NumPy itself
  inferring dtypes and shapes; ``numpy_api``: which NumPy functions are supported;
- ``backend``: the graph's answers to the staging core (``runtime.staging``): ops for
  staged if/while/for;
- ``variables``: ``Variable``, state across calls;
- ``ir``/``printing``: the graph as data and its text form;
- ``optimize``/``codegen``: CSE, DCE, buffer reuse and the generated Python;
- ``function``/``concrete``: the trace cache, concrete functions and signatures;
- ``serialize``: ``ConcreteFunction.save``, ``Function.save`` and ``load``;
- ``captures``: warnings about values a trace fixes (``np.random``), at the
  user's line.
"""

from __future__ import annotations

from ...staging.backend import register
from . import printing  # noqa: F401  (installs str(graph))
from .backend import BACKEND
from .captures import TraceTimeWarning
from .concrete import ConcreteFunction
from .polymorphic import (
    Function, RetracingWarning, TensorSpec, function, functions_run_eagerly,
    run_functions_eagerly,
)
from .serialize import LoadedFunction, load
from .tensor import Tensor
from .variables import Variable

register(BACKEND)

__all__ = [
                       "ConcreteFunction",
                       "Function",
                       "LoadedFunction",
                       "RetracingWarning",
                       "Tensor",
                       "TensorSpec",
                       "TraceTimeWarning",
                       "Variable",
                       "function",
                       "functions_run_eagerly",
                       "load",
                       "run_functions_eagerly",
]
