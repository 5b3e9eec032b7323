"""Recording ops while a function is traced, and inferring what they produce.

``record`` appends one op to the block being traced and returns the op's result
with symbolic ``Tensor``s where NumPy would have returned arrays. The dtype and
shape of every result are found by *running NumPy itself* on stand-in arrays of
the right dtype and shape (zero-strided views of one element, so they cost no
memory) with Python scalars left as Python scalars. The graph therefore gets
exactly NumPy's NEP 50 promotion, broadcasting and error messages: whatever
eager NumPy would compute or raise for these dtypes and shapes, tracing does.

Unknown (``None``) dimensions are found by running twice with two stand-in sizes
and keeping the dimensions that did not change. Ops whose result shape depends
on values (boolean masks, ``nonzero``, ``unique``) run twice with all-false and
all-true stand-ins instead. Matrix products get a shape rule, so tracing a big
model does not multiply big stand-ins.

An op whose inputs are all constants is not recorded: it runs right away and
its result is a concrete array (constant folding during tracing).
"""

from __future__ import annotations

import contextvars
import operator as _operator
import os
from sys import _getframe  # the runtime's own: a user may take it off sys
from typing import Optional

import numpy as np

from ...staging import RUNTIME_DIR as _RUNTIME_DIR
from ...staging.arrays import same_bytes
from .ir import Block, Graph, Op, Value, VarRef, is_namedtuple, map_values, walk_values

_NUMPY_DIR = os.path.dirname(np.__file__)
_SKIP_DIRS = (_RUNTIME_DIR, _NUMPY_DIR)

_NONE_SIZES = (5, 7)  # stand-in sizes for unknown dimensions


class TraceState:
    """The trace being built: its graph, the block stack and captured variables."""

    def __init__(self, graph: Graph, function=None, first_trace: bool = True):
        self.graph = graph
        self.blocks: list[Block] = [graph.body]
        self.function = function
        self.first_trace = first_trace
        self.var_refs: dict[int, VarRef] = {}  # id(Variable) -> its reference
        self.created_variables: list = []
        self.texts = None  # every str/bytes a staged condition chooses (maybe_none.Texts)
        self.shown: dict = {}  # text -> (Value, conversion): tensors shown as text (raising)
        self.captured: dict = {}  # id(array) -> (array, its constant Value, contents read)
        # values a Python number on some paths (``python_chosen``), and the hooks the
        # tensors' binary operators call once there is one
        self.python_bits = None
        self.after_binop = None
        self.after_unop = None
        self.before_ufunc = None

    def capture(self, array: np.ndarray) -> Value:
        """The constant of ``array`` that an op reads now. Between calls the graph reads
        the array by reference (a global changed in place is seen by the next call); an
        array that changes during the trace is read by value: the ops recorded before
        the change keep the contents they read (``settle_captures``)."""
        seen = self.captured.get(id(array))
        if seen is not None and seen[0] is array:
            if same_bytes(array, seen[2]):
                return seen[1]
            seen[1].const = seen[2]  # changed since: the ops so far read the old contents
        value = self.graph.new_value(array.dtype, array.shape, const=np.asarray(array))
        self.captured[id(array)] = (array, value, np.array(array, subok=False))
        return value

    def settle_captures(self) -> None:
        """At the end of the trace: a captured array changed after its last read keeps,
        in the graph, the contents the ops read."""
        for array, value, before in self.captured.values():
            if not same_bytes(array, before):
                value.const = before
        self.captured.clear()

    def append(self, op: Op) -> None:
        self.blocks[-1].ops.append(op)


# The traces open in this thread (or asyncio task), innermost last: a trace belongs
# to the context that runs it, so threads trace in parallel without seeing each other.
_stack: contextvars.ContextVar[tuple] = contextvars.ContextVar("autograph_traces", default=())


def current() -> Optional[TraceState]:
    stack = _stack.get()
    return stack[-1] if stack else None


def active() -> bool:
    """True while this context traces a graph."""
    return bool(_stack.get())


def push(state: TraceState):
    """Open ``state`` in this context; returns the token ``pop`` takes."""
    return _stack.set(_stack.get() + (state,))


def pop(token) -> None:
    _stack.reset(token)


def user_source():
    """(filename, lineno) of the innermost frame outside autograph and numpy."""
    frame = _getframe(2)
    while frame is not None:
        filename = frame.f_code.co_filename
        if not filename.startswith(_SKIP_DIRS):
            return (filename, frame.f_lineno)
        frame = frame.f_back
    return None


# --- converting between what user code sees and what the graph stores ---------------

def to_value(obj, state: TraceState):
    """A graph Value for a Tensor, concrete array or Variable; other objects as they are."""
    from .tensor import Tensor
    from .variables import Variable

    cls = obj.__class__
    if cls is Tensor:
        value = obj._value
        if obj._graph is not state.graph:
            raise_foreign(obj)
        return value
    if cls is np.ndarray or isinstance(obj, np.ndarray):
        return state.capture(obj)
    if isinstance(obj, np.generic):
        return state.graph.new_value(obj.dtype, (), const=obj)
    if isinstance(obj, Variable):
        return obj._read_in(state)
    if cls is tuple or cls is list:
        return cls(to_value(x, state) for x in obj)
    if cls is dict:
        return {k: to_value(v, state) for k, v in obj.items()}
    if cls is slice:
        return slice(to_value(obj.start, state), to_value(obj.stop, state), to_value(obj.step, state))
    if is_namedtuple(obj):
        return cls(*(to_value(x, state) for x in obj))
    return obj


def raise_foreign(tensor):
    raise ValueError(
        f"autograph.function: the symbolic tensor {tensor._value.name} "
        f"({tensor._value.type_str()}) belongs to another trace (it was kept from an "
        f"earlier call, e.g. in a global or an attribute). Return it from the function "
        f"that made it, or keep state in an autograph.Variable."
    )


def wrap(structure, state: TraceState):
    """Values (non-constant) become Tensors for user code; constants their arrays."""
    from .tensor import Tensor

    def leaf(value: Value):
        if value.const is not None:
            return value.const
        return Tensor(value, state.graph)

    return map_values(structure, leaf)


# --- recording -------------------------------------------------------------------------

def record(kind: str, target, args=(), kwargs=None, *, data_dependent=False, effect=False,
           weak_result=False):
    """Record one op in the current trace and return its result for user code."""
    state = current()
    args = to_value(tuple(args), state)
    kwargs = to_value(dict(kwargs or {}), state)
    inputs: list[Value] = []
    walk_values((args, kwargs), inputs.append)
    if not effect and inputs and all(v.const is not None for v in inputs):
        return evaluate(kind, target, args, kwargs, lambda v: v.const)
    result = infer(kind, target, args, kwargs, inputs, data_dependent)
    weak = weak_result or any(v.weak for v in inputs)
    outputs: list[Value] = []
    # A NumPy function's Python scalar result depends on the values too (np.allclose,
    # np.array_equal): a value of the graph, not the stand-ins' answer.
    tree = _result_tree(result, state.graph, outputs, weak or kind == "call")
    op = Op(kind, target, args, kwargs, outputs, tree, source=user_source(), effect=effect)
    state.append(op)
    return wrap(tree, state)


def note_zero_d_array(fn, value: Value, graph: Graph) -> None:
    """The 0-d ``value`` the user's call of the NumPy function ``fn`` recorded, if it is
    eagerly a 0-d array (``np.where`` of scalars), not a NumPy scalar: noted in
    ``graph.zero_d_arrays``, as a 0-d argument array is, so that an in-place operator
    changes it as NumPy does (every name holding it sees the change) instead of
    rebinding it. Run on stand-ins that are 0-d arrays where the values are
    (``zero_d_arrays``) and NumPy scalars elsewhere. (Not the runtime's own calls: the
    ``np.where`` of a staged ``min`` stands for a choice of numbers.)"""
    op = value.op
    if op is None or op.kind != "call" or op.target is not fn or value.shape or value.weak:
        return
    args, kwargs, zero_d = op.args, op.kwargs, graph.zero_d_arrays

    def leaf(v: Value):
        if v.const is not None or v.weak or v.shape or v.id in zero_d:
            return stand_in(v, 1, 0)
        return v.dtype.type(0)

    try:
        out = evaluate("call", fn, args, kwargs, leaf)
    except Exception:  # noqa: BLE001 - the stand-ins' own failure: not known to be an array
        return
    if out.__class__ is np.ndarray and not out.ndim:
        zero_d.add(value.id)


def _result_tree(result, graph: Graph, outputs: list, weak: bool):
    """Replace the arrays (and dynamic Python scalars) of a stand-in result by new Values."""
    cls = result.__class__
    if isinstance(result, (np.ndarray, np.generic)):
        value = graph.new_value(result.dtype, result.shape)
        outputs.append(value)
        return value
    if weak and cls in (bool, int, float, complex):
        value = graph.new_value(np.asarray(result).dtype, (), weak=True)
        outputs.append(value)
        return value
    if cls is tuple or cls is list:
        return cls(_result_tree(r, graph, outputs, weak) for r in result)
    if isinstance(result, tuple) and hasattr(result, "_fields"):  # a named tuple
        return cls(*(_result_tree(r, graph, outputs, weak) for r in result))
    return result  # a static result (a shape, a dtype ...) stays as it is


def evaluate(kind, target, args, kwargs, leaf):
    """Run one op on concrete stand-ins: ``leaf(value)`` gives each Value's array."""
    args = map_values(args, leaf)
    kwargs = map_values(kwargs, leaf)
    if kind == "call":
        return target(*args, **kwargs)
    if kind == "binop":
        return BINARY[target](args[0], args[1])
    if kind == "unop":
        return UNARY[target](args[0])
    if kind == "method":
        return getattr(args[0], target)(*args[1:], **kwargs)
    if kind == "attr":
        return getattr(args[0], target)
    if kind == "getitem":
        return args[0][args[1]]
    if kind == "pycast":
        return {"float": float, "int": int, "bool": bool, "complex": complex}[target](args[0])
    raise ValueError(f"cannot evaluate op kind {kind!r}")


BINARY = {
    "+": _operator.add, "-": _operator.sub, "*": _operator.mul, "/": _operator.truediv,
    "//": _operator.floordiv, "%": _operator.mod, "**": _operator.pow, "@": _operator.matmul,
    "&": _operator.and_, "|": _operator.or_, "^": _operator.xor, "<<": _operator.lshift,
    ">>": _operator.rshift, "==": _operator.eq, "!=": _operator.ne, "<": _operator.lt,
    "<=": _operator.le, ">": _operator.gt, ">=": _operator.ge,
}
UNARY = {"-": _operator.neg, "+": _operator.pos, "~": _operator.invert, "abs": abs,
         "not": _operator.not_}


# --- inference -------------------------------------------------------------------------

def stand_in(value: Value, size: int, fill):
    """A cheap concrete array (or Python scalar) with the dtype and shape of ``value``."""
    if value.const is not None:
        return value.const
    if value.weak:
        return value.dtype.type(fill).item()
    shape = tuple(size if d is None else d for d in value.shape)
    return np.broadcast_to(np.array(fill, value.dtype), shape)


def _random_stand_in(value: Value, size: int):
    if value.const is not None or value.weak:
        return stand_in(value, size, 1)
    shape = tuple(size if d is None else d for d in value.shape)
    return (np.random.default_rng(0).random(shape) + 0.5).astype(value.dtype)


def infer(kind, target, args, kwargs, inputs, data_dependent):
    """The result of an op on stand-ins, with None where dimensions are unknown."""
    if _is_matmul(kind, target):
        return _infer_matmul(args)
    has_none = any(None in v.shape for v in inputs)
    if data_dependent:
        first = _run(kind, target, args, kwargs, _NONE_SIZES[0], 0)
        second = _run(kind, target, args, kwargs, _NONE_SIZES[0], 1)
        return _merge_other(_merge(first, second), kind, target, args, kwargs, _DISTINCT)
    first = _run(kind, target, args, kwargs, _NONE_SIZES[0], 0)
    if _steered(kind, target, inputs):
        first = _merge_other(first, kind, target, args, kwargs, 1)
    if not has_none:
        return first
    return _merge(first, _run(kind, target, args, kwargs, _NONE_SIZES[1], 0))


_DISTINCT = "distinct"  # a fill: every item of every stand-in a different value


def _distinct_stand_ins(size: int):
    """Stand-ins whose items all differ, within an argument and across arguments: a
    constant fill cannot show how a result's length follows the values (``unique`` of
    zeros and of ones has one item either way, ``setdiff1d`` of equal arguments none)."""
    start = [0]

    def make(value: Value):
        if value.const is not None or value.weak:
            return stand_in(value, size, 1)
        shape = tuple(size if d is None else d for d in value.shape)
        count = int(np.prod(shape))
        items = np.arange(start[0], start[0] + count) % (2 if value.dtype == bool else 1 << 62)
        start[0] += count
        return items.astype(value.dtype).reshape(shape)
    return make


def _steered(kind, target, inputs) -> bool:
    """Whether integer or bool inputs may set the result's shape: a slice bound, a count of
    repeats, a pad width, a split index, a new shape (``x[:n]``, ``np.repeat(x, n)``,
    ``np.bincount(x)``, ``x.reshape(n, -1)``). Elementwise ops never are."""
    if kind == "getitem" or kind == "method" or (kind == "call" and not isinstance(target, np.ufunc)):
        return any(v.const is None and v.dtype.kind in "iub" for v in inputs)
    return False


def _merge_other(result, kind, target, args, kwargs, fill):
    """``result`` with the dimensions that another fill of the stand-ins changes made
    unknown. Where that fill is not a valid input (an index out of range), ``result``."""
    try:
        other = _run(kind, target, args, kwargs, _NONE_SIZES[0], fill)
    except Exception:  # noqa: BLE001 - NumPy's refusal of this fill: nothing learnt
        return result
    return _merge(result, other)


def _run(kind, target, args, kwargs, size, fill):
    with np.errstate(all="ignore"):
        try:
            if fill is _DISTINCT:
                return evaluate(kind, target, args, kwargs, _distinct_stand_ins(size))
            return evaluate(kind, target, args, kwargs, lambda v: stand_in(v, size, fill))
        except (np.linalg.LinAlgError, ZeroDivisionError):
            return evaluate(kind, target, args, kwargs, lambda v: _random_stand_in(v, size))


def _merge(a, b):
    """Two stand-in results: dimensions that differ become None (as a shaped marker)."""
    if isinstance(a, (np.ndarray, np.generic)):
        if a.ndim != np.ndim(b):
            return _Unknown(a.dtype, (None,) * a.ndim)
        shape = tuple(x if x == y else None for x, y in zip(a.shape, np.shape(b)))
        return a if shape == a.shape else _Unknown(a.dtype, shape)
    if isinstance(a, (tuple, list)):
        merged = [_merge(x, y) for x, y in zip(a, b)]
        return type(a)(*merged) if hasattr(a, "_fields") else type(a)(merged)
    return a


class _Unknown(np.ndarray):
    """Stands for an array with some unknown dims (only its dtype and shape are read)."""

    def __new__(cls, dtype, shape):
        obj = np.ndarray.__new__(cls, (0,) * len(shape), dtype)
        obj._shape = shape
        return obj

    @property
    def shape(self):
        return self._shape


def _is_matmul(kind, target):
    return (kind == "binop" and target == "@") or (kind == "call" and target is np.matmul)


def _infer_matmul(args):
    """dtype from one-element stand-ins, shape by the matmul rule."""
    a, b = args[0], args[1]
    sa, sb = _shape(a), _shape(b)
    tiny_a = np.zeros((1,) * max(len(sa), 1), _dtype(a))
    tiny_b = np.zeros((1,) * max(len(sb), 1), _dtype(b))
    dtype = np.matmul(tiny_a, tiny_b).dtype
    if len(sa) == 0 or len(sb) == 0:
        raise ValueError("matmul: Input operand does not have enough dimensions")
    a2 = (1,) + tuple(sa) if len(sa) == 1 else tuple(sa)
    b2 = tuple(sb) + (1,) if len(sb) == 1 else tuple(sb)
    k1, k2 = a2[-1], b2[-2]
    if k1 is not None and k2 is not None and k1 != k2:
        raise ValueError(
            f"matmul: Input operand 1 has a mismatch in its core dimension 0, with gufunc "
            f"signature (n?,k),(k,m?)->(n?,m?) (size {k2} is different from {k1})")
    batch = _broadcast_dims(a2[:-2], b2[:-2])
    shape = batch + (a2[-2], b2[-1])
    if len(sa) == 1:
        shape = shape[:-2] + shape[-1:]
    if len(sb) == 1:
        shape = shape[:-1]
    return _Unknown(dtype, shape) if None in shape else np.broadcast_to(np.zeros((), dtype), shape)


def _shape(value) -> tuple:
    return value.shape if value.__class__ is Value else np.shape(value)


def _dtype(value):
    if value.__class__ is Value:
        return value.dtype
    return np.asarray(value).dtype


def _broadcast_dims(a: tuple, b: tuple) -> tuple:
    n = max(len(a), len(b))
    a = (1,) * (n - len(a)) + a
    b = (1,) * (n - len(b)) + b
    out = []
    for x, y in zip(a, b):
        if x == 1:
            out.append(y)
        elif y == 1 or x == y:
            out.append(x)
        elif x is None or y is None:
            out.append(x if y is None else y)
        else:
            raise ValueError(f"operands could not be broadcast together with shapes {a} {b}")
    return tuple(out)
