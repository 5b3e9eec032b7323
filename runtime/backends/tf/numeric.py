"""The TensorFlow backend's side of ``numeric_builtins`` and ``numpy_calls``: builtins,
``math`` and NumPy functions on graph tensors (writes into tensors: ``items``).

``min``/``max``/``abs``/``round``/``int``/``float``/``bool`` and ``math.<f>`` become
``tf.math`` ops; a NumPy function called with a graph tensor runs as the function of
the same name in ``tf.experimental.numpy`` (``np.sqrt`` -> ``tnp.sqrt``), with
TensorFlow's dtypes. A graph cannot raise a Python exception from an op, so a ``math``
function outside its domain gives what TensorFlow gives (NaN, inf).
"""

from __future__ import annotations

import numpy as np
import tensorflow as tf
import tensorflow.experimental.numpy as tnp

from ...staging import numeric as numeric_builtins
from ...staging.arg_writes import cannot_write, user_location, written_argument
from ...staging.errors import StagingError
from ...staging.numeric import name_of
from .weak import Weak, strong

_TWINS = {"fabs": tf.abs, "floor": tf.floor, "ceil": tf.math.ceil, "trunc": tnp.fix,
          "asin": tf.asin, "acos": tf.acos, "atan": tf.atan, "atan2": tf.atan2,
          "pow": tf.pow, "erf": tf.math.erf, "erfc": tf.math.erfc, "sqrt": tf.sqrt,
          "exp": tf.exp, "expm1": tf.math.expm1, "log": tf.math.log, "log1p": tf.math.log1p,
          "isnan": tf.math.is_nan, "isinf": tf.math.is_inf, "isfinite": tf.math.is_finite,
          "copysign": lambda a, b: tf.where(
              tf.logical_or(b < 0, tf.logical_and(tf.equal(b, 0), 1 / b < 0)),
              -tf.abs(a), tf.abs(a)),
          "modf": lambda x: (x - tnp.fix(x), tnp.fix(x))}


def _tensor(x):
    return x if isinstance(x, tf.Tensor) else tf.convert_to_tensor(x)


def _floating(x):
    """A tensor or ``Weak`` as a float tensor (a Python number as a Python float)."""
    if x.__class__ is Weak:
        return Weak.of(x, float).tensor if x.kind is not complex else x.tensor
    x = _tensor(x)
    return x if x.dtype.is_floating or x.dtype.is_complex else tf.cast(x, tf.float64)


def _scalar(x):
    if x.__class__ is Weak:
        return x
    x = _tensor(x)
    if x.shape.rank != 0:
        raise TypeError("only 0-dimensional tensors can be converted to Python scalars")
    return x


def _python_scalar(x, kind):
    """``x`` (a scalar tensor) as the Python ``kind`` number it stands for: a ``Weak``."""
    x = strong(x)
    if kind is bool:
        return Weak(x if x.dtype == tf.bool else tf.not_equal(x, tf.zeros([], x.dtype)), bool)
    if kind is int and x.dtype.is_floating:
        x = tnp.fix(x)
    return Weak.of(x, kind)


def numeric(name: str, args, kwargs):
    if name in ("min", "max"):
        items = numeric_builtins.python_min_max(name, args, kwargs)
        if items is None:
            return (tf.reduce_min if name == "min" else tf.reduce_max)(args[0])
        pair = tf.minimum if name == "min" else tf.maximum
        best = _tensor(items[0])
        for item in items[1:]:
            other = _tensor(item)
            dtype = best.dtype if best.dtype.size >= other.dtype.size else other.dtype
            best = pair(tf.cast(best, dtype), tf.cast(other, dtype))
        return best
    if name == "abs":
        return tf.abs(args[0])
    if name == "where":
        return tf.where(*args)
    if name == "logical_or":
        return tf.logical_or(*args)
    if name == "round":
        x, ndigits = args[0], (args[1:] or (kwargs.get("ndigits"),))[0]
        if ndigits is not None:
            return tnp.round(x, ndigits)
        if x.__class__ is Weak:
            return x if x.kind is int else _python_scalar(tf.round(x.tensor), int)
        x = _tensor(x)
        return x if x.dtype.is_integer else _python_scalar(tf.round(_scalar(x)), int)
    if name in ("int", "float", "bool"):
        return _python_scalar(_scalar(args[0]), {"int": int, "float": float, "bool": bool}[name])
    if name.startswith("math."):
        short = name[5:]
        fn = _TWINS.get(short) or getattr(tnp, short)
        values = [_floating(_scalar(a)) for a in args]
        result = fn(*values)
        kind = numeric_builtins.result_kind(short)
        if kind is tuple:  # math.modf: two floats
            return tuple(_python_scalar(r, float) for r in result)
        return _python_scalar(result, kind)
    if name in ("numpy.asarray", "numpy.array"):
        copies = name == "numpy.array" and kwargs.get("copy", True) is True
        if "copy" in kwargs:
            kwargs = _without_copy(args, kwargs)
        result = (tnp.array if "ndmin" in kwargs else tnp.asarray)(*args, **kwargs)
        return _copy(result) if copies else result
    raise TypeError(f"tensorflow: {name}() of a graph tensor is not supported")


_LIKE = frozenset({"zeros_like", "ones_like", "empty_like", "full_like"})


def _shape_only(args, kwargs) -> bool:
    """Only the first argument is a graph tensor, of a static shape: ``np.zeros_like(x)``
    reads only what the trace knows."""
    if not args or not isinstance(strong(args[0]), tf.Tensor) or \
            not strong(args[0]).shape.is_fully_defined():
        return False
    rest = list(args[1:]) + list(kwargs.values())
    return not any(isinstance(strong(leaf), tf.Tensor) for leaf in tf.nest.flatten(rest))


def numpy_call(fn, args, kwargs):
    """``fn(*args, **kwargs)``, a NumPy callable with a graph tensor among the arguments:
    ``tf.experimental.numpy``'s function of the same name."""
    short = getattr(fn, "__name__", "")
    owner = getattr(fn, "__self__", None)
    if short in _LIKE and owner is None and _shape_only(args, kwargs):
        # a NumPy array the user makes, as eagerly: mutable, with views that share it
        first = strong(args[0])
        prototype = np.broadcast_to(np.zeros((), first.dtype.as_numpy_dtype),
                                    first.shape.as_list())
        return fn(prototype, *args[1:], **kwargs)
    if kwargs.get("out") is not None:
        return _into(fn, args, kwargs)
    if isinstance(fn, np.ufunc) and len(args) > fn.nin:
        raise StagingError(
            f"{name_of(fn)} at {user_location()} is given its output array as a positional "
            f"argument, and under tf.function a graph tensor cannot be written into (TensorFlow "
            f"tensors are immutable). Pass it as out=name in a statement of its own (name = "
            f"the result then), or assign the result.")
    if isinstance(owner, np.ndarray):
        twin = getattr(tnp.asarray(owner), short, None)
    elif (getattr(fn, "__module__", "") or "numpy").startswith("numpy") or \
            isinstance(fn, np.ufunc):
        twin = _ALIASES.get(short) if fn is getattr(np, short, None) else None
        twin = twin or getattr(tnp, short, None)
    else:
        twin = None
    if twin is None:
        raise StagingError(
            f"{name_of(fn)} at {user_location()} is called with a graph tensor under "
            f"tf.function, and tf.experimental.numpy has no function of that name to run in "
            f"its place (NumPy cannot compute on a graph tensor). Compute it with TensorFlow "
            f"ops, or call it outside tf.function and pass the result in.")
    return twin(*args, **kwargs)


def _copy(x):
    """A copy of ``x``: a tensor of its own (``Snapshot``), which writes into either name
    never treat as sharing memory with the other (``items``)."""
    return tf.raw_ops.Snapshot(input=x) if isinstance(x, tf.Tensor) else x


def _invert(x):
    x = _tensor(strong(x))
    return tf.logical_not(x) if x.dtype == tf.bool else tf.bitwise.invert(x)


# NumPy functions tf.experimental.numpy has under another name, or lacks and TensorFlow
# computes as NumPy does.
_ALIASES = {"invert": _invert, "bitwise_invert": _invert, "bitwise_not": _invert,
            "acos": tnp.arccos, "asin": tnp.arcsin, "atan": tnp.arctan, "atan2": tnp.arctan2,
            "acosh": tnp.arccosh, "asinh": tnp.arcsinh, "atanh": tnp.arctanh, "pow": tnp.power,
            "concat": tnp.concatenate, "trunc": tnp.fix, "degrees": tnp.rad2deg,
            "radians": tnp.deg2rad, "permute_dims": tnp.transpose, "copy": lambda x: _copy(
                tnp.asarray(x))}


def _into(fn, args, kwargs):
    """``fn(*args, out=target)``: the result as a new tensor of ``target``'s dtype and
    shape, which the statement assigns to the name ``target`` had (the converter writes
    ``name = np.add(a, b, out=name)``); NumPy's casting rule ``same_kind``."""
    from ...staging import holders
    from ...staging.arrays import check_staged_write
    from . import items

    kwargs = dict(kwargs)
    target = kwargs.pop("out")
    if target.__class__ is tuple and len(target) == 1:
        target = target[0]
    written = written_argument(target)
    if written is not None:
        raise cannot_write("tf.function", written, "TensorFlow tensors are immutable")
    if not isinstance(target, (tf.Tensor, np.ndarray)) or not holders.rebinds(target):
        raise StagingError(
            f"{name_of(fn)}(..., out=...) at {user_location()}: under tf.function the result is "
            f"a new tensor (TensorFlow tensors are immutable), which only a statement of its "
            f"own, name = {name_of(fn)}(..., out=name) with a local name, gives the name. "
            f"Write it so, or assign the result.")
    if isinstance(target, tf.Tensor):
        items.refuse_shared_write(target)
    else:
        check_staged_write(target)
    result = _tensor(strong(numpy_call(fn, args, kwargs)))
    have, want = np.dtype(result.dtype.as_numpy_dtype), np.dtype(target.dtype.as_numpy_dtype) \
        if isinstance(target, tf.Tensor) else target.dtype
    if not np.can_cast(have, want, "same_kind"):
        raise TypeError(f"Cannot cast ufunc {getattr(fn, '__name__', fn)!r} output from "
                        f"{have!r} to {want!r} with casting rule 'same_kind'")
    return tf.cast(tf.broadcast_to(result, tuple(np.shape(target)) if isinstance(
        target, np.ndarray) else tf.shape(target)), want)


def _without_copy(args, kwargs) -> dict:
    """``np.array``/``np.asarray``'s ``copy=`` on a graph tensor: a tensor is immutable,
    so a copy and the tensor itself hold the same; ``copy=False`` where NumPy must copy
    (a new dtype) is NumPy's ValueError."""
    kwargs = dict(kwargs)
    copy = kwargs.pop("copy")
    dtype = kwargs.get("dtype", args[1] if len(args) > 1 else None)
    if copy is False and dtype is not None and args \
            and tf.as_dtype(np.dtype(dtype)) != _tensor(args[0]).dtype:
        raise ValueError("Unable to avoid copy while creating an array as requested.")
    return kwargs
