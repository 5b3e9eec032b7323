"""NumPy's ndarray methods and attributes on graph tensors, read by converted code.

Under ``tf.function`` a NumPy array that a staged construct writes (``d[0] = x[0]``
under a tensor ``if``), and what a NumPy call on a graph tensor returns
(``np.clip(x, 0, 1)``), are graph tensors. NumPy code then goes on as NumPy code:
``d.sum()``, ``e = d[1:].copy()``, ``y.astype(np.float32)``, ``np.fft.fft(c).real``,
``w @ v`` of vectors. A ``tf.Tensor`` has TensorFlow's methods, not ndarray's, and
TensorFlow's ``MatMul`` takes matrices only.

So a graph tensor answers an attribute it lacks, when converted code asks (a frame of
code conversion made: ``staging.converted``), with ndarray's: a method is the NumPy
function of its name with the tensor first (``d.sum(axis=0)`` is ``np.sum(d,
axis=0)``), run as ``numpy_twins`` runs NumPy calls on graph tensors (the function of
``tf.experimental.numpy``); ``.real``, ``.imag``, ``.T``, ``.size``, ``.itemsize``,
``.nbytes`` are computed so. ``@`` with a vector operand is ``np.matmul``'s. An
operator TensorFlow refuses for two dtypes (``counts + 1.7`` of int32 ``counts``),
or computes in a dtype of another kind than NumPy's (``mask * 1`` of a bool ``mask``:
TensorFlow's ``*`` with a bool operand is a bool; a float NumPy array met by an int
tensor: TensorFlow truncates the array into the tensor's dtype), computes in NumPy's
result dtype; where TensorFlow computes in NumPy's kind, its result stands (a float32
tensor times a NumPy float64 array is float32, as eagerly in TensorFlow). A
method that writes in place (``.sort()``, ``.fill()``) or needs the values
(``.item()``, ``.tolist()``), and NumPy asking for the values (``W[i]`` of a NumPy
``W``: ``__array__``), are a ``StagingError`` naming the line. Code autograph does not
convert (TensorFlow's, Keras's) sees TensorFlow's tensors unchanged: each of these
looks at its caller's frame only where TensorFlow would refuse.
"""

from __future__ import annotations

from sys import _getframe  # the runtime's own: a user may take it off sys

import numpy as np
import tensorflow as tf
import tensorflow.experimental.numpy as tnp

from ...staging import converted
from ...staging.arg_writes import user_location
from ...staging.errors import StagingError
from .numpy_twins import ARRAY_FIRST, numpy_call
from .tensors import SymbolicTensor
from .weak import Weak

_Tensor = tf.Tensor

# Methods that write into the array, and what a graph tensor's user writes instead.
_IN_PLACE = {"sort": "x = np.sort(x)", "fill": "x = np.full_like(x, value)",
             "partition": "x = np.partition(x, k)", "put": "x[indices] = values",
             "itemset": "x[index] = value", "resize": "x = np.resize(x, shape)",
             "setflags": "nothing (a tensor has no flags)"}
# Methods that need the array's values, which a graph has only when it runs.
_VALUES = frozenset({"item", "tolist", "tobytes", "tofile", "dump", "dumps", "view",
                     "getfield", "byteswap", "flat", "ctypes", "base", "flags",
                     "strides", "data"})


def _numpy_method(tensor, name: str):
    fn = getattr(np, name)

    def method(*args, **kwargs):
        return numpy_call(fn, (tensor,) + args, kwargs)

    method.__name__ = name
    return method


def _shape_argument(args):
    """``x.reshape(2, 3)`` and ``x.reshape((2, 3))``: the shape; likewise ``transpose``."""
    if len(args) == 1 and (args[0] is None or isinstance(args[0], (tuple, list, tf.Tensor))):
        return args[0]
    return args


def _reshape(tensor):
    def reshape(*shape, order="C"):
        return tnp.reshape(tensor, _shape_argument(shape), order=order)
    return reshape


def _transpose(tensor):
    def transpose(*axes):
        return tnp.transpose(tensor, _shape_argument(axes) or None)
    return transpose


def _flatten(tensor):
    def flatten(order="C"):
        return tnp.ravel(tensor) if order in ("C", "A", "K") else tnp.ravel(tnp.transpose(tensor))
    return flatten


def _astype(tensor):
    def astype(dtype, order="K", casting="unsafe", subok=True, copy=True):
        want = np.dtype(dtype)
        have = np.dtype(tensor.dtype.as_numpy_dtype)
        if not np.can_cast(have, want, casting):
            raise TypeError(f"Cannot cast array data from {have!r} to {want!r} according to "
                            f"the rule {casting!r}")
        if want == np.bool_ and tensor.dtype != tf.bool:
            return tf.not_equal(tensor, tf.zeros([], tensor.dtype))
        return tf.cast(tensor, tf.as_dtype(want))
    return astype


def _size(tensor):
    shape = tensor.shape
    return int(np.prod(shape.as_list())) if shape.is_fully_defined() else tf.size(tensor)


def _compress(tensor):
    def compress(condition, axis=None):
        return numpy_call(np.compress, (condition, tensor), {"axis": axis})
    return compress


_BUILT = {  # name -> what the attribute is, given the tensor
    "reshape": _reshape, "transpose": _transpose, "flatten": _flatten, "astype": _astype,
    "compress": _compress,
    "T": lambda t: tnp.transpose(t), "mT": lambda t: tnp.swapaxes(t, -1, -2),
    "real": lambda t: tnp.real(t), "imag": lambda t: tnp.imag(t), "size": _size,
    "itemsize": lambda t: t.dtype.size,
    "nbytes": lambda t: _size(t) * t.dtype.size if t.shape.is_fully_defined() else
    tf.size(t) * t.dtype.size,
}


def _refused(tensor, name: str) -> StagingError:
    if name in _IN_PLACE:
        why = (f"ndarray.{name} writes into the array, and under tf.function it is a graph "
               f"tensor (TensorFlow tensors are immutable). Write {_IN_PLACE[name]} instead.")
    else:
        why = (f"ndarray.{name} needs the array's values, and under tf.function it is a graph "
               f"tensor, whose values exist only when the graph runs. Compute with the tensor "
               f"(NumPy functions and operators run on it), or return it and read the value "
               f"after the call.")
    return StagingError(f".{name} of a graph tensor at {user_location()}: {why}")


_OPERATORS = __name__.rpartition(".backends.")[0] + ".operators."


def _from_converted_code() -> bool:
    """Whether the caller of the function calling this is converted code, or an operator
    converted code called (``ag__.augassign`` runs ``d *= x``)."""
    frame = _getframe(2)
    if frame.f_code in converted.codes:
        return True
    if frame.f_globals.get("__name__", "").startswith(_OPERATORS):
        return frame.f_back is not None and frame.f_back.f_code in converted.codes
    return False


_tf_getattr = _Tensor.__getattr__


def ndarray_method(tensor, name: str):
    """``tensor.<name>`` as ndarray's attribute (a method bound to ``tensor``, or the
    attribute's value), or None where ndarray has no such method or attribute we run."""
    if name in _BUILT:
        return _BUILT[name](tensor)
    if name in ARRAY_FIRST:
        return _numpy_method(tensor, name)
    if name in _IN_PLACE or name in _VALUES:
        raise _refused(tensor, name)
    return None


def _getattr(self, name):
    """A graph tensor's attribute it lacks: ndarray's, when converted code asks."""
    if (name in ARRAY_FIRST or name in _BUILT or name in _IN_PLACE or name in _VALUES) \
            and _from_converted_code():
        return ndarray_method(self, name)
    return _tf_getattr(self, name)


def _vector(x) -> bool:
    rank = getattr(getattr(x, "shape", None), "rank", None)
    if rank is None and isinstance(x, np.ndarray):
        rank = x.ndim
    return rank is not None and rank < 2


_tf_matmul, _tf_rmatmul = _Tensor.__matmul__, _Tensor.__rmatmul__


def _matmul(self, other):
    """``a @ b``: NumPy's ``matmul`` where an operand is a vector and converted code
    asks (TensorFlow's ``MatMul`` refuses vectors); else TensorFlow's."""
    if (_vector(self) or _vector(other)) and _from_converted_code():
        return tnp.matmul(self, other)
    return _tf_matmul(self, other)


def _rmatmul(self, other):
    if (_vector(self) or _vector(other)) and _from_converted_code():
        return tnp.matmul(other, self)
    return _tf_rmatmul(self, other)


_SWAPPED = {"__lt__": "__gt__", "__le__": "__ge__", "__gt__": "__lt__", "__ge__": "__le__",
            "__eq__": "__eq__", "__ne__": "__ne__"}


def _numpy_promoting(name: str):
    """The operator ``name`` of a graph tensor, which computes in NumPy's dtype where
    converted code asks and TensorFlow refuses operands of two dtypes (``1.0 * n`` for
    an int64 ``n``, ``counts + 1.7`` for int32 ``counts``, ``r / denom`` for an int64
    ``r`` and a float64 ``denom`` are float64, as NumPy computes them; a Python number
    becomes a ``Weak``, whose operators promote as NumPy does) or would compute in
    another kind of dtype (``_other_kind``). Where TensorFlow computes in NumPy's kind
    (a float32 tensor and a NumPy float64 array: float32), its result stands."""
    tf_op = getattr(_Tensor, name)
    swapped = _SWAPPED.get(name) or (
        name.replace("__r", "__", 1) if name.startswith("__r") else "__r" + name[2:])
    multiplies = name in ("__mul__", "__rmul__")

    def op(self, other):
        if _other_kind(self, other, multiplies) and _from_converted_code():
            out = _promoted(tf_op, swapped, self, other)
            if out is not NotImplemented:
                return out
        try:
            return tf_op(self, other)
        except (TypeError, ValueError):
            if not _from_converted_code():
                raise
            out = _promoted(tf_op, swapped, self, other)
            if out is NotImplemented:
                raise
            return out

    op.__name__ = name
    return op


_PYTHON_NUMBERS = (int, float, complex, bool)
_KINDS = {dtype: np.dtype(dtype.as_numpy_dtype).kind for dtype in (
    tf.bool, tf.int8, tf.int16, tf.int32, tf.int64, tf.uint8, tf.uint16, tf.uint32, tf.uint64,
    tf.float16, tf.float32, tf.float64, tf.complex64, tf.complex128)}
_NUMBERS = frozenset(_KINDS)


def _other_kind(tensor, other, multiplies: bool) -> bool:
    """Whether TensorFlow computes ``tensor <op> other`` in a dtype of another kind
    (bool, integer, float, complex) than NumPy: its ``*`` with a bool operand is a bool
    (a logical and of the operands' truth), and a NumPy value it converts into the
    tensor's dtype, truncating a float array met by an int tensor. (Two tensors of two
    dtypes, or a Python number it cannot convert, TensorFlow refuses.)"""
    mine = tensor.dtype
    if other.__class__ in _PYTHON_NUMBERS or other.__class__ is Weak:
        return multiplies and mine == tf.bool and (other.__class__ is not bool and (
            other.__class__ is not Weak or other.kind is not bool))
    if isinstance(other, _Tensor):
        if other.dtype == mine:
            return False
        theirs = other.dtype.as_numpy_dtype
    elif isinstance(other, (np.ndarray, np.generic)):
        theirs = other.dtype
    else:
        return False
    if mine not in _NUMBERS or np.dtype(theirs).kind not in "biufc":
        return False
    if multiplies and (mine == tf.bool) != (theirs == np.bool_):
        return True
    return np.result_type(mine.as_numpy_dtype, theirs).kind != _KINDS[mine]


def _promoted(tf_op, swapped: str, tensor, other):
    """``tf_op(tensor, other)`` computed in NumPy's result dtype, or NotImplemented."""
    try:
        if other.__class__ in (int, float, complex, bool):
            out = getattr(Weak.of(other), swapped)(tensor)
            return out.tensor if out.__class__ is Weak else out
        if other.__class__ is Weak:
            return getattr(other, swapped)(tensor)
        if not isinstance(other, (tf.Tensor, np.ndarray, np.generic)):
            return NotImplemented
        theirs = other.dtype.as_numpy_dtype if isinstance(other, tf.Tensor) else other.dtype
        dtype = np.result_type(tensor.dtype.as_numpy_dtype, theirs)
        if dtype.kind not in "biufc":
            return NotImplemented
        dtype = tf.as_dtype(dtype)
        return tf_op(tf.cast(tensor, dtype), tf.cast(other, dtype))
    except (TypeError, ValueError):
        return NotImplemented


_tf_array = _Tensor.__array__


def _array(self, dtype=None, copy=None):
    """NumPy asks a graph tensor for its values: from converted code, a StagingError
    naming the user's line (``W[i]`` of a NumPy ``W``); else TensorFlow's refusal."""
    if _from_converted_code():
        from .messages import needs_values

        raise needs_values(user_location())
    return _tf_array(self, dtype)


_tf_iter = _Tensor.__iter__


def _iter(self):
    """Iterating over a graph tensor (``a, b, c = x``, ``list(x)``, a loop in a
    comprehension): where converted code asks, its items along the first axis, as an
    ndarray iterates, when that axis has a length the graph knows (TensorFlow refuses
    any graph tensor); a length known only when the graph runs is a StagingError
    naming the line. Else TensorFlow's refusal."""
    if not _from_converted_code():
        return _tf_iter(self)
    shape = self.shape
    if shape.rank == 0:
        raise TypeError("iteration over a 0-d array")
    if shape.rank is None or shape[0] is None:
        raise StagingError(
            f"a graph tensor is iterated over or unpacked at {user_location()}, and the "
            f"length of its first axis is known only when the graph runs (shape {shape}): "
            f"under tf.function its items must be known when it traces. Index it "
            f"(x[0], x[1]), loop over range(len(x)) in converted code, or give the "
            f"tf.function an input_signature with that length.")
    return iter(tf.unstack(self, num=shape[0]))


SymbolicTensor.__getattr__ = _getattr
SymbolicTensor.__iter__ = _iter
SymbolicTensor.__array__ = _array
SymbolicTensor.__matmul__ = _matmul
SymbolicTensor.__rmatmul__ = _rmatmul
for _name in ("add", "sub", "mul", "truediv", "floordiv", "mod", "pow"):
    for _side in (f"__{_name}__", f"__r{_name}__"):
        setattr(SymbolicTensor, _side, _numpy_promoting(_side))
for _side in _SWAPPED:
    setattr(SymbolicTensor, _side, _numpy_promoting(_side))
