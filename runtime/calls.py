"""Calls from staged code: user functions are converted, library code is not.

The converter turns ``f(a, b)`` into ``ag__.converted(f)(a, b)``. ``converted``
returns what to call: the converted version of a user function (converted once,
then cached by function object), or the callable itself for builtins, classes,
library code (the standard library, numpy, jax, ...) and anything marked with
``do_not_convert``. A cache hit is one dictionary lookup.

The runtime knows nothing about how conversion is done: the conversion pipeline
registers itself with ``set_converter``.
"""

from __future__ import annotations

import functools
import os
import sysconfig
import types
from typing import Callable, Optional

from .numeric_builtins import staged_version

_converter: Optional[Callable] = None
_cache: dict = {}
converted_codes: set = set()  # code objects produced by conversion: called as they are
_CACHE_LIMIT = 4096

DO_NOT_CONVERT = "__autograph_do_not_convert__"

# Packages whose functions are always called as they are.
LIBRARY_PACKAGES = frozenset(
    {"autograph", "numpy", "scipy", "jax", "jaxlib", "tensorflow", "keras", "torch",
     "pandas", "gast", "pytest", "_pytest", "hypothesis"}
)
_STDLIB = os.path.normcase(sysconfig.get_paths()["stdlib"])


def set_converter(converter: Callable) -> None:
    """``converter(fn)`` returns the converted function, or ``fn`` if it cannot."""
    global _converter
    _converter = converter
    _cache.clear()


def converted(f):
    """What converted code calls in place of ``f``."""
    try:
        return _cache[f]
    except (KeyError, TypeError):
        return _resolve(f)


def _resolve(f):
    staged = staged_version(f)  # builtins, math, np.asarray on staged values (issue 22)
    if staged is not None:
        try:
            _cache[f] = staged
        except TypeError:  # a bound method of an unhashable object
            pass
        return staged
    if isinstance(f, types.MethodType):
        func = converted(f.__func__)
        return f if func is f.__func__ else types.MethodType(func, f.__self__)
    if isinstance(f, functools.partial):
        func = converted(f.func)
        return f if func is f.func else functools.partial(func, *f.args, **f.keywords)
    if isinstance(f, types.FunctionType):
        if f.__code__ in converted_codes or is_library(f) or _converter is None:
            result = f
        else:
            result = _converter(f)
    elif isinstance(f, (type, types.BuiltinFunctionType)) or not callable(f):
        result = f
    else:
        call = getattr(type(f), "__call__", None)
        if isinstance(call, types.FunctionType) and converted(call) is not call:
            return types.MethodType(converted(call), f)
        return f
    try:
        if len(_cache) >= _CACHE_LIMIT:
            _cache.clear()
        _cache[f] = result
    except TypeError:  # unhashable callable
        pass
    return result


def is_library(f: types.FunctionType) -> bool:
    """True for functions converted code calls unconverted."""
    if getattr(f, DO_NOT_CONVERT, False):
        return True
    module = getattr(f, "__module__", None) or ""
    if module.partition(".")[0] in LIBRARY_PACKAGES:
        return True
    filename = os.path.normcase(f.__code__.co_filename)
    return filename.startswith(_STDLIB) and "site-packages" not in filename


def do_not_convert(f):
    """Mark ``f`` so that converted code calls it as it is."""
    target = f.__func__ if isinstance(f, types.MethodType) else f
    try:
        setattr(target, DO_NOT_CONVERT, True)
    except (AttributeError, TypeError):
        pass
    _cache.pop(target, None)
    return f
