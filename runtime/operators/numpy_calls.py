"""NumPy's functions called from staged code, on staged values.

Numerical code is written with ``np.*``. In the staged body of a converted function
every call of a callable of the ``numpy`` package (``np.sqrt``, ``np.linalg.norm``,
``np.add.reduce``, ``np.float64``; also one reached through a name, ``from numpy
import sqrt``, and a method of a NumPy array, ``T.dot``) goes through
``ag__.converted``, which gives ``routed(fn)``: with no staged value among the arguments (looking into lists,
tuples and keyword values) that is ``fn`` itself, called as it is, so NumPy computes
what it computes eagerly (a constant of the trace). With one, the backend of the
first staged argument decides (``Backend.numpy_call``): the NumPy engine's symbolic
tensors implement NumPy's dispatch protocols, so there it is ``fn`` itself too; JAX
tracers do not, and the JAX backend calls the ``jax.numpy`` function of the same
name (``backends.jax.numpy_twins``).

The Python path of a converted function is the user's own statements, so these
calls cost nothing there; the staged body pays a lookup and a scan of the
arguments per call.
"""

from __future__ import annotations

import inspect
import types

import numpy as np

from ..staging.backend import staged_leaf
from ..staging.numeric import name_of

_routed: dict = {}  # numpy callable -> its router; numpy's callables live as long as numpy


def is_numpy(f) -> bool:
    """True for a function, ufunc, ufunc method or class of the ``numpy`` package, and
    for a method of a NumPy array (``T.dot``: a staged argument may come)."""
    if f.__class__ is np.ufunc or isinstance(getattr(f, "__self__", None), (np.ufunc, np.ndarray)):
        return True
    module = getattr(f, "__module__", None)
    return isinstance(module, str) and module.partition(".")[0] == "numpy" and (
        inspect.isroutine(f) or isinstance(f, type))  # not an object of a numpy class


def routed(fn):
    """What converted code calls in place of the NumPy callable ``fn``."""
    try:
        return _routed[fn]
    except (KeyError, TypeError):  # TypeError: a method of an array (unhashable)
        pass

    def call(*args, **kwargs):
        backend = staged_leaf(args)
        if backend is None and kwargs:
            backend = staged_leaf(kwargs.values())
        if backend is None:
            return fn(*args, **kwargs)
        return backend.numpy_call(fn, args, kwargs)

    call.__name__ = call.__qualname__ = getattr(fn, "__name__", "numpy_function")
    call.__wrapped__ = fn
    owner = getattr(fn, "__self__", None)
    if owner is None or isinstance(owner, (types.ModuleType, np.ufunc)):
        _routed[fn] = call  # not a method of an object the cache would keep alive
    return call

