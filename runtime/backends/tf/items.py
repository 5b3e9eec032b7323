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
                    "ReverseV2", "Real", "Imag", "MatrixDiagPartV3", "BroadcastTo"})


def _viewed(x):
    """The tensor whose memory ``x`` would share in NumPy: ``x`` unless a view op made it."""
    while getattr(x, "shape", None) is not None and x.shape.rank != 0:
        op = getattr(x, "op", None)
        if op is None or op.type not in _VIEWS or not op.inputs:
            break
        x = op.inputs[0]
    return x


def refuse_shared_write(target) -> None:
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


def getitem(target, index):
    """``target[index]`` for a graph-tensor ``index`` (a NumPy array made while tracing
    is a constant of the graph): what ``select`` gives (a ``tf.RaggedTensor``: its own
    indexing)."""
    if isinstance(target, tf.RaggedTensor):
        return target[strong(index)]
    return select(_tensor(strong(target)), _index(index))


def select(x, index):
    """``x[index]`` with NumPy's meaning: TensorFlow's own indexing (integers, slices,
    ``None``, ``...``, scalar tensors, one boolean mask: ``tf.boolean_mask``, whose
    count is known at run time), and an array of integers as the only index
    (``tf.gather``, negative positions counted from the end)."""
    if _integers(index):
        n = tf.shape(x, out_type=index.dtype)[0]
        return tf.gather(x, tf.where(index < 0, index + n, index))
    if index.__class__ is tuple and any(_integers(i) for i in index):
        raise StagingError(
            f"indexing at {user_location()}: an array of integers next to other indexes "
            f"(NumPy's advanced indexing) has no TensorFlow counterpart under tf.function. "
            f"Index one axis at a time (tf.gather(x, i, axis=k)).")
    return x[index]


def _integers(index) -> bool:
    return isinstance(index, tf.Tensor) and index.dtype.is_integer and index.shape.rank != 0


def _index(index):
    """``index`` with its Python numbers' tensors (``Weak``) and lists of integers as
    tensors."""
    if index.__class__ is tuple:
        return tuple(_index(i) for i in index)
    if index.__class__ is list or isinstance(index, np.ndarray) and index.dtype.kind in "iu":
        return tf.constant(np.asarray(index))
    return strong(index)


def setitem(target, index, value):
    """``target[index] = value`` as a new tensor of ``target``'s dtype and shape: the
    positions ``index`` selects (``select`` of the positions of ``target``) scattered
    with ``value``, broadcast to them as NumPy does (``tf.tensor_scatter_nd_update``);
    a boolean mask of ``target``'s shape with one value is a ``tf.where``. A Python
    container is updated in place, as Python does."""
    if not isinstance(target, (tf.Tensor, np.ndarray)):
        target[index] = value
        return target
    written = written_argument(target)
    if written is not None:
        raise cannot_write("tf.function", written, "TensorFlow tensors are immutable")
    if isinstance(target, tf.Tensor):
        refuse_shared_write(target)
    target, index = _tensor(target), _index(index)
    value = tf.cast(_tensor(strong(value)), target.dtype)
    if isinstance(index, tf.Tensor) and index.dtype == tf.bool and \
            index.shape == target.shape and value.shape.rank == 0:
        return tf.where(index, value, target)
    shape = tf.shape(target)
    places = select(tf.reshape(tf.range(tf.size(target)), shape), index)
    whole_mask = isinstance(index, tf.Tensor) and index.dtype == tf.bool and \
        index.shape.rank == target.shape.rank
    updates, fits = _updates(value, places)
    checks = [] if fits is None else [
        tf.debugging.Assert(fits, [_mismatch(value, places, whole_mask)])]
    flat, positions, updates = tf.reshape(target, [-1]), tf.reshape(places, [-1, 1]), \
        tf.reshape(updates, [-1])
    with tf.control_dependencies(checks):
        flat = tf.tensor_scatter_nd_update(flat, positions, updates)
    return tf.reshape(flat, target.shape if target.shape.is_fully_defined() else shape)


def _updates(value, places):
    """``value`` broadcast to the selected ``places`` (NumPy's ValueError while tracing
    where both shapes are known), and where the count of ``places`` is known only at run
    time and ``value`` has its own, whether the two fit (a bool tensor; else None). A
    value that does not fit is never scattered (its rows are read clipped to the count):
    grappler takes the scatter's own shape rule as given, and would fold away a check
    that reads the shapes it relates."""
    have, want = value.shape, places.shape
    if have.is_fully_defined() and want.is_fully_defined():
        try:
            np.broadcast_shapes(tuple(have), tuple(want))
        except ValueError:
            raise ValueError(f"could not broadcast input array from shape {tuple(have)} into "
                             f"shape {tuple(want)}") from None
        return tf.broadcast_to(value, want), None
    if have.rank is None or want.rank is None or have.rank != want.rank or have[0] == 1:
        return tf.broadcast_to(value, tf.shape(places)), None  # TensorFlow's own error
    n, k = tf.shape(places)[0], tf.shape(value)[0]
    rows = tf.gather(value, tf.minimum(tf.range(n), k - 1))
    fits = tf.logical_or(tf.equal(k, n), tf.equal(k, 1))
    return tf.broadcast_to(rows, tf.shape(places)), fits


def _mismatch(value, places, whole_mask: bool):
    """NumPy's ValueError text for a value that does not fit the selected places."""
    got, need = tf.shape(value), tf.shape(places)
    if whole_mask and value.shape.rank == 1:  # NumPy's own words for a whole-array mask
        text = tf.strings.format("NumPy boolean array indexing assignment cannot assign {} "
                                 "input values to the {} output values where the mask is "
                                 "true", (got[0], need[0]))
    else:
        text = tf.strings.join(["shape mismatch: value array of shape ", _shape_text(got),
                                " could not be broadcast to indexing result of shape ",
                                _shape_text(need)])
    return tf.strings.join(["ValueError: ", text])


def _shape_text(shape):
    """A run-time shape as NumPy shows a tuple: ``(3,)``, ``(3, 2)``."""
    dims = tf.strings.reduce_join(tf.strings.as_string(shape), separator=", ")
    return tf.strings.join(["(", dims, ",)" if shape.shape[0] == 1 else ")"])
