"""What the TensorFlow backend's modules share about tensors: whether TensorFlow is
building a graph, the ``Aval`` of a leaf (a Python number as TensorFlow converts it,
marked weak), dtypes and specs, a staged condition as a scalar bool, loop shape
invariants."""

from __future__ import annotations

import numpy as np
import tensorflow as tf
from tensorflow.python.eager import context as _context
from tensorflow.python.framework import ops as _ops

from ...staging import state as staging
from ...staging.state import Aval

executing_eagerly = _context.executing_eagerly
SymbolicTensor = _ops.SymbolicTensor


def is_tracing() -> bool:
    """True while TensorFlow builds a graph (a ``tf.function`` trace, Keras steps)."""
    return not executing_eagerly()


def is_graph_tensor(x) -> bool:
    return x.__class__ is SymbolicTensor or isinstance(x, SymbolicTensor)


# A Python number as TensorFlow converts it: int32 (int64 when it does not fit), float32.
_WEAK = {bool: np.dtype(np.bool_), float: np.dtype(np.float32), complex: np.dtype(np.complex128)}


def aval_of(x):
    """The ``Aval`` of a tensor, NumPy value or Python number, else None."""
    if isinstance(x, tf.Tensor):
        dtype = x.dtype
        if dtype in (tf.resource, tf.variant) or x.shape.rank is None:
            return None
        return Aval(np.dtype(dtype.as_numpy_dtype), tuple(x.shape.as_list()), False)
    if isinstance(x, (np.ndarray, np.generic)):
        return Aval(x.dtype, x.shape, False)
    if staging.is_number(x):
        if x.__class__ is int:
            fits = -2 ** 31 <= x < 2 ** 31
            return Aval(np.dtype(np.int32 if fits else np.int64), (), True)
        return Aval(_WEAK[x.__class__], (), True)
    return None


def as_tf_dtype(dtype: np.dtype):
    return tf.string if dtype.kind in "OSU" else tf.as_dtype(dtype)


def spec(aval: Aval) -> tf.TensorSpec:
    return tf.TensorSpec(aval.shape, as_tf_dtype(aval.dtype))


def predicate(cond):
    """A one-element staged condition as a scalar bool tensor (Python's truth rule)."""
    cond = tf.convert_to_tensor(cond)
    if cond.shape.rank != 0:
        cond = tf.reshape(cond, [])
    if cond.dtype == tf.bool:
        return cond
    if cond.dtype == tf.string:
        return tf.strings.length(cond) > 0
    return tf.not_equal(cond, tf.zeros([], cond.dtype))


def invariants(avals) -> list:
    return [tf.TensorShape(a.shape) for a in avals]
