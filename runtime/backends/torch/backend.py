"""The PyTorch backend: Python control flow on tensors under ``torch.compile`` and ``torch.export``.

Where it runs. A converted function handed to the user (``ag.convert``) is marked for
dynamo as a *non-strict* region (``entry_point``): dynamo does not read its bytecode
but puts one call in its graph, and AOTAutograd traces that call in plain Python on
its tracing tensors, as ``torch.export.export(..., strict=False)`` does from the start.
So in every mode the staged body runs as ordinary Python while PyTorch traces
(``torch.compiler.is_compiling()``: ``is_tracing``), and the staging core (joins,
loop carries, every ``StagingError``) runs as it does for JAX. Outside a compile or an
export (eager calls) the converted function runs its Python path: the original.

The ops. ``if`` on a tensor is the ``cond`` operator, ``while`` on a tensor the
``while_loop`` operator, ``for`` over a tensor's first axis or over ``range`` with a
tensor bound a ``while_loop`` on a counter; ``assert`` is ``torch._assert_async``. An
``if`` whose branches only pick values, or compute only cheap scalar ops with no
gradient recorded (a lazy ``and`` of two conditions), is a ``where`` of both sides
(``_selectable``): PyTorch's ``cond`` costs far more per call.
The operators are called directly (``torch.ops.higher_order``), not through
``torch.cond``/``torch.while_loop``, which would hand the bodies to dynamo.

Tracing a body (``trace``) runs it once on placeholders, without recording ops,
to learn its outputs, and notes the tensors it reads from outside (closures,
parameters: ``_Reads``). The op then traces it again inside the operator with those
tensors passed in as operands (``_Passing``): PyTorch's operators take every tensor
they read as an operand. Python side effects of a body therefore happen twice per
trace (PyTorch itself runs a non-strict region three times per compile).

A Python number carried through a staged construct is a 0-d tensor marked as
standing for one (``tensors.WEAK``): a join or loop carry gives it the dtype of the
tensor it meets, a binary op in a traced body the dtype PyTorch gives a Python number
(``_python_numbers``). NumPy values meeting traced tensors are ``numpy_operands``' and
``indexing``'s.

What PyTorch 2.13 asks of the ops and this module hides: operands are tensors (Python
numbers of a carry become 0-d tensors), outputs never alias inputs (an output that is
an input or a view is cloned; a write into an input goes to a copy), a loop carry keeps
dtype and shape (the staging core casts), and a loop body
reads ``xs[k]`` with ``index_select`` (indexing with a 0-d tensor is refused there).
"""

from __future__ import annotations

from sys import _getframe  # the runtime's own: a user may take it off sys
import threading
import weakref

import numpy as np
import torch
from torch._higher_order_ops.cond import cond_op
from torch._higher_order_ops.utils import materialize_as_graph
from torch._higher_order_ops.while_loop import while_loop_op
from torch._guards import detect_fake_mode
from torch.fx.experimental.proxy_tensor import disable_proxy_modes_tracing
from torch.overrides import TorchFunctionMode
from torch.utils import _pytree

from ...staging import backend as backends, converted, errors, maybe_none, raises as staged_raise
from ...staging import state as staging
from ...staging.loops import Carry, StagedEnumerate, reversed_bounds
from ...staging.state import Aval
from . import maybe_none as _torch_maybe_none  # noqa: F401  (its pytree: refused as an output)
from . import dynamo_errors, indexing, lists, numpy_operands, outside_conversions
from .tensors import (
    NUMPY_ARRAY, TO_NUMPY, TO_TORCH, WEAK, as_tensor, is_number_like, is_weak, like, np_dtype,
    py_dtype, weak,
)


# True while ``torch.compile`` or ``torch.export`` traces (one flag read): PyTorch's own
# function, not a wrapper of it, since every eager call of a converted function asks it
# (``mode.staging``), and dynamo knows it (no guard on the flag it reads).
is_tracing = torch.compiler.is_compiling


# ---------------------------------------------------------------- types

_COUNTER = Aval(np.dtype(np.int64), (), True)  # a loop's trip counter (a Python int eagerly)


def _aval(x):
    if isinstance(x, torch.Tensor):
        shape = tuple(d if d.__class__ is int else None for d in x.shape)
        return Aval(np_dtype(x.dtype), shape, not shape and getattr(x, WEAK, False))
    if is_number_like(x):
        return Aval(py_dtype(x), (), True)
    if isinstance(x, (np.ndarray, np.generic)) and x.dtype in TO_TORCH:
        return Aval(x.dtype, tuple(np.shape(x)), False)
    return None



# ---------------------------------------------------------------- tracing bodies


class _Bodies(threading.local):
    depth = 0  # how many bodies of operators are being traced (``_Swapping`` modes)


_bodies = _Bodies()


class _Swapping(TorchFunctionMode):
    """Runs a body with tensors from outside it replaced by stand-ins (``swap``: id of
    the outside tensor -> its stand-in). A write into a tensor from outside (``i += 1``
    on a Python number carried as a tensor, ``x[0] = v``) writes into a copy that stands
    for it from then on, as the operators cannot change their inputs."""

    def __init__(self) -> None:
        super().__init__()
        self.swap: dict = {}

    def __enter__(self):
        _bodies.depth += 1
        return super().__enter__()

    def __exit__(self, *exc):
        _bodies.depth -= 1
        return super().__exit__(*exc)

    def outside(self, t) -> bool:
        raise NotImplementedError

    def __torch_function__(self, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        swap = self.swap
        first = args[0] if args else None
        if isinstance(first, torch.Tensor) \
                and _writes_first(func) and self.outside(first):
            _refuse_module_state_write(first)
            copy = like(swap.get(id(first), first).clone(), first)
            self.wrote(first, copy)
            swap[id(first)] = copy
        if swap:
            args, kwargs = _pytree.tree_map_only(
                torch.Tensor, lambda t: swap.get(id(t), t), (args, kwargs))
        if len(args) == 2 and getattr(func, "__name__", "") in _ARITHMETIC:
            return _python_numbers(func, args, kwargs, self.call)
        return self.call(func, args, kwargs)

    def wrote(self, original, copy) -> None:
        pass

    def call(self, func, args, kwargs):
        return func(*args, **kwargs)


class _Reads(_Swapping):
    """Notes the tensors a body reads that it did not make (closures, parameters)."""

    def __init__(self, inputs) -> None:
        super().__init__()
        self.made = {id(t) for t in inputs}
        self.keep = list(inputs)  # ids stay unique while they are looked at
        self.outside_tensors: list = []
        self._seen: set = set()
        self.computes = False  # whether the body calls an op (not only picks values)
        self.cheap = True  # whether each op is a scalar one that cannot fail (_CHEAP_OPS)

    def outside(self, t) -> bool:
        return id(t) not in self.made

    def wrote(self, original, copy) -> None:
        self._note(original)
        self.made.add(id(copy))
        self.keep.append(copy)

    def _note(self, leaf) -> None:
        if id(leaf) not in self.made and id(leaf) not in self._seen:
            self._seen.add(id(leaf))
            self.outside_tensors.append(leaf)

    def call(self, func, args, kwargs):
        name = getattr(func, "__name__", "")
        if name not in _METADATA:
            self.computes = True
            self.cheap = self.cheap and name in _CHEAP_OPS
        for leaf in _pytree.tree_leaves((args, kwargs)):
            if isinstance(leaf, torch.Tensor):
                self._note(leaf)
                self.cheap = self.cheap and leaf.dim() == 0
        out = func(*args, **kwargs)
        for leaf in _pytree.tree_leaves(out):
            if isinstance(leaf, torch.Tensor):
                self.made.add(id(leaf))
                self.keep.append(leaf)
                self.cheap = self.cheap and leaf.dim() == 0
        return out


# What ``cond`` may run on both sides and choose from with ``where`` (``_selectable``):
# reads of a tensor's metadata, and elementwise ops that cannot fail when the program
# runs (no integer division, no indexing, no random numbers, no writes).
_METADATA = frozenset({"__get__", "dim", "size", "numel", "__len__"})
_CHEAP_OPS = frozenset({
    "__lt__", "__le__", "__gt__", "__ge__", "__eq__", "__ne__", "lt", "le", "gt", "ge", "eq",
    "ne", "__and__", "__or__", "__xor__", "__invert__", "__rand__", "__ror__", "__rxor__",
    "logical_and", "logical_or", "logical_not", "logical_xor", "bitwise_and", "bitwise_or",
    "bitwise_xor", "bitwise_not", "__add__", "__radd__", "__sub__", "__rsub__", "__mul__",
    "__rmul__", "__neg__", "__pos__", "__abs__", "__truediv__", "__rtruediv__", "add", "sub",
    "mul", "neg", "abs", "true_divide", "maximum", "minimum", "clamp", "where", "sign",
    "square", "exp", "log", "sqrt", "sin", "cos", "tanh", "sigmoid", "to", "float", "double",
    "int", "long", "bool", "clone", "detach", "full", "zeros", "ones", "zeros_like",
    "ones_like", "full_like"})


# Binary ops where a Python number meets a tensor (``_python_numbers``).
_ARITHMETIC = frozenset({
    f"__{p}{n}__" for p in ("", "r") for n in (
        "add", "sub", "mul", "truediv", "floordiv", "mod", "pow", "and", "or", "xor")} | {
    "add", "sub", "mul", "div", "true_divide", "floor_divide", "remainder", "pow",
    "maximum", "minimum", "bitwise_and", "bitwise_or", "bitwise_xor"})
_NUMBER_OF_KIND = {"b": True, "i": 1, "u": 1, "f": 1.0, "c": 1j}


def _python_numbers(func, args, kwargs, call):
    """A binary op of a body on a tensor standing for a Python number (``WEAK``), as
    Python computes it: with a tensor, the number takes the dtype PyTorch gives a Python
    number of its kind there (an int keeps an int32 tensor's dtype, 0-d or not); with
    another number, the result stands for a number too."""
    a, b = args
    weak_a, weak_b = is_weak(a), is_weak(b)
    if not (weak_a or weak_b):
        return call(func, args, kwargs)
    number, other = (a, b) if weak_a else (b, a)
    if weak_a and weak_b or staging.is_number(other):
        out = call(func, args, kwargs)
        return like(out, number) if isinstance(out, torch.Tensor) and out.dim() == 0 else out
    if isinstance(other, torch.Tensor):
        dtype = torch.result_type(other, _NUMBER_OF_KIND[np_dtype(number.dtype).kind])
        number = call(torch.Tensor.to, (number, dtype), {})  # an op of the body
        args = (number, other) if weak_a else (other, number)
    return call(func, args, kwargs)


_IN_PLACE_DUNDERS = frozenset({"__iadd__", "__isub__", "__imul__", "__itruediv__",
                               "__ifloordiv__", "__imod__", "__ipow__", "__iand__", "__ior__",
                               "__ixor__", "__ilshift__", "__irshift__", "__imatmul__",
                               "__setitem__"})


def _writes_first(func) -> bool:
    """Whether ``func`` writes into its first argument (``add_``, ``+=``, ``t[i] = v``)."""
    name = getattr(func, "__name__", "")
    return name in _IN_PLACE_DUNDERS or (name.endswith("_") and not name.startswith("_"))


class _Passing(_Swapping):
    """Runs a body inside an operator with the outside tensors it reads replaced by
    the operator's operands standing for them."""

    def __init__(self, outside, operands, carried=()) -> None:
        super().__init__()
        self.swap = {id(t): like(o, t) for t, o in zip(outside, operands)}
        self._inputs = {id(o) for o in (*operands, *carried)}

    def outside(self, t) -> bool:
        return id(t) in self.swap or id(t) in self._inputs

    def own(self, x):
        """An output of the body as the operator may return it: never an input of the
        operator or a view (a view of an input would alias it), else the output itself."""
        if not isinstance(x, torch.Tensor):
            return x
        x = self.swap.get(id(x), x)
        return x.clone() if id(x) in self._inputs or x._is_view() else x


class _Depth(threading.local):
    depth = 0
    reads = None  # the _Reads of the body being discovered

    def nested(self) -> bool:
        """Whether a body is being discovered (a staged construct in it then only gives
        placeholders, and the body counts as computing)."""
        if self.depth:
            self.reads.computes, self.reads.cheap = True, False
        return bool(self.depth)


# Inside ``trace``, a body runs only to learn its outputs (with no ops recorded):
# the staged constructs nested in it give placeholders of their outputs' types.
_discovering = _Depth()


class _Handle:
    """A body traced once: the function, the outside tensors it reads, whether it
    computes anything and whether only cheap scalar ops (``_Reads``)."""

    __slots__ = ("fn", "outside", "computes", "cheap", "avals")

    def __init__(self, fn, reads, avals) -> None:
        self.fn, self.outside, self.avals = fn, reads.outside_tensors, avals
        self.computes, self.cheap = reads.computes, reads.cheap


def _placeholder(aval: Aval) -> torch.Tensor:
    shape = tuple(1 if d is None else d for d in aval.shape)
    return weak(torch.zeros(shape, dtype=TO_TORCH[aval.dtype]), aval)


def _operands(tensors) -> tuple:
    """``tensors`` as operands of an operator: a real tensor (a module's parameter
    while dynamo runs a region on fake tensors) becomes a fake one of the running
    fake mode, as PyTorch's operators require."""
    tensors = tuple(tensors)
    mode = detect_fake_mode(tensors)
    if mode is None:
        return tuple(tensors)
    return tuple(t if t.__class__ not in (torch.Tensor, torch.nn.Parameter) else
                 mode.from_tensor(t) for t in tensors)


def _differentiable(carried: tuple, operands: tuple) -> tuple:
    """The initial carries of a ``while_loop``, each floating one requiring grad when
    autograd records and anything the loop reads requires grad. PyTorch 2.13's backward
    of ``while_loop`` passes a carry's gradient back through the iterations only when
    its *initial* value requires grad (it marks every iteration's saved carry with the
    initial value's flag): ``h = zeros(); while ...: h = f(h, w)`` would otherwise give
    ``w`` the gradient of the last iteration alone, silently wrong."""
    if not _records(carried, operands):
        return carried
    return tuple(t.requires_grad_() if (t.dtype.is_floating_point or t.dtype.is_complex)
                 and not t.requires_grad else t for t in carried)


def _records(carried: tuple, operands: tuple) -> bool:
    """Whether autograd records a loop of these carries and operands."""
    return torch.is_grad_enabled() and any(t.requires_grad for t in (*carried, *operands))


def _loop(cond_fn, body_fn, carried: tuple, operands: tuple) -> list:
    """``while_loop`` of ``cond_fn``/``body_fn`` over ``carried``, its outputs. Where
    autograd records it, with a trip counter in front, and each output that requires
    grad ``where(trips > 0, output, initial value)``: PyTorch 2.13's backward of a
    ``while_loop`` that ran no iteration still applies one step of the body's backward
    to the carries' gradient (``h = while_loop(i < 0, h * 3)`` gives ``h`` a gradient of
    3, not 1), so a loop its test ends at once would give silently wrong gradients. The
    ``where`` gives the loop a zero gradient then and the initial value the gradient."""
    if not _records(carried, operands):
        graphs = (_graph(f, carried + operands) for f in (cond_fn, body_fn))
        return list(while_loop_op(*graphs, carried, operands))

    def counted_cond(trips, *args):
        return cond_fn(*args)

    def counted_body(trips, *args):
        return (trips + 1, *body_fn(*args))

    counted = (torch.zeros((), dtype=torch.int64), *carried)
    graphs = (_graph(f, counted + operands) for f in (counted_cond, counted_body))
    trips, *outs = while_loop_op(*graphs, counted, operands)
    ran = trips > 0
    return [torch.where(ran, o, i) if o.requires_grad else o for o, i in zip(outs, carried)]


def _carried(init: tuple, operands: tuple) -> tuple:
    """The initial carries of a ``while_loop``: a copy of each that a copy must stand for
    (one that is also an operand or carried twice, a view: the operator refuses aliased
    inputs; every one where autograd records, as ``_differentiable`` marks them), the
    tensor itself otherwise (a copy per call of a large carry costs what a loop step
    does)."""
    if _records(init, operands):
        return tuple(t.clone() for t in init)
    seen = {id(t) for t in operands}
    out = []
    for t in init:
        out.append(t.clone() if id(t) in seen or t._is_view() else t)
        seen.add(id(t))
    return tuple(out)


def _graph(fn, operands):
    """What an operator is given for ``fn``. Where autograd records the operator (an
    operand requires grad), ``fn`` traced into a graph of its operands: the operator
    replays it later (its backward), when the variables ``fn`` reads have moved on.
    Otherwise ``fn`` itself, which the operator traces once while it is called (a
    graph made first would be traced again there: 3-4x the time of a case)."""
    if torch.is_grad_enabled() and any(
            isinstance(o, torch.Tensor) and o.requires_grad for o in operands):
        return materialize_as_graph(fn, tuple(operands))
    return fn


def _dense_gradient(operand):
    """``operand`` as a branch of ``cond`` reads it: where autograd records, through a
    flat view and back, whose backward is a ``reshape`` of the gradient: dense, as the
    other branch's zeros are. PyTorch 2.13's inductor refuses a ``cond`` whose branches'
    gradients differ in layout ("The sorted order of strides of the two branches' output
    doesn't match"), and the gradient of a ``Linear``'s weight is a transposed one."""
    if not (operand.requires_grad and torch.is_grad_enabled()) or operand.dim() < 2 \
            or not operand.is_contiguous():
        return operand
    return operand.reshape(-1).view(operand.shape)


def _selectable(handles, outside) -> bool:
    """Whether a ``cond`` of these branches may run both and choose their outputs with
    ``where``: PyTorch's ``cond`` costs far more per call than a few scalar ops. So when
    neither branch computes (each picks values), or each computes only ops that cannot
    fail on scalars and no gradient is recorded (the gradient of the side not taken could
    be NaN, and ``where`` would pass it on as NaN)."""
    if not any(h.computes for h in handles):
        return True
    return all(h.cheap for h in handles) and not (
        torch.is_grad_enabled() and any(t.requires_grad for t in outside))


def _select(pred, sides):
    """``where(pred, a, b)`` of the two branches' outputs, or None (then a ``cond``) if
    an output pair differs in dtype or shape, or has a size known only at run time."""
    chosen = []
    for a, b in zip(*sides):
        if a.dtype != b.dtype or any(d.__class__ is not int for d in (*a.shape, *b.shape)) \
                or a.shape != b.shape:
            return None
        chosen.append(torch.where(pred, a, b))
    return chosen


def _numbers_marked(tensors, avals) -> list:
    """The tensors an operator gives a body, those of weak ``avals`` marked (``WEAK``)."""
    return [weak(t, a) for t, a in zip(tensors, avals)]


def _outside(handles, skip=()) -> list:
    """The outside tensors of ``handles``, each once, without those in ``skip``."""
    seen, found = {id(t) for t in skip}, []
    for h in handles:
        for t in h.outside:
            if id(t) not in seen:
                seen.add(id(t))
                found.append(t)
    return found


# ---------------------------------------------------------------- staged iterables


class _Range:
    """``range(start, stop, step)`` with a tensor bound; ``for_stmt`` loops over it."""

    def __init__(self, start, stop, step):
        for bound in (start, stop, step):
            if isinstance(bound, torch.Tensor) and (bound.dtype.is_floating_point
                                                    or bound.dtype.is_complex):
                raise TypeError(f"'{str(bound.dtype)[6:]}' object cannot be interpreted as an "
                                f"integer")
        if staging.is_number(step) and step == 0:
            raise ValueError("range() arg 3 must not be zero")
        self.start, self.stop, self.step = start, stop, step

    def __len__(self):
        raise TypeError("len() of a range with a tensor bound is not a Python int")

    def __reversed__(self):
        if isinstance(self.step, torch.Tensor):  # reversed_bounds would ask for its value
            raise TypeError("reversed() of a range with a staged step is not supported: "
                            "give the step as a Python int")
        return _Range(*reversed_bounds(self.start, self.stop, self.step))

    def length(self) -> torch.Tensor:
        start, stop, step = (as_tensor(b, torch.int64) for b in (self.start, self.stop, self.step))
        up = torch.div(stop - start + step - 1, step, rounding_mode="floor")
        down = torch.div(start - stop - step - 1, -step, rounding_mode="floor")
        n = torch.where(step > 0, up, down)
        return torch.clamp(n, min=0).reshape(())


class _Enumerate(StagedEnumerate):
    """``enumerate`` of a tensor (``StagedEnumerate``)."""

    __slots__ = ()


_STAGED_ITERABLES = (_Range, _Enumerate)


# ---------------------------------------------------------------- the backend


class TorchBackend(backends.Backend):
    """Builds PyTorch's control-flow operators for tensors (see the module docstring)."""

    name = "torch"
    compiler, framework = "torch.compile", "PyTorch"
    unknown_dims = False
    branch_sizes_differ = True  # cond's outputs may (an unbacked size); while_loop's not
    sizes_after_loops = True  # a list a loop collects is cut to its length after it (lists)
    isinstance_as_concrete = True  # a tracing tensor is a torch.Tensor
    # A staged item used as an index (xs[i]) has PyTorch's tracer make a size it cannot
    # give back when a failed attempt then unrolls the loop: the rest of a range stays
    # one staged ``if`` per item here.
    stages_range_rest = False

    def owns_type(self, cls: type) -> bool:
        return issubclass(cls, (torch.Tensor, *_STAGED_ITERABLES))

    def is_tracing(self) -> bool:
        return is_tracing()

    def leaked(self, value) -> bool:
        return _is_fake(value)

    def trace_failure(self, error) -> bool:
        return dynamo_errors.trace_failure(error)

    def explain_error(self, error, location):
        """NumPy asked a tensor PyTorch traces for its values (``Tensor.__array__``):
        ``.numpy()``, or a NumPy function called on it by code autograph does not convert
        (NumPy's operators and ufuncs meeting it are ``numpy_operands``'). PyTorch says
        only ".numpy() is not supported for tensor subclasses"; the StagingError names
        the line."""
        if isinstance(error, RuntimeError) and "numpy() is not supported for tensor " \
                "subclasses" in str(error):
            return errors.StagingError(
                f"NumPy needs the values of a tensor PyTorch traces at {location} (.numpy(), "
                f"or a NumPy function called on it by code autograph does not convert), "
                f"which a traced program does not have (torch.compile, torch.export). Make "
                f"the NumPy value a tensor first (torch.as_tensor(a)), or call the NumPy "
                f"function on the tensor itself (np.f(t) runs PyTorch's twin of it).")
        if dynamo_errors.raised_by_a_raise(error):
            return None  # the program's own exception: eagerly it raises it too
        # Anything else failed because the values are tensors PyTorch traces, not the
        # NumPy arrays the original runs on (a NumPy method a tensor lacks, a negative
        # slice step, a guard on a value only the run knows). Dynamo would report it as
        # "Unsupported output type for nonstrict_trace-ed function", naming no line.
        text = str(error).split("\n", 1)[0][:300]
        return errors.StagingError(
            f"PyTorch could not trace the line at {location}: {type(error).__name__}: "
            f"{text}. torch.compile and torch.export run the converted function on the "
            f"tensors they trace, where the original runs on NumPy arrays, and this "
            f"operation is not one those tensors take (or it needs a value only the run "
            f"knows). Write the line with operations PyTorch's tensors support, or compute "
            f"it outside the compiled function and pass the result in.")

    def check_in_place(self, value) -> None:
        """``i += 1`` changes the tensor in place, as eagerly; but where a staged ``if``
        returned it for another name (``return i`` in a branch), that name holds a copy
        here and the same tensor eagerly: refused if it is read later. Inside a staged
        construct's body it changes a copy (``_Swapping``): refused where the tensor is an
        argument of the converted function, whose caller would never see the change."""
        if isinstance(value, torch.Tensor):
            from ...staging import holders

            holders.refuse_copied(value, "torch.compile and torch.export", torch.Tensor)
            if _bodies.depth:
                _refuse_argument_write(value, "in-place operator")

    def entry_point(self, fn) -> None:
        """Mark converted ``fn`` (or a module's converted ``forward``) as a non-strict
        region for dynamo: its staged body then runs as Python while AOTAutograd traces.
        Dynamo keeps what it compiles per code object, and what a region reads (the
        variables ``fn`` closes over) it does not guard: two converted closures of one
        function (a factory's, ``make(k)``) compiled apart would run the program the
        first one made. So each entry point gets a code object of its own."""
        if fn not in _marked:
            fresh = fn.__code__.replace()
            converted.copied(fn.__code__, fresh)
            fn.__code__ = fresh
        _mark_nonstrict(fn)

    def convert_object(self, obj, convert):
        """``ag.convert(module)``: the same module, its ``forward`` converted (parameters,
        buffers, hooks, ``state_dict``, ``train()``/``eval()`` untouched)."""
        if not isinstance(obj, torch.nn.Module):
            return None
        from .modules import convert_forward

        return convert_forward(obj, convert)

    # -- primitives

    def aval(self, value):
        return _aval(value)

    def cast(self, x, aval: Aval):
        t = as_tensor(x, TO_TORCH[aval.dtype])
        if t is x and not aval.weak and is_weak(x):  # a number given a tensor's type
            t = x.clone()
        return weak(t, aval)

    def zeros(self, aval: Aval):
        return weak(torch.zeros(aval.shape, dtype=TO_TORCH[aval.dtype]), aval)

    def predicate(self, cond):
        if not isinstance(cond, torch.Tensor):
            return torch.full((), bool(cond), dtype=torch.bool)
        if cond.dim() != 0:
            cond = cond.reshape(())
        return cond if cond.dtype == torch.bool else cond != 0

    def trace(self, fns, avals) -> list:
        handles = []
        for fn in fns:
            with disable_proxy_modes_tracing():
                inputs = [_placeholder(a) for a in avals]
            reads = _Reads(inputs)
            outer = _discovering.reads
            _discovering.depth += 1
            _discovering.reads = reads
            try:
                with disable_proxy_modes_tracing(), reads:
                    fn(*inputs)
            finally:
                _discovering.depth -= 1
                _discovering.reads = outer
            handles.append(_Handle(fn, reads, avals))
        return handles

    def cond(self, pred, handles, finish, avals) -> list:
        if _discovering.nested():  # only the outputs' types count: no graphs
            return [self.zeros(a) for a in avals]
        outside = _outside(handles)
        if _selectable(handles, outside):
            chosen = _select(pred, [finish[i](handles[i].fn()) for i in (0, 1)])
            if chosen is not None:
                return [weak(t, a) for t, a in zip(chosen, avals)]

        def branch(i):
            def run(*operands):
                passing = _Passing(outside, tuple(_dense_gradient(o) for o in operands))
                with passing:
                    out = finish[i](handles[i].fn())
                    return tuple(passing.own(o) for o in out) or (torch.zeros(()),)
            return run

        operands = _operands(outside)
        true_graph, false_graph = (_graph(branch(i), operands) for i in (0, 1))
        outs = cond_op(pred, true_graph, false_graph, operands)
        return [weak(t, a) for t, a in zip(outs, avals)]

    def while_loop(self, test, body, init) -> list:
        if _discovering.nested():
            return [weak(t.clone(), a) for t, a in zip(init, body.avals)]
        outside = _outside([test, body])
        n = len(init)

        def cond_fn(*args):
            with _Passing(outside, args[n:]):
                return test.fn(*_numbers_marked(args[:n], body.avals))[0]

        def body_fn(*args):
            passing = _Passing(outside, args[n:], args[:n])
            with passing:  # the body may write into its carry (i += 1): into a copy
                return tuple(passing.own(o) for o in body.fn(*_numbers_marked(args[:n], body.avals)))

        operands = _operands(outside)
        init = _differentiable(_carried(_operands(init), operands), operands)
        outs = _loop(cond_fn, body_fn, init, operands)
        return [weak(t, a) for t, a in zip(outs, body.avals)]

    # -- what staging leaves to the framework

    def not_(self, value):
        staging.predicate(self, value, "'not' expression", None)
        return torch.logical_not(self.predicate(value))

    def assert_stmt(self, cond, message):
        """Checked when the compiled program runs (``torch._assert_async``); the
        message is made while tracing (tensors in it show as they trace)."""
        pred = staging.predicate(self, cond, "assert statement", message)
        text = message() if message is not None else None
        torch._assert_async(pred, "AssertionError" if text is None else str(text))

    def for_stmt(self, iterable, body, state, names, extra_test, shared=None):
        """``for item in iterable: state = body(item, *state)``, stopping once
        ``extra_test(*state)`` (the lowered ``break``/``return``) is false: a
        ``while_loop`` on a trip counter; a tensor's rows are read with ``index_select``.

        Not the ``scan`` operator (private in 2.13), even for a loop over rows without
        ``break``: measured on 50 rows (``aot_eager``, a loaded machine) its forward ran
        1.4-1.9x faster than this ``while_loop``, but AOTAutograd fails to trace its
        backward ("derivative for aten::detach_copy is not implemented", or a tangent
        count mismatch with an index input), so a compiled training step would fail;
        and inductor rewrites ``scan`` into a ``while_loop`` before it generates code."""
        carry = Carry(self, tuple(state), names, shared, "for loop", body)
        enumerated = isinstance(iterable, _Enumerate)
        inner = iterable.iterable if enumerated else iterable
        first = iterable.start if enumerated else None
        if isinstance(inner, _Range):
            start, step_size, n = inner.start, inner.step, inner.length()
            carry.trips, rows = n, None

            def step(items, s):  # range() gives Python ints, whatever its bounds
                value = weak(as_tensor(start + items[0] * step_size, torch.int64), _COUNTER)
                return body(value if first is None else (first + items[0], value), *s)

            item_avals = [_COUNTER]
        else:
            rows = as_tensor(inner)
            if rows.dim() == 0:
                raise TypeError("iteration over a 0-d tensor")
            n = carry.trips = rows.shape[0]
            if n.__class__ is not int:
                n = as_tensor(n, torch.int64)

            def step(items, s):
                row = items[1]
                return body(row if first is None else (first + items[0], row), *s)

            item_avals = [_COUNTER, Aval(np_dtype(rows.dtype), tuple(rows.shape[1:]), False)]
        (handle,) = carry.trace(step, item_avals, extra_test=extra_test)
        flagged = extra_test is not None
        if _discovering.nested():
            outs = [t.clone() for t in carry.init()]
        else:
            outs = self._counted(handle, n, rows, carry.init(), flagged)
        return carry.finish([weak(t, a) for t, a in zip(outs, handle.avals[len(item_avals):])])

    @staticmethod
    def _counted(handle, n, rows, init, flagged: bool) -> list:
        """A while loop on the trip counter ``k`` and the body's go-on flag."""
        extra = [t for t in (n, rows) if isinstance(t, torch.Tensor)]
        outside = _outside([handle], skip=extra)
        m = len(init)

        def cond_fn(k, go_on, *args):
            limit = args[m] if isinstance(n, torch.Tensor) else n
            return torch.logical_and(k < limit, go_on)

        def body_fn(k, go_on, *args):
            dyn, given = args[:m], args[m:]
            items = [weak(k, _COUNTER)] if rows is None else [
                weak(k, _COUNTER),
                torch.index_select(given[len(extra) - 1], 0, k.reshape(1)).squeeze(0)]
            passing = _Passing(extra + outside, given, (*items, *dyn))
            with passing:
                outs = [passing.own(o) for o in handle.fn(*items, *_numbers_marked(dyn, handle.avals[len(items):]))]
            flag = outs[-1] if flagged else go_on.clone()
            return (k + 1, flag, *outs[:m])

        operands = _operands(extra + outside)
        carried = _differentiable(_carried(_operands(
            (torch.zeros((), dtype=torch.int64), torch.tensor(True), *init)), operands), operands)
        return _loop(cond_fn, body_fn, carried, operands)[2:]

    # -- lists a staged loop appends to (``accumulate``, ``lists``)

    def rows(self, aval, capacity=None):
        return lists.new_rows(aval.shape, TO_TORCH[aval.dtype], capacity)

    def write_row(self, rows, index, value):
        return lists.write_row(rows, index, value)

    def read_row(self, rows, index):
        return lists.read_row(rows, index)

    def rows_upto(self, rows, count):
        return lists.rows_upto(rows, count)

    def collected_call(self, fn, args, kwargs):
        return lists.collected_call(fn, args, kwargs)

    # -- builtins

    def range_(self, start, stop, step):
        return _Range(start, stop, step)

    def enumerate_(self, iterable, start):
        return _Enumerate(iterable, start)

    def len_(self, value):
        if isinstance(value, torch.Tensor):
            if value.dim() == 0:
                raise TypeError("len() of a 0-d tensor")
            return value.shape[0]
        return len(value)

    def getitem(self, target, index):
        """``target[index]`` with a tensor in ``index``: a NumPy array (a table made while
        tracing) as a tensor of its values, a 0-d integer tensor read as ``indexing`` does."""
        if isinstance(target, np.ndarray) and target.dtype in TO_TORCH:
            target = as_tensor(target)
        if isinstance(target, torch.Tensor):
            return indexing.read(target, index)
        return target[index]

    def setitem(self, target, index, value):
        """``target[index] = value``: in place outside the bodies of operators, as eagerly
        (a view written changes its base, an alias sees it), unless a staged construct
        gave another name read later a copy of what eager code would change (refused:
        ``holders.refuse_copied``); in a body, on a copy of ``target`` (an operator's body
        may not write into a tensor it did not make; a name read later that shares it is
        refused: ``_refuse_shared_write``)."""
        if isinstance(target, torch.Tensor) and not _bodies.depth:
            from ...staging import holders

            for t in {id(target): target, id(_root(target)): _root(target)}.values():
                holders.refuse_copied(t, "torch.compile and torch.export", torch.Tensor)
            _write(target, index, value)
            return target
        if isinstance(target, torch.Tensor) or (
                isinstance(target, np.ndarray) and target.dtype in TO_TORCH
                and any(isinstance(v, torch.Tensor) for v in _pytree.tree_leaves((index, value)))):
            # a NumPy array that takes a traced value becomes a tensor of its dtype
            if isinstance(target, torch.Tensor):
                _refuse_module_state_write(target)
                _refuse_argument_write(target)
                _refuse_shared_write(target)
                new = target.clone()
            else:  # a NumPy array: a tensor of its values stands for it (NUMPY_ARRAY)
                new = as_tensor(target)
                setattr(new, NUMPY_ARRAY, True)
            _write(new, index, value)
            return new
        target[index] = value
        return target

    def print_(self, args, sep, end, file, flush):
        """``ag.print`` under ``torch.compile``/``torch.export`` is refused: PyTorch
        2.13's print operator prints nothing (or fails) inside ``cond`` and ``while_loop``
        bodies, and a Python ``print`` runs once, while PyTorch traces (showing tracing
        tensors), not at every run. The text says what is printed: a tensor, or Python
        values only. Eager calls (no trace running) print as ``print`` prints."""
        if not is_tracing() and not any(_is_fake(a) for a in args):
            print(*args, sep=sep, end=end, file=file, flush=flush)
            return
        if any(isinstance(a, torch.Tensor) for a in args):
            raise errors.StagingError(
                f"autograph.print at {_user_line()} prints a tensor while PyTorch traces "
                f"(torch.compile or torch.export), and a traced PyTorch program cannot print "
                f"at run time everywhere (not inside cond or while_loop). Return the value "
                f"and print it outside the compiled function.")
        raise errors.StagingError(
            f"autograph.print at {_user_line()} prints Python values only while PyTorch "
            f"traces (torch.compile or torch.export): printed now, they would appear once, "
            f"when PyTorch traces, not at every run of the traced program, which cannot "
            f"print everywhere (not inside cond or while_loop). Print them outside the "
            f"compiled function.")

    def pair_values(self, label, t, f):
        return maybe_none.pair_values(label, t, f, self)  # None on one side: a flag

    def runs_once(self, trips):
        """A loop over a tensor whose length torch.compile keeps symbolic (a SymInt after
        automatic dynamic shapes): at least 1 under a guard the compiled program carries
        (a length 0 compiles again); an unbacked length stays unknown."""
        from torch.fx.experimental.symbolic_shapes import free_unbacked_symbols

        if not isinstance(trips, torch.SymInt) or free_unbacked_symbols(trips):
            return False
        return bool(trips >= 1)

    def raise_(self, exc, branch):
        raise staged_raise.cannot_raise("torch.compile", exc, branch, _CHECK_OUTSIDE) from None

    def numeric(self, name, args, kwargs):
        from . import numeric as torch_numeric

        return torch_numeric.numeric(name, args, kwargs)

    def numpy_call(self, fn, args, kwargs):
        from . import numpy_twins

        return numpy_twins.call(fn, args, kwargs)

    def array_method(self, method):
        from . import numpy_twins

        return numpy_twins.array_method(method) if is_tracing() else None


# What a staged raise's refusal advises: PyTorch's operators carry no exception type
# (``torch._assert_async`` fails with a RuntimeError), and a message formatted from
# tensors cannot be made while tracing.
_CHECK_OUTSIDE = ("Check the inputs before the compiled function (outside torch.compile and "
                  "torch.export), or use torch._assert_async for a check without the "
                  "exception's type.")


def _is_fake(value) -> bool:
    """A tensor of a trace (a fake or functional tensor), not an eager one."""
    return isinstance(value, torch.Tensor) and type(value) is not torch.Tensor and \
        not isinstance(value, torch.nn.Parameter)


def _user_line() -> str:
    from ...staging.arg_writes import user_location

    return user_location()


_marked: "weakref.WeakSet" = weakref.WeakSet()


class _ById:
    """A dictionary key equal to one object, without keeping that object alive."""

    __slots__ = ("key", "hash")

    def __init__(self, obj) -> None:
        self.key, self.hash = id(obj), hash(obj)

    def __hash__(self) -> int:
        return self.hash

    def __eq__(self, other) -> bool:
        return self is other or id(other) == self.key


def _mark_nonstrict(fn) -> None:
    """Make dynamo put calls of ``fn`` in its graph as one non-strict region, also when
    ``fn`` is what ``torch.compile`` was given (what ``torch._dynamo.nonstrict_trace``
    does, without the wrapper function it adds: eager calls stay ``fn`` itself)."""
    if fn in _marked:
        return
    from torch._dynamo import trace_rules
    from torch._dynamo.variables import TorchInGraphFunctionVariable

    from . import dynamo_errors, region_boundary, region_sizes, strict_export

    strict_export.repair()  # strict torch.export of a non-strict region fails in 2.13
    dynamo_errors.install()  # a StagingError reaches the user unwrapped
    region_sizes.install()  # a size only the region uses is its own (x[x > 1].sum())
    region_boundary.install()  # None, strings and NumPy values in and out
    region_boundary.run_as_python(fn.__code__)  # reached in eager code: dynamo stays out
    key = id(fn)
    region_sizes.regions.add(fn)
    trace_rules._allowed_callable_ids.add(key)
    trace_rules._nonstrict_trace_callable_ids.add(key)
    # torch.compile(fn) inlines a function this map calls in-graph, so the call of
    # fn itself is a non-strict region; the map holds the object, so only its id here
    rules = trace_rules.get_torch_obj_rule_map()
    marker = _ById(fn)
    rules[marker] = TorchInGraphFunctionVariable

    def forget() -> None:
        trace_rules._allowed_callable_ids.remove(key)
        trace_rules._nonstrict_trace_callable_ids.remove(key)
        rules.pop(marker, None)

    weakref.finalize(fn, forget)
    _marked.add(fn)


backend = TorchBackend()
backends.register(backend)
numpy_operands.install()  # a NumPy array or scalar operated with a traced tensor
outside_conversions.install()  # k.float() in a branch, k from outside it, under compile


def _root(t: torch.Tensor) -> torch.Tensor:
    """The tensor ``t`` views, or ``t``."""
    return t._base if t._base is not None else t


def _write(target: torch.Tensor, index, value) -> None:
    """``target[index] = value`` in place; a NumPy value first a tensor of ``target``'s
    dtype (NumPy casts it so; PyTorch's ``index_put`` takes no array of another dtype)."""
    if isinstance(value, (np.ndarray, np.generic)):
        value = as_tensor(value, target.dtype)
    if indexing.scalar_items(index) is not None:
        indexing.write(target, index, as_tensor(value, target.dtype))
    else:
        target[index] = value


def _refuse_argument_write(target, what: str = "item assignment") -> None:
    """A write inside a staged construct into an argument of a converted function (or a
    view of one): the construct writes into a copy, which the caller's tensor would
    never see (a silent wrong value): a ``StagingError`` naming the argument."""
    from ...staging.arg_writes import cannot_write, written_argument

    root = target._base if target._base is not None else target
    written = written_argument(target, depth=3) or (
        written_argument(root, depth=3) if root is not target else None)
    if written is not None and _held_by_a_caller(root, written):
        raise cannot_write("torch.compile and torch.export", written,
                           "a staged if or loop writes into a copy of it", what)


def _held_by_a_caller(root: torch.Tensor, written) -> bool:
    """Does a frame calling ``written``'s function hold ``root`` (the tensor written, or
    the one it views), or a view of it: as a local, an item of a local tuple, list or
    dict, or a module's parameter or buffer? A parameter the function rebound first
    (``v = v.clone()``) holds a tensor no caller holds, whose write no caller sees: not
    refused."""
    from ...staging.arg_writes import user_frames

    frame = next((f for f in user_frames(_getframe(2))
                  if f.f_code.co_name == written.function
                  and f.f_code.co_filename == written.filename), None)
    if frame is None:
        return True
    frame = frame.f_back
    # reading a tensor's _base here is no read of the body (_Reads notes what it touches)
    with torch._C.DisableTorchFunction():
        return _held_from(frame, root)


def _held_from(frame, root) -> bool:
    while frame is not None:
        for value in list(frame.f_locals.values()):
            if isinstance(value, (tuple, list)):
                items = value
            elif isinstance(value, dict):
                items = list(value.values())
            elif isinstance(value, torch.nn.Module):
                items = [*value.parameters(), *value.buffers()]
            else:
                items = (value,)
            if any(isinstance(v, torch.Tensor) and _root(v) is root for v in items):
                return True
        frame = frame.f_back
    return False


def _refuse_module_state_write(target) -> None:
    """A write inside a staged construct's body into a parameter or buffer of a module
    a converted function's frame holds (``self.count += 1``, ``self.count.add_(1)``,
    ``self.count[0] = v`` in a staged branch): the operator's body writes into a copy,
    and the module would keep its old value (a silent wrong value): a ``StagingError``
    naming it."""
    from ...staging.arg_writes import user_frames

    root = _root(target)
    with torch._C.DisableTorchFunction():  # no read of the body (_Reads notes what it touches)
        for frame in user_frames(_getframe(1)):
            for holder in list(frame.f_locals.values()):
                if not isinstance(holder, torch.nn.Module):
                    continue
                for kind, items in (("buffer", holder.named_buffers()),
                                    ("parameter", holder.named_parameters())):
                    name = next((n for n, t in items if t is root), None)
                    if name is not None:
                        raise errors.StagingError(
                            f"in-place write at {_user_line()}: '{name}', a {kind} of "
                            f"{type(holder).__name__}, is changed inside a staged if or "
                            f"loop, and under torch.compile and torch.export that construct "
                            f"changes a copy of it: the module's {kind} would keep its old "
                            f"value. Compute the new value in the construct (a variable it "
                            f"assigns) and copy it into the {kind} after it (.copy_(new)), "
                            f"or write it with no staged construct around the write "
                            f"(torch.where(cond, new, old)).")


def _refuse_shared_write(target) -> None:
    """``setitem`` writes into a copy, so only the name written sees the write: a
    ``StagingError`` if another name read later holds ``target``, a view of it or the
    tensor it views (``holders``), which eager code would see changed."""
    from ...staging import holders

    root = target._base if target._base is not None else target
    holders.refuse_shared_write(
        lambda v: v is target or (isinstance(v, torch.Tensor) and v.dim() > 0
                                   and (v._base if v._base is not None else v) is root),
        "torch.compile and torch.export", "tensor (a staged construct writes into a copy)")
