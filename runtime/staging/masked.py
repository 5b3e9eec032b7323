"""Boolean-mask reads and writes with a staged mask, on backends whose shapes are static.

NumPy code selects and updates the items where a condition holds::

    y[x < 0] += 0.2                 # t-SNE's gains
    m = x > 0
    y[m] = np.sqrt(x[m])            # SciPy's make_strictly_feasible

With a staged mask ``m`` the number of items ``x[m]`` holds is known only at run time,
and a compiled JAX function (like PyTorch's and TensorFlow's compilers) needs every
shape while tracing. Such code computes elementwise on the selection and writes it back
under the same mask, so the selection can be kept at its places instead: ``x[m]`` is a
``MaskedItems`` holding all of ``x`` and the mask, elementwise arithmetic (operators,
NumPy's ufuncs, ``np.clip``, ``np.where``, ``astype``) runs on all of it, and
``y[m] = items`` becomes ``where(m, items, y)``: the same values at the same places
as NumPy's write. ``y[m] = v`` with a ``v`` that broadcasts to one item of ``y`` (a
scalar), and ``y[m] op= v``, are selects too.

Everything else about a masked selection needs its run-time length (``x[m].sum()``,
``len``, a write under another mask, a value of another shape) and is a
``StagingError`` naming the line: the answer is written with ``where`` by hand. A
backend opts in by returning ``MaskedItems`` from ``Backend.getitem`` (the NumPy graph
engine has run-time shapes and does what NumPy does).
"""

from __future__ import annotations

import operator

import numpy as np

from .arg_writes import user_location
from .errors import StagingError

# Elementwise NumPy functions that are not ufuncs.
_ELEMENTWISE = frozenset({np.clip, np.where, np.nan_to_num, np.round, np.around, np.real,
                          np.imag, np.conj, np.conjugate, np.angle})
_METHODS = frozenset({"astype", "conj", "conjugate", "copy", "clip", "round"})


class MaskedItems:
    """``source[mask]`` for a staged boolean ``mask``: ``full`` is ``source`` itself (the
    items outside the mask are never looked at), ``mask`` the staged mask."""

    __slots__ = ("backend", "full", "mask")
    __array_priority__ = 10_000

    def __init__(self, backend, full, mask) -> None:
        self.backend, self.full, self.mask = backend, full, mask

    @property
    def dtype(self):
        return self.full.dtype

    @property
    def ndim(self) -> int:
        return np.ndim(self.full) - np.ndim(self.mask) + 1

    def _item_shape(self) -> tuple:
        return tuple(np.shape(self.full)[np.ndim(self.mask):])

    def _operand(self, other, what: str):
        """``other`` as an operand of elementwise work on ``full``."""
        if other.__class__ is MaskedItems:
            if not self.backend.same_value(other.mask, self.mask):
                raise _refused(what, "its operands are selected by different masks (two staged "
                                     "values, even if computed alike, may differ)",
                               "Compute the mask once, name it (m = ...), and select with that name")
            return other.full
        shape = np.shape(other)
        items = self._item_shape()
        if len(shape) > len(items) or _broadcast(shape, items) is None:
            raise _refused(what, f"the other operand has shape {shape}, which pairs with the "
                                 f"selected items only by their run-time count",
                           "Write it with where on whole arrays")
        return other

    def _elementwise(self, fn, args, kwargs, what: str):
        full_args = [self._operand(a, what) if _maybe_array(a) else a for a in args]
        full_kwargs = {k: self._operand(v, what) if _maybe_array(v) else v
                       for k, v in kwargs.items()}
        result = self.backend.numpy_call(fn, tuple(full_args), full_kwargs)
        if result.__class__ is tuple:
            return tuple(MaskedItems(self.backend, r, self.mask) for r in result)
        return MaskedItems(self.backend, result, self.mask)

    # --- NumPy's dispatch protocols
    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        name = f"np.{ufunc.__name__}"
        if method != "__call__" or kwargs.get("out") is not None:
            raise _refused(name + ("" if method == "__call__" else f".{method}"),
                           "only elementwise calls keep the items at their places",
                           "Write it with where on whole arrays")
        return self._elementwise(ufunc, inputs, kwargs, name)

    def __array_function__(self, func, types, args, kwargs):
        name = f"np.{getattr(func, '__name__', func)}"
        if func not in _ELEMENTWISE:
            raise _refused(name, "it needs the selected items' count",
                           "Write it with where on whole arrays (np.where(m, x, 0).sum() for "
                           "x[m].sum())")
        return self._elementwise(func, args, kwargs, name)

    def __array__(self, dtype=None, copy=None):
        raise _refused("np.asarray", "it needs the selected items' count",
                       "Write it with where on whole arrays")

    # --- what needs the run-time count
    def __getattr__(self, name):
        if name in _METHODS:
            fn = {"astype": np.asarray, "copy": np.copy, "conjugate": np.conj}.get(name)

            def method(*args, **kwargs):
                if name == "astype":
                    return self._elementwise(np.asarray, (self,), {"dtype": args[0]}, ".astype()")
                if fn is not None:
                    return self._elementwise(fn, (self,), {}, f".{name}()")
                return self._elementwise(getattr(np, name), (self, *args), kwargs, f".{name}()")
            return method
        if name.startswith("__"):
            raise AttributeError(name)
        raise _refused(f".{name}", "it needs the selected items' count",
                       "Write it with where on whole arrays (np.where(m, x, 0).sum() for "
                       "x[m].sum())")

    def __len__(self):
        raise _refused("len()", "it is the selected items' count", "Use m.sum()")

    def __iter__(self):
        raise _refused("iteration", "it needs the selected items' count",
                       "Write it with where on whole arrays")

    def __bool__(self):
        raise _refused("bool()", "it needs the selected items' values",
                       "Write it with where on whole arrays")

    def __getitem__(self, index):
        raise _refused("indexing", "it needs the selected items' count",
                       "Write it with where on whole arrays")

    def __repr__(self) -> str:
        return f"<the items of an array where a staged mask holds: {self.full!r}>"


def _binary(op, symbol: str, reflected: bool):
    def apply(self, other):
        if not (_maybe_array(other) or other.__class__ in (bool, int, float, complex)):
            return NotImplemented
        rest = self._operand(other, f"'{symbol}'")
        full = op(rest, self.full) if reflected else op(self.full, rest)
        return MaskedItems(self.backend, full, self.mask)
    return apply


for _name, _op, _symbol in [
        ("add", operator.add, "+"), ("sub", operator.sub, "-"), ("mul", operator.mul, "*"),
        ("truediv", operator.truediv, "/"), ("floordiv", operator.floordiv, "//"),
        ("mod", operator.mod, "%"), ("pow", operator.pow, "**"), ("and", operator.and_, "&"),
        ("or", operator.or_, "|"), ("xor", operator.xor, "^")]:
    setattr(MaskedItems, f"__{_name}__", _binary(_op, _symbol, False))
    setattr(MaskedItems, f"__r{_name}__", _binary(_op, _symbol, True))
for _name, _op, _symbol in [("lt", operator.lt, "<"), ("le", operator.le, "<="),
                            ("gt", operator.gt, ">"), ("ge", operator.ge, ">="),
                            ("eq", operator.eq, "=="), ("ne", operator.ne, "!=")]:
    setattr(MaskedItems, f"__{_name}__", _binary(_op, _symbol, False))
for _name, _op in [("neg", operator.neg), ("pos", operator.pos), ("abs", operator.abs),
                   ("invert", operator.invert)]:
    setattr(MaskedItems, f"__{_name}__",
            (lambda op: lambda self: MaskedItems(self.backend, op(self.full), self.mask))(_op))
MaskedItems.__hash__ = object.__hash__


def write(backend, target, mask, value):
    """``target[mask] = value`` for a staged boolean ``mask``: a select that keeps
    ``target``'s dtype and shape, or a ``StagingError`` naming the line."""
    target_shape, mask_shape = tuple(np.shape(target)), tuple(np.shape(mask))
    if target_shape[:len(mask_shape)] != mask_shape:
        raise IndexError(f"boolean index did not match indexed array along axis 0; size of axis "
                         f"is {target_shape[0] if target_shape else 0} but size of corresponding "
                         f"boolean axis is {mask_shape[0] if mask_shape else 0}")
    items = target_shape[len(mask_shape):]
    if value.__class__ is MaskedItems:
        if not backend.same_value(value.mask, mask):
            raise _refused("y[m] = x[m2]", "the written items and the value are selected by "
                                           "different masks (two staged values, even if computed "
                                           "alike, may differ)",
                           "Compute the mask once, name it (m = ...), and use that name for both")
        full = value.full
        if _broadcast(tuple(np.shape(full))[len(mask_shape):], items) != items:
            raise _refused("y[m] = x[m]", f"an item of the value has shape "
                                          f"{tuple(np.shape(full))[len(mask_shape):]}, not {items}",
                           "Select items of the same shape")
    else:
        full = value
        shape = tuple(np.shape(value))
        if len(shape) > len(items) or _broadcast(shape, items) != items:
            raise _refused("y[m] = v", f"v has shape {shape}, which pairs with the selected items "
                                       f"only by their run-time count",
                           "Write it with where on whole arrays: y = np.where(m, v_full, y)")
    spread = mask[(Ellipsis,) + (None,) * len(items)] if items else mask
    chosen = backend.numpy_call(np.where, (spread, full, target), {})
    return backend.numpy_call(np.asarray, (chosen,), {"dtype": target.dtype})


def _broadcast(shape: tuple, items: tuple):
    try:
        return tuple(np.broadcast_shapes(shape, items))
    except ValueError:
        return None


def _maybe_array(value) -> bool:
    return value.__class__ is MaskedItems or (
        not isinstance(value, type) and hasattr(value, "shape") and hasattr(value, "dtype"))


def _refused(what: str, why: str, fix: str) -> StagingError:
    return StagingError(
        f"{what} on a boolean-mask selection at {user_location()}: the mask is staged, so how "
        f"many items it selects is known only at run time, and {why}. A masked selection can "
        f"only be computed elementwise and written back under the same mask "
        f"(y[m] = f(x[m]), y[m] += c). {fix}.")
