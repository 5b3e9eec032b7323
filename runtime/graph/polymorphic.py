"""``autograph.function``: trace once per input signature, then run compiled graphs.

A ``Function`` wraps a Python function. Each call puts its arguments in a
canonical order (one entry per parameter, defaults applied) and computes a cache
key from them: arrays and NumPy scalars by dtype and shape, Variables by dtype
and shape, Python values by value (type included, so ``1`` and ``1.0`` differ),
other objects by identity. A miss traces the (converted) function with symbolic
tensors in place of the arrays and compiles the graph into a ``ConcreteFunction``;
a hit calls the compiled code directly, which for plain positional arguments is
a tuple, a dictionary lookup and the generated function.

A ``ConcreteFunction`` is one graph. Called directly it checks every argument
against what it was traced for and names the parameter that does not fit.
"""

from __future__ import annotations

import functools
import inspect
import re
import warnings

import numpy as np

from .. import backends, staged_raise
from ..calls import converted
from ..mode import tracing
from ..undefined import NO_RETURN, Undefined
from . import maybe_none, messages, numeric, trace, writes
from .backend import BACKEND
from .codegen import compile_graph
from .ir import Graph, VarRef, escaped_value, type_str
from .optimize import optimize
from .tensor import Tensor
from .variables import Variable

_EAGER = [False]
_PY_STATIC = (int, float, bool, str, bytes, complex, type(None))
RETRACE_WARNING_AT = 5


class RetracingWarning(UserWarning):
    """An autograph.function traced again and again."""


def run_functions_eagerly(run_eagerly: bool) -> None:
    """Run every ``autograph.function`` as plain Python (for debugging) when True."""
    _EAGER[0] = bool(run_eagerly)


def functions_run_eagerly() -> bool:
    return _EAGER[0]


class TensorSpec:
    """The dtype and shape (``None`` for any size) an argument must have."""

    __slots__ = ("dtype", "name", "shape")

    def __init__(self, shape=(), dtype=np.float64, name: str | None = None):
        self.shape = tuple(None if d is None else int(d) for d in shape)
        self.dtype = np.dtype(dtype)
        self.name = name

    @classmethod
    def from_value(cls, value) -> TensorSpec:
        return cls(np.shape(value), np.asarray(value).dtype if not hasattr(value, "dtype")
                   else value.dtype)

    def fits(self, shape: tuple) -> bool:
        return len(shape) == len(self.shape) and all(
            d is None or d == e for d, e in zip(self.shape, shape))

    def __eq__(self, other):
        return isinstance(other, TensorSpec) and (self.shape, self.dtype) == (other.shape, other.dtype)

    def __hash__(self):
        return hash((self.shape, self.dtype))

    def __repr__(self) -> str:
        return f"TensorSpec(shape={self.shape}, dtype={self.dtype.name})"


def arg_key(a):
    """The part of the trace cache key one argument contributes."""
    cls = a.__class__
    if cls is np.ndarray:
        return (a.dtype, a.shape)
    if cls in _PY_STATIC:
        return (cls, a)
    if isinstance(a, (np.ndarray, np.generic)):
        return (a.dtype, np.shape(a))
    if cls is TensorSpec:
        return (a.dtype, a.shape)
    if isinstance(a, Variable):
        return ("variable", a.dtype, a.shape)
    if cls is tuple or cls is list:
        return (cls,) + tuple(arg_key(x) for x in a)
    if cls is dict:
        return (dict,) + tuple((k, arg_key(v)) for k, v in a.items())
    try:
        hash(a)
        return (cls, a)
    except TypeError:
        return ("id", id(a))


def _describe_key(a) -> str:
    if isinstance(a, (np.ndarray, np.generic, TensorSpec)):
        return f"a {type_str(a.dtype, np.shape(a) if not isinstance(a, TensorSpec) else a.shape)} array"
    if isinstance(a, Variable):
        return f"a {type_str(a.dtype, a.shape)} Variable"
    text = repr(a)
    return f"{type(a).__name__} {text if len(text) < 40 else text[:37] + '...'}"


class Function:
    """The callable ``autograph.function`` returns."""

    def __init__(self, fn, input_signature=None, autograph: bool = True,
                 reduce_retracing: bool = False):
        self.python_function = fn
        self._autograph = autograph
        self._reduce_retracing = reduce_retracing
        self._signature = inspect.signature(fn)
        params = list(self._signature.parameters.values())
        self._param_names = [p.name for p in params]
        self._simple = all(p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD) for p in params)
        self._nparams = len(params)
        self.input_signature = None if input_signature is None else tuple(input_signature)
        self._cache: dict = {}
        self._concrete: list[ConcreteFunction] = []
        self._last_args = None
        self._warned = False
        self._name = getattr(fn, "__name__", "function")
        functools.update_wrapper(self, fn, updated=())

    # --- calling ------------------------------------------------------------------------
    def __call__(self, *args, **kwargs):
        if _EAGER[0]:
            return self.python_function(*args, **kwargs)
        if trace._stack:  # called from another traced function: trace inline
            return self._callee()(*args, **kwargs)
        if kwargs or len(args) != self._nparams or not self._simple:
            args = self._canonical(args, kwargs)
        if self.input_signature is not None:
            return self._signature_function()(*args)
        try:
            concrete = self._cache[tuple(map(arg_key, args))]
        except KeyError:
            concrete = self._lookup(args)
        except TypeError:
            concrete = self._lookup(args)
        return concrete._fn(*args)

    def _callee(self):
        return converted(self.python_function) if self._autograph else self.python_function

    def _canonical(self, args, kwargs) -> tuple:
        bound = self._signature.bind(*args, **kwargs)
        bound.apply_defaults()
        return tuple(bound.arguments[name] for name in self._param_names)

    def _call_python(self, fn, canonical):
        args, kwargs = [], {}
        for p, value in zip(self._signature.parameters.values(), canonical):
            if p.kind is p.VAR_POSITIONAL:
                args.extend(value)
            elif p.kind is p.VAR_KEYWORD:
                kwargs.update(value)
            elif p.kind is p.KEYWORD_ONLY:
                kwargs[p.name] = value
            else:
                args.append(value)
        return fn(*args, **kwargs)

    def _lookup(self, args):
        key = tuple(map(arg_key, args))
        for concrete in self._concrete:
            if concrete._accepts(args):
                self._cache[key] = concrete
                return concrete
        specs = [_spec_of(a) for a in args]
        if self._reduce_retracing:
            specs = self._relaxed(specs)
        concrete = self._trace(args, specs)
        self._cache[key] = concrete
        return concrete

    def _relaxed(self, specs):
        """Specs with None where earlier traces saw other sizes (``reduce_retracing``)."""
        for concrete in reversed(self._concrete):
            relaxed = _relax(concrete.specs, specs)
            if relaxed is not None:
                return relaxed
        return specs

    def _signature_function(self) -> ConcreteFunction:
        if not self._concrete:
            specs = list(self.input_signature)
            if len(specs) != self._nparams:
                raise TypeError(f"{self._name}: input_signature has {len(specs)} entries, the "
                                f"function has {self._nparams} parameters.")
            self._trace(specs, specs)
        return self._concrete[0]

    # --- tracing ------------------------------------------------------------------------
    def _trace(self, args, specs) -> ConcreteFunction:
        graph = Graph(self._name)
        state = trace.TraceState(graph, self, first_trace=not self._concrete)
        layout, traced = [], []
        for name, spec in zip(self._param_names, specs):
            leaves: list = []
            traced.append(_placeholder(spec, _safe_name(name), "", leaves, state))
            layout.append(leaves)
        trace.push(state)
        saved = backends.tracing_backend
        backends.tracing_backend = BACKEND
        try:
            with tracing():
                try:
                    result = self._call_python(self._callee(), traced)
                except staged_raise.AlwaysRaises as exc:  # the graph raises on every run
                    if not staged_raise.raised_by_user(exc):
                        raise
                    result = None
        finally:
            backends.tracing_backend = saved
            trace.pop()
        result, none_paths = maybe_none.boundary(result)  # outputs that may be None
        graph.outputs = _outputs(result, state)
        escaped = escaped_value(graph)
        if escaped is not None:
            raise messages.escaped_value(*escaped)
        written = writes.argument_writes(graph)  # arrays the function wrote into
        written = list(zip(writes.argument_writers(layout, written), (f for _, f in written)))
        written += writes.item_writes(traced, layout, state)
        extras = written or none_paths
        if extras:
            graph.outputs = (graph.outputs, trace.to_value(tuple(v for _, _, v in none_paths), state),
                             tuple(final for _, final in written))
        optimize(graph)
        fn = compile_graph(graph, layout)
        if extras:
            graph.outputs = graph.outputs[0]
            fn = writes.with_extras(fn, [w for w, _ in written], none_paths)
        if numeric.uses_errstate(graph):
            fn = numeric.errstate_guard(fn)
        concrete = ConcreteFunction(graph, fn, specs, self._param_names, self._name, layout)
        self._concrete.append(concrete)
        self._note_retrace(args)
        return concrete

    def _note_retrace(self, args) -> None:
        previous, self._last_args = self._last_args, args
        count = len(self._concrete)
        if count < RETRACE_WARNING_AT or self._warned or previous is None:
            return
        self._warned = True
        for name, before, after in zip(self._param_names, previous, args):
            if arg_key(before) != arg_key(after):
                warnings.warn(messages.retracing(self._name, count, name, _describe_key(before),
                                                 _describe_key(after)), RetracingWarning,
                              stacklevel=4)
                return

    # --- introspection ------------------------------------------------------------------
    def get_concrete_function(self, *args, **kwargs) -> ConcreteFunction:
        if self.input_signature is not None and not args and not kwargs:
            return self._signature_function()
        canonical = self._canonical(args, kwargs)
        if self.input_signature is not None:
            return self._signature_function()
        try:
            return self._cache[tuple(map(arg_key, canonical))]
        except (KeyError, TypeError):
            return self._lookup(canonical)

    def experimental_get_tracing_count(self) -> int:
        return len(self._concrete)

    def pretty_printed_concrete_signatures(self) -> str:
        return "\n\n".join(c.pretty_signature() for c in self._concrete)

    def __get__(self, instance, owner=None):
        if instance is None:
            return self
        return _BoundFunction(self, instance)

    def __repr__(self) -> str:
        return f"<autograph.function {self._name}>"


class _BoundFunction:
    """A ``Function`` defined on a class, bound to one instance (``self`` is static)."""

    def __init__(self, function: Function, instance):
        self._function, self._instance = function, instance
        self.python_function = function.python_function.__get__(instance)

    def __call__(self, *args, **kwargs):
        return self._function(self._instance, *args, **kwargs)

    def get_concrete_function(self, *args, **kwargs):
        return self._function.get_concrete_function(self._instance, *args, **kwargs)

    def __getattr__(self, name):
        return getattr(self._function, name)


def function(fn=None, *, input_signature=None, autograph: bool = True,
             reduce_retracing: bool = False):
    """Decorator: trace ``fn`` into compiled NumPy graphs, one per input signature."""
    if fn is None:
        return functools.partial(function, input_signature=input_signature, autograph=autograph,
                                 reduce_retracing=reduce_retracing)
    return Function(fn, input_signature, autograph, reduce_retracing)


# --- signatures -----------------------------------------------------------------------

def _spec_of(a):
    """What a trace needs of an argument: TensorSpecs for arrays, the value otherwise."""
    if isinstance(a, (np.ndarray, np.generic)):
        return TensorSpec(np.shape(a), a.dtype)
    if isinstance(a, (TensorSpec, Variable)):
        return a
    if a.__class__ in (tuple, list):
        return a.__class__(_spec_of(x) for x in a)
    if a.__class__ is dict:
        return {k: _spec_of(v) for k, v in a.items()}
    return a


def _relax(old, new):
    if isinstance(old, TensorSpec) and isinstance(new, TensorSpec):
        if old.dtype != new.dtype or len(old.shape) != len(new.shape):
            return None
        return TensorSpec(tuple(a if a == b else None for a, b in zip(old.shape, new.shape)),
                          old.dtype)
    if old.__class__ in (tuple, list) and old.__class__ is new.__class__ and len(old) == len(new):
        parts = [_relax(a, b) for a, b in zip(old, new)]
        return None if any(p is None for p in parts) else old.__class__(parts)
    if old.__class__ is dict and new.__class__ is dict and old.keys() == new.keys():
        parts = {k: _relax(old[k], new[k]) for k in old}
        return None if any(p is None for p in parts.values()) else parts
    if isinstance(old, Variable) and isinstance(new, Variable):
        return new if (old.dtype, old.shape) == (new.dtype, new.shape) else None
    return new if arg_key(old) == arg_key(new) else None


_RESERVED = re.compile(r"^(t\d+|v\d+|np|_.*)$")


def _safe_name(name: str) -> str:
    return f"arg_{name}" if _RESERVED.match(name) else name


def _placeholder(spec, name, access, leaves, state):
    """The traced stand-in of one argument; records its array/variable leaves."""
    if isinstance(spec, TensorSpec):
        value = state.graph.new_value(spec.dtype, spec.shape, name=name)
        leaves.append((access, value))
        state.graph.inputs.append(value)
        return Tensor(value, state.graph)
    if isinstance(spec, Variable):
        ref = VarRef(name, spec.dtype, spec.shape)
        state.var_refs[id(spec)] = ref
        leaves.append((access, ref))
        state.graph.inputs.append(ref)
        return spec
    if spec.__class__ in (tuple, list):
        return spec.__class__(_placeholder(x, f"{name}_{i}", f"{access}[{i}]", leaves, state)
                              for i, x in enumerate(spec))
    if spec.__class__ is dict:
        return {k: _placeholder(v, f"{name}_{_key_name(k)}", f"{access}[{k!r}]", leaves, state)
                for k, v in spec.items()}
    return spec


def _key_name(key) -> str:
    return "".join(c if c.isalnum() else "_" for c in str(key))


def _outputs(result, state):
    """The returned structure with graph Values at the array leaves."""
    if result is NO_RETURN:
        return None
    if result.__class__ is Undefined:
        raise ValueError(f"autograph.function: the function returned '{result.name}', which is "
                         f"not defined on every path. Assign it on every path.")
    return trace.to_value(_strip(result), state)


def _strip(obj):
    if obj is NO_RETURN:
        return None
    if obj.__class__ in (tuple, list):
        return obj.__class__(_strip(x) for x in obj)
    if obj.__class__ is dict:
        return {k: _strip(v) for k, v in obj.items()}
    return obj


# Imported last: ConcreteFunction needs the helpers above.
from .concrete import ConcreteFunction
