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
  iterable — a list, tuple, generator, deque, dict view: its items; of one array: its
  reduction); ``key=``/``default=`` with a
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
- ``warnings.warn`` of a message a staged condition chose warns when the graph runs, on
  the path it takes, with the text chosen there (the NumPy engine's string choices);
- ``any``/``all`` of a list, tuple or array with staged items: Python's short circuit
  over the Python items, then an or/and of the staged ones (as of a generator
  expression, ``generators``);
- ``divmod`` of staged values is ``(x // y, x % y)``, as NumPy's ``divmod``;
  ``math.modf`` gives two Python floats;
- numpy's other callables, and a NumPy array's method given a staged argument
  (``T.dot(W)``): ``numpy_calls`` (the backend's ``numpy_call``).
"""

from __future__ import annotations

import math
import warnings

import numpy as np

from ..staging import accumulate, backend as backends, errors
from . import formatting, numpy_calls
from ..staging.arg_writes import user_line
from ..staging.backend import backend_of, first_backend, staged_leaf
from ..staging.numeric import BUILTINS, MATH, python_min_max, result_kind  # noqa: F401

ARRAY_FUNCTIONS = {np.asarray: "asarray", np.array: "array", np.asanyarray: "asarray",
                   np.ascontiguousarray: "asarray"}


def _builtin(name: str):
    original = BUILTINS[name]

    def staged(*args, **kwargs):
        if name in ("min", "max") and len(args) == 1 and _other_iterable(args[0]):
            args = (list(args[0]),)  # its items, read once, as the builtin reads them
        if any(getattr(a.__class__, "checked_value", None) is not None for a in args):
            out = numpy_calls.none_call(original, args, kwargs, staged)  # None on some paths
            if out is not numpy_calls.UNHANDLED:
                return out
        backend = staged_leaf(args) if name in ("min", "max") else first_backend(args)
        if backend is None:
            return original(*args, **kwargs)
        if name in ("min", "max"):
            items = python_min_max(name, args, kwargs)
            if items is not None:
                return _chosen(backend, name, items)
        if name == "divmod":  # Python's floor division and modulo: the arrays' operators
            x, y = args
            return x // y, x % y
        return backend.numeric(name, args, kwargs)

    staged.__name__ = staged.__qualname__ = f"{name}_"
    staged.__wrapped__ = original
    return staged


def _chosen(backend, name: str, items: list):
    """``min``/``max`` of several items, one of them staged: Python's choice, item by
    item (the first unless the next compares below it: the first of equal items, 0.0
    before -0.0, a NaN first stays, one after is passed over), with the chosen item's
    kind (``Backend.keep_kind``), where the frameworks' minimum would give -0.0 or NaN."""
    best = items[0]
    for item in items[1:]:
        if backend_of(best) is None and backend_of(item) is None:
            best = BUILTINS[name](best, item)
            continue
        took = item < best if name == "min" else item > best
        aval = backend.aval(took)
        if aval is not None and aval.shape:  # as eagerly: the truth of an array
            raise ValueError("The truth value of an array with more than one element is "
                             "ambiguous. Use a.any() or a.all()")
        chosen = backend.numpy_call(np.where, (took, item, best), {})
        if backend.keeps_kinds:
            where = user_line()
            backend.keep_kind(chosen, took, backend.python_kind(item), backend.python_kind(best),
                              f"the result of {name}()" + (f" at {errors.at_line(*where)}"
                                                           if where else ""))
        best = chosen
    return best


def _other_iterable(value) -> bool:
    """An iterable that may hold staged items and is neither a list or tuple nor an
    array: a generator, a ``collections.deque``, a dict view, a set."""
    cls = value.__class__
    return cls not in (list, tuple, str, bytes, range) and hasattr(cls, "__iter__") and \
        not isinstance(value, (np.ndarray, np.generic)) and backend_of(value) is None


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
    engine), a context whose floating-point settings the graph's ops run under; while a
    framework traces (``jax.jit``, ``torch.compile``, ``tf.function``), its refusal of
    settings its operations cannot honour (``Backend.errstate``)."""
    backend = backends.tracing_now()
    if backend is None:
        return np.errstate(*args, **kwargs)
    return backend.errstate(args, kwargs)


_STAGED[np.errstate] = errstate_


def warn_(message, category=None, stacklevel=1, source=None, **kwargs):
    """``warnings.warn``; a message a staged condition chose (a backend's choice of
    strings, ``warn_when_run``) warns when the graph runs, with the text chosen there."""
    hook = getattr(message.__class__, "warn_when_run", None)
    if hook is None:
        return warnings.warn(message, category, stacklevel + 1, source, **kwargs)
    return hook(message, category or UserWarning, stacklevel)


_STAGED[warnings.warn] = warn_
_STAGED.update({str: formatting.str_, repr: formatting.repr_, format: formatting.format_})


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
    if f.__class__ is _BUILTIN_METHOD:
        owner = f.__self__.__class__
        if owner is dict and f.__name__ == "get":
            return _dict_get(f)
        if owner is str and f.__name__ == "format":  # "x={:.3f}".format(x)
            return formatting.format_method(f.__self__)
        backend = backend_of(f.__self__)
        if backend is not None:
            method = backend.array_method(f)
            if method is not None:
                return method
    try:
        staged = _STAGED.get(f)
    except TypeError:  # unhashable
        return None
    if staged is None and numpy_calls.is_numpy(f):
        return numpy_calls.routed(f)
    if staged is None and f.__class__ is _BUILTIN_FUNCTION \
            and getattr(f, "__name__", None) in accumulate.LIST_TAKERS:
        return accumulate.takes_list(f)  # torch.stack(lst) of a list a staged loop collected
    return staged


_BUILTIN_METHOD = type({}.get)
_BUILTIN_FUNCTION = type(len)  # also a C extension's function (torch.stack)



