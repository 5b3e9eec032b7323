"""``np.<f>`` called with a graph tensor under ``tf.function``: the function of the
same name in ``tf.experimental.numpy`` (``np.sqrt`` -> ``tnp.sqrt``), with TensorFlow's
dtypes; ``out=`` as a new tensor the statement assigns (``name = np.add(a, b, out=name)``).
"""

from __future__ import annotations

import numpy as np
import tensorflow as tf
import tensorflow.experimental.numpy as tnp

from ...staging.arg_writes import cannot_write, user_location, written_argument
from ...staging.errors import StagingError
from ...staging.numeric import name_of
from .numeric import _copy, _tensor
from .weak import strong


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
