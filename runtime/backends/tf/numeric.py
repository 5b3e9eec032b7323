"""The TensorFlow backend's side of ``numeric_builtins``: builtins, ``math`` functions
and ``np.asarray``/``np.array`` on graph tensors (NumPy's other functions:
``numpy_twins``; writes into tensors: ``items``).

``min``/``max``/``abs``/``round``/``int``/``float``/``bool`` and ``math.<f>`` become
``tf.math`` ops. A graph cannot raise a Python exception from an op, so a ``math``
function outside its domain gives what TensorFlow gives (NaN, inf).
"""

from __future__ import annotations

import numpy as np
import tensorflow as tf
import tensorflow.experimental.numpy as tnp

from ...staging import numeric as numeric_builtins
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
            return rounded(x, ndigits)
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


def _copy(x):
    """A copy of ``x``: a tensor of its own (``IdentityN``, which has a gradient), which
    writes into either name never treat as sharing memory with the other (``items``: an
    ``Identity`` is taken for a view)."""
    return tf.identity_n([x])[0] if isinstance(x, tf.Tensor) else x


def rounded(a, decimals=0):
    """``np.round``: half to even at ``decimals`` digits, in ``a``'s dtype (an integer
    array rounded to tens or more in integers). ``tnp.round`` needs NumPy behaviour
    switched on in TensorFlow (it calls ``.astype``)."""
    a = tnp.asarray(a)
    if a.dtype.is_complex:
        return tf.complex(rounded(tf.math.real(a), decimals), rounded(tf.math.imag(a), decimals))
    if not a.dtype.is_floating:
        if decimals >= 0 or a.dtype == tf.bool:
            return _copy(a)
        factor = tf.constant(10 ** -decimals, a.dtype)
        return tf.cast(tf.round(tf.cast(a, tf.float64) / tf.cast(factor, tf.float64)),
                       a.dtype) * factor
    if decimals == 0:
        return tf.round(a)
    factor = tf.constant(10.0 ** decimals, a.dtype)
    return tf.round(a * factor) / factor


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
