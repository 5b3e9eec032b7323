"""A pytest plugin that runs a library's own test suite on the library converted
by autograph: every function and method of the modules named in
``AUTOGRAPH_CONVERT`` (comma-separated) is replaced by ``ag.convert`` of it
before the tests import anything, and with ``AUTOGRAPH_STAGED=1`` the whole
session runs under ``force_staged()`` (the staged bodies, as under a trace).

Used by ``convert_library.py``; load it with ``-p plugin`` and this directory on
``sys.path``. Conversion counts are written to ``AUTOGRAPH_REPORT`` (JSON).
``AUTOGRAPH_DO_NOT_CONVERT`` names functions (``module.attr``, comma-separated)
to mark with ``ag.do_not_convert`` first, e.g. ones made by ``exec`` that have no
source (``six.raise_from``), which converted code otherwise calls with a warning.
"""

from __future__ import annotations

import importlib
import json
import os
import types
import warnings

import autograph as ag
from autograph.runtime.staging.mode import force_staged

_counts = {"converted": 0, "refused": 0, "refusals": []}
_staged = None
_done: dict = {}  # original function -> what replaces it (one conversion, wherever it is found)
_modules: set = set()  # names of the modules being converted


def _convert(fn):
    """The converted ``fn``. Where the converted code has the same free variables,
    it is installed in ``fn`` itself (``fn.__code__``), so every reference to the
    function — a table of functions, a decorator's closure, an identity check —
    runs the converted code; otherwise the caller replaces the attribute."""
    if fn in _done:
        return _done[fn]
    try:
        new = ag.convert(fn)
        _counts["converted"] += 1
        if new is not fn and new.__code__.co_freevars == fn.__code__.co_freevars:
            fn.__code__ = new.__code__
            new = fn
    except ag.ConversionError as e:
        _counts["refused"] += 1
        _counts["refusals"].append(f"{fn.__module__}.{fn.__qualname__}: {e}")
        new = fn
    _done[fn] = new
    return new


def _convert_class(cls, module_name, seen):
    if id(cls) in seen:
        return
    seen.add(id(cls))
    for name, value in list(vars(cls).items()):
        if isinstance(value, (staticmethod, classmethod)):
            fn = value.__func__
            if isinstance(fn, types.FunctionType) and fn.__module__ == module_name:
                setattr(cls, name, type(value)(_convert(fn)))
        elif type(value) is property and name != "__name__":  # a type's __name__ takes a str only
            parts = [getattr(value, p) for p in ("fget", "fset", "fdel")]
            parts = [_convert(p) if isinstance(p, types.FunctionType) and p.__module__ == module_name else p for p in parts]
            setattr(cls, name, property(*parts, value.__doc__))
        elif isinstance(value, types.FunctionType) and value.__module__ == module_name:
            setattr(cls, name, _convert(value))
        elif isinstance(value, type) and value.__module__ == module_name:
            _convert_class(value, module_name, seen)


def convert_module(module_name: str) -> None:
    """Convert the functions and classes ``module_name`` defines, and replace the
    ones it imports from the other modules being converted (a package's re-exports)."""
    module = importlib.import_module(module_name)
    seen: set = set()
    for name, value in list(vars(module).items()):
        if isinstance(value, types.FunctionType) and value.__module__ in _modules:
            setattr(module, name, _convert(value))
        elif isinstance(value, type) and _defined_in(value, module_name):
            _convert_class(value, module_name, seen)


def _defined_in(cls, module_name: str) -> bool:
    """Whether ``cls`` is the module's own: its ``__module__`` says so, or (a class that
    names its package as its module, as bidict's do) one of its functions was defined there."""
    return cls.__module__ == module_name or any(
        isinstance(v, types.FunctionType) and v.__module__ == module_name for v in vars(cls).values())


def pytest_configure(config):
    global _staged
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for target in filter(None, os.environ.get("AUTOGRAPH_DO_NOT_CONVERT", "").split(",")):
            module, _, attr = target.rpartition(".")
            ag.do_not_convert(getattr(importlib.import_module(module), attr))
        names = list(filter(None, os.environ.get("AUTOGRAPH_CONVERT", "").split(",")))
        _modules.update(names)
        for name in names:
            convert_module(name)
    if os.environ.get("AUTOGRAPH_STAGED") == "1":
        _staged = force_staged()
        _staged.__enter__()


def pytest_unconfigure(config):
    if _staged is not None:
        _staged.__exit__(None, None, None)
    report = os.environ.get("AUTOGRAPH_REPORT")
    if report:
        with open(report, "w") as f:
            json.dump(_counts, f, indent=1)
