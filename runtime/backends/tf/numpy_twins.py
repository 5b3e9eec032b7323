"""``np.<f>`` called with a graph tensor under ``tf.function``: the function of the
same name in ``tf.experimental.numpy`` (``np.sqrt`` -> ``tnp.sqrt``), with TensorFlow's
dtypes; ``out=`` as a new tensor the statement assigns (``name = np.add(a, b, out=name)``).
"""

from __future__ import annotations

import numpy as np
import tensorflow as tf
import tensorflow.experimental.numpy as tnp

from ...staging.arg_writes import cannot_write, user_location, written_argument
from ...staging.errors import StagingError
from ...staging.numeric import name_of
from .numeric import _copy, _tensor, rounded
from .weak import strong


_LIKE = frozenset({"zeros_like", "ones_like", "empty_like", "full_like"})

# ndarray methods that are NumPy's function of the same name with the array first
# (``a.sum(axis=0)`` is ``np.sum(a, axis=0)``): not ``reshape`` and ``transpose`` (which
# take the shape as separate arguments too), ``compress`` (the condition comes first),
# ``astype`` (NumPy 2's ``np.astype``, which tf.experimental.numpy lacks), nor the
# methods that write into the array (``a.sort()``; ``np.sort(a)`` is a sorted copy).
ARRAY_FIRST = frozenset(
    name for name in dir(np.ndarray) if not name.startswith("_")
    and callable(getattr(np.ndarray, name)) and callable(getattr(np, name, None))) - {
    "reshape", "transpose", "compress", "astype", "sort", "partition", "put", "resize"}


def _shape_only(args, kwargs) -> bool:
    """Only the first argument is a graph tensor, of a static shape: ``np.zeros_like(x)``
    reads only what the trace knows."""
    if not args or not isinstance(strong(args[0]), tf.Tensor) or \
            not strong(args[0]).shape.is_fully_defined():
        return False
    rest = list(args[1:]) + list(kwargs.values())
    return not any(isinstance(strong(leaf), tf.Tensor) for leaf in tf.nest.flatten(rest))


def numpy_call(fn, args, kwargs):
    """``fn(*args, **kwargs)``, a NumPy callable with a graph tensor among the arguments:
    ``tf.experimental.numpy``'s function of the same name."""
    short = getattr(fn, "__name__", "")
    owner = getattr(fn, "__self__", None)
    if short in _LIKE and owner is None and _shape_only(args, kwargs):
        # a NumPy array the user makes, as eagerly: mutable, with views that share it
        first = strong(args[0])
        prototype = np.broadcast_to(np.zeros((), first.dtype.as_numpy_dtype),
                                    first.shape.as_list())
        return fn(prototype, *args[1:], **kwargs)
    if kwargs.get("out") is not None:
        return _into(fn, args, kwargs)
    if isinstance(fn, np.ufunc) and len(args) > fn.nin:
        raise StagingError(
            f"{name_of(fn)} at {user_location()} is given its output array as a positional "
            f"argument, and under tf.function a graph tensor cannot be written into (TensorFlow "
            f"tensors are immutable). Pass it as out=name in a statement of its own (name = "
            f"the result then), or assign the result.")
    if isinstance(fn, type) and issubclass(fn, np.generic) and len(args) == 1 and not kwargs:
        return _scalar_type(fn, strong(args[0]))  # np.float64(x[0])
    module = getattr(fn, "__module__", None) or "numpy"
    if isinstance(owner, (np.random.RandomState, np.random.Generator)) or \
            module.startswith("numpy.random"):
        raise StagingError(
            f"{name_of(fn)} at {user_location()} is called with a graph tensor under "
            f"tf.function, and a graph draws np.random's numbers while it is traced "
            f"(constants of the graph), when the tensor's value is not known yet. Draw random "
            f"numbers with tf.random (a tf.random.Generator), or draw them outside the "
            f"tf.function and pass them in.")
    if isinstance(owner, np.ndarray):  # T.dot(w): NumPy's function, the array first
        if short in ARRAY_FIRST:
            return numpy_call(getattr(np, short), (owner,) + tuple(args), kwargs)
        twin = None
    elif isinstance(owner, np.ufunc):
        twin = _ufunc_method(owner, short)
    elif module.startswith("numpy"):
        only = _SHAPE_ONLY.get(short)
        if only is not None and fn is getattr(np, short) and len(args) == 1 and not kwargs:
            return only(_tensor(strong(args[0])))
        submodule = module.partition(".")[2].lstrip("_")
        twin = _SUBMODULES.get((submodule, short)) if submodule in ("linalg", "fft") else \
            _ALIASES.get(short) if fn is getattr(np, short, None) else None
        twin = twin or (getattr(tnp, short, None) if submodule not in ("linalg", "fft") else None)
    else:
        twin = None
    if twin is None:
        raise StagingError(
            f"{name_of(fn)} at {user_location()} is called with a graph tensor under "
            f"tf.function, and tf.experimental.numpy has no function of that name to run in "
            f"its place (NumPy cannot compute on a graph tensor). Compute it with TensorFlow "
            f"ops, or call it outside tf.function and pass the result in.")
    return twin(*args, **kwargs)


def _scalar_type(cls, x):
    """``np.float64(x)`` of a graph tensor: ``x`` in that dtype (a bool: nonzero)."""
    x = _tensor(x)
    dtype = tf.as_dtype(np.dtype(cls))
    if dtype == tf.bool and x.dtype != tf.bool:
        return tf.not_equal(x, tf.zeros([], x.dtype))
    return tf.cast(x, dtype)


def _invert(x):
    x = _tensor(strong(x))
    return tf.logical_not(x) if x.dtype == tf.bool else tf.bitwise.invert(x)


# NumPy functions tf.experimental.numpy has under another name, or lacks and TensorFlow
# computes as NumPy does.
_ALIASES = {"invert": _invert, "bitwise_invert": _invert, "bitwise_not": _invert,
            "acos": tnp.arccos, "asin": tnp.arcsin, "atan": tnp.arctan, "atan2": tnp.arctan2,
            "acosh": tnp.arccosh, "asinh": tnp.arcsinh, "atanh": tnp.arctanh, "pow": tnp.power,
            "concat": tnp.concatenate, "trunc": tnp.fix, "degrees": tnp.rad2deg,
            "radians": tnp.deg2rad, "permute_dims": tnp.transpose, "copy": lambda x: _copy(
                tnp.asarray(x))}


def _into(fn, args, kwargs):
    """``fn(*args, out=target)``: the result as a new tensor of ``target``'s dtype and
    shape, which the statement assigns to the name ``target`` had (the converter writes
    ``name = np.add(a, b, out=name)``); NumPy's casting rule ``same_kind``."""
    from ...staging import holders
    from ...staging.arrays import check_staged_write
    from . import items

    kwargs = dict(kwargs)
    target = kwargs.pop("out")
    if target.__class__ is tuple and len(target) == 1:
        target = target[0]
    written = written_argument(target)
    if written is not None:
        raise cannot_write("tf.function", written, "TensorFlow tensors are immutable")
    if not isinstance(target, (tf.Tensor, np.ndarray)) or not holders.rebinds(target):
        raise StagingError(
            f"{name_of(fn)}(..., out=...) at {user_location()}: under tf.function the result is "
            f"a new tensor (TensorFlow tensors are immutable), which only a statement of its "
            f"own, name = {name_of(fn)}(..., out=name) with a local name, gives the name. "
            f"Write it so, or assign the result.")
    if isinstance(target, tf.Tensor):
        items.refuse_shared_write(target)
    else:
        check_staged_write(target)
    result = _tensor(strong(numpy_call(fn, args, kwargs)))
    have, want = np.dtype(result.dtype.as_numpy_dtype), np.dtype(target.dtype.as_numpy_dtype) \
        if isinstance(target, tf.Tensor) else target.dtype
    if not np.can_cast(have, want, "same_kind"):
        raise TypeError(f"Cannot cast ufunc {getattr(fn, '__name__', fn)!r} output from "
                        f"{have!r} to {want!r} with casting rule 'same_kind'")
    return tf.cast(tf.broadcast_to(result, tuple(np.shape(target)) if isinstance(
        target, np.ndarray) else tf.shape(target)), want)


def _require(a, dtype=None, requirements=None, *, like=None):
    """``np.require``: a tensor of ``dtype``; its memory layout (C, F, aligned,
    writeable, own data) is nothing a graph tensor has to meet."""
    return tnp.asarray(a, dtype)


def _searchsorted(a, v, side="left", sorter=None):
    """``np.searchsorted`` of a 1-d ``a``: int64 indices, of ``v``'s shape."""
    a = tnp.asarray(a)
    if sorter is not None:
        a = tf.gather(a, sorter)
    v = tnp.asarray(v, a.dtype)
    flat = tf.reshape(v, [1, -1])
    out = tf.searchsorted(a[None], flat, side=side, out_type=tf.int64)
    return tf.reshape(out, tf.shape(v))


_ALIASES.update({"require": _require, "asfortranarray": tnp.asarray, "round": rounded,
                 "around": rounded, "searchsorted": _searchsorted,
                 "nonzero": lambda a: tuple(tnp.nonzero(a))})


def _isclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    """NumPy's ``isclose``: where a value is infinite, close only to itself (``tnp``'s
    formula alone says ``isclose(1.0, inf)``: ``inf <= inf``)."""
    dtype = tnp.result_type(a, b, 1.0)
    a, b = tnp.asarray(a, dtype), tnp.asarray(b, dtype)
    finite = tnp.isfinite(a) & tnp.isfinite(b)
    close = tnp.where(finite, tnp.abs(a - b) <= atol + rtol * tnp.abs(b), a == b)
    return close | (tnp.isnan(a) & tnp.isnan(b)) if equal_nan else close


_ALIASES.update({"isclose": _isclose,
                 "allclose": lambda *args, **kwargs: tnp.all(_isclose(*args, **kwargs))})


def _shape(x):
    """``np.shape``: a tuple, its dimensions unknown while tracing as scalar tensors."""
    dims = x.shape.as_list()
    if None in dims:
        run_time = tf.shape(x)
        return tuple(run_time[i] if d is None else d for i, d in enumerate(dims))
    return tuple(dims)


# NumPy's answers from what the trace knows (tnp.isscalar says True of a 0-d tensor)
_SHAPE_ONLY = {"isscalar": lambda x: False, "ndim": lambda x: x.shape.rank
               if x.shape.rank is not None else tf.rank(x), "shape": _shape}


def _norm(x, ord=None, axis=None, keepdims=False):
    """``np.linalg.norm``: NumPy's vector norms (of an axis, or a 1-d array) and matrix
    norms (of two axes, or a 2-d array), in NumPy's dtypes (float64 for integers)."""
    x = tnp.asarray(x)
    if not (x.dtype.is_floating or x.dtype.is_complex):
        x = tf.cast(x, tf.float64)
    if isinstance(axis, int):
        axis = (axis,)
    if axis is None:
        if ord is None:  # every item: NumPy flattens
            out = tf.sqrt(tf.reduce_sum(tf.math.real(x * tf.math.conj(x)) if x.dtype.is_complex
                                        else x * x))
            return tf.reshape(out, [1] * x.shape.rank) if keepdims else out
        axis = tuple(range(x.shape.rank))
    axis = tuple(a % x.shape.rank for a in axis)
    a = tf.abs(x)
    if len(axis) == 1:
        (k,) = axis
        if ord is None or ord == 2:
            out = tf.sqrt(tf.reduce_sum(a * a, k, keepdims))
        elif ord == np.inf:
            out = tf.reduce_max(a, k, keepdims)
        elif ord == -np.inf:
            out = tf.reduce_min(a, k, keepdims)
        elif ord == 0:
            out = tf.reduce_sum(tf.cast(tf.not_equal(a, 0), a.dtype), k, keepdims)
        elif ord == 1:
            out = tf.reduce_sum(a, k, keepdims)
        elif isinstance(ord, str):
            raise ValueError(f"Invalid norm order '{ord}' for vectors")
        else:
            out = tf.reduce_sum(a ** ord, k, keepdims) ** (1.0 / ord)
        return out
    if len(axis) != 2:
        raise ValueError("Improper number of dimensions to norm.")
    row, col = axis
    if ord is None or ord == "fro":
        out = tf.sqrt(tf.reduce_sum(a * a, axis, keepdims))
    elif ord in (1, -1):
        sums = tf.reduce_sum(a, row, keepdims=True)
        out = (tf.reduce_max if ord == 1 else tf.reduce_min)(sums, col, keepdims=True)
    elif ord in (np.inf, -np.inf):
        sums = tf.reduce_sum(a, col, keepdims=True)
        out = (tf.reduce_max if ord == np.inf else tf.reduce_min)(sums, row, keepdims=True)
    else:
        raise StagingError(
            f"np.linalg.norm(..., ord={ord!r}) at {user_location()} of a graph tensor: the "
            f"matrix norms of singular values are not computed under tf.function here. Use "
            f"tf.linalg.svd, or ord None, 'fro', 1, -1, inf or -inf.")
    return out if keepdims else tf.squeeze(out, axis)


def _fft(transform, real_input: bool = False):
    """An ``np.fft`` function of the last axis (``n``: cut or padded to it) as
    TensorFlow's, in NumPy 2's precision (single for float32 and complex64 input)."""
    def run(a, n=None, axis=-1, norm=None):
        a = tnp.asarray(a)
        single = a.dtype in (tf.float32, tf.complex64)
        if axis not in (-1, a.shape.rank - 1) or norm not in (None, "backward"):
            raise StagingError(
                f"np.fft at {user_location()} of a graph tensor with axis={axis!r}, "
                f"norm={norm!r}: under tf.function only the last axis and the default "
                f"normalization are computed. Move the axis last (np.moveaxis).")
        if real_input:
            a = tf.cast(a, tf.float32 if single else tf.float64)
            return transform(a) if n is None else transform(a, fft_length=[n])
        a = tf.cast(a, tf.complex64 if single else tf.complex128)
        if n is not None:
            size = tf.shape(a)[-1]
            a = tf.cond(size >= n, lambda: a[..., :n], lambda: tf.concat(
                [a, tf.zeros(tf.concat([tf.shape(a)[:-1], [n - size]], 0), a.dtype)], -1))
        return transform(a)
    return run


_SUBMODULES = {("linalg", "norm"): _norm, ("linalg", "det"): tf.linalg.det,
               ("linalg", "inv"): tf.linalg.inv, ("linalg", "cholesky"): tf.linalg.cholesky,
               ("fft", "fft"): _fft(tf.signal.fft), ("fft", "ifft"): _fft(tf.signal.ifft),
               ("fft", "rfft"): _fft(tf.signal.rfft, real_input=True)}

# ufunc.reduce and ufunc.accumulate (along axis 0, NumPy's default) as TensorFlow's
_REDUCE = {"add": tnp.sum, "multiply": tnp.prod, "maximum": tnp.max, "minimum": tnp.min,
           "logical_and": tnp.all, "logical_or": tnp.any}
_ACCUMULATE = {"add": tnp.cumsum, "multiply": tnp.cumprod,
               "maximum": lambda a, axis: _scan(tf.maximum, a, axis),
               "minimum": lambda a, axis: _scan(tf.minimum, a, axis)}


def _scan(op, a, axis):
    a = tnp.moveaxis(tnp.asarray(a), axis, 0)
    return tnp.moveaxis(tf.scan(op, a), 0, axis)


def _ufunc_method(ufunc, method: str):
    """``np.add.reduce``, ``np.maximum.accumulate``, ``np.multiply.outer``; None for
    another method (``at``, ``reduceat``) or ufunc."""
    name = ufunc.__name__
    if method == "reduce" and name in _REDUCE:
        return lambda a, axis=0, dtype=None, keepdims=False: _REDUCE[name](
            a, axis=axis, dtype=dtype, keepdims=keepdims) if dtype is not None else \
            _REDUCE[name](a, axis=axis, keepdims=keepdims)
    if method == "accumulate" and name in _ACCUMULATE:
        return lambda a, axis=0: _ACCUMULATE[name](a, axis=axis)
    twin = _ALIASES.get(name) or getattr(tnp, name, None)
    if method == "outer" and twin is not None and ufunc.nin == 2:
        def outer(a, b):
            a = tnp.asarray(a)
            return twin(tnp.reshape(a, a.shape.as_list() + [1] * tnp.asarray(b).shape.rank), b)
        return outer
    return None
