"""A Python number the graph computes (``Weak``): what a Python ``int``/``float``/``bool``
carried through a staged construct becomes under ``tf.function``.

TensorFlow has no weak types: a Python number that enters a ``tf.cond`` or
``tf.while_loop`` becomes an int32 or float32 tensor, and ``x * i`` for a float tensor
``x`` is then a dtype error, where eagerly ``i`` is a Python int that takes ``x``'s
dtype. A ``Weak`` is a scalar tensor that remembers it stands for a Python number:

- meeting a tensor (or a NumPy value) it takes that tensor's dtype, as TensorFlow
  converts a Python number (an int into any number dtype, a float into a float or
  complex one; otherwise TensorFlow's own dtype error);
- meeting another Python number, or a ``Weak``, it computes what Python computes
  (``True + 1`` is an int, ``3 / 2`` a float) and stays a ``Weak``;
- handed to a TensorFlow op, or returned from the ``tf.function``, it is its tensor
  (a registered conversion function): an int64, float64, bool or complex128 scalar.

A ``Weak`` subclasses TensorFlow's abstract tensor type so that TensorFlow packs it in
lists (``tf.zeros([n, 2])``) as it packs tensors; it is not a ``tf.Tensor``.
"""

from __future__ import annotations

import operator

import numpy as np
import tensorflow as tf
from tensorflow.python.types import core

# The dtype a Python number of each kind is held in, and the order of the kinds.
DTYPES = {bool: tf.bool, int: tf.int64, float: tf.float64, complex: tf.complex128}
_RANK = {bool: 0, int: 1, float: 2, complex: 3}
_KIND_OF = {"b": bool, "i": int, "u": int, "f": float, "c": complex}


def kind_of(dtype) -> type:
    """The Python number type a tensor of ``dtype`` stands for."""
    return _KIND_OF[np.dtype(tf.as_dtype(dtype).as_numpy_dtype).kind]


def takes(kind: type, dtype) -> bool:
    """A Python number of ``kind`` converts to ``dtype`` as TensorFlow converts one
    into an op with a tensor of that dtype (its value kept: no float into an int)."""
    dtype = tf.as_dtype(dtype)
    if kind is bool or kind is int:
        return dtype.is_integer or dtype.is_floating or dtype.is_complex or (
            kind is bool and dtype == tf.bool)
    if kind is float:
        return dtype.is_floating or dtype.is_complex
    return dtype.is_complex


class Weak(core.Tensor):
    """A scalar tensor standing for a Python number of ``kind`` (see the module)."""

    __slots__ = ("tensor", "kind")

    def __init__(self, tensor, kind: type) -> None:
        self.tensor, self.kind = tensor, kind

    @classmethod
    def of(cls, value, kind: type = None) -> "Weak":
        """``value`` (a scalar tensor or Python number) as a ``Weak`` of ``kind`` (by
        default its own), held in that kind's dtype."""
        if value.__class__ is Weak:
            value = value.tensor
        if kind is None:
            kind = value.__class__ if value.__class__ in DTYPES else kind_of(value.dtype)
        dtype = DTYPES[kind]
        if isinstance(value, tf.Tensor):
            return cls(value if value.dtype == dtype else tf.cast(value, dtype), kind)
        return cls(tf.constant(kind(value), dtype), kind)

    dtype = property(lambda self: self.tensor.dtype)
    shape = property(lambda self: self.tensor.shape)
    ndim = 0

    def get_shape(self):
        return self.tensor.shape

    def as_dtype(self, dtype):
        """The tensor ``dtype`` a tensor of that dtype meets (TensorFlow's refusal, an
        unconverted tensor, where the number does not convert)."""
        return tf.cast(self.tensor, dtype) if takes(self.kind, dtype) else self.tensor

    def __repr__(self) -> str:
        return f"<Python {self.kind.__name__} at run time: {self.tensor!r}>"

    __str__ = __repr__

    def __hash__(self) -> int:
        return id(self)

    def __bool__(self):
        return bool(self.tensor)  # TensorFlow's refusal of a graph tensor as a bool

    def __index__(self):
        return self.tensor.__index__()

    def __neg__(self):
        return _python(operator.neg, self)

    def __pos__(self):
        return _python(operator.pos, self)

    def __abs__(self):
        return _python(abs, self)

    def __invert__(self):
        return _python(operator.invert, self)


def _as_python(x):
    """``x`` as a ``Weak`` if it is a Python number or one, else None."""
    if x.__class__ is Weak:
        return x
    if x.__class__ in DTYPES:
        return Weak.of(x)
    return None


_TF_OPS = {
    operator.add: tf.add, operator.sub: tf.subtract, operator.mul: tf.multiply,
    operator.truediv: tf.divide, operator.floordiv: tf.math.floordiv,
    operator.mod: tf.math.floormod, operator.pow: tf.pow, operator.neg: tf.negative,
    operator.pos: lambda x: x, abs: tf.abs, operator.invert: tf.bitwise.invert,
    operator.and_: tf.bitwise.bitwise_and, operator.or_: tf.bitwise.bitwise_or,
    operator.xor: tf.bitwise.bitwise_xor, operator.lshift: tf.bitwise.left_shift,
    operator.rshift: tf.bitwise.right_shift,
    operator.lt: tf.less, operator.le: tf.less_equal, operator.gt: tf.greater,
    operator.ge: tf.greater_equal, operator.eq: tf.equal, operator.ne: tf.not_equal,
}
_COMPARISONS = {operator.lt, operator.le, operator.gt, operator.ge, operator.eq, operator.ne}
_LOGICAL = {operator.and_: tf.logical_and, operator.or_: tf.logical_or,
            operator.xor: tf.math.logical_xor}


def _python(op, *args):
    """``op`` on Python numbers (``Weak``s), with Python's result kind."""
    kind = max((a.kind for a in args), key=_RANK.get)
    if op in _COMPARISONS:
        out = bool
    elif kind is bool and op in _LOGICAL:
        return Weak(_LOGICAL[op](*(a.tensor for a in args)), bool)
    elif op is operator.truediv and kind is not complex:
        kind = out = float
    else:
        kind = out = int if kind is bool else kind
    if op is abs and kind is complex:
        out = float
    result = _TF_OPS[op](*(tf.cast(a.tensor, DTYPES[kind]) for a in args))
    return Weak.of(result, out)


def _met(number: Weak, tensor):
    """``number`` and ``tensor`` in the dtype an operator computes them in: the tensor's,
    where the number converts to it as TensorFlow converts a Python number; else NumPy's
    (a Python float meeting an integer tensor: float64, as NumPy computes ``r / scale``
    for an int64 ``r``; TensorFlow refuses it)."""
    if takes(number.kind, tensor.dtype) or tensor.dtype not in _NUMBERS:
        return number.as_dtype(tensor.dtype), tensor
    dtype = tf.as_dtype(np.result_type(tensor.dtype.as_numpy_dtype, number.kind(0)))
    return tf.cast(number.tensor, dtype), tf.cast(tensor, dtype)


_NUMBERS = frozenset({tf.bool, tf.int8, tf.int16, tf.int32, tf.int64, tf.uint8, tf.uint16,
                      tf.uint32, tf.uint64, tf.float16, tf.float32, tf.float64, tf.complex64,
                      tf.complex128})


def _binary(op):
    def forward(self, other):
        python = _as_python(other)
        if python is not None:
            return _python(op, self, python)
        if isinstance(other, (np.ndarray, np.generic)):
            other = tf.constant(other)
        if not isinstance(other, tf.Tensor):
            return NotImplemented
        return op(*_met(self, other))

    def reflected(self, other):
        python = _as_python(other)
        if python is not None:
            return _python(op, python, self)
        if isinstance(other, (np.ndarray, np.generic)):
            other = tf.constant(other)
        if not isinstance(other, tf.Tensor):
            return NotImplemented
        number, tensor = _met(self, other)
        return op(tensor, number)

    return forward, reflected


for _name in ("add", "sub", "mul", "truediv", "floordiv", "mod", "pow", "and", "or", "xor",
              "lshift", "rshift"):
    _op = getattr(operator, _name + "_" if _name in ("and", "or") else _name)
    _forward, _reflected = _binary(_op)
    setattr(Weak, f"__{_name}__", _forward)
    setattr(Weak, f"__r{_name}__", _reflected)
for _name, _swapped in (("lt", "gt"), ("le", "ge"), ("gt", "lt"), ("ge", "le"), ("eq", "eq"),
                        ("ne", "ne")):
    setattr(Weak, f"__{_name}__", _binary(getattr(operator, _name))[0])


def _convert(value, dtype=None, name=None, as_ref=False):
    """The tensor of a ``Weak``; asked for a dtype the number does not convert to, the
    TypeError TensorFlow gives for a Python number (an operator of a tensor then asks
    the ``Weak``'s reflected operator, which computes in NumPy's dtype)."""
    if dtype is None:
        return value.tensor
    if not takes(value.kind, dtype):
        raise TypeError(f"Expected {tf.as_dtype(dtype).name}, but got a Python "
                        f"{value.kind.__name__} the graph computes")
    return value.as_dtype(dtype)


tf.register_tensor_conversion_function(Weak, _convert)


def strong(x):
    """``x``'s tensor if it is a ``Weak``, else ``x``: what a TensorFlow op is given."""
    return x.tensor if x.__class__ is Weak else x


def rewrap(outs, avals) -> list:
    """The outputs of an op, those of a weak ``Aval`` made ``Weak`` again."""
    return [Weak.of(o) if a.weak else o for o, a in zip(outs, avals)]
