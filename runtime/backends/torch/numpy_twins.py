"""``np.<f>`` on tensors PyTorch traces: PyTorch's own NumPy, ``torch._numpy``.

Converted code that calls a NumPy function with a tracing tensor among its arguments
(``numpy_calls``) runs the function of the same module path and name in
``torch._numpy``: the NumPy API on tensors that dynamo itself runs NumPy code with
under ``torch.compile``, so a PyTorch user gets what compiling the same code without
conversion gives. ``np.sqrt`` -> ``torch._numpy.sqrt``, ``np.linalg.norm`` ->
``torch._numpy.linalg.norm``, ``np.abs`` (NumPy's ``absolute``) -> ``absolute``; a
NumPy array's method (``T.dot(v)``) is the method of ``torch._numpy.asarray(T)``.
NumPy's rules hold there (dtypes: ``np.mean`` of integers is float64, a Python float
is float64), lists and NumPy arrays are taken as arrays; results come back as tensors.
``np.clip``'s ``a_min``/``a_max`` are its ``min``/``max``. ``np.isscalar``, ``np.ndim``
and ``np.shape`` read only what a trace knows and give NumPy's answers (a tuple shape).

Refused with a ``StagingError`` that names the NumPy function and the user's line: an
output argument (``out=``, or a ufunc's positional one) and the functions that write
into an argument (``np.copyto``, ``np.put``, ``np.fill_diagonal`` ...), whose writes a
traced branch or loop body cannot make; ufunc methods (``np.add.reduce``: PyTorch's
NumPy has none); ``np.random.*`` (PyTorch's generator draws other numbers than
NumPy's); and any function ``torch._numpy`` lacks.
"""

from __future__ import annotations

import types

import numpy as np
import torch
import torch._numpy as tnp
from torch.utils import _pytree

from ...staging.arg_writes import user_location
from ...staging.converted import convert as converted
from ...staging.errors import StagingError
from ...staging.numeric import name_of

_IN_PLACE = frozenset({"copyto", "put", "place", "putmask", "fill_diagonal", "put_along_axis"})
_IN_PLACE_METHODS = frozenset({"fill", "sort", "partition", "put", "itemset", "resize",
                               "setfield"})
_SHAPE_ONLY = {"isscalar": lambda x: False, "ndim": lambda x: x.dim(),
               "shape": lambda x: x.shape}  # np.shape(t) of a tensor is its torch.Size
_KEYWORDS = {"clip": {"a_min": "min", "a_max": "max"}}  # NumPy's keyword -> torch._numpy's
_twins: dict = {}


def call(fn, args, kwargs):
    """``fn(*args, **kwargs)`` for a NumPy callable ``fn`` and a tracing tensor among the
    arguments."""
    name = name_of(fn)
    if (isinstance(fn, np.ufunc) and len(args) > fn.nin) or kwargs.get("out") is not None:
        raise _writes(name)
    short = getattr(fn, "__name__", "")
    owner = getattr(fn, "__self__", None)
    if isinstance(owner, np.ndarray):
        if short in _IN_PLACE_METHODS:
            raise _writes(name)
        twin = getattr(tnp.asarray(owner), short, None)
    else:
        if short in _IN_PLACE or (short == "at" and isinstance(owner, np.ufunc)):
            raise _writes(name)
        only = _SHAPE_ONLY.get(short)
        if only is not None and fn is getattr(np, short) and len(args) == 1 and not kwargs \
                and isinstance(args[0], torch.Tensor):
            return only(args[0])
        twin = _twin(fn)
    if twin is None:
        raise _no_twin(fn)
    renamed = _KEYWORDS.get(short)
    if renamed and kwargs:
        kwargs = {renamed.get(k, k): v for k, v in kwargs.items()}
    args = [converted(a) if a.__class__ is types.FunctionType else a for a in args]
    result = _pytree.tree_map_only(tnp.ndarray, lambda a: a.tensor, twin(*args, **kwargs))
    if (getattr(fn, "__module__", None) or "").startswith("numpy.fft") and args:
        return _fft_precision(result, args[0])
    return result


def _fft_precision(result, x):
    """NumPy 2's FFTs keep single precision (float32 or complex64 in, complex64 or
    float32 out); ``torch._numpy``'s compute and return double precision."""
    single = isinstance(x, torch.Tensor) and x.dtype in (torch.float32, torch.complex64,
                                                         torch.float16, torch.bfloat16)
    if not single or not isinstance(result, torch.Tensor):
        return result
    if result.dtype == torch.complex128:
        return result.to(torch.complex64)
    if result.dtype == torch.float64:
        return result.to(torch.float32)
    return result


def _twin(fn):
    """``torch._numpy``'s function of ``fn``'s module path and name, or None."""
    try:
        return _twins[fn]
    except (KeyError, TypeError):
        pass
    found = None
    path = (getattr(fn, "__module__", None) or "").split(".")
    short = getattr(fn, "__name__", None)
    if isinstance(fn, np.ufunc):  # a ufunc's __module__ is "numpy"
        path = ["numpy"]
    if path[0] == "numpy" and isinstance(short, str) and "random" not in path \
            and not isinstance(getattr(fn, "__self__", None), np.ufunc):
        # numpy._core.fromnumeric.sum and the like are numpy.sum: look in the top level,
        # then in the public submodule (linalg, fft) the function lives in
        target = getattr(tnp, short, None)
        sub = [p for p in path[1:] if not p.startswith("_")]
        if sub:
            target = tnp
            for part in sub + [short]:
                target = getattr(target, part, None)
                if target is None:
                    break
        found = target if callable(target) else None
    try:
        _twins[fn] = found
    except TypeError:
        pass
    return found


def _writes(name: str) -> StagingError:
    return StagingError(
        f"{name} at {user_location()} writes into an array in place, which a traced PyTorch "
        f"program cannot do to its tensors here (torch.compile, torch.export). Assign the "
        f"result instead: y = {name}(...), or x[idx] = v.")


def _no_twin(fn) -> StagingError:
    name = name_of(fn)
    if name.startswith("np.random."):
        fix = ("Draw random numbers with torch (torch.randn(shape, generator=...)), or draw "
               "them outside the compiled function and pass them in.")
    else:
        fix = "Compute it with torch functions, or outside the compiled function and pass it in."
    return StagingError(
        f"{name} at {user_location()} is called with a tensor PyTorch traces (torch.compile, "
        f"torch.export), and PyTorch's NumPy (torch._numpy) has no function of that name to "
        f"run in its place (NumPy cannot compute on a traced tensor). {fix}")
