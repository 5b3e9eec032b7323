"""NumPy's functions called from staged code, on staged values.

Numerical code is written with ``np.*``. In the staged body of a converted function
every call of a callable of the ``numpy`` package (``np.sqrt``, ``np.linalg.norm``,
``np.add.reduce``, ``np.float64``; also one reached through a name, ``from numpy
import sqrt``, and a method of a NumPy array, ``T.dot``) goes through
``ag__.converted``, which gives ``routed(fn)``: with no staged value among the arguments (looking into lists,
tuples and keyword values) that is ``fn`` itself, called as it is, so NumPy computes
what it computes eagerly (a constant of the trace). With one, a list or tuple of
scalars among the positional arguments is first stacked (as NumPy's own conversion
would make it an array), and the backend of the
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
import itertools
import types

import numpy as np

from ..staging import accumulate
from ..staging.backend import staged_leaf
from ..staging.numeric import name_of

_routed: dict = {}  # numpy callable -> its router; numpy's callables live as long as numpy


def is_numpy(f) -> bool:
    """True for a function, ufunc, ufunc method or class of the ``numpy`` package, and
    for a method of a NumPy array (``T.dot``: a staged argument may come), bound or not
    (``np.ndarray.take(a, i)``)."""
    if f.__class__ is np.ufunc or isinstance(getattr(f, "__self__", None), (np.ufunc, np.ndarray)):
        return True
    if getattr(f, "__objclass__", None) is np.ndarray:  # np.ndarray.take(a, ...)
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
        if args and args[0].__class__ in accumulate.COLLECTED:  # a list a staged loop grows
            if args[0].__class__ is not accumulate.Padded:
                return accumulate.numpy_call(fn, args, kwargs)
            args = (list(args[0]),) + args[1:]  # padded: a list of arrays
        if any(getattr(a.__class__, "checked_value", None) is not None for a in args):
            out = none_call(fn, args, kwargs)
            if out is not UNHANDLED:
                return out
        backend = staged_leaf(args)
        if backend is None and kwargs:
            backend = staged_leaf(kwargs.values())
        if backend is None:
            return fn(*args, **kwargs)
        args = tuple(_stacked(a, backend) for a in args)
        return backend.users_numpy_call(fn, args, kwargs)

    call.__name__ = call.__qualname__ = getattr(fn, "__name__", "numpy_function")
    call.__wrapped__ = fn
    owner = getattr(fn, "__self__", None)
    if owner is None or isinstance(owner, (types.ModuleType, np.ufunc)):
        _routed[fn] = call  # not a method of an object the cache would keep alive
    return call



def _stacked(arg, backend):
    """A list or tuple of scalars some of which are staged (``np.isfinite([fa, fb, fd])``),
    as the array NumPy makes of it: NumPy's dispatch does not look into a list, so the
    framework's ufunc would not see its staged items. Lists of arrays stay lists
    (``np.concatenate([a, b])``: the framework's function takes the sequence)."""
    if arg.__class__ not in (list, tuple) or not arg or staged_leaf(arg) is None:
        return arg
    if all(item.__class__ in (bool, int, float, complex) or getattr(item, "ndim", None) == 0
           for item in arg):
        return backend.numeric("numpy.asarray", (arg,), {})
    return arg


UNHANDLED = object()


def none_call(fn, args, kwargs, call=None):
    """NumPy's ``fn`` (or a builtin, ``min``: ``call`` is what stages it) where some arguments are values None on some staged paths (a
    backend's flagged value: ``stmax = None`` until a staged branch assigns it), as eager
    NumPy computes it on each run: for each set of them that may be None, ``fn`` is tried
    now on None there and stand-ins of the rest (zeros of their types). Where NumPy
    raises (``np.clip(None, 0.0, 1.0)``: a TypeError) that error is raised when the
    program runs with exactly those None; where it accepts None (``np.clip(x, None,
    hi)``: no lower bound) its result on None is computed too and selected where those
    are None. ``UNHANDLED`` where that cannot be done (more than three such arguments,
    results that are not arrays): the flagged value then refuses the call, naming itself."""
    flagged = [i for i, a in enumerate(args) if getattr(a.__class__, "checked_value", None)]
    if len(flagged) > 3:
        return UNHANDLED
    values = [a.value if i in flagged else a for i, a in enumerate(args)]
    stand_ins = [_stand_in(a) for a in values]
    kw_stand_ins = {k: _stand_in(v) for k, v in kwargs.items()}
    outcomes = []
    for size in range(1, len(flagged) + 1):
        for combo in itertools.combinations(flagged, size):
            trial = [None if i in combo else a for i, a in enumerate(stand_ins)]
            try:
                fn(*trial, **kw_stand_ins)
            except Exception as error:  # noqa: BLE001 - whatever NumPy raises on None
                outcomes.append((combo, error))
            else:
                outcomes.append((combo, None))
    first = args[flagged[0]]
    for combo, error in outcomes:
        if error is not None:
            exactly = _exactly(args, flagged, combo)
            if exactly is not False:
                type(first)(exactly, first.value, first.name).checked_value(error)
    call = call or routed(fn)
    result = call(*values, **kwargs)
    for combo, error in outcomes:
        exactly = _exactly(args, flagged, combo)
        if error is None and exactly is not False:
            on_none = call(*[None if i in combo else v for i, v in enumerate(values)], **kwargs)
            if staged_leaf((result, on_none)) is None and not isinstance(
                    result, (np.ndarray, np.generic)):
                return UNHANDLED
            result = routed(np.where)(exactly, on_none, result)
    return result


def _exactly(args, flagged, combo):
    """The run-time flag: the arguments in ``combo`` are None and the other flagged are not."""
    out = True
    for i in flagged:
        flag = args[i].flag
        if i not in combo:
            flag = (not flag) if flag.__class__ is bool else ~flag
        if flag.__class__ is bool:
            if not flag:
                return False
            continue
        out = flag if out is True else out & flag
    return out


def _stand_in(value):
    """A concrete value of ``value``'s type and shape (itself where it is not staged)."""
    backend = staged_leaf((value,))
    aval = None if backend is None else backend.aval(value)
    if aval is None:
        flagged = getattr(value.__class__, "checked_value", None) is not None
        return _stand_in(value.value) if flagged else value
    if aval.weak:
        return {"b": False, "i": 0, "u": 0, "f": 0.0, "c": 0j}[np.dtype(aval.dtype).kind]
    return np.zeros(tuple(1 if d is None else d for d in aval.shape), aval.dtype)[()]
