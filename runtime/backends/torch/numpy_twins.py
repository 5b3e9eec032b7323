"""``np.<f>`` on tensors PyTorch traces: PyTorch's own NumPy, ``torch._numpy``.

Converted code that calls a NumPy function with a tracing tensor among its arguments
(``numpy_calls``) runs the function of the same module path and name in
``torch._numpy``: the NumPy API on tensors that dynamo itself runs NumPy code with
under ``torch.compile``, so a PyTorch user gets what compiling the same code without
conversion gives. ``np.sqrt`` -> ``torch._numpy.sqrt``, ``np.linalg.norm`` ->
``torch._numpy.linalg.norm``, ``np.abs`` (NumPy's ``absolute``) -> ``absolute``; a
NumPy array's method (``T.dot(v)``) is the method of ``torch._numpy.asarray(T)``.
NumPy's rules hold there (dtypes: ``np.mean`` of integers is float64, a Python float
is float64), lists and NumPy arrays are taken as arrays (a NumPy array by a copy of its
values: ``tensors.as_tensor``); results come back as tensors. ``np.clip``'s
``a_min``/``a_max`` are its ``min``/``max``. ``np.isscalar``, ``np.ndim`` and
``np.shape`` read only what a trace knows and give NumPy's answers (a tuple shape).
What ``torch._numpy`` lacks and is written here: the ufunc methods ``reduce``
(``np.add.reduce`` is ``sum``), ``accumulate`` (``cumsum``, ``cummax`` ...) and ``outer``
(broadcasting), with NumPy's dtypes; ``np.require``, ``np.ascontiguousarray`` and
``np.asfortranarray`` (a tensor's layout is PyTorch's).

An output argument (``out=``, or a ufunc's positional one) that is a tensor is written
in place, as NumPy writes its ``out`` array (``_into_out``).

Refused with a ``StagingError`` that names the NumPy function and the user's line: an
output argument that is not one tensor, and the functions that write into an argument (``np.copyto``, ``np.put``, ``np.fill_diagonal`` ...), whose writes a
traced branch or loop body cannot make; ``np.random.*`` (PyTorch's generator draws
other numbers than NumPy's); and any other function ``torch._numpy`` lacks.
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
from .tensors import TO_TORCH, as_tensor, np_dtype

_IN_PLACE = frozenset({"copyto", "put", "place", "putmask", "fill_diagonal", "put_along_axis"})
_IN_PLACE_METHODS = frozenset({"fill", "sort", "partition", "put", "itemset", "resize",
                               "setfield"})
_SHAPE_ONLY = {"isscalar": lambda x: False, "ndim": lambda x: x.dim(),
               "shape": lambda x: tuple(x.shape)}  # NumPy's tuple (a trace returns no torch.Size)
_KEYWORDS = {"clip": {"a_min": "min", "a_max": "max"}}  # NumPy's keyword -> torch._numpy's
_twins: dict = {}


def call(fn, args, kwargs):
    """``fn(*args, **kwargs)`` for a NumPy callable ``fn`` and a tracing tensor among the
    arguments."""
    name = name_of(fn)
    if isinstance(fn, np.ufunc) and len(args) > fn.nin:  # out given by position
        args, kwargs = args[:fn.nin], {**kwargs, "out": args[fn.nin:]}
    if kwargs.get("out") is not None:
        return _into_out(fn, name, args, kwargs)
    short = getattr(fn, "__name__", "")
    owner = getattr(fn, "__self__", None)
    if isinstance(owner, np.ndarray):
        if short in _IN_PLACE_METHODS:
            raise _writes(name)
        twin = getattr(tnp.asarray(as_tensor(owner)), short, None)
    elif isinstance(owner, np.ufunc) and short in _UFUNC_METHODS:
        twin = _UFUNC_METHODS[short](owner)
    elif getattr(fn, "__objclass__", None) is np.ndarray and args:  # np.ndarray.take(a, ...)
        if short in _IN_PLACE_METHODS:
            raise _writes(name)
        if short in _NUMPY_ONLY:  # the NumPy function of its name takes the same arguments
            twin = _twin(getattr(np, short))
        else:
            twin = getattr(tnp.asarray(as_tensor(args[0])), short, None)
            args = args[1:]
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
    if isinstance(fn, np.ufunc):  # a NumPy scalar is an array to NumPy (torch._numpy takes
        args = [np.asarray(a) if isinstance(a, np.generic) else a for a in args]  # a 0-d one)
    args, kwargs = _pytree.tree_map_only(  # its values now, not its memory (as_tensor)
        np.ndarray, lambda a: as_tensor(a) if a.dtype.kind in "biufc" else a, (args, kwargs))
    result = _pytree.tree_map_only(tnp.ndarray, lambda a: a.tensor, twin(*args, **kwargs))
    if (getattr(fn, "__module__", None) or "").startswith("numpy.fft") and args:
        return _fft_precision(result, args[0])
    return result


# ndarray methods a tensor has under the same name, taking other arguments: name -> whether
# a call's arguments are ones only NumPy's method takes (torch.Tensor.take takes one index
# tensor; ndarray.take also an axis, out and mode).
_NUMPY_ONLY = {"take": lambda args, kwargs: len(args) > 1 or bool(kwargs)}


def array_method(method):
    """A traced tensor's method that ndarray also has, as converted code calls it: a call
    with arguments only NumPy's method takes (``data.take(locs, axis=axis, mode=mode)``,
    SciPy's ``_boolrelextrema``) is NumPy's, ``np.<name>(tensor, ...)`` run as ``call``
    runs it (torch._numpy's); other calls are PyTorch's method. None for other methods."""
    numpy_only = _NUMPY_ONLY.get(method.__name__)
    tensor = method.__self__
    if numpy_only is None or not isinstance(tensor, torch.Tensor):
        return None
    fn = getattr(np, method.__name__)

    def either(*args, **kwargs):
        if numpy_only(args, kwargs):
            return call(fn, (tensor,) + args, kwargs)
        return method(*args, **kwargs)

    either.__name__ = method.__name__
    return either


def _into_out(fn, name, args, kwargs):
    """``fn(..., out=t)``: NumPy's result written into the tensor ``t`` in place (``copy_``,
    cast as NumPy's ``same_kind`` rule allows, broadcast to ``t``'s shape) and ``t``
    returned, as NumPy writes and returns its ``out`` array; every name holding ``t`` sees
    the write, as eagerly. In a staged branch or loop body the write goes to the copy that
    stands for ``t`` from then on (``backend._Swapping``), and the conversion rebinds the
    name the statement writes (``z = np.add(z, y, out=z)``). An ``out`` that is not one
    tensor (a NumPy array, several outputs) is refused (``_writes``)."""
    kwargs = dict(kwargs)
    out = kwargs.pop("out")
    if isinstance(out, tuple) and len(out) == 1:
        out = out[0]
    if not isinstance(out, torch.Tensor):
        raise _writes(name)
    result = call(fn, args, kwargs)
    if not isinstance(result, torch.Tensor):
        raise _writes(name)
    given, wanted = np_dtype(result.dtype), np_dtype(out.dtype)
    if not np.can_cast(given, wanted, "same_kind"):
        raise TypeError(f"Cannot cast ufunc '{getattr(fn, '__name__', name)}' output from "
                        f"{given!r} to {wanted!r} with casting rule 'same_kind'")
    out.copy_(torch.broadcast_to(result, out.shape))
    return out


def _reduce(ufunc):
    """``ufunc.reduce`` of the ufuncs that have a torch._numpy reduction (``np.add.reduce``
    is ``sum``), with NumPy's result dtype."""
    fold = getattr(tnp, _REDUCTIONS.get(ufunc.__name__, ""), None)
    if fold is None:
        return None

    def reduce(a, axis=0, dtype=None, keepdims=False):
        a = tnp.asarray(a)
        out = fold(a, axis=axis, keepdims=keepdims).tensor
        return out.to(TO_TORCH[np.dtype(_probe(ufunc.reduce, a, axis=axis, dtype=dtype))])
    return reduce


def _accumulate(ufunc):
    """``ufunc.accumulate``: ``cumsum``, ``cumprod``, ``cummax``, ``cummin`` (NumPy's dtype)."""
    scan = _SCANS.get(ufunc.__name__)
    if scan is None:
        return None

    def accumulate(a, axis=0, dtype=None):
        a = tnp.asarray(a)
        dtype = TO_TORCH[np.dtype(_probe(ufunc.accumulate, a, axis=axis, dtype=dtype))]
        t = a.tensor.to(dtype)
        return scan(t, dim=axis % max(t.dim(), 1))
    return accumulate


def _outer(ufunc):
    """``ufunc.outer(a, b)``: the ufunc of ``a`` with one new axis per axis of ``b``."""
    op = getattr(tnp, ufunc.__name__, None)
    if op is None:
        return None

    def outer(a, b, **kwargs):
        a, b = tnp.asarray(a), tnp.asarray(b)
        return op(a.reshape(a.shape + (1,) * b.ndim), b, **kwargs)
    return outer


def _probe(method, a, **kwargs):
    """The dtype NumPy's ``method`` gives for an array of ``a``'s dtype and rank."""
    return method(np.ones((1,) * a.ndim, a.dtype.name), **kwargs).dtype


def _as_array(a, dtype=None, *, like=None):
    """``np.ascontiguousarray``/``np.asfortranarray``: a tensor's layout is PyTorch's."""
    return tnp.asarray(a).tensor if dtype is None else \
        tnp.asarray(a, dtype=np.dtype(dtype).name).tensor


def _require(a, dtype=None, requirements=None, *, like=None):
    """``np.require``: the array of ``dtype``; a tensor meets every layout requirement
    but owning its data (``"O"``: a copy)."""
    out = _as_array(a, dtype)
    wanted = {r.upper() for r in ([requirements] if isinstance(requirements, str)
                                  else requirements or ())}
    return out.clone() if wanted & {"O", "OWNDATA", "E", "ENSUREARRAY"} and out is a else out


_REDUCTIONS = {"add": "sum", "multiply": "prod", "maximum": "max", "minimum": "min",
               "logical_and": "all", "logical_or": "any"}
_SCANS = {"add": torch.cumsum, "multiply": torch.cumprod,
          "maximum": lambda t, dim: torch.cummax(t, dim).values,
          "minimum": lambda t, dim: torch.cummin(t, dim).values}
_UFUNC_METHODS = {"reduce": _reduce, "accumulate": _accumulate, "outer": _outer}
def _take(a, indices, axis=None, out=None, mode="raise"):
    """``np.take`` with NumPy's ``mode``, which torch._numpy's lacks: "clip" clips the
    indices into the axis, "wrap" wraps them around it ("raise": an index out of range
    is PyTorch's error)."""
    a = tnp.asarray(a)
    if mode in ("clip", "wrap"):
        n = a.size if axis is None else a.shape[axis]
        i = tnp.asarray(indices).tensor
        indices = i.clamp(0, n - 1) if mode == "clip" else torch.remainder(i, n)
    elif mode != "raise":
        raise ValueError(f"clipmode must be one of 'clip', 'raise', or 'wrap' (got {mode!r})")
    return tnp.take(a, indices, axis=axis, out=out)


_OWN = {np.require: _require, np.ascontiguousarray: _as_array,  # NumPy functions
        np.asfortranarray: _as_array, np.take: _take}  # torch._numpy lacks (or lacks a mode)


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
    found = _OWN.get(fn)
    path = (getattr(fn, "__module__", None) or "").split(".")
    short = getattr(fn, "__name__", None)
    if isinstance(fn, np.ufunc):  # a ufunc's __module__ is "numpy"
        path = ["numpy"]
    if found is None and path[0] == "numpy" and isinstance(short, str) and "random" not in path \
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
