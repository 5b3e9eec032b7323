"""NumPy arrays that converted code hands a ``jax.jit`` trace are read by value.

JAX makes a NumPy array an op reads into a constant of the trace by reference: the
constant wraps the array's memory, is read only when the finished trace is lowered,
and one converted copy is cached per array object (an ``int64`` array under 32-bit
JAX). An in-place change later in the same trace (``scale *= 10`` after
``y = x * scale``, ``w[0] = 5`` after ``x @ w``, ``i += 1`` on a 0-d loop counter)
would reach back into the ops recorded before it, or never be seen: results eager
NumPy never gives. While converted code runs (a frame of it is on the stack) under a
``jit`` trace, each NumPy array JAX takes in is handed to it as
``staging.arrays.ReadByValue`` gives it: a read-only copy of what the array holds at
that read, one copy for the reads that see the same contents.

Installed once, by wrapping ``jax._src.dtypes.canonicalize_value``, which every
primitive's ``bind`` calls on each argument before it becomes a constant. Where it
is missing (another JAX), nothing is installed and ``installed()`` says so.
"""

from __future__ import annotations

from sys import _getframe  # the runtime's own: a user may take it off sys
import weakref

import numpy as np

from ...staging.arrays import ReadByValue, in_converted_code, may_change

_reads: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # trace -> ReadByValue
_installed = False


def installed() -> bool:
    return _installed


def install() -> None:
    global _installed
    if _installed:
        return
    try:
        from jax._src import core, dtypes
        from jax._src.interpreters.partial_eval import DynamicJaxprTrace
    except ImportError:
        return
    original = getattr(dtypes, "canonicalize_value", None)
    context = getattr(core, "trace_ctx", None)
    if original is None or context is None:
        return

    def canonicalize_value(x):
        if isinstance(x, np.ndarray) and may_change(x):
            trace = context.trace
            if isinstance(trace, DynamicJaxprTrace):
                reads = _reads.get(trace)
                if reads is not None and id(x) in reads.read:  # read before in this trace
                    return original(reads.snapshot(x))
                if in_converted_code(_getframe(1)):
                    if reads is None:
                        reads = _reads[trace] = ReadByValue()
                    x = reads.snapshot(x)
        return original(x)

    canonicalize_value.__wrapped__ = original
    dtypes.canonicalize_value = canonicalize_value
    _installed = True
