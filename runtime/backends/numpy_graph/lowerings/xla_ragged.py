"""Values whose first dimension is known only at run time, under XLA.

The NumPy engine's graphs hold such values with a ``None`` first dimension: ``x[mask]``
for a staged boolean ``mask``, ``x[:n]`` for a staged ``n``, and the list a staged loop
collected (``rows[:count]``, see ``rows``). XLA compiles for fixed shapes, so the
lowering holds each as a ``Ragged``: a buffer whose first dimension is a bound known
when compiling (the mask's size, ``x``'s length, the loop's ``maximum_iterations``) and
``n``, the number of rows that count (the first ``n``). The rows past ``n`` hold
anything and are never looked at: elementwise work runs on the whole buffer, a
reduction masks them out, an integer index is checked against ``n``, a concatenation
places the pieces at run-time offsets, a write under a mask scatters the first ``n``
rows to the mask's places (checking the counts as NumPy does), and a returned value is
cut to ``n`` rows by the host after the call. Everything else that reads such a value
needs its length while compiling and is refused, naming the op and the user's line.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np

from ..ir import Value
from .common import refuse

# what reads a ragged value and keeps its rows at their places
ELEMENTWISE_CALLS = frozenset({np.clip, np.where, np.nan_to_num, np.round, np.around,
                               np.real, np.imag, np.conj, np.conjugate, np.angle,
                               np.asarray, np.array, np.copy})
ELEMENTWISE_METHODS = frozenset({"astype", "copy", "clip", "round", "conj", "conjugate"})
_REDUCTIONS = {"sum": 0, "prod": 1, "mean": 0, "any": False, "all": True, "max": None,
               "min": None}
_REDUCING = {np.sum: "sum", np.prod: "prod", np.mean: "mean", np.any: "any", np.all: "all",
             np.max: "max", np.min: "min", np.amax: "max", np.amin: "min"}
NO_IDENTITY = {"max": "maximum", "min": "minimum"}  # NumPy's error on zero rows names these


@jax.tree_util.register_pytree_node_class
class Ragged:
    """A value with a run-time first dimension: ``buf`` (its bound, fixed) and ``n`` (the
    rows that count); ``key`` says which values surely have the same ``n``."""

    __slots__ = ("buf", "key", "n")

    def __init__(self, buf, n, key) -> None:
        self.buf, self.n, self.key = buf, n, key

    def tree_flatten(self):  # a value that leaves lax.cond or jax.jit has a key of its own
        return (self.buf, self.n), None

    @classmethod
    def tree_unflatten(cls, _, children):
        return cls(children[0], children[1], object())

    @property
    def shape(self):
        return self.buf.shape

    @property
    def dtype(self):
        return self.buf.dtype

    def valid(self):
        """True on the rows that count, shaped to broadcast against ``buf``."""
        rows = jnp.arange(self.buf.shape[0]) < self.n
        return jnp.reshape(rows, (-1,) + (1,) * (self.buf.ndim - 1))

    def astype(self, dtype) -> Ragged:
        return Ragged(self.buf.astype(dtype), self.n, self.key)


def padded(value, bound: int) -> Ragged:
    """``value`` (ragged, or an array: all its rows count) as a buffer of ``bound`` rows."""
    if value.__class__ is not Ragged:
        value = Ragged(jnp.asarray(value), jnp.int64(jnp.shape(value)[0]), object())
    buf = value.buf
    if buf.shape[0] < bound:
        buf = jnp.concatenate([buf, jnp.zeros((bound - buf.shape[0],) + buf.shape[1:],
                                              buf.dtype)])
    return Ragged(buf, jnp.asarray(value.n, jnp.int64), value.key)


def host(value):
    """A program's output as the NumPy code returns it: a ragged value cut to its rows."""
    if value.__class__ is Ragged:
        return np.array(np.asarray(value.buf)[:int(value.n)])
    return np.array(value)


def contains(obj) -> bool:
    if obj.__class__ is Ragged:
        return True
    if obj.__class__ in (tuple, list):
        return any(contains(x) for x in obj)
    if obj.__class__ is dict:
        return any(contains(x) for x in obj.values())
    return False


def leading_unknown(obj) -> bool:
    """A graph Value whose first dimension is known only at run time."""
    return obj.__class__ is Value and bool(obj.shape) and obj.shape[0] is None


# --- making one -------------------------------------------------------------------------

def select(x, mask, key) -> Ragged:
    """``x[mask]``: the selected rows first, in order, as NumPy gives them."""
    x, mask = jnp.asarray(x), jnp.asarray(mask)
    flat_mask = jnp.ravel(mask)
    size = flat_mask.shape[0]
    rows = jnp.reshape(x, (size,) + x.shape[mask.ndim:])
    if size == 0:
        return Ragged(rows, jnp.int64(0), key)
    (where,) = jnp.nonzero(flat_mask, size=size, fill_value=size - 1)
    return Ragged(rows[where], jnp.sum(flat_mask, dtype=jnp.int64), key)


def prefix(x, stop, key) -> Ragged:
    """``x[:stop]`` for a staged ``stop`` (clipped as Python slices are)."""
    buf = x.buf if x.__class__ is Ragged else jnp.asarray(x)
    size = x.n if x.__class__ is Ragged else jnp.int64(buf.shape[0])
    stop = jnp.asarray(stop, jnp.int64)
    return Ragged(buf, jnp.clip(jnp.where(stop < 0, stop + size, stop), 0, size), key)


# --- reading one ------------------------------------------------------------------------

def operands(op, args, values):
    """``values`` (run-time operands of ``op``) with each ragged value's buffer in its
    place, and the ``(n, key)`` the result takes; refuses operands of possibly different
    lengths, and an array that pairs with the rows by their run-time count."""
    found = None
    out = []
    for arg, value in zip(args, values):
        if value.__class__ is Ragged:
            if found is not None and found[1] != value.key:
                raise refused(op, "pairs two values whose run-time lengths may differ (two "
                                  "selections by different masks, or of different lists)",
                              "Select both with one mask (m = ...; x[m] + y[m])")
            found = (value.n, value.key)
            out.append(value.buf)
        else:
            out.append(value)
    for arg, value in zip(args, values):
        if value.__class__ is not Ragged and _array_operand(value):
            ragged = next(v for v in values if v.__class__ is Ragged)
            shape = np.shape(value)
            if len(shape) >= ragged.buf.ndim and shape[len(shape) - ragged.buf.ndim] != 1:
                raise refused(op, f"pairs a value of run-time length with an array of shape "
                                  f"{shape}, which lines up with it only by its run-time count",
                              "Write it with np.where on whole arrays")
    return out, found


def _array_operand(value) -> bool:
    return isinstance(value, (jax.Array, np.ndarray)) and np.ndim(value) > 0


def reduction(op, name: str, value: Ragged, axis, keepdims, dtype):
    """``value.<name>(axis)`` over the rows that count (``axis`` None or 0)."""
    if keepdims or axis not in (None, 0, (0,)):
        raise refused(op, f"reduces a value of run-time length over axis {axis!r}"
                      + (" keeping its dimensions" if keepdims else ""),
                      "Reduce over all items or over axis 0")
    buf, valid = value.buf, value.valid()
    axis = None if axis is None else 0
    if name == "mean":
        total = jnp.sum(jnp.where(valid, buf, 0).astype(dtype), axis=axis)
        count = value.n if axis is not None or buf.ndim == 1 else \
            value.n * int(np.prod(buf.shape[1:]))
        return (total / jnp.asarray(count, dtype)).astype(dtype)
    fill = _REDUCTIONS[name]
    if fill is None:  # max/min: the dtype's far end, so a padding row never wins
        fill = _far_end(buf.dtype, name == "max")
    kept = jnp.where(valid, buf, jnp.asarray(fill, buf.dtype))
    if name in ("sum", "prod"):  # accumulated in the result's dtype, as NumPy does
        return getattr(jnp, name)(kept, axis=axis, dtype=dtype)
    return getattr(jnp, name)(kept, axis=axis).astype(dtype)


def reduction_name(op):
    """The reduction ``op`` is (``sum``, ``max`` ...), or None."""
    if op.kind == "method":
        return op.target if op.target in _REDUCTIONS else None
    if op.kind == "call":
        return _REDUCING.get(op.target)
    return None


def _far_end(dtype, low: bool):
    dtype = np.dtype(dtype)
    if dtype.kind == "f":
        return -np.inf if low else np.inf
    if dtype.kind in "iu":
        info = np.iinfo(dtype)
        return info.min if low else info.max
    return not low  # bool


def item(value: Ragged, index):
    """``value[index]`` for an integer ``index``: ``(row, out of bounds, payload)``."""
    index = jnp.asarray(index, jnp.int64)
    at = jnp.where(index < 0, index + value.n, index)
    bad = (at < 0) | (at >= value.n)
    row = jnp.take(value.buf, jnp.clip(at, 0, max(value.buf.shape[0] - 1, 0)), axis=0)
    return row, bad, (index, jnp.int64(0), value.n)


def concatenate(pieces, key):
    """``np.concatenate(pieces)`` along the first axis, some pieces ragged: each placed
    at the run-time end of the ones before it."""
    bufs = [p.buf if p.__class__ is Ragged else jnp.asarray(p) for p in pieces]
    dtype = jnp.result_type(*bufs)
    bound = sum(b.shape[0] for b in bufs)
    out = jnp.zeros((bound,) + bufs[0].shape[1:], dtype)
    end = jnp.int64(0)
    for piece, buf in zip(pieces, bufs):
        out = jax.lax.dynamic_update_slice_in_dim(out, buf.astype(dtype), end, 0)
        end = end + (piece.n if piece.__class__ is Ragged else buf.shape[0])
    return Ragged(out, end, key)


def scatter(target, mask, value):
    """``target[mask] = value`` with ``value`` rows (ragged, or an array of as many rows
    as the mask's True entries): ``(new target, counts differ, (given, wanted))``."""
    target, mask = jnp.asarray(target), jnp.asarray(mask)
    flat_mask = jnp.ravel(mask)
    size = flat_mask.shape[0]
    item_shape = target.shape[mask.ndim:]
    rows = jnp.reshape(target, (size,) + item_shape)
    wanted = jnp.sum(flat_mask, dtype=jnp.int64)
    if value.__class__ is Ragged:
        buf, given = value.buf, value.n
    else:
        buf = jnp.asarray(value)
        given = jnp.int64(buf.shape[0])
    buf = jnp.broadcast_to(buf, buf.shape[:1] + item_shape).astype(target.dtype)
    if buf.shape[0] >= size:
        buf = buf[:size]
    else:
        buf = jnp.concatenate([buf, jnp.zeros((size - buf.shape[0],) + item_shape, buf.dtype)])
    if size:
        buf = jnp.where(given == 1, jnp.broadcast_to(buf[:1], buf.shape), buf)
    (where,) = jnp.nonzero(flat_mask, size=size, fill_value=size)
    new = rows.at[where].set(buf, mode="drop")
    bad = (given != wanted) & (given != 1)
    return jnp.reshape(new, target.shape), bad, (given, wanted)


def refused(op, what: str, fix: str):
    """The refusal of ``op``, which reads a value of run-time length as XLA cannot."""
    from .xla_ops import OPTION

    return refuse(OPTION, "a value of run-time length (a boolean-mask selection, a slice "
                  "with a staged bound, or a list a staged loop collected)", op,
                  f"{what}, and XLA compiles for fixed shapes", f"{fix}, or call it without "
                  f"jit_compile=True (its NumPy graph runs it).")
