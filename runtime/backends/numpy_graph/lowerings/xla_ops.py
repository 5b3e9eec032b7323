"""The simple ops of a graph as ``jax.numpy`` calls, with NumPy's dtype rules kept.

Every Value of the graph carries the dtype NumPy gives it (tracing ran NumPy itself),
so the lowering never trusts JAX's promotion: the operands of an arithmetic op or ufunc
are first cast to the dtype NumPy computes in (``np.result_type`` of the operands, a
Python scalar or a weak value counting as a Python scalar: NEP 50), and each result is
cast to the dtype the graph recorded. JAX runs with 64-bit types enabled, so a float64
graph computes in float64.

``refusal`` is the check made before lowering: an op XLA cannot run (an output shape
that depends on values, a function ``jax.numpy`` lacks, an ``np.errstate`` region) is a
``StagingError`` naming the op and the user's line, said before anything compiles.
"""

from __future__ import annotations

import builtins
import sys

import jax
import jax.numpy as jnp
import numpy as np

from .. import numpy_api
from ..ir import Op, Value
from ..numeric import catch_enter, catch_exit, errstate_enter, errstate_exit
from ..raising import raise_copy
from ..render import qualname
from ..rows import write_row
from .common import refuse, walk, where

OPTION = "autograph.function(jit_compile=True)"
_NO_JIT = "Call it through autograph.function without jit_compile=True (its NumPy graph runs it)"

_BINARY = {
    "+": jnp.add, "-": jnp.subtract, "*": jnp.multiply, "/": jnp.true_divide,
    "//": jnp.floor_divide, "%": jnp.remainder, "**": jnp.power, "@": jnp.matmul,
    "&": jnp.bitwise_and, "|": jnp.bitwise_or, "^": jnp.bitwise_xor, "<<": jnp.left_shift,
    ">>": jnp.right_shift, "==": jnp.equal, "!=": jnp.not_equal, "<": jnp.less,
    "<=": jnp.less_equal, ">": jnp.greater, ">=": jnp.greater_equal,
}
_COMPARISONS = {"==", "!=", "<", "<=", ">", ">="}
ELEMENTWISE_BINOPS = frozenset(_BINARY) - {"@"}
# math.<name> -> jax.numpy's name, where they differ
_MATH = {"asin": "arcsin", "acos": "arccos", "atan": "arctan", "asinh": "arcsinh",
         "acosh": "arccosh", "atanh": "arctanh", "atan2": "arctan2", "pow": "power",
         "fabs": "abs", "isclose": "isclose", "dist": None, "fsum": "sum", "prod": "prod"}
_MATH_SPECIAL = {"gamma": "gamma", "lgamma": "gammaln", "erf": "erf", "erfc": "erfc"}
_MATH_RANGE = {"exp", "exp2", "expm1", "cosh", "sinh", "pow", "ldexp", "gamma", "lgamma",
               "hypot"}  # an infinite result from finite arguments is an OverflowError
_MATH_CHECKED = {"sqrt", "log", "log2", "log10", "log1p", "acos", "asin", "acosh", "atanh",
                 "exp", "exp2", "expm1", "cosh", "sinh", "pow", "gamma", "lgamma", "fmod",
                 "ldexp", "hypot"}
# Functions whose result's dtype depends on the values (NumPy's eig: real when it can).
_VALUE_DTYPE = {np.linalg.eig, np.linalg.eigvals}
_VALUE_SHAPE = numpy_api.DATA_DEPENDENT | {np.bincount}
_METHODS_REFUSED = {"nonzero": "has an output shape that depends on the values",
                    "tolist": "makes Python lists, which a compiled program cannot"}
_KEYWORDS = {"clip": {"a_min": "min", "a_max": "max"}}
_NATIVE_KINDS = set("biufc")


def twin(fn):
    """The ``jax.numpy`` function that stands for NumPy's (or ``math``'s) ``fn``, or None."""
    if isinstance(fn, np.ufunc):
        if getattr(np, fn.__name__, None) is fn:
            return getattr(jnp, fn.__name__, None)
        special = sys.modules.get("scipy.special")  # scipy.special's ufuncs (ndtr, erf)
        if special is None or getattr(special, fn.__name__, None) is not fn:
            return None
        import jax.scipy.special

        return getattr(jax.scipy.special, fn.__name__, None)
    owner = getattr(fn, "__self__", None)
    if isinstance(owner, np.ufunc):  # np.add.reduce
        return getattr(getattr(jnp, owner.__name__, None), fn.__name__, None)
    if fn in (builtins.round, builtins.abs):
        return {builtins.round: jnp.round, builtins.abs: jnp.abs}[fn]
    name = qualname(fn)
    if name.startswith("math."):
        short = fn.__name__
        if short in _MATH_SPECIAL:
            import jax.scipy.special as special

            return getattr(special, _MATH_SPECIAL[short])
        short = _MATH.get(short, short)
        return None if short is None else getattr(jnp, short, None)
    if not name.startswith("numpy."):
        return None
    obj = jnp
    for part in name.split(".")[1:]:
        obj = getattr(obj, part, None)
        if obj is None:
            return None
    return obj


# --- checks before lowering -----------------------------------------------------------

def refusal(graph):
    """The ``StagingError`` for the first op of ``graph`` XLA cannot run, or None."""
    for value in _all_values(graph):
        if value.dtype.kind not in _NATIVE_KINDS or (
                value.dtype.kind in "fc" and value.dtype.itemsize > 2 * 8):
            op = value.op
            return _refused(op, f"a {value.dtype.name} value",
                                   "has a dtype XLA does not have")
    error = _unbounded_list(graph.body)
    if error is not None:
        return error
    for op, in_loop in walk(graph.body):
        error = _refuse_op(op)
        if error is not None:
            return error
    return None


def _unbounded_list(block, loop=None):
    """The refusal of a list a staged loop appends to with no bound on its length: the
    NumPy engine grows its buffer at run time; XLA needs the bound when it compiles."""
    for op in block.ops:
        if op.kind == "call" and op.target is write_row and op.args[0].shape[0] is None:
            return refuse(OPTION, "the list appended to", op, f"grows in the staged "
                          f"{loop.kind} loop at {where(loop)}, which runs a number of times "
                          f"known only at run time, and XLA compiles for fixed shapes",
                          "Write ag.set_loop_options(maximum_iterations=N) as the first "
                          "statement of the loop (the list then holds at most N items per "
                          "append), or call it without jit_compile=True (its NumPy graph "
                          "runs it).")
        for sub in op.blocks.values():
            error = _unbounded_list(sub, op if op.kind in ("for", "while") else loop)
            if error is not None:
                return error
    return None


def _refused(op, what, why, fix=_NO_JIT + "."):
    if op is None:
        return refuse(OPTION, what, Op("call", None), why, fix)
    return refuse(OPTION, what, op, why, fix)


def _refuse_op(op: Op):
    kind, target = op.kind, op.target
    if kind == "call":
        if target is errstate_exit or (target is errstate_enter and _quiet(op)):
            return None  # XLA never warns: a region that ignores or warns changes nothing
        if target in (errstate_enter, catch_enter, catch_exit):
            what = "np.errstate" if target is errstate_enter else \
                "a try that catches FloatingPointError"
            return _refused(op, what, "sets NumPy's floating-point error handling, "
                                   "which XLA does not have (it never warns or raises on "
                                   "floating-point errors)",
                                   _NO_JIT + ", or remove the np.errstate region.")
        if target is raise_copy or target is builtins.len or target is write_row:
            return None
        name = qualname(target) if callable(target) else repr(target)
        if target in _VALUE_SHAPE:
            return _refused(op, name, "has an output shape that depends on the values "
                                   "of its input, and XLA compiles for fixed shapes",
                                   _NO_JIT + ", or compute a fixed-shape result "
                                   "(np.where(mask, x, 0) instead of x[mask]).")
        if target in _VALUE_DTYPE:
            return _refused(op, name, "has a result dtype that depends on the values "
                                   "(real when every eigenvalue is real)",
                                   _NO_JIT + ", or use np.linalg.eigh for a symmetric matrix.")
        if twin(target) is None:
            return _refused(op, name, "has no jax.numpy twin", _NO_JIT + ".")
        return None
    if kind == "method" and target in _METHODS_REFUSED:
        return _refused(op, f"the array method {target}()", _METHODS_REFUSED[target],
                               _NO_JIT + ".")
    if kind == "getitem" and op.args[1].__class__ is tuple and mask_of(op.args[1]) is not None:
        return _refused(op, "indexing with a boolean array", "has an output shape that "
                               "depends on the values of the mask, and XLA compiles for fixed "
                               "shapes", _NO_JIT + ", or keep the shape: np.where(mask, x, 0), "
                               "or a masked sum: (x * mask).sum().")
    if kind in ("getitem", "setitem") and _staged_slice(op.args[1]) and not staged_stop(op):
        return _refused(op, "a slice with staged bounds", "has an output shape that "
                               "depends on the values of its bounds, and XLA compiles for "
                               "fixed shapes", _NO_JIT + ", or take a fixed-size window with "
                               "np.take(x, start + np.arange(size)).")
    if kind == "setitem" and op.args[1].__class__ is tuple and mask_of(op.args[1]) is not None:
        return _refused(op, "assigning through a boolean mask", "takes as many values as "
                        "the mask has True entries, a number XLA does not know when it "
                        "compiles", _NO_JIT + ", or assign one value: x = np.where(mask, v, x).")
    if kind not in _KNOWN_KINDS:
        return _refused(op, f"the graph op {kind!r}", "has no XLA lowering yet",
                               _NO_JIT + ".")
    return None


def where_fits(op: Op) -> bool:
    """``x[mask] = v`` is ``np.where(mask, v, x)``: the index is the mask alone, over the
    leading dimensions of ``x``, and ``v`` broadcasts to the dimensions after them."""
    target, index, value = op.args
    if index.__class__ is tuple:
        return False
    mask = mask_of(index)
    rest = tuple(target.shape[len(mask.shape):])
    shape = tuple(value.shape if value.__class__ is Value else np.shape(value))
    if tuple(target.shape[:len(mask.shape)]) != tuple(mask.shape) or len(shape) > len(rest):
        return False
    return all(v in (1, r) for v, r in zip(reversed(shape), reversed(rest)))


def _quiet(op: Op) -> bool:
    """An ``np.errstate`` that only ignores or warns (XLA raises on none of them)."""
    settings = list(op.args) + list(op.kwargs.values())
    return all(s in ("ignore", "warn") for s in settings if s is not None)


_KNOWN_KINDS = {"call", "binop", "unop", "method", "attr", "getitem", "pycast", "read",
                "setitem", "assign", "print", "assert", "cond", "while", "for"}


def mask_of(index):
    """The boolean array Value of an index, if it has one (``x[m]``, ``x[m, 0]``)."""
    for item in (index if index.__class__ is tuple else (index,)):
        if item.__class__ is Value and item.dtype == np.bool_ and item.shape:
            return item
        if isinstance(item, np.ndarray) and item.dtype == np.bool_ and item.shape:
            return item
    return None


def staged_stop(op: Op) -> bool:
    """``x[:n]`` with a staged ``n``: a value of run-time length (``xla_ragged``)."""
    index = op.args[1]
    return op.kind == "getitem" and index.__class__ is slice and index.start is None \
        and index.step is None and index.stop.__class__ is Value


def _staged_slice(index) -> bool:
    for item in (index if index.__class__ is tuple else (index,)):
        if item.__class__ is slice and any(b.__class__ is Value and b.const is None
                                           for b in (item.start, item.stop, item.step)):
            return True
    return False


def _all_values(graph):
    seen = set()
    for op, _ in walk(graph.body):
        for value in op.outputs:
            if value.id not in seen:
                seen.add(value.id)
                yield value
    for value in graph.inputs:
        if value.__class__ is Value:
            yield value


# --- NumPy's promotion ----------------------------------------------------------------

def _kind(obj):
    """What ``np.result_type`` takes for an operand: a dtype, or a Python scalar for a
    weak value (NEP 50: it takes the other operand's type)."""
    if obj.__class__ is Value:
        return obj.dtype.type(0).item() if obj.weak else obj.dtype
    if obj.__class__ in (bool, int, float, complex):
        return obj.__class__(0)
    if isinstance(obj, (np.ndarray, np.generic)):
        return obj.dtype
    if obj.__class__ in (list, tuple):
        try:
            return np.asarray(obj).dtype
        except (TypeError, ValueError):
            return None
    return None


def common_dtype(operands):
    """The dtype NumPy computes an elementwise op of ``operands`` in, or None."""
    kinds = [k for k in map(_kind, operands) if k is not None]
    if not kinds:
        return None
    try:
        return np.result_type(*kinds)
    except TypeError:
        return None


def cast_all(values, operands, dtype):
    """``values`` (the run-time operands) cast to ``dtype``: Python scalars become arrays of
    it (``jnp.asarray(2, float32)``), arrays are converted."""
    if dtype is None:
        return list(values)
    return [jnp.asarray(v, dtype) if _kind(o) is not None else v
            for v, o in zip(values, operands)]


def binop(op: Op, values):
    a, b = op.args
    fn = _BINARY[op.target]
    out = op.outputs[0]
    dtype = common_dtype((a, b))
    if op.target == "/":  # NumPy divides integers as float64: its loop is float's
        dtype = out.dtype
    elif op.target in _COMPARISONS:
        dtype = _comparing(dtype, (a, b))
    if dtype == out.dtype or op.target in _COMPARISONS or op.target == "/":
        values = cast_all(values, (a, b), dtype)
    if op.target in ("//", "%"):
        return _by_zero(fn(*values), values[1])
    if op.target == "**" and _constant(b) == 2 and out.dtype == common_dtype((a,)):
        return jnp.square(values[0])  # as NumPy's x ** 2 (XLA's pow is a slow exp-log)
    return fn(*values)


def _constant(obj):
    """The Python number ``obj`` is while lowering (a literal or a constant), or None."""
    if obj.__class__ is Value:
        obj = obj.const if obj.shape == () else None
    return obj if obj.__class__ in (int, float) or isinstance(obj, np.generic) else None


def _by_zero(result, divisor):
    """NumPy's integer ``//`` and ``%`` by zero give 0 (with a warning); XLA's do not."""
    divisor = jnp.asarray(divisor)
    if not jnp.issubdtype(divisor.dtype, jnp.integer) and divisor.dtype != jnp.bool_:
        return result
    return jnp.where(divisor == 0, jnp.zeros((), result.dtype), result)


def _comparing(dtype, operands):
    """The dtype a comparison runs in: NumPy compares a Python int that the other operand's
    integer dtype cannot hold by its value (``uint8 < -2`` is False), not by a cast."""
    if dtype is None or dtype.kind not in "iu":
        return dtype
    info = np.iinfo(dtype)
    for o in operands:
        if o.__class__ is int and not info.min <= o <= info.max:
            fits = np.iinfo(np.int64).min <= o <= np.iinfo(np.int64).max
            return np.dtype(np.int64 if fits and dtype != np.uint64 else np.float64)
    return dtype


def unop(op: Op, x):
    target = op.target
    if target == "-":
        return jnp.negative(x)
    if target == "+":
        return jnp.positive(x)
    if target == "~":
        return jnp.invert(x)
    if target == "abs":
        return jnp.abs(x)
    if target == "not":
        return jnp.logical_not(truth(x))
    raise ValueError(f"unknown unary operator {target!r}")


def truth(x):
    """Python's ``bool`` of a one-element value."""
    x = jnp.reshape(jnp.asarray(x), ())
    return x if x.dtype == jnp.bool_ else x != 0


def call(op: Op, args, kwargs):
    """``op.target(*args, **kwargs)`` in ``jax.numpy``; ``args`` hold run-time values."""
    fn = op.target
    if fn is builtins.len:
        return jnp.shape(args[0])[0]
    if fn is write_row:  # a row of a list's buffer, bounded (``_unbounded_list``)
        rows = jnp.asarray(args[0])
        return rows.at[args[1]].set(jnp.asarray(args[2]).astype(rows.dtype))
    jfn = twin(fn)
    if isinstance(fn, np.ufunc) and fn.nin >= 2 and not kwargs.get("dtype"):
        out = op.outputs[0] if op.outputs else None
        dtype = common_dtype(op.args[:fn.nin])
        if fn is np.true_divide and out is not None:
            dtype = out.dtype
        elif out is not None and out.dtype == np.bool_:
            dtype = _comparing(dtype, op.args[:fn.nin])
        if out is not None and (dtype == out.dtype or out.dtype == np.bool_):
            args = cast_all(args[:fn.nin], op.args[:fn.nin], dtype) + list(args[fn.nin:])
    elif getattr(fn, "__module__", None) == "math" and fn.__name__ == "log" and len(args) == 2:
        return jnp.log(args[0]) / jnp.log(args[1])
    elif fn in (np.sum, np.prod, np.cumsum, np.cumprod, np.nansum) and "dtype" not in kwargs \
            and op.outputs and len(op.outputs) == 1:
        kwargs = dict(kwargs, dtype=op.outputs[0].dtype)
    if fn in (np.floor_divide, np.remainder, np.fmod) and len(args) >= 2:
        return _by_zero(_with_arrays(jfn, args, kwargs), args[1])
    renamed = _KEYWORDS.get(getattr(fn, "__name__", ""))
    if renamed:
        kwargs = {renamed.get(k, k): v for k, v in kwargs.items()}
    return _with_arrays(jfn, args, kwargs)


def _with_arrays(fn, args, kwargs):
    """``fn(*args, **kwargs)``; where ``jax.numpy`` refuses a list or tuple that NumPy
    takes as an array (``np.max([a, b])``), the list becomes one."""
    try:
        return fn(*args, **kwargs)
    except TypeError as error:
        if "list" not in str(error) and "tuple" not in str(error):
            raise
    args = [jnp.asarray(a) if a.__class__ in (list, tuple) and _array_like(a) else a
            for a in args]
    return fn(*args, **kwargs)


def _array_like(items) -> bool:
    return all(isinstance(x, (jax.Array, np.ndarray, np.generic, int, float, bool, complex))
               or (x.__class__ in (list, tuple) and _array_like(x)) for x in items)


def method(op: Op, x, args, kwargs):
    name = op.target
    if name == "item":
        return jnp.reshape(x, ()) if not args else jnp.ravel(x)[args[0]]
    if name == "copy":
        return x
    if name == "astype":
        return x.astype(*args, **kwargs)
    if name in ("sum", "prod", "cumsum", "cumprod") and "dtype" not in kwargs and \
            len(op.outputs) == 1 and len(args) < 2:
        kwargs = dict(kwargs, dtype=op.outputs[0].dtype)
    bound = getattr(x, name, None)
    if bound is not None:
        return _with_arrays(bound, args, kwargs)
    fn = getattr(jnp, name)  # argpartition, ptp ... exist as functions only
    return _with_arrays(fn, (x, *args), kwargs)


def pycast(op: Op, x):
    """``int(x)``/``float(x)``/``bool(x)``: the one element, as the weak value's dtype."""
    x = jnp.reshape(x, ())
    if op.target == "bool":
        return truth(x)
    if op.target == "int" and jnp.issubdtype(x.dtype, jnp.floating):
        x = jnp.trunc(x)
    return x


def math_failure(op: Op, args, result):
    """``[(bad, exception)]`` where a ``math`` function raises and XLA gives NaN or
    infinity instead (``math.sqrt(-1)``: ValueError; ``math.exp(1000)``: OverflowError)."""
    name = getattr(op.target, "__name__", "")
    if getattr(op.target, "__module__", None) != "math" or name not in _MATH_CHECKED:
        return []
    finite = jnp.array(True)
    for a in args:
        if isinstance(a, (jax.Array, np.ndarray)) or a.__class__ in (int, float):
            finite = finite & jnp.all(jnp.isfinite(jnp.asarray(a, jnp.float64)))
    r = jnp.asarray(result[0] if isinstance(result, tuple) else result)
    if name in _MATH_RANGE:
        return [(finite & jnp.isnan(r), ValueError("math domain error")),
                (finite & jnp.isinf(r), OverflowError("math range error"))]
    return [(finite & ~jnp.isfinite(r), ValueError("math domain error"))]
