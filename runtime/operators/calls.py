"""Calls from staged code: user functions are converted, library code is not.

The converter turns ``f(a, b)`` into ``ag__.converted(f)(a, b)``. ``converted``
returns what to call: the converted version of a user function (converted once,
then cached); for the builtins ``range``, ``enumerate``, ``zip`` and ``len``,
however they were reached, their twins that a staged argument can go through
(``builtins.range_`` ...), and for the numeric builtins, ``math`` and numpy's
callables, versions that hand a staged argument to its backend
(``numeric_builtins``, ``numpy_calls``); the callable itself for other builtins,
classes, library code (the standard library, jax, ...) and anything marked with
``do_not_convert``.

A Python function's answer is cached weakly, so that a function made anew on
every call (a closure, a notebook cell run again) leaves nothing behind and the
user's function objects are not touched: a weak-keyed table maps the function to
"call it as it is" or to a weak reference to its converted version, which is
rebuilt from the cached compiled code if it was dropped. Other callables
(builtins, classes) are cached in a bounded dictionary.

The runtime knows nothing about how conversion is done: the conversion pipeline
registers itself with ``set_converter``.
"""

from __future__ import annotations

import functools
import linecache
import os
import sys
from sys import _getframe  # the runtime's own: a user may take it off sys
import sysconfig
import types
import weakref
from typing import Any, Callable, Optional, TypeVar

from ..staging import converted as _converted, errors
from ..staging.arg_writes import user_location
from ..staging.backend import staged_leaf, tracing_now
from .builtins import enumerate_, getframe_, hasattr_, isinstance_, len_, range_, zip_

F = TypeVar("F", bound=Callable[..., Any])

from .numeric_builtins import staged_version

_converter: Optional[Callable] = None
_cache: dict = {}
# Code objects produced by conversion: called as they are (``staging.converted``).
converted_codes: weakref.WeakSet = _converted.codes
staged_codes: weakref.WeakKeyDictionary = _converted.staged_codes
made_by_conversion = _converted.made
_CACHE_LIMIT = 4096

DO_NOT_CONVERT = "__autograph_do_not_convert__"

# Packages whose functions are always called as they are.
LIBRARY_PACKAGES = frozenset(
    {"autograph", "numpy", "scipy", "jax", "jaxlib", "tensorflow", "keras", "torch",
     "pandas", "gast", "pytest", "_pytest", "hypothesis"}
)


def map_(function, *iterables):
    """``map`` whose function is called as converted code calls it: ``map(np.asarray,
    [rate, pmt])`` (numpy-financial) runs NumPy's function on staged values as a call
    ``np.asarray(rate)`` does, and a user's function or lambda runs converted."""
    return map(converted(function), *iterables)


def filter_(function, iterable):
    """``filter`` whose function (if not None) is called as converted code calls it."""
    return filter(None if function is None else converted(function), iterable)


def reduce_(function, iterable, *initial):
    """``functools.reduce`` whose function is called as converted code calls it."""
    return functools.reduce(converted(function), iterable, *initial)


def sorted_(iterable, /, *, key=None, reverse=False):
    """``sorted`` whose key function (if any) is called as converted code calls it."""
    return sorted(iterable, key=None if key is None else converted(key), reverse=reverse)


def _hashed(kind: type):
    """``set``/``frozenset`` of items that must not be staged values: a set tells equal
    items by their hashes, and PyTorch hashes a traced tensor by identity (NumPy's scalars
    hash by value: {x[0], x[1]} of equal items had two where eager has one)."""
    def make(iterable=(), /):
        if tracing_now() is None:
            return kind(iterable)
        items = list(iterable)
        if staged_leaf(items) is not None:
            raise errors.StagingError(
                f"{kind.__name__}() at {user_location()}: its items are staged values, known "
                f"only when the program runs, so which of them are equal is not known while "
                f"it is traced. Compare them with array operations (np.unique, ==), or make "
                f"the {kind.__name__} outside the staged function.")
        return kind(items)
    make.__name__ = make.__qualname__ = f"{kind.__name__}_"
    return make


# Builtins whose arguments converted code must reach: the staged twins it calls instead.
_STAGED_TWINS = {range: range_, enumerate: enumerate_, zip: zip_, len: len_, hasattr: hasattr_,
                 isinstance: isinstance_, map: map_, filter: filter_, functools.reduce: reduce_, sorted: sorted_,
                 set: _hashed(set), frozenset: _hashed(frozenset), _getframe: getframe_}
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
    _functions.clear()
    _methods.clear()
    _held.clear()


# function -> (the code it had when resolved, _AS_IS or a weak reference to its
# converted version). The code is compared on every hit: a function may replace
# its own ``__code__`` (NetworkX's ``argmap`` stubs compile the real wrapper on
# their first call, assign it, and call themselves again).
_functions: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
_AS_IS = None  # in ``_functions``: the function is called as it is

# A bound method's function -> (its code, {id of the class of an object it was bound to:
# (a weak reference to that class, _AS_IS or what holds the converted function)}), for
# methods that are none of ``staged_version``'s: ``self.parse(...)`` makes a new bound
# method at every call, which the bounded cache cannot keep (it would keep the object
# alive); a base class's method is called on objects of each subclass (pyparsing's
# ``_parseNoCache``). Weak references only: a class holds its functions, so a strong
# one would keep the key alive.
_methods: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def converted(f):
    """What converted code calls in place of ``f``."""
    if f.__class__ is types.FunctionType:
        try:
            code, ref = _functions[f]
        except KeyError:
            return _resolve(f)
        if code is not f.__code__:
            return _resolve(f)
        if ref is _AS_IS:
            return f
        return ref() or _resolve(f)
    if f.__class__ is types.MethodType:
        func = f.__func__
        cls = f.__self__.__class__
        try:
            code, by_class = _methods[func]
            owner, ref = by_class[id(cls)]
        except (KeyError, TypeError):
            return _resolve(f)
        if code is not func.__code__ or owner() is not cls:
            return _resolve(f)
        if ref is _AS_IS:
            return f
        target = ref()
        return _resolve(f) if target is None else types.MethodType(target, f.__self__)
    try:
        return _cache[f]
    except (KeyError, TypeError):
        return _resolve(f)


def forget(f) -> None:
    """Drop what ``converted(f)`` cached."""
    if isinstance(f, types.FunctionType):
        _functions.pop(f, None)
        _methods.pop(f, None)
    try:
        _cache.pop(f, None)
    except TypeError:
        pass


def _resolve(f):
    staged = staged_version(f)  # builtins, math, numpy's functions on staged values (issue 22)
    if staged is not None:
        if f.__class__ is types.FunctionType:
            _functions[f] = (f.__code__, weakref.ref(staged))  # numpy_calls keeps it
        elif _unbound(f):  # not a method: caching it would keep its object alive
            try:
                _cache[f] = staged
            except TypeError:  # unhashable
                pass
        return staged
    if isinstance(f, types.MethodType):
        func = converted(f.__func__)
        if f.__func__.__class__ is types.FunctionType and _converter is not None:
            code, cls = f.__func__.__code__, f.__self__.__class__
            entry = _methods.get(f.__func__)
            if entry is None or entry[0] is not code:
                entry = _methods[f.__func__] = (code, {})
            entry[1][id(cls)] = (weakref.ref(cls), _AS_IS if func is f.__func__ else _kept(f.__func__, func))
        return f if func is f.__func__ else types.MethodType(func, f.__self__)
    if isinstance(f, functools.partial):
        func = converted(f.func)
        return f if func is f.func else functools.partial(func, *f.args, **f.keywords)
    if isinstance(f, types.FunctionType):
        if f.__code__ in staged_codes:
            result = _callee(f)
        elif f.__code__ in converted_codes or is_library(f) or _converter is None:
            result = f
            if (getattr(f, "__module__", None) or "").partition(".")[0] in _GUARDED:
                result = _guarded(f)
        else:
            result = _converter(f)
            if result is not f:
                result = _callee(result)
        if _converter is not None:
            _functions[f] = (f.__code__, _AS_IS if result is f else _kept(f, result))
        return result
    if isinstance(f, type) and _converted_init(f):
        result = _constructor(f)
    elif isinstance(f, type) or (isinstance(f, types.BuiltinFunctionType) and _unbound(f)):
        result = _STAGED_TWINS.get(f, f)
    elif isinstance(f, types.BuiltinFunctionType) or not callable(f):
        return f  # a builtin method of some object (``d.get``): caching it would keep the object alive
    else:
        call = call_method(type(f))
        if isinstance(call, staticmethod):  # called with the object's arguments only
            return converted(call.__func__)
        if isinstance(call, classmethod):
            return converted(types.MethodType(call.__func__, type(f)))
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


def _converted_init(cls) -> bool:
    """Whether calling ``cls`` runs an ``__init__`` conversion changes: a user's class
    whose metaclass constructs as ``type`` does (``Enum`` and the like construct their
    own way) and whose ``__init__`` is a function conversion rewrote (a library's, and
    a dataclass's generated one, are run as they are)."""
    init = getattr(cls, "__init__", None)
    if type(cls).__call__ is not type.__call__ or init.__class__ is not types.FunctionType:
        return False
    filename = init.__code__.co_filename
    if filename.startswith("<") and not linecache.getlines(filename):
        return False  # made by exec (a dataclass's, attrs'): no source, called as it is
    return converted(init) is not init


def _constructor(cls):
    """What converted code calls for ``cls``: what ``type.__call__`` does (``__new__``,
    then ``__init__`` of the object's class if ``__new__`` made one of ``cls``), with the
    converted ``__init__``, so that a constructor's validation and branches on staged
    arguments stage as a method's do (statistics.NormalDist's ``if sigma < 0.0: raise``)."""
    def construct(*args, **kwargs):
        obj = cls.__new__(cls, *args, **kwargs)
        if isinstance(obj, cls):
            converted(type(obj).__init__)(obj, *args, **kwargs)
        return obj

    construct.__name__ = cls.__name__
    construct.__qualname__ = cls.__qualname__
    construct.__wrapped__ = cls
    return construct


def _callee(fn):
    """What converted code calls for ``fn``, a function conversion made: a function of
    ``fn``'s staged body when it has one of its own (``staged_codes``), else of its
    code, with ``fn``'s defaults and closure cells, and nothing else (no attributes, no
    ``__wrapped__``: ``_kept`` may hold it strongly). Converted code runs only when
    staging, so it calls the staged body directly: a call costs one frame, as the
    original's does (a callee looking at its caller sees the user's function;
    recursion goes as deep)."""
    code = staged_codes.get(fn.__code__, fn.__code__)
    cells = dict(zip(fn.__code__.co_freevars, fn.__closure__ or ()))
    callee = types.FunctionType(code, fn.__globals__, fn.__name__, fn.__defaults__,
                                tuple(cells[name] for name in code.co_freevars) or None)
    callee.__kwdefaults__ = fn.__kwdefaults__
    callee.__qualname__ = fn.__qualname__
    callee.__module__ = fn.__module__
    callee.__doc__ = fn.__doc__
    return callee


def _kept(f, result):
    """How ``_functions`` and ``_methods`` hold what converted code calls for ``f``:
    strongly if ``f`` has no closure and ``result`` does not wrap it (``result`` then
    holds nothing of ``f``'s but its globals and defaults: the entry goes with ``f``).
    Else weakly, as a closure cell may hold ``f`` itself (a weak-keyed entry whose value
    holds its key would never go), and ``result`` is kept alive by ``_held``, a bounded
    table emptied when full: made again from the cached code only then."""
    if f.__closure__ is None and getattr(result, "__wrapped__", None) is None:
        return lambda: result
    if len(_held) >= _CACHE_LIMIT:
        _held.clear()
    _held[id(result)] = result
    return weakref.ref(result)


_held: dict = {}


def call_method(cls):
    """``cls.__call__`` as the class stores it (a function, ``staticmethod``,
    ``classmethod`` ...), found along the MRO; None if there is none. ``getattr``
    would unwrap a ``staticmethod`` into a function, which binding to the object
    would then pass one argument too many."""
    for klass in cls.__mro__:
        if "__call__" in klass.__dict__:
            return klass.__dict__["__call__"]
    return None


# Libraries whose functions, called from a staged body with a staged value, may inspect
# or convert it (``aslinearoperator``: "type not understood"): their failure is the trace's.
_GUARDED = frozenset({"scipy", "pandas"})
_LIBRARY_FAILURES = (TypeError, ValueError, AttributeError, NotImplementedError)


def _guarded(f):
    """``f`` (a library function, called as it is) whose TypeError, ValueError ... given
    a staged value is a StagingError naming the call and the user's line: the library
    saw a symbolic array where eager code gives it a NumPy array."""
    @functools.wraps(f)
    def call(*args, **kwargs):
        try:
            return f(*args, **kwargs)
        except _LIBRARY_FAILURES as error:
            if isinstance(error, errors.StagingError) or (
                    staged_leaf(args) is None and staged_leaf(kwargs.values()) is None):
                raise
            name = f"{f.__module__}.{f.__qualname__}"
            raise errors.StagingError(
                f"{name} at {user_location()} raised {type(error).__name__}({str(error)!r}) "
                f"given a staged value: library code is called as it is, and this function "
                f"inspects or converts its argument, which is a symbolic array while tracing, "
                f"not a NumPy array. Call it outside the staged function and pass the result "
                f"in, or compute it with NumPy functions.") from error

    return call


def _unbound(builtin) -> bool:
    """A builtin function of a module (``len``, ``math.sqrt``), not a method bound to an object."""
    owner = getattr(builtin, "__self__", None)
    return owner is None or isinstance(owner, types.ModuleType)


def is_library(f: types.FunctionType) -> bool:
    """True for functions converted code calls unconverted."""
    if getattr(f, DO_NOT_CONVERT, False):
        return True
    module = getattr(f, "__module__", None) or ""
    root = module.partition(".")[0]
    if root in LIBRARY_PACKAGES:
        return True
    if root in _STDLIB_NAMES and _origin(root) == "stdlib":
        return True
    filename = os.path.normcase(f.__code__.co_filename)
    if filename.startswith("<") and _origin(root) == "installed":
        return True  # generated by an installed package (six's exec'd raise_from): no source to convert
    return filename.startswith(_STDLIB) and "site-packages" not in filename


_origins: dict = {}


def _origin(root: str):
    """Where the loaded top-level module ``root`` comes from: "stdlib" (frozen like
    ``<frozen posixpath>``, built in, zipped, or the stdlib directory), "installed"
    (site-packages), or None (a user's module, one that shadows a standard name,
    or one not loaded). ``__main__`` is the user's even when an installed tool
    runs as it (``python -m pytest``): code exec'd with it (doctests) is the user's."""
    if root == "__main__":
        return None
    if root not in _origins:
        spec = getattr(sys.modules.get(root), "__spec__", None)
        origin = getattr(spec, "origin", None)
        path = os.path.normcase(origin or "")
        if origin in ("frozen", "built-in"):
            _origins[root] = "stdlib"
        elif "site-packages" in path or "dist-packages" in path:
            _origins[root] = "installed"
        elif origin is not None and root in _STDLIB_NAMES and path.startswith(_BASE_PREFIX):
            _origins[root] = "stdlib"
        else:
            _origins[root] = None
    return _origins[root]


def do_not_convert(f: F) -> F:
    """Mark a function so that converted code calls it as it is, unconverted.

    Use it for functions whose source cannot or should not be converted (they
    are called as plain Python, also from staged code). Works as a decorator.

    Args:
        f: A function or method.

    Returns:
        ``f`` itself, marked.

    Example:
        >>> import autograph as ag
        >>> @ag.do_not_convert
        ... def helper(x):
        ...     return x if x > 0 else 0
        >>> def f(x):
        ...     return helper(x) + 1
        >>> "ag__.converted(helper)" in ag.to_code(f)
        True
        >>> ag.to_graph(f)(-5)
        1
    """
    target = f.__func__ if isinstance(f, types.MethodType) else f
    try:
        setattr(target, DO_NOT_CONVERT, True)
    except (AttributeError, TypeError):
        pass
    forget(target)
    return f


_converted.publish(converted)
