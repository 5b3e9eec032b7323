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
import sys
import sysconfig
import types
from typing import Callable, Optional

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
_BASE_PREFIX = os.path.normcase(sys.base_prefix)


def _stdlib_names() -> frozenset:
    """Top-level names of the standard library's modules."""
    names = getattr(sys, "stdlib_module_names", None)  # Python 3.10+
    if names is not None:
        return frozenset(names)
    found = set(sys.builtin_module_names)
    for entry in os.listdir(_STDLIB) if os.path.isdir(_STDLIB) else ():
        name, ext = os.path.splitext(entry)
        if ext in ("", ".py") and name.isidentifier() and entry != "site-packages":
            found.add(name)
    return frozenset(found)


_STDLIB_NAMES = _stdlib_names()


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
    elif isinstance(f, type) or (isinstance(f, types.BuiltinFunctionType) and _unbound(f)):
        result = f
    elif isinstance(f, types.BuiltinFunctionType) or not callable(f):
        return f  # a builtin method of some object (``d.get``): caching it would keep the object alive
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


def _unbound(builtin) -> bool:
    """A builtin function of a module (``len``, ``math.sqrt``), not a method bound to an object."""
    owner = getattr(builtin, "__self__", None)
    return owner is None or isinstance(owner, types.ModuleType)


def is_library(f: types.FunctionType) -> bool:
    """True for functions converted code calls unconverted."""
    if getattr(f, DO_NOT_CONVERT, False):
        return True
    module = getattr(f, "__module__", None) or ""
    if module.partition(".")[0] in LIBRARY_PACKAGES:
        return True
    if module.partition(".")[0] in _STDLIB_NAMES and _from_stdlib(module.partition(".")[0]):
        return True
    filename = os.path.normcase(f.__code__.co_filename)
    return filename.startswith(_STDLIB) and "site-packages" not in filename


_stdlib_roots: dict = {}


def _from_stdlib(root: str) -> bool:
    """Whether the loaded top-level module ``root`` is the standard library's, however it
    was loaded (frozen: ``<frozen posixpath>``, built in, zipped, from the stdlib
    directory), and not a user module that shadows a standard name."""
    known = _stdlib_roots.get(root)
    if known is not None:
        return known
    spec = getattr(sys.modules.get(root), "__spec__", None)
    origin = getattr(spec, "origin", None)
    if origin is None:  # not loaded, or loaded by hand: not known to be the stdlib's
        return False
    if origin in ("frozen", "built-in"):
        result = True
    else:
        path = os.path.normcase(origin)
        result = path.startswith(_BASE_PREFIX) and "site-packages" not in path and "dist-packages" not in path
    _stdlib_roots[root] = result
    return result


def do_not_convert(f):
    """Mark ``f`` so that converted code calls it as it is."""
    target = f.__func__ if isinstance(f, types.MethodType) else f
    try:
        setattr(target, DO_NOT_CONVERT, True)
    except (AttributeError, TypeError):
        pass
    _cache.pop(target, None)
    return f
