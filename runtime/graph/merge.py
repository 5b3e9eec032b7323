"""Reconciling the values control flow produces: branch results and loop variables.

A staged ``if`` gives each carried variable one value per branch; a staged loop
gives each loop variable its value before the loop and after one iteration. The
graph needs one dtype and shape for each, so this module decides, per variable,
whether the two agree (same Python object, same dtype with compatible shapes),
can be made to agree (a Python scalar cast to the other side's dtype; the
``NO_RETURN`` placeholder of a return value that has not run yet filled with
zeros, which the return flag guards), or must be reported (the messages in
``autograph.runtime.errors``: a variable defined in one branch only, a loop
variable changing dtype or shape).
"""

from __future__ import annotations

import numpy as np

from ..undefined import NO_RETURN, Undefined
from .ir import Block, Op, Value
from .tensor import Tensor

PY_SCALARS = (bool, int, float, complex)


def is_arraylike(obj) -> bool:
    return (obj.__class__ is Tensor or isinstance(obj, (np.ndarray, np.generic))
            or obj.__class__ in PY_SCALARS)


def as_value(obj, graph) -> Value:
    """The graph Value of an array-like: a Tensor's, or a new constant."""
    if obj.__class__ is Tensor:
        return obj._value
    if obj.__class__ in PY_SCALARS:
        return graph.new_value(np.asarray(obj).dtype, (), weak=True, const=obj)
    return graph.new_value(obj.dtype, obj.shape, const=obj)


def describe(obj) -> str:
    """How an error message names a value's type: ``float64[3]``, ``python int``, ``a list``."""
    if obj.__class__ is Tensor:
        return obj._value.type_str()
    if obj.__class__ is Value:
        return obj.type_str()
    if isinstance(obj, (np.ndarray, np.generic)):
        return f"{obj.dtype.name}[{','.join(map(str, obj.shape))}]"
    if obj.__class__ in PY_SCALARS:
        return f"python {type(obj).__name__}"
    if obj.__class__ is Undefined:
        return "undefined"
    if obj is NO_RETURN:
        return "not returned yet"
    if obj is None:
        return "None"
    return f"a {type(obj).__name__}"


def castable(value: Value, dtype: np.dtype) -> bool:
    """True if a weak (Python scalar) value converts to ``dtype`` as NumPy would promote it."""
    if not value.weak:
        return False
    probe = value.const if value.const is not None else value.dtype.type(0).item()
    try:
        return np.result_type(dtype, probe) == dtype
    except (TypeError, OverflowError):
        return False


def coerce(value: Value, dtype: np.dtype, block: Block, graph) -> Value:
    """``value`` as a strong array of ``dtype``, casting in ``block`` if needed."""
    if value.const is not None:
        return graph.new_value(dtype, value.shape, const=np.asarray(value.const, dtype))
    out = graph.new_value(dtype, value.shape)
    block.ops.append(Op("call", np.asarray, (value,), {"dtype": dtype}, [out], out))
    return out


def zeros_like(obj, graph):
    """A filler of the same structure, dtype and shape as ``obj``, for a NO_RETURN side."""
    if obj.__class__ is Tensor:
        if obj._value.weak:  # it stands for a Python scalar: so does its filler
            return {"b": False, "i": 0, "u": 0, "f": 0.0, "c": 0j}[obj.dtype.kind]
        shape = tuple(0 if d is None else d for d in obj.shape)
        return np.zeros(shape, obj.dtype)[()] if not shape else np.zeros(shape, obj.dtype)
    if isinstance(obj, (np.ndarray, np.generic)):
        return np.zeros_like(obj)[()] if obj.ndim == 0 else np.zeros_like(obj)
    if obj.__class__ in PY_SCALARS:
        return type(obj)(0)
    if isinstance(obj, (tuple, list)):
        return type(obj)(zeros_like(x, graph) for x in obj)
    if isinstance(obj, dict):
        return {k: zeros_like(v, graph) for k, v in obj.items()}
    return obj


def join_shapes(a: tuple, b: tuple):
    """The shape both sides fit (None where they differ), or None if ranks differ."""
    if len(a) != len(b):
        return None
    return tuple(x if x == y else None for x, y in zip(a, b))


def flatten(obj, leaves: list):
    """Array-like leaves of a nested structure, in order; returns a rebuild template."""
    if is_arraylike(obj):
        leaves.append(obj)
        return _Leaf
    if isinstance(obj, tuple) and hasattr(obj, "_fields"):
        return (type(obj), [flatten(x, leaves) for x in obj])
    if obj.__class__ in (tuple, list):
        return (obj.__class__, [flatten(x, leaves) for x in obj])
    if obj.__class__ is dict:
        return (dict, {k: flatten(v, leaves) for k, v in obj.items()})
    return (None, obj)


class _Leaf:
    pass


def unflatten(template, leaves):
    iterator = iter(leaves)

    def build(t):
        if t is _Leaf:
            return next(iterator)
        cls, inner = t
        if cls is None:
            return inner
        if cls is dict:
            return {k: build(v) for k, v in inner.items()}
        items = [build(x) for x in inner]
        return cls(*items) if hasattr(cls, "_fields") else cls(items)

    return build(template)


def same_structure(a, b) -> bool:
    """Templates equal up to leaves; non-array objects must be the same object or equal."""
    if a is _Leaf or b is _Leaf:
        return a is b
    if a[0] is not b[0]:
        return False
    if a[0] is None:
        x, y = a[1], b[1]
        if x is y:
            return True
        try:
            return type(x) is type(y) and bool(x == y)
        except Exception:
            return False
    if a[0] is dict:
        return a[1].keys() == b[1].keys() and all(same_structure(a[1][k], b[1][k]) for k in a[1])
    return len(a[1]) == len(b[1]) and all(same_structure(x, y) for x, y in zip(a[1], b[1]))
