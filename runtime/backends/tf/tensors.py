"""What the TensorFlow backend's modules share about tensors: whether TensorFlow is
building a graph, the ``Aval`` of a leaf (a Python number, or a ``Weak`` standing for
one, marked weak), dtypes and specs, a staged condition as a scalar bool, loop shape
invariants."""

from __future__ import annotations

import numpy as np
import tensorflow as tf
from tensorflow.python.eager import context as _context
from tensorflow.python.framework import ops as _ops

from ...staging import state as staging
from ...staging.state import Aval
from .weak import DTYPES, Weak

executing_eagerly = _context.executing_eagerly
SymbolicTensor = _ops.SymbolicTensor


def is_tracing() -> bool:
    """True while TensorFlow builds a graph (a ``tf.function`` trace, Keras steps)."""
    return not executing_eagerly()


def is_graph_tensor(x) -> bool:
    return x.__class__ is SymbolicTensor or isinstance(x, SymbolicTensor)


# A Python number carried by a graph: a ``Weak`` of its kind's dtype.
_WEAK = {kind: np.dtype(dtype.as_numpy_dtype) for kind, dtype in DTYPES.items()}


def aval_of(x):
    """The ``Aval`` of a tensor, NumPy value or Python number (weak), else None."""
    if x.__class__ is Weak:
        return Aval(np.dtype(x.dtype.as_numpy_dtype), (), True)
    if isinstance(x, tf.Tensor):
        dtype = x.dtype
        if dtype in (tf.resource, tf.variant) or x.shape.rank is None:
            return None
        return Aval(np.dtype(dtype.as_numpy_dtype), tuple(x.shape.as_list()), False)
    if isinstance(x, (np.ndarray, np.generic)):
        return Aval(x.dtype, x.shape, False)
    if staging.is_number(x):
        if x.__class__ is int and not -2 ** 63 <= x < 2 ** 63:
            return None  # no graph dtype holds it: it stays a Python int
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
