"""Tensors of the torch backend: NumPy's dtypes for PyTorch's, a value as a tensor (a
NumPy array by a copy of its values), and the mark of a 0-d tensor that stands for a
Python number (``WEAK``). Shared by ``backend``, ``numpy_twins`` and ``numpy_operands``."""

from __future__ import annotations

import numpy as np
import torch

from ...staging import state as staging
from ...staging.state import Aval

TO_NUMPY = {torch.bool: np.dtype(bool), torch.uint8: np.dtype(np.uint8),
            torch.int8: np.dtype(np.int8), torch.int16: np.dtype(np.int16),
            torch.int32: np.dtype(np.int32), torch.int64: np.dtype(np.int64),
            torch.float16: np.dtype(np.float16), torch.float32: np.dtype(np.float32),
            torch.float64: np.dtype(np.float64), torch.complex64: np.dtype(np.complex64),
            torch.complex128: np.dtype(np.complex128)}
TO_TORCH = {v: k for k, v in TO_NUMPY.items()}


# The Python numbers PyTorch keeps symbolic while it traces (``t < xs.shape[0]`` with a
# dynamic size): staged as the number they stand for would be (``is_number_like``).
SYMBOLIC_NUMBERS = (torch.SymBool, torch.SymInt, torch.SymFloat)


def is_number_like(x) -> bool:
    """A Python number, or one PyTorch keeps symbolic while it traces."""
    return staging.is_number(x) or isinstance(x, SYMBOLIC_NUMBERS)


def py_dtype(x) -> np.dtype:
    """The dtype a Python number (or a symbolic one) is carried with: PyTorch's own
    choice (``torch.tensor(1.0)``: the default dtype, float32 unless changed)."""
    if x.__class__ in (bool, torch.SymBool):
        return np.dtype(bool)
    if x.__class__ in (int, torch.SymInt):
        return np.dtype(np.int64)
    default = TO_NUMPY[torch.get_default_dtype()]
    if x.__class__ in (float, torch.SymFloat):
        return default
    return np.dtype(np.complex128) if default == np.float64 else np.dtype(np.complex64)


def np_dtype(dtype: torch.dtype) -> np.dtype:
    """The NumPy dtype a staged tensor of ``dtype`` is carried with; PyTorch's dtypes
    NumPy lacks (``bfloat16``, the float8s) are ml_dtypes' (JAX's), added on first use."""
    try:
        return TO_NUMPY[dtype]
    except KeyError:
        pass
    name = str(dtype).rpartition(".")[2]
    if name in ("uint16", "uint32", "uint64"):
        found = np.dtype(name)
    else:
        try:
            import ml_dtypes
        except ImportError:
            raise TypeError(
                f"torch: a staged {dtype} value needs the ml_dtypes package, which names "
                f"its type for the staging core: pip install ml_dtypes (it comes with "
                f"'autograph-transpiler[torch]')") from None
        if not hasattr(ml_dtypes, name):
            raise TypeError(f"torch: a staged {dtype} value is not supported") from None
        found = np.dtype(getattr(ml_dtypes, name))
    TO_NUMPY[dtype], TO_TORCH[found] = found, dtype
    return found


# A 0-d tensor standing for a Python number the program computes (a weak ``Aval``): the
# placeholders, casts and op outputs of a Python number carried through a staged
# construct. A join or loop carry gives it the dtype of the tensor it meets, as the
# number takes it eagerly; PyTorch's own arithmetic on it is a tensor's.
WEAK = "_autograph_python_number"


# A tensor standing for a NumPy array the program made and wrote a traced value into
# (``d = np.empty(2); d[0] = t``: the name gets a tensor of the array's values): a NumPy
# array's in-place operator given it (``w += d``) is NumPy's, as eagerly, where a
# tensor's would be PyTorch's (eagerly a TypeError). ``numpy_operands``.
NUMPY_ARRAY = "_autograph_numpy_array"


def weak(t: torch.Tensor, aval: Aval) -> torch.Tensor:
    """``t``, marked as a Python number's if ``aval`` is weak."""
    if aval.weak:
        setattr(t, WEAK, True)
    return t


def as_tensor(x, dtype=None) -> torch.Tensor:
    """``x`` as a tensor; a Python number by a factory op, never a tensor constant (a
    constant inside an operator's body is a real tensor PyTorch 2.13's fake tensors
    refuse); a NumPy array by a copy of its values now (a traced program's constant
    shares the memory it is made from, ``torch.tensor``'s too: later writes into the
    array would reach the program)."""
    if isinstance(x, torch.Tensor):
        return x if dtype is None or x.dtype == dtype else x.to(dtype)
    if is_number_like(x):
        if dtype is None:
            dtype = TO_TORCH[py_dtype(x)]
        return torch.full((), x, dtype=dtype)
    if isinstance(x, (np.ndarray, np.generic)):
        x = np.array(x)  # a copy
    return torch.as_tensor(x, dtype=dtype)


def is_weak(x) -> bool:
    return isinstance(x, torch.Tensor) and getattr(x, WEAK, False)


def like(t, original):
    """``t``, marked as a Python number's where ``original`` is one."""
    if is_weak(original):
        setattr(t, WEAK, True)
    return t
