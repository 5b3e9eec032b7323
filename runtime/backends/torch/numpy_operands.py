"""A NumPy array or scalar operated with a tensor PyTorch traces: what eager PyTorch gives.

Eagerly, ``t * a`` (``a`` a NumPy array) is computed by NumPy: ``Tensor.__mul__``
declines an array, NumPy's reflected operator reads the tensor's values
(``Tensor.__array__``) and ``Tensor.__array_wrap__`` makes the result a tensor, of
NumPy's dtype (``float32 * float64`` is float64, a 0-d array included). ``a * t`` and
``t > a`` are TypeErrors (NumPy defers to the tensor, which declines), and
``np.float64(2) * t`` is PyTorch's (NumPy defers, the tensor takes the NumPy scalar
as a Python number). A tensor PyTorch traces has no values to give NumPy.

So the tensor classes of a trace (fake and functional tensors; eager tensors are
left alone) answer NumPy's ufunc protocol (``__array_ufunc__``), once NumPy meets
them outside a call autograph routes (``numpy_calls``). What NumPy hands over there
comes from an operator of the user's line (converted code routes its NumPy calls):

- ``s op t`` with a NumPy scalar ``s``: PyTorch's operator with ``s`` as a Python
  number, as eagerly;
- ``a op= t`` (NumPy's in-place ufunc, ``out`` the array): eager's TypeError (``/=``:
  the tensor's reflected division, a new tensor the name gets); where ``t`` stands for a
  NumPy array the program wrote a traced value into (``tensors.NUMPY_ARRAY``) or for a
  Python number (``tensors.WEAK``: ``v += n``, ``n`` a loop's counter), NumPy's ufunc, a
  new tensor standing for the array that the name gets (``_into_array``);
- an operand that stands for a Python number (``tensors.WEAK``: a loop counter):
  NumPy's ufunc, of the dtype NumPy gives that number there;
- ``a op t`` with an array on the left: NumPy's ufunc. Eagerly the traced value is an
  array or a Python number there (for a tensor PyTorch declines: a TypeError); a 0-d
  tensor that would give another dtype as a Python number than as a NumPy scalar is
  refused (``_refuse_unknown_kind``: the trace cannot tell which it stands for);
- ``t op a`` and anything else (a ufunc called by code autograph does not convert):
  NumPy's ufunc. (A NumPy scalar first in such a call is taken as an operator's.)

NumPy's ufunc is PyTorch's NumPy (``torch._numpy``): NumPy's dtypes, the result a
tensor, as ``numpy_twins`` computes routed calls. A write into an output argument
(``out=``) is ``numpy_twins``' StagingError.
"""

from __future__ import annotations

import operator

import numpy as np
import torch

from ...staging.arg_writes import user_location
from ...staging.errors import StagingError
from ...staging.state import kind_of
from .tensors import NUMPY_ARRAY, TO_TORCH, is_weak, np_dtype

_PYTHON_OPS = {
    "add": operator.add, "subtract": operator.sub, "multiply": operator.mul,
    "divide": operator.truediv, "floor_divide": operator.floordiv, "remainder": operator.mod,
    "power": operator.pow, "matmul": operator.matmul, "bitwise_and": operator.and_,
    "bitwise_or": operator.or_, "bitwise_xor": operator.xor, "left_shift": operator.lshift,
    "right_shift": operator.rshift, "less": operator.lt, "less_equal": operator.le,
    "greater": operator.gt, "greater_equal": operator.ge, "equal": operator.eq,
    "not_equal": operator.ne}

_KIND_NUMBERS = {"b": False, "i": 0, "u": 0, "f": 0.0, "c": 0j}
_DECLINED = {  # eager PyTorch's TypeError for ``array op= tensor`` (Python's text)
    "add": "Concatenation operation is not implemented for NumPy arrays, use np.concatenate() "
           "instead. Please do not rely on this error; it may not be given on all Python "
           "implementations.",
    **{name: f"unsupported operand type(s) for {symbol}=: 'numpy.ndarray' and 'Tensor'"
       for name, symbol in (("subtract", "-"), ("multiply", "*"), ("power", "**"),
                            ("matmul", "@"), ("floor_divide", "//"), ("remainder", "%"))}}


def install() -> None:
    """Give the tensor classes of PyTorch's traces NumPy's ufunc protocol (once)."""
    from torch._subclasses.fake_tensor import FakeTensor
    from torch._subclasses.functional_tensor import FunctionalTensor

    for cls in (FakeTensor, FunctionalTensor):
        if "__array_ufunc__" not in cls.__dict__:
            cls.__array_ufunc__ = _array_ufunc


def _array_ufunc(self, ufunc, method, *inputs, **kwargs):
    out = kwargs.get("out")
    if method == "__call__" and len(inputs) == 2 and isinstance(inputs[0], np.ndarray) \
            and out is not None and len(out) == 1 and out[0] is inputs[0] and len(kwargs) == 1:
        # ``array op= t``: eagerly NumPy defers to the tensor, which declines (or divides:
        # a new tensor the name gets); a tensor standing for a NumPy array is one there
        if getattr(inputs[1], NUMPY_ARRAY, False) or is_weak(inputs[1]):
            return _into_array(ufunc, *inputs)
        if ufunc.__name__ != "divide":
            raise TypeError(_DECLINED.get(ufunc.__name__, "unsupported operand type(s) for "
                                          f"{ufunc.__name__}: 'numpy.ndarray' and 'Tensor'"))
        kwargs = {}
    if method == "__call__" and len(inputs) == 2 and not kwargs:
        left, right = inputs
        op = _PYTHON_OPS.get(ufunc.__name__)
        if isinstance(left, np.generic) and op is not None:
            return op(left.item(), right)  # PyTorch's operator, as eagerly
        numbers = [_python_number(x) for x in inputs]
        if any(n is not None for n in numbers):  # NumPy's dtype for a Python number there
            dtype = ufunc(*[_sample(x) if n is None else n for x, n in zip(inputs, numbers)]).dtype
            out = _call(ufunc, inputs, kwargs)
            return out.to(TO_TORCH[dtype]) if isinstance(out, torch.Tensor) else out
        if isinstance(left, np.ndarray) and right.dim() == 0:
            _refuse_unknown_kind(ufunc, left, right)
    fn = ufunc if method == "__call__" else getattr(ufunc, method)
    return _call(fn, inputs, kwargs)


def _into_array(ufunc, array, tensor):
    """``array op= t`` with ``t`` standing for a NumPy array (``tensors.NUMPY_ARRAY``) or a
    Python number (``tensors.WEAK``):
    NumPy's ufunc into ``array``'s dtype (its ``same_kind`` rule), as a tensor standing
    for the array that the name gets; a name read later that shares the array's memory
    is refused (``check_staged_write``: it would keep the old contents)."""
    from ...staging.arrays import check_staged_write

    check_staged_write(array)
    out = _call(ufunc, (array, tensor), {})
    given, wanted = np_dtype(out.dtype), array.dtype
    if not np.can_cast(given, wanted, "same_kind"):
        raise TypeError(f"Cannot cast ufunc {ufunc.__name__!r} output from {given!r} to "
                        f"{wanted!r} with casting rule 'same_kind'")
    out = torch.broadcast_to(out.to(TO_TORCH[wanted]), array.shape).clone()
    setattr(out, NUMPY_ARRAY, True)
    return out


def _call(fn, inputs, kwargs):
    from . import numpy_twins

    return numpy_twins.call(fn, inputs, kwargs)


def _python_number(x):
    """A Python number of the kind a tensor standing for one holds (``tensors.WEAK``)."""
    if not is_weak(x):
        return None
    return _KIND_NUMBERS[np_dtype(x.dtype).kind]


def _sample(x):
    """A one-element NumPy array of ``x``'s dtype and rank (to ask NumPy a dtype)."""
    if isinstance(x, torch.Tensor):
        return np.ones((1,) * x.dim(), np_dtype(x.dtype))
    return np.ones((1,) * np.ndim(x), np.asarray(x).dtype)


def _refuse_unknown_kind(ufunc, array, tensor) -> None:
    """``array op t`` with a 0-d ``t``: eagerly ``t`` is a Python number (a loop counter:
    NumPy keeps the array's dtype), a NumPy scalar (NumPy's promotion) or a tensor
    (PyTorch declines: a TypeError); the trace cannot tell which. A StagingError
    where the first two give different dtypes."""
    kind = _KIND_NUMBERS[kind_of(np_dtype(tensor.dtype))]
    small = np.ones((1,) * array.ndim, array.dtype)
    as_number = ufunc(small, kind).dtype
    as_array = ufunc(small, np.ones((), np_dtype(tensor.dtype))).dtype
    if as_number != as_array:
        raise StagingError(
            f"a NumPy array ({array.dtype}) operated with a 0-d {tensor.dtype} tensor PyTorch "
            f"traces at {user_location()}: eagerly the tensor's value is a Python number "
            f"there (NumPy then gives {as_number}) or a NumPy scalar ({as_array}), and the "
            f"trace cannot tell which. Make the array a tensor first (torch.as_tensor(a)) "
            f"and cast the result to the dtype you mean.")
