"""The NumPy engine's side of ``numeric_builtins``: builtins, ``math`` and ``asarray``
on symbolic tensors, recorded as graph ops with NumPy's dtype rules."""

from __future__ import annotations

import numpy as np

from .. import numeric_builtins
from . import trace
from .ir import Op, Value
from .tensor import Tensor

_SCALAR_DTYPES = {float: np.float64, int: np.int64, bool: np.bool_}


def numeric(name: str, args, kwargs):
    if name in ("min", "max"):
        return _min_max(name, args, kwargs)
    if name == "abs":
        return abs(*args)
    if name == "round":
        return _round(*args, **kwargs)
    if name in ("int", "float", "bool"):
        return trace.record("pycast", name, args, weak_result=True)
    if name in ("where", "logical_or"):
        return getattr(np, name)(*args)
    if name.startswith("math."):
        return _math(name[5:], args, kwargs)
    if name in ("numpy.asarray", "numpy.array"):
        return asarray(name[6:], *args, **kwargs)
    raise TypeError(f"autograph.function: {name}() of a symbolic tensor is not supported")


def _min_max(name, args, kwargs):
    items = numeric_builtins.python_min_max(name, args, kwargs)
    if items is None:
        (only,) = args
        if only.__class__ is Tensor and only.ndim != 1:
            raise TypeError(f"{name}() of a {only.ndim}-d array compares its rows as Python "
                            f"bools; use np.{name} or an explicit axis instead.")
        return getattr(np, name)(only)
    pair = np.minimum if name == "min" else np.maximum
    best = items[0]
    for item in items[1:]:
        if best.__class__ is not Tensor and item.__class__ is not Tensor:
            best = numeric_builtins.BUILTINS[name](best, item)
        else:
            best = pair(best, item)
    return best


def _round(x, ndigits=None):
    if x.__class__ is not Tensor:
        return round(x, ndigits)
    if ndigits is not None:
        return np.round(x, ndigits)
    if x.dtype.kind in "iub":
        return x
    if x.ndim:
        raise TypeError("type numpy.ndarray doesn't define __round__ method")
    return trace.record("pycast", "int", (np.round(x),), weak_result=True)


def _math(name, args, kwargs):
    """``math.<name>(*args)`` called when the graph runs: a Python scalar result."""
    if kwargs:
        raise TypeError(f"math.{name}() takes no keyword arguments")
    fn = getattr(__import__("math"), name)
    st = trace.current()
    values = trace.to_value(tuple(args), st)
    for v in values:  # each argument must convert to a Python scalar, as eagerly
        if v.__class__ is Value and v.const is None and not v.weak:
            float(trace.stand_in(v, 1, 1))
    kind = numeric_builtins.result_kind(name)
    out = st.graph.new_value(_SCALAR_DTYPES[kind], (), weak=True)
    st.append(Op("call", fn, values, {}, [out], out, source=trace.user_source()))
    return Tensor(out, st.graph)


def asarray(which: str, obj, dtype=None, **kwargs):
    """``np.asarray``/``np.array`` of a tensor, or of lists and tuples holding tensors."""
    extra = {k: v for k, v in kwargs.items() if not (k == "copy" and v in (None, True))
             and not (k == "order" and v in (None, "K", "A", "C"))}
    if extra:
        raise TypeError(f"autograph.function: numpy.{which}() of a symbolic tensor with "
                        f"{', '.join(extra)}= is not supported; reshape or cast the result.")
    if obj.__class__ in (list, tuple):
        parts = [asarray("asarray", item) if item.__class__ in (list, tuple) else item
                 for item in obj]
        if not parts:
            return np.asarray(obj, dtype)
        result = np.stack([p if p.__class__ is Tensor else np.asarray(p) for p in parts])
    elif obj.__class__ is Tensor:
        result = obj
        copies = kwargs.get("copy", which == "array" or None)  # np.array copies by default
        if copies and (dtype is None or np.dtype(dtype) == obj.dtype):
            return trace.record("method", "copy", (obj,))
    else:
        return getattr(np, which)(obj, dtype)
    if dtype is not None and np.dtype(dtype) != result.dtype:
        return result.astype(dtype)
    return result



# --- np.errstate ------------------------------------------------------------------------

_saved: list = []  # settings to restore, one per errstate block the running graph is in


def errstate_enter(*args, **kwargs) -> None:
    """Run-time: enter an ``np.errstate`` block of the graph."""
    state = np.errstate(*args, **kwargs)
    state.__enter__()
    _saved.append(state)


def errstate_exit() -> None:
    _saved.pop().__exit__(None, None, None)


def uses_errstate(graph) -> bool:
    def visit(block):
        return any(op.target is errstate_enter or any(map(visit, op.blocks.values()))
                   for op in block.ops)
    return visit(graph.body)


def errstate_guard(fn):
    """``fn`` that leaves NumPy's settings as they were even when an op raised inside an
    errstate block (which then never reached its exit)."""
    def run(*args):
        depth = len(_saved)
        try:
            return fn(*args)
        finally:
            while len(_saved) > depth:
                errstate_exit()

    return run


class GraphErrstate:
    """``with np.errstate(...)`` while tracing: ops recorded inside run under it."""

    def __init__(self, args, kwargs) -> None:
        self.args, self.kwargs = args, kwargs
        self.tracing = np.errstate(*args, **kwargs)

    def __enter__(self):
        trace.current().append(Op("call", errstate_enter, self.args, self.kwargs, [], None,
                                  source=trace.user_source(), effect=True))
        self.tracing.__enter__()
        return self

    def __exit__(self, *exc):
        self.tracing.__exit__(*exc)
        trace.current().append(Op("call", errstate_exit, (), {}, [], None,
                                  source=trace.user_source(), effect=True))
        return False
