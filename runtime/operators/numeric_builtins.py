"""Python's numeric builtins, ``math`` and ``np.asarray`` on staged values.

Numerical code calls ``min(h0, interval)``, ``abs(dx)``, ``int(n)``,
``math.sqrt(b * b - 4 * a * c)`` and ``np.asarray([xa, xb])`` on scalars that are
staged under a trace, where the builtins would ask for a Python value the trace
does not have yet. The staged body calls these through ``converted`` (and
``ag__.min_`` ... for the builtins the converter renames): with no staged argument
each is the function itself, called as it is; with one, the backend of the first
staged argument builds the same computation as graph ops (``Backend.numeric``),
with NumPy's dtype rules:

- ``min``/``max`` of several arguments are pairwise ``minimum``/``maximum`` (of one
  iterable: its items; of one array: its reduction); ``key=``/``default=`` with a
  staged argument are refused;
- ``abs``, ``round`` (to an integer without ``ndigits``, as ``round`` of a NumPy
  scalar), ``int``/``float``/``bool``: a cast to the Python scalar type;
- ``math.<f>``: the same function where the backend can call it when the graph runs
  (the NumPy engine: same value, same ``ValueError: math domain error``), else the
  framework's elementwise twin (JAX: ``jnp.sqrt`` of a negative is NaN);
- ``np.asarray`` / ``np.array`` of a staged array stay in the graph; of a (nested)
  list or tuple holding staged values they are a stack;
- ``with np.errstate(...)`` inside an ``autograph.function``: the graph's ops run
  under those settings (``Backend.errstate``);
- ``d.get(key)`` with a staged key is a StagingError (a graph cannot hash it);
- ``divmod`` of staged values is ``(x // y, x % y)``, as NumPy's ``divmod``;
  ``math.modf`` gives two Python floats;
- numpy's other callables, and a NumPy array's method given a staged argument
  (``T.dot(W)``): ``numpy_calls`` (the backend's ``numpy_call``).
"""

from __future__ import annotations

import math

import numpy as np

from . import backends, errors, numpy_calls
from .arg_writes import user_line
from .backends import backend_of, first_backend, staged_leaf

# math function -> the Python type of its result
MATH = {}
for _name, _kind in [
    ("sqrt", float), ("exp", float), ("expm1", float), ("log", float), ("log2", float),
    ("log10", float), ("log1p", float), ("fabs", float), ("floor", int), ("ceil", int),
    ("trunc", int), ("hypot", float), ("copysign", float), ("isnan", bool), ("isinf", bool),
    ("isfinite", bool), ("sin", float), ("cos", float), ("tan", float), ("asin", float),
    ("acos", float), ("atan", float), ("atan2", float), ("sinh", float), ("cosh", float),
    ("tanh", float), ("pow", float), ("fmod", float), ("erf", float), ("erfc", float),
    ("degrees", float), ("radians", float), ("modf", tuple),
]:
    MATH[getattr(math, _name)] = (_name, _kind)

BUILTINS = {"min": min, "max": max, "abs": abs, "round": round, "int": int, "float": float,
            "bool": bool, "divmod": divmod}
ARRAY_FUNCTIONS = {np.asarray: "asarray", np.array: "array", np.asanyarray: "asarray",
                   np.ascontiguousarray: "asarray"}


def _builtin(name: str):
    original = BUILTINS[name]

    def staged(*args, **kwargs):
        backend = staged_leaf(args) if name in ("min", "max") else first_backend(args)
        if backend is None:
            return original(*args, **kwargs)
        if name == "divmod":  # Python's floor division and modulo: the arrays' operators
            x, y = args
            return x // y, x % y
        return backend.numeric(name, args, kwargs)

    staged.__name__ = staged.__qualname__ = f"{name}_"
    staged.__wrapped__ = original
    return staged


min_ = _builtin("min")
max_ = _builtin("max")
abs_ = _builtin("abs")
round_ = _builtin("round")
int_ = _builtin("int")
float_ = _builtin("float")
bool_ = _builtin("bool")
divmod_ = _builtin("divmod")


def _wrap(fn, name: str):
    def staged(*args, **kwargs):
        backend = staged_leaf(args)
        if backend is None:
            return fn(*args, **kwargs)
        return backend.numeric(name, args, kwargs)

    staged.__name__ = staged.__qualname__ = getattr(fn, "__name__", name)
    staged.__wrapped__ = fn
    return staged


_STAGED = {}
for _fn, (_name, _) in MATH.items():
    _STAGED[_fn] = _wrap(_fn, "math." + _name)
for _fn, _name in ARRAY_FUNCTIONS.items():
    _STAGED[_fn] = _wrap(_fn, "numpy." + _name)
for _name, _fn in BUILTINS.items():
    _STAGED[_fn] = globals()[_name + "_"]


def errstate_(*args, **kwargs):
    """``np.errstate``: under a backend that stages even Python-only code (the NumPy
    engine), a context whose floating-point settings the graph's ops run under."""
    backend = backends.tracing_backend()
    if backend is None:
        return np.errstate(*args, **kwargs)
    return backend.errstate(args, kwargs)


_STAGED[np.errstate] = errstate_


def _dict_get(method):
    def get(key, *default):
        if backend_of(key) is not None:
            where = user_line()
            at = f" at {where[0]}:{where[1]}" if where else ""
            raise errors.StagingError(
                f"dict.get with a staged key{at} ({key!r}): the key is only known when the graph "
                f"runs, and a graph cannot look it up in a Python dict. Use a Python key, or "
                f"keep the values in an array and index it with the staged value.")
        return method(key, *default)

    return get



def staged_version(f):
    """What converted code calls for ``f`` when ``f`` is one of these functions, else None."""
    if f.__class__ is _BUILTIN_METHOD and f.__self__.__class__ is dict and f.__name__ == "get":
        return _dict_get(f)
    try:
        staged = _STAGED.get(f)
    except TypeError:  # unhashable
        return None
    if staged is None and numpy_calls.is_numpy(f):
        return numpy_calls.routed(f)
    return staged


_BUILTIN_METHOD = type({}.get)


def python_min_max(name: str, args, kwargs):
    """``min``/``max`` arguments as a list of candidates (one iterable is its items)."""
    if kwargs:
        raise TypeError(f"{name}() with {', '.join(kwargs)}= on staged values is not supported "
                        f"in a graph; compare the values with np.minimum/np.maximum instead.")
    if len(args) == 1:
        only = args[0]
        if only.__class__ in (list, tuple):
            items = list(only)
            if not items:
                raise ValueError(f"{name}() iterable argument is empty")
            return items
        return None  # one array: its reduction
    if not args:
        raise TypeError(f"{name} expected at least 1 argument, got 0")
    return list(args)


def result_kind(name: str):
    """The Python type ``math.<name>`` returns."""
    return {n: k for n, k in MATH.values()}[name]

