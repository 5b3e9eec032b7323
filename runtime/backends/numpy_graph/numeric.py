"""The NumPy engine's side of ``numeric_builtins``: builtins, ``math`` and ``asarray``
on symbolic tensors, recorded as graph ops with NumPy's dtype rules."""

from __future__ import annotations

import numpy as np

from ...staging import numeric as numeric_builtins
from ...staging.errors import StagingError
from . import messages, numpy_api, trace
from .ir import Op, Value
from .raising import raise_copy
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
    if name.startswith("ndarray."):
        return _array_method(name[8:], args, kwargs)
    raise TypeError(f"autograph.function: {name}() of a symbolic tensor is not supported")


def _min_max(name, args, kwargs):
    items = numeric_builtins.python_min_max(name, args, kwargs)
    if items is None:
        (only,) = args
        if only.__class__ is Tensor and only.ndim != 1:
            raise TypeError(f"{name}() of a {only.ndim}-d array compares its rows as Python "
                            f"bools; use np.{name} or an explicit axis instead.")
        return getattr(np, name)(only)
    pair = np.minimum if name == "min" else np.maximum  # (``numeric_builtins`` pairs them)
    best = items[0]
    for item in items[1:]:
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
    if kind is tuple:  # math.modf: two floats
        outs = [st.graph.new_value(np.float64, (), weak=True) for _ in range(2)]
        st.append(Op("call", fn, values, {}, outs, tuple(outs), source=trace.user_source()))
        return tuple(Tensor(out, st.graph) for out in outs)
    out = st.graph.new_value(_SCALAR_DTYPES[kind], (), weak=True)
    st.append(Op("call", fn, values, {}, [out], out, source=trace.user_source()))
    return Tensor(out, st.graph)


def _array_method(name, args, kwargs):
    """``array.<name>(*args)`` of a NumPy array with a tensor argument: the method op."""
    if name not in numpy_api.METHODS:
        raise TypeError(f"autograph.function: the NumPy array method {name}() with a symbolic "
                        f"tensor argument is not supported; call the numpy function instead.")
    return trace.record("method", name, args, kwargs)


# NumPy functions that convert their argument without NumPy's dispatch (``np.require``
# calls ``asanyarray``): recorded as calls, so the graph runs NumPy's own at run time.
CONVERTING = frozenset({np.require, np.asarray_chkfinite, np.asfortranarray})


def numpy_function(fn, args, kwargs):
    """A NumPy function called with a tensor among its arguments (``numpy_calls``)."""
    if fn in CONVERTING:
        return trace.record("call", fn, args, kwargs)
    module = getattr(fn, "__module__", None) or ""
    owner = getattr(fn, "__self__", None)
    if module.startswith("numpy.random") or isinstance(
            owner, (np.random.Generator, np.random.RandomState)):
        raise StagingError(
            f"np.random.{getattr(fn, '__name__', '?')}{messages.located(trace.user_source())} "
            f"is given a staged value, and a graph draws np.random's numbers while tracing "
            f"(constants of the graph), when that value is not known yet. Draw the numbers "
            f"outside the function and pass them in (rng = np.random.default_rng(); "
            f"f(x, rng.random(n))).")
    return fn(*args, **kwargs)


def asarray(which: str, obj, dtype=None, **kwargs):
    """``np.asarray``/``np.array`` of a tensor, or of lists and tuples holding tensors.
    ``copy=False`` (NumPy 2: never copy) returns the tensor itself where no cast is
    needed; ``ndmin=`` prepends axes."""
    ndmin = kwargs.pop("ndmin", 0)
    extra = {k: v for k, v in kwargs.items() if not (k == "copy" and v in (None, True, False))
             and not (k == "order" and v in (None, "K", "A", "C"))}
    if extra:
        raise StagingError(
            f"numpy.{which}() of a symbolic tensor with {', '.join(extra)}="
            f"{messages.located(trace.user_source())} is not supported by autograph.function; "
            f"reshape or cast the result instead.")
    if kwargs.get("copy") is False and obj.__class__ is Tensor:
        if dtype is not None and np.dtype(dtype) != obj.dtype:
            raise ValueError("Unable to avoid copy while creating an array as requested.")
        return _zero_d_array(_with_ndmin(obj, ndmin), obj)
    return _zero_d_array(_with_ndmin(_asarray(which, obj, dtype, **kwargs), ndmin), obj)


def _zero_d_array(result, obj):
    """A 0-d result of ``np.array``/``np.asarray`` is a 0-d array eagerly, not a NumPy
    scalar: noted in ``graph.zero_d_arrays`` (an in-place operator then changes it for
    every name holding it, as NumPy does). A NumPy scalar's array is a new array (a
    copy): the scalar itself stays a scalar."""
    if result.__class__ is not Tensor or result.shape or result._value.weak:
        return result
    zero_d = trace.current().graph.zero_d_arrays
    if result is obj and obj._value.id not in zero_d:
        result = trace.record("method", "copy", (obj,))
    zero_d.add(result._value.id)
    return result


def _with_ndmin(result, ndmin: int):
    missing = ndmin - np.ndim(result)
    return result if missing <= 0 else result.reshape((1,) * missing + tuple(np.shape(result)))


def _asarray(which: str, obj, dtype=None, **kwargs):
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
    if any(s.__class__ is _Catch for s in _saved):
        _note_instead_of_raising()


def _note_instead_of_raising() -> None:
    """Inside a catching region, errors set to raise call the region's note instead."""
    np.seterr(**{k: "call" for k, v in np.geterr().items() if v == "raise"})


class _Catch:
    """Run-time: the catching region of a ``try`` (``catching``): floating-point errors
    that would raise are noted (``np.errstate`` ``'call'``), and the ops go on."""

    def __init__(self) -> None:
        self.caught = False
        self.state = np.errstate(call=self)
        self.state.__enter__()
        _note_instead_of_raising()

    def __call__(self, kind, flag) -> None:
        self.caught = True

    def __exit__(self, *exc) -> None:
        self.state.__exit__(*exc)


def catch_enter() -> None:
    """Run-time: a catching region starts."""
    _saved.append(_Catch())


def catch_exit() -> bool:
    """Run-time: the region ends; True if an error it caught would have raised."""
    catch = _saved.pop()
    catch.__exit__(None, None, None)
    return catch.caught


class CatchScope:
    """While tracing: the ops recorded in the body of a ``try`` (``Backend.catching``).
    A region whose ops may raise ``FloatingPointError`` (an ``np.errstate`` with
    ``'raise'`` in force) becomes ``catch_enter`` ... ``flag = catch_exit()``: the flag
    is ``caught(i)`` of the first handler that catches ``FloatingPointError``."""

    def __init__(self, region) -> None:
        self.region = region
        self.block = trace.current().blocks[-1]
        self.start = len(self.block.ops)
        self.raising = "raise" in np.geterr().values()

    def close(self, raised: bool) -> dict:
        ops = self.block.ops[self.start:]
        if raised or not ops:
            return {}
        region = self.region
        for op in _walk(ops):
            if op.target is raise_copy:
                i = region.handler_for(type(op.args[0]))
                if i is not None:
                    raise region.staged_raise(i, op.args[0], op.source)
        k = region.handler_for(FloatingPointError)
        if k is None or not (self.raising or "raise" in np.geterr().values() or any(
                op.target is errstate_enter and "raise" in (*op.args, *op.kwargs.values())
                for op in _walk(ops))):
            return {}
        if region.named[k]:
            raise region.named_handler(k, FloatingPointError)
        st, source = trace.current(), trace.user_source()
        self.block.ops.insert(self.start, Op("call", catch_enter, (), {}, [], None, source=source,
                                             effect=True))
        flag = st.graph.new_value(np.bool_, (), weak=True)
        self.block.ops.append(Op("call", catch_exit, (), {}, [flag], flag, source=source,
                                 effect=True))
        return {k: Tensor(flag, st.graph)}


def _walk(ops):
    for op in ops:
        yield op
        for block in op.blocks.values():
            yield from _walk(block.ops)


def errstate_exit() -> None:
    _saved.pop().__exit__(None, None, None)


def uses_errstate(graph) -> bool:
    def visit(block):
        return any(op.target is errstate_enter or op.target is catch_enter
                   or any(map(visit, op.blocks.values()))
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
