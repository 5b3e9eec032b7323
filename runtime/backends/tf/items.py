"""Writes into tensors under ``tf.function``: ``target[index] = value`` as a new tensor,
and the check that no other name read later shares what a write or an in-place
operator changes eagerly (TensorFlow tensors are immutable: only the written name
gets the new tensor)."""

from __future__ import annotations

import numpy as np
import tensorflow as tf

from ...staging.arg_writes import cannot_write, user_location, written_argument
from ...staging.errors import StagingError
from .weak import strong


def _tensor(x):
    return x if isinstance(x, tf.Tensor) else tf.convert_to_tensor(x)


# Ops whose result NumPy's basic indexing and view methods would make a view of their
# first input (``d[1:]``, ``d.T``, ``d.reshape``): writes through either reach the other.
_VIEWS = frozenset({"StridedSlice", "Reshape", "Squeeze", "Transpose", "ExpandDims", "Identity",
                    "ReverseV2"})


def _viewed(x):
    """The tensor whose memory ``x`` would share in NumPy: ``x`` unless a view op made it."""
    while getattr(x, "shape", None) is not None and x.shape.rank != 0:
        op = getattr(x, "op", None)
        if op is None or op.type not in _VIEWS or not op.inputs:
            break
        x = op.inputs[0]
    return x


def _refuse_shared_write(target) -> None:
    """A write gives only the written name a new tensor: a ``StagingError`` if another
    name read later holds ``target`` or a tensor sharing its memory in NumPy."""
    from ...staging import holders

    base = _viewed(target)
    holders.refuse_shared_write(
        lambda v: v is target or (isinstance(v, tf.Tensor) and v.shape.rank != 0
                                  and _viewed(v) is base),
        "tf.function", "tensor (TensorFlow tensors are immutable)")


def check_in_place(target) -> None:
    """``target op= value`` gives the name a new tensor (TensorFlow tensors are
    immutable): a ``StagingError`` if another name that is read later shares the
    array in NumPy (a view's base, a view)."""
    from ...staging import holders

    if not isinstance(target, tf.Tensor):
        return
    base = _viewed(target)
    holders.refuse_shared_in_place(
        lambda v: v is not target and isinstance(v, tf.Tensor) and v.shape.rank != 0
        and _viewed(v) is base, "tf.function",
        "the operator gives it a new tensor (TensorFlow tensors are immutable)")


def setitem(target, index, value):
    """``target[index] = value`` as a new tensor (``tf.tensor_scatter_nd_update`` on
    the first axis); a Python container is updated in place, as Python does."""
    if not isinstance(target, (tf.Tensor, np.ndarray)):
        target[index] = value
        return target
    written = written_argument(target)
    if written is not None:
        raise cannot_write("tf.function", written, "TensorFlow tensors are immutable")
    if isinstance(target, tf.Tensor):
        _refuse_shared_write(target)
    target, index, value = _tensor(target), strong(index), strong(value)
    if isinstance(index, (int, np.integer)) or (
            isinstance(index, tf.Tensor) and index.dtype.is_integer and index.shape.rank == 0):
        n = target.shape[0] if target.shape[0] is not None else tf.shape(target)[0]
        position = tf.cast(index, tf.int32)
        position = tf.where(position < 0, position + n, position)
        update = tf.cast(tf.broadcast_to(value, tf.shape(target)[1:]), target.dtype)
        return tf.tensor_scatter_nd_update(target, tf.reshape(position, [1, 1]), update[None])
    if isinstance(index, tf.Tensor) and index.dtype == tf.bool and index.shape == target.shape:
        return tf.where(index, tf.cast(value, target.dtype), target)
    raise StagingError(
        f"item assignment at {user_location()}: a graph tensor is immutable and this index "
        f"is not an integer or a boolean mask of the tensor's shape. Build the new tensor "
        f"with tf.tensor_scatter_nd_update (or tf.where) and assign it.")
