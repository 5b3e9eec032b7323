"""``autograph.function``: trace once per input signature, then run compiled graphs.

A ``Function`` wraps a Python function. Each call puts its arguments in a
canonical order (one entry per parameter, defaults applied) and computes a cache
key from them: arrays and NumPy scalars by dtype and shape, Variables by dtype
and shape, Python values by value (type included, so ``1`` and ``1.0`` differ),
other objects by identity. A miss traces the (converted) function with symbolic
tensors in place of the arrays and compiles the graph into a ``ConcreteFunction``;
a hit calls the compiled code directly. A call whose arguments are all arrays, given
positionally, is looked up first by each argument's class, dtype and shape, read in C
(``_array_key``): a tuple, a dictionary lookup and the compiled code.

The cache is keyed, never scanned: a miss costs the same with two thousand concrete
functions as with one (only the few traced with ``None`` dimensions or unhashable
Python values are tried one by one). It is thread-safe: a key is traced once, by
the first caller, while later callers of that key wait for the result; other keys
trace in parallel. After a trace, a symbolic tensor left in a global or in an
object that outlives the call is an error (``escapes``).

A ``ConcreteFunction`` is one graph. Called directly it checks every argument
against what it was traced for and names the parameter that does not fit.
"""

from __future__ import annotations

import functools
import inspect
import operator
import os
import re
import sys
import threading
import weakref
from typing import Any, Callable, Optional, Sequence, overload

import numpy as np

from ...staging import backend as backends, progress, raises as staged_raise
from ...staging.converted import convert as converted
from ...staging.errors import StagingError
from ...staging.mode import tracing
from ...staging.undefined import NO_RETURN, Undefined
from . import captures, escapes, maybe_none, messages, trace, writes
from .backend import BACKEND
from .boundary import Boundary, compile_function
from .ir import Graph, VarRef, escaped_value, is_namedtuple, type_str
from .tensor import Tensor
from .variables import Variable

_EAGER = [False]
_SIGNATURE = object()  # the cache key of a Function's input_signature trace
_PY_STATIC = (int, float, bool, str, bytes, complex, type(None))
RETRACE_WARNING_AT = 5


class RetracingWarning(UserWarning):
    """An ``autograph.function`` was traced again and again.

    Shown once per function, at the user's call that caused the fifth trace; it
    names the argument that changed. Tracing is slow: pass values that change
    as arrays, give an ``input_signature``, or use ``reduce_retracing=True``.
    Silence it with ``warnings.simplefilter("ignore", autograph.RetracingWarning)``.

    Example:
        >>> import warnings
        >>> import numpy as np
        >>> import autograph as ag
        >>> @ag.function
        ... def scale(x, factor):
        ...     return x * factor
        >>> with warnings.catch_warnings(record=True) as caught:
        ...     warnings.simplefilter("always")
        ...     for factor in range(6):
        ...         _ = scale(np.ones(2), factor)
        >>> [w.category.__name__ for w in caught]
        ['RetracingWarning']
    """


def run_functions_eagerly(run_eagerly: bool) -> None:
    """Run every ``autograph.function`` as plain Python, for debugging.

    While it is on, calling an ``autograph.function`` calls the original Python
    function: no tracing, no graph, ``print`` and breakpoints work as usual.

    Args:
        run_eagerly: True to run functions eagerly, False to trace again.

    Example:
        >>> import numpy as np
        >>> import autograph as ag
        >>> @ag.function
        ... def f(x):
        ...     return type(x).__name__
        >>> ag.run_functions_eagerly(True)
        >>> f(np.ones(2))
        'ndarray'
        >>> ag.run_functions_eagerly(False)
    """
    _EAGER[0] = bool(run_eagerly)


def functions_run_eagerly() -> bool:
    """Whether ``run_functions_eagerly(True)`` is in effect.

    Returns:
        True if functions made by ``autograph.function`` currently run as plain Python.

    Example:
        >>> import autograph as ag
        >>> ag.functions_run_eagerly()
        False
    """
    return _EAGER[0]


class TensorSpec:
    """The dtype and shape an array argument must have.

    Used in ``input_signature`` and with ``get_concrete_function`` to trace
    without example arrays. ``None`` in the shape allows any size in that
    dimension; a shape of ``None`` allows any rank (a graph is then traced
    once per rank that is used).

    Args:
        shape: A sequence of sizes, each an int or ``None``; or ``None`` for
            any rank. ``()`` is a scalar.
        dtype: Anything ``np.dtype`` accepts.
        name: An optional label.

    Raises:
        TypeError: ``dtype`` is not a NumPy dtype, or ``shape`` is not a
            sequence of ints and ``None``.

    Example:
        >>> import numpy as np
        >>> import autograph as ag
        >>> ag.TensorSpec([None, 3], np.float32)
        TensorSpec(shape=(None, 3), dtype=float32)
        >>> ag.TensorSpec(None, np.int64).fits((2, 5, 7))
        True
    """

    __slots__ = ("dtype", "name", "shape")

    def __init__(self, shape: Optional[Sequence[Optional[int]]] = (), dtype: Any = np.float64,
                 name: Optional[str] = None) -> None:
        try:
            self.shape: Optional[tuple] = None if shape is None else tuple(
                None if d is None else operator.index(d) for d in shape)
        except TypeError:
            raise TypeError(f"TensorSpec: the shape must be a sequence of ints and None (or None "
                            f"for any rank), got {shape!r}.") from None
        self.dtype = np.dtype(dtype)
        self.name = name

    @classmethod
    def from_value(cls, value: Any) -> TensorSpec:
        """The spec of an array (or anything ``np.asarray`` accepts)."""
        return cls(np.shape(value), np.asarray(value).dtype if not hasattr(value, "dtype")
                   else value.dtype)

    def fits(self, shape: tuple) -> bool:
        """Whether an array of ``shape`` fits this spec."""
        if self.shape is None:
            return True
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
    if isinstance(a, np.generic):  # a NumPy scalar: immutable, where a 0-d array is not
        return (a.dtype, (), "scalar")
    if isinstance(a, np.ndarray):
        return (a.dtype, a.shape)
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


# A call's fast key, one C-level call per argument: an argument's class, dtype and shape
# (AttributeError for a Python value). It is used only for calls whose every argument is
# keyed by its dtype and shape alone (``_keyed_by_spec``), with the concrete function the
# general path chose for the same class, dtype and shape.
_array_key = operator.attrgetter("__class__", "dtype", "shape")
_TRACES = trace._stack
# The classes ``lowerings.xla.Dispatch`` takes as arrays: NumPy's arrays and numeric
# scalars, exactly (JAX would also take other objects with a dtype and a shape, which
# the Function keys by value, or a subclass whose operators are not NumPy's).
_DISPATCHED = frozenset([np.ndarray] + [np.dtype(c).type for c in "?bBhHiIlLqQefdFD"])


def _not_zero_d_array(a) -> bool:
    """Not a 0-d NumPy array: its graph differs from a NumPy scalar's (an in-place
    operator changes it), which ``lowerings.xla.Dispatch`` (JAX's keys) cannot tell apart."""
    return a.__class__ is not np.ndarray or a.ndim > 0


def _keyed_by_spec(a) -> bool:
    """Whether ``arg_key(a)`` is ``a``'s dtype and shape (and kind) and nothing else."""
    return isinstance(a, (np.ndarray, np.generic, Variable))


def _describe_key(a) -> str:
    if isinstance(a, TensorSpec) and a.shape is None:
        return f"a {a.dtype.name} array of any rank"
    if isinstance(a, (np.ndarray, np.generic, TensorSpec)):
        return f"a {type_str(a.dtype, np.shape(a) if not isinstance(a, TensorSpec) else a.shape)} array"
    if isinstance(a, Variable):
        return f"a {type_str(a.dtype, a.shape)} Variable"
    text = repr(a)
    return f"{type(a).__name__} {text if len(text) < 40 else text[:37] + '...'}"


class Function:
    """The callable ``autograph.function`` returns: a function that runs as graphs.

    Calling it runs the graph traced for the arguments' signature, tracing one
    first if there is none. See ``autograph.function`` for the rules. On a
    method, each instance gets a ``Function`` of its own (as with
    ``tf.function``): each instance traces, and creates its
    ``autograph.Variable``s, on its own.

    Attributes:
        python_function: The function it was made from, unconverted
            (``autograph.to_code`` of the ``Function`` shows its converted code).

    Example:
        >>> import numpy as np
        >>> import autograph as ag
        >>> @ag.function
        ... def double(x):
        ...     return x * 2
        >>> concrete = double.get_concrete_function(ag.TensorSpec([None], np.float64))
        >>> double(np.arange(3.0))   # fits the graph traced above: no new trace
        array([0., 2., 4.])
        >>> double.experimental_get_tracing_count()
        1
    """

    def __init__(self, fn: Callable[..., Any], input_signature: Optional[Sequence[Any]] = None,
                 autograph: bool = True, reduce_retracing: bool = False,
                 jit_compile: bool = False) -> None:
        # The options, as given: a method's Function makes one Function per instance
        # with the same options (``__get__``).
        self._options = {k: v for k, v in locals().items() if k not in ("self", "fn", "kind")}
        if jit_compile:
            _require_jax()
        name = getattr(fn, '__qualname__', fn)
        if inspect.iscoroutinefunction(fn):
            raise TypeError(
                f"autograph.function: {name} is a coroutine function (async def); a graph runs "
                f"to its end in one call, with no event loop, and cannot await. Make it a plain "
                f"def: await what it needs outside, and pass the results in as arguments.")
        if inspect.isgeneratorfunction(fn) or inspect.isasyncgenfunction(fn):
            kind = "an asynchronous generator" if inspect.isasyncgenfunction(fn) else "a generator"
            raise TypeError(
                f"autograph.function: {name} is {kind} function; a "
                f"graph returns its results at once and cannot yield them one by one. Return "
                f"the values instead (collect them in a list and return np.stack(values)).")
        self._instances: dict = {}  # id(instance) -> (weak or strong ref, Function)
        self.python_function = fn
        self._autograph = autograph
        self._reduce_retracing = reduce_retracing
        self._jit_compile = bool(jit_compile)
        self._signature = inspect.signature(fn)
        params = list(self._signature.parameters.values())
        self._param_names = [p.name for p in params]
        self._simple = all(p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD) for p in params)
        self._nparams = len(params)
        self.input_signature = None if input_signature is None else tuple(input_signature)
        self._cache: dict = {}  # arg_key tuple -> ConcreteFunction
        # The fast path of a call whose arguments are all arrays (or Variables), given
        # positionally: _array_key tuple -> the compiled code of the ConcreteFunction the
        # general path chose for them (``ConcreteFunction._fn``). Off for good once a call
        # passes a Python value (it has no dtype: that call takes the general path).
        self._by_arrays: dict = {}
        self._arrays_only = self._simple
        # jit_compile: JAX's C++ dispatch as the signature cache while every call passes
        # arrays alone to single-output programs without effects (lowerings.xla.Dispatch)
        self._xla = None
        if self._jit_compile and self._simple and self.input_signature is None:
            from .lowerings.xla import Dispatch

            self._xla = Dispatch(self._xla_concrete)
        self._concrete: list[ConcreteFunction] = []  # every trace, in order
        self._general: list[ConcreteFunction] = []  # those a key miss must still try
        self._pending: dict = {}  # key -> _Pending, traces under way
        self._lock = threading.Lock()
        self._by_rank: dict = {}  # unknown-rank input_signature: traced specs -> concrete
        self._last_args = None
        self._warned = False
        self._name = getattr(fn, "__name__", "function")
        functools.update_wrapper(self, fn, updated=())

    # --- calling ------------------------------------------------------------------------
    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        xla = self._xla
        if xla is not None and not (kwargs or _EAGER[0] or _TRACES.get()) and \
                _DISPATCHED.issuperset(map(type, args)) and all(map(_not_zero_d_array, args)):
            previous = xla.on()  # JAX's 64-bit mode, NumPy's dtypes (see lowerings.xla)
            try:
                out = xla.jitted(*args)
            except BaseException as error:
                missed = error
            else:
                xla.restore(previous)
                return np.array(out)  # writable, the caller's own (never XLA's buffer)
            xla.restore(previous)
            return self._xla_missed(args, missed)  # (outside the handler: chains nothing)
        if not (kwargs or _EAGER[0] or _TRACES.get()) and self._arrays_only:
            try:
                compiled = self._by_arrays.get(tuple(map(_array_key, args)))
            except Exception:  # a Python value among the arguments (no dtype): by value
                self._arrays_only = False
            else:
                if compiled is not None:
                    return compiled(*args)
        return self._call(args, kwargs)

    def _call(self, args, kwargs):
        """A call that the arrays-only key has not seen (see ``_array_key``)."""
        if _EAGER[0]:
            return self.python_function(*args, **kwargs)
        if trace.active():  # called from another traced function: trace inline
            return self._callee()(*args, **kwargs)
        given = args
        if kwargs or len(args) != self._nparams or not self._simple:
            args = self._canonical(args, kwargs)
        if self.input_signature is not None:
            concrete = self._signature_function(args)
            result = concrete(*args)  # checks each argument against the signature
        else:
            key = tuple(map(arg_key, args))
            concrete = self._cache.get(key)
            if concrete is None:
                concrete = self._lookup(args, key)
            result = concrete._fn(*args)
        if args is given and self._arrays_only and all(map(_keyed_by_spec, args)):
            self._by_arrays[tuple(map(_array_key, args))] = concrete._fn
        return result

    def _xla_missed(self, args, error):
        """A call that ``lowerings.xla.Dispatch`` did not run (``error``): the general
        path from now on (``Dispatch``'s rules), or the error of the graph's trace."""
        if not isinstance(error, Exception):  # KeyboardInterrupt, SystemExit
            raise error
        self._xla = None
        if isinstance(error, StagingError):  # raised while lowering: without JAX's notes
            raise StagingError(str(error)) from None
        traced = getattr(error, "error", None)  # (a Dispatch miss: what the trace raised)
        if traced is not None:
            raise traced
        return self._call(args, {})

    def _xla_concrete(self, args):
        """The code of the concrete function for ``args`` (stand-ins of the arrays a call
        passes), traced if there is none: ``Dispatch.resolve``, inside JAX's trace."""
        if len(args) != self._nparams:
            return None
        key = tuple(map(arg_key, args))
        concrete = self._cache.get(key) or self._lookup(args, key)
        return concrete._fn

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

    def _lookup(self, args, key) -> ConcreteFunction:
        """The concrete function for ``args`` (cache ``key``), traced if there is none.

        Thread-safe: a key is traced once; callers of a key whose trace is under way
        wait for it and use its result (a failed trace leaves the key to the next
        caller). Traces of different keys run in parallel, except that a Function's
        very first trace, which creates its Variables, runs alone.
        """
        me = threading.get_ident()
        while True:
            with self._lock:
                concrete = self._find(args, key)
                if concrete is not None:
                    return concrete
                pending = self._pending.get(key)
                if pending is None and not self._concrete:
                    pending = next(iter(self._pending.values()), None)  # the first trace
                if pending is None or pending.owner == me:
                    specs = self._specs_for(args, key)  # may raise: before registering
                    mine = _Pending(me)
                    self._pending.setdefault(key, mine)
                    break
            pending.done.wait()
        try:
            return self._trace(args, specs, key)
        finally:
            with self._lock:
                if self._pending.get(key) is mine:
                    del self._pending[key]
            mine.done.set()

    def _find(self, args, key):
        """A concrete function that takes ``args``: by key, else among the few traced
        for relaxed shapes or unhashable values (no scan of all of them)."""
        if key is _SIGNATURE:
            return self._concrete[0] if self._concrete else None
        concrete = self._cache.get(key)
        if concrete is None:
            for candidate in self._general:
                if candidate._accepts(args):
                    self._cache[key] = concrete = candidate
                    break
        return concrete

    def _specs_for(self, args, key) -> list:
        if key is _SIGNATURE:
            specs = list(self.input_signature)
            if len(specs) != self._nparams:
                raise TypeError(f"{self._name}: input_signature has {len(specs)} entries, the "
                                f"function has {self._nparams} parameters.")
            return specs
        for name, a in zip(self._param_names, args):
            _refuse_framework_tensors(self._name, name, a)
        specs = [_spec_of(a) for a in args]
        return self._relaxed(specs) if self._reduce_retracing else specs

    def _relaxed(self, specs):
        """Specs with None where earlier traces saw other sizes (``reduce_retracing``)."""
        for concrete in reversed(self._concrete):
            relaxed = _relax(concrete.specs, specs)
            if relaxed is not None:
                return relaxed
        return specs

    def _signature_function(self, args=None) -> ConcreteFunction:
        """The graph of ``input_signature``; with specs of unknown rank, the graph for
        the ranks of ``args`` (traced on first use)."""
        if self._concrete and not self._by_rank:  # one graph for the whole signature
            return self._concrete[0]
        specs = list(self.input_signature)
        if len(specs) != self._nparams:
            raise TypeError(f"{self._name}: input_signature has {len(specs)} entries, the "
                            f"function has {self._nparams} parameters.")
        if not _has_unknown_rank(specs):
            return self._lookup(self.input_signature, _SIGNATURE)
        if args is None:
            raise TypeError(f"{self._name}: its input_signature has a TensorSpec of unknown rank; "
                            f"pass arrays or TensorSpecs of known rank to get_concrete_function "
                            f"to choose the ranks.")
        specs = [_with_rank(spec, a) for spec, a in zip(specs, args)]
        key = tuple(map(arg_key, specs))
        concrete = self._by_rank.get(key)
        if concrete is None:
            concrete = self._by_rank[key] = self._lookup(specs, key)
        return concrete

    # --- tracing ------------------------------------------------------------------------
    def _trace(self, args, specs, key) -> ConcreteFunction:
        bindings = escapes.Bindings(self.python_function)
        try:
            return self._trace_once(args, specs, key)
        except BaseException:
            bindings.restore()  # a failed trace leaves no tensor (nor anything else) behind
            raise

    def _trace_once(self, args, specs, key) -> ConcreteFunction:
        graph = Graph(self._name)
        state = trace.TraceState(graph, self, first_trace=not self._concrete)
        layout, traced = [], []
        for i, (name, spec) in enumerate(zip(self._param_names, specs)):
            leaves: list = []
            traced.append(_placeholder(spec, _safe_name(name), "", leaves, state))
            layout.append(leaves)
            if args is not None and i < len(args):
                _note_zero_d_arrays(args[i], traced[-1], graph)
        token = trace.push(state)
        try:
            with backends.tracing_with(BACKEND), tracing(), \
                    captures.watch_random(self._name, self.python_function), \
                    progress.long_work("tracing", "traced", self._where):
                try:
                    result = self._call_python(self._callee(), traced)
                except staged_raise.AlwaysRaises as exc:  # the graph raises on every run
                    if not staged_raise.raised_by_user(exc):
                        raise
                    result = None
        finally:
            trace.pop(token)
        state.settle_captures()
        result, none_paths = maybe_none.boundary(result)  # outputs that may be None
        graph.outputs = _outputs(result, state)
        escaped = escaped_value(graph)
        if escaped is not None:
            raise messages.escaped_value(*escaped)
        escaped = escapes.find(graph, self.python_function, self._param_names, args)
        if escaped is not None:
            raise messages.escaped_tensor(self._name, escaped[1], escaped[0])
        written = writes.argument_writes(graph)  # arrays the function wrote into
        written = list(zip(writes.argument_writers(layout, written), (f for _, f in written)))
        written += writes.item_writes(traced, layout, state)
        written += writes.python_item_writes(traced, specs, self._param_names, self._name, state)
        boundary = Boundary([w for w, _ in written], tuple(f for _, f in written),
                            [(path, how) for path, how, _ in none_paths],
                            trace.to_value(tuple(v for _, _, v in none_paths), state))
        fn = compile_function(graph, layout, boundary, optimize_first=True,
                              jit_compile=self._jit_compile)
        concrete = ConcreteFunction(graph, fn, specs, self._param_names, self._name, layout,
                                    boundary)
        with self._lock:
            self._concrete.append(concrete)
            if key is not _SIGNATURE:
                self._cache[key] = concrete
            if _needs_scan(specs):
                self._general.append(concrete)
            self._note_retrace(args)
        return concrete

    def _where(self) -> str:
        """``'f' (file.py:12)``: how progress lines name this function."""
        code = getattr(getattr(self.python_function, "__func__", self.python_function),
                       "__code__", None)
        at = f" ({os.path.basename(code.co_filename)}:{code.co_firstlineno})" if code else ""
        return f"'{self._name}'{at}"

    def _note_retrace(self, args) -> None:
        previous, self._last_args = self._last_args, args
        count = len(self._concrete)
        if count < RETRACE_WARNING_AT or self._warned or previous is None:
            return
        self._warned = True
        for name, before, after in zip(self._param_names, previous, args):
            if arg_key(before) != arg_key(after):
                captures.warn_outside_library(
                    messages.retracing(self._name, count, name, _describe_key(before),
                                       _describe_key(after)), RetracingWarning)
                return

    # --- introspection ------------------------------------------------------------------
    def get_concrete_function(self, *args: Any, **kwargs: Any) -> ConcreteFunction:
        """The graph for these arguments (arrays or TensorSpecs), traced if needed.

        Python arguments given here are part of the graph: calling the result
        needs only its array arguments.

        Raises:
            TypeError: The arguments do not fit the function's parameters or
                its ``input_signature``.
        """
        if self.input_signature is not None and not args and not kwargs:
            return self._signature_function()
        canonical = self._canonical(args, kwargs)
        if self.input_signature is not None:
            return self._signature_function(canonical)
        key = tuple(map(arg_key, canonical))
        return self._cache.get(key) or self._lookup(canonical, key)

    def experimental_get_tracing_count(self) -> int:
        """How many graphs have been traced."""
        return len(self._concrete)

    @property
    def concrete_functions(self) -> list[ConcreteFunction]:
        """The graphs traced so far, in the order they were traced."""
        return list(self._concrete)

    def pretty_printed_concrete_signatures(self) -> str:
        """The signature of every graph traced so far, one block each."""
        return "\n\n".join(c.pretty_signature() for c in self._concrete)

    def save(self, path: Any) -> None:
        """Write every graph traced so far to ``path`` (one ``.npz`` file).

        ``autograph.load(path)`` gives back a function that dispatches on its
        arguments to the graph traced for them. Variables the graphs share stay
        shared. Trace each signature you need first (call the function, or use
        ``get_concrete_function``).

        Raises:
            ValueError: Nothing has been traced yet, or a graph holds something
                with no saved form (see ``ConcreteFunction.save``).
        """
        from .serialize import save_function

        save_function(self, path)

    def __get__(self, instance, owner=None):
        if instance is None:
            return self
        return _BoundFunction(self._for_instance(instance), instance)

    def _for_instance(self, instance) -> Function:
        """The Function of this method for ``instance``: one per instance, as
        ``tf.function`` makes them, so each instance traces (and creates its
        Variables) on its own. Its traces keep the instance (it is a Python argument of
        them), as the class's one Function kept every instance before; an instance
        never called is dropped with its Function."""
        key = id(instance)
        entry = self._instances.get(key)
        if entry is not None and entry[0]() is instance:
            return entry[1]
        with self._lock:
            entry = self._instances.get(key)
            if entry is not None and entry[0]() is instance:
                return entry[1]
            function = Function(self.python_function, **self._options)
            try:
                ref = weakref.ref(instance, lambda _, key=key: self._instances.pop(key, None))
            except TypeError:  # no weak references (__slots__): kept as long as this Function
                ref = (lambda instance: lambda: instance)(instance)
            self._instances[key] = (ref, function)
            return function

    def __repr__(self) -> str:
        return f"<autograph.function {self._name}>"


class _Pending:
    """A trace under way in thread ``owner``; ``done`` is set when it ends."""

    __slots__ = ("done", "owner")

    def __init__(self, owner: int):
        self.owner = owner
        self.done = threading.Event()


def _needs_scan(specs) -> bool:
    """True if calls with other cache keys may fit these specs: a shape with None
    dims, or a Python value that is not hashable (its key is its identity)."""
    for spec in specs:
        if isinstance(spec, TensorSpec):
            if None in spec.shape:
                return True
        elif spec.__class__ in (tuple, list):
            if _needs_scan(spec):
                return True
        elif spec.__class__ is dict:
            if _needs_scan(spec.values()):
                return True
        elif not isinstance(spec, Variable):
            try:
                hash(spec)
            except TypeError:
                return True
    return False


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


@overload
def function(fn: Callable[..., Any], *, input_signature: Optional[Sequence[Any]] = None,
             autograph: bool = True, reduce_retracing: bool = False,
             jit_compile: bool = False) -> Function: ...
@overload
def function(fn: None = None, *, input_signature: Optional[Sequence[Any]] = None,
             autograph: bool = True, reduce_retracing: bool = False,
             jit_compile: bool = False) -> Callable[[Callable[..., Any]], Function]: ...


def function(fn: Optional[Callable[..., Any]] = None, *,
             input_signature: Optional[Sequence[Any]] = None, autograph: bool = True,
             reduce_retracing: bool = False, jit_compile: bool = False) -> Any:
    """Decorator: trace a NumPy function into compiled graphs, one per input signature.

    The first call with a new signature converts ``fn`` (its Python control
    flow on arrays becomes graph ops), traces it with symbolic arrays and
    compiles the graph into straight-line NumPy code; later calls with the same
    signature run that code. A signature is the dtype and shape of each array
    argument and the value of each Python argument. Python values the function
    reads (arguments, globals, attributes) and ``np.random`` draws are fixed into
    the graph when it is traced; a NumPy array it reads from outside is read
    each time the graph runs (the guide "What a trace captures" has the rules).

    Args:
        fn: The function; omitted when only options are given.
        input_signature: One ``TensorSpec`` (or nested list/tuple/dict of
            them) per parameter: trace once, for these specs, and accept only
            arguments that fit them.
        autograph: Convert ``fn``'s control flow first (False: trace it as it is,
            so ``if`` on an array is an error).
        reduce_retracing: Trace with ``None`` sizes where calls have shown
            different sizes, instead of one graph per shape.
        jit_compile: Compile each graph with XLA through JAX (``jax.jit``) instead
            of running it as NumPy code: same values and dtypes, the same boundary
            (run-time raises, ``None`` and strings, argument write-back, Variables,
            ``autograph.print``), often much faster for many small ops or loops.
            Needs JAX (``pip install 'autograph-transpiler[jax]'``); an op XLA
            cannot run is a ``StagingError`` naming it, when the graph is traced.

    Returns:
        A ``Function``; called with options only, a decorator that makes one.

    Raises:
        TypeError: ``fn`` is a generator or coroutine function; or, at a call, an
            argument is a PyTorch or TensorFlow tensor (the message says to use
            ``torch.compile`` or ``tf.function`` of ``autograph.convert(fn)``).
        ImportError: ``jit_compile=True`` and JAX is not installed.

    Example:
        >>> import numpy as np
        >>> import autograph as ag
        >>> @ag.function
        ... def clip_norm(x, limit):
        ...     norm = np.sqrt(np.sum(x * x))
        ...     if norm > limit:
        ...         x = x * (limit / norm)
        ...     return x
        >>> clip_norm(np.array([3.0, 4.0]), 1.0)
        array([0.6, 0.8])
        >>> clip_norm.experimental_get_tracing_count()
        1
    """
    if fn is None:
        return functools.partial(function, input_signature=input_signature, autograph=autograph,
                                 reduce_retracing=reduce_retracing, jit_compile=jit_compile)
    return Function(fn, input_signature, autograph, reduce_retracing, jit_compile)


def _require_jax() -> None:
    """Import JAX now, outside any trace (a framework imported mid-trace is seen by it)."""
    try:
        import jax  # noqa: F401
    except ImportError:
        raise ImportError("autograph.function(jit_compile=True) compiles graphs with XLA "
                          "through JAX, which is not installed. Install it with: pip install "
                          "'autograph-transpiler[jax]' (or call autograph.function without "
                          "jit_compile=True).") from None


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


def _framework_of(a):
    """``"PyTorch"`` or ``"TensorFlow"`` if ``a`` is one of their tensors, else None (a
    framework not imported has no tensors to check)."""
    module = a.__class__.__module__
    if module.startswith("torch"):
        torch = sys.modules.get("torch")
        if torch is not None and isinstance(a, torch.Tensor):
            return "PyTorch"
    elif module.startswith("tensorflow"):
        tf = sys.modules.get("tensorflow")
        if tf is not None and isinstance(a, (tf.Tensor, tf.Variable)):
            return "TensorFlow"
    return None


def _refuse_framework_tensors(function_name: str, name: str, a) -> None:
    """A TypeError for a PyTorch or TensorFlow tensor argument (in nested lists, tuples
    and dicts too): a NumPy graph would key on each tensor object and fix its value."""
    if a.__class__ in (tuple, list):
        for i, x in enumerate(a):
            _refuse_framework_tensors(function_name, f"{name}[{i}]", x)
    elif a.__class__ is dict:
        for k, x in a.items():
            _refuse_framework_tensors(function_name, f"{name}[{k!r}]", x)
    else:
        framework = _framework_of(a)
        if framework is not None:
            raise TypeError(messages.framework_tensor(function_name, name, framework,
                                                      f"{type(a).__module__}.{type(a).__name__}"))


def _has_unknown_rank(spec) -> bool:
    if isinstance(spec, TensorSpec):
        return spec.shape is None
    if spec.__class__ in (tuple, list):
        return any(_has_unknown_rank(s) for s in spec)
    if spec.__class__ is dict:
        return any(_has_unknown_rank(s) for s in spec.values())
    return False


def _with_rank(spec, a):
    """``spec`` with each TensorSpec of unknown rank given the rank of its argument."""
    if isinstance(spec, TensorSpec):
        if spec.shape is not None:
            return spec
        shape = a.shape if isinstance(a, TensorSpec) else np.shape(a)
        return spec if shape is None else TensorSpec((None,) * len(shape), spec.dtype, spec.name)
    if spec.__class__ in (tuple, list) and isinstance(a, (tuple, list)) and len(a) == len(spec):
        return spec.__class__(_with_rank(s, x) for s, x in zip(spec, a))
    if spec.__class__ is dict and isinstance(a, dict) and a.keys() == spec.keys():
        return {k: _with_rank(s, a[k]) for k, s in spec.items()}
    return spec


def _relax(old, new):
    if isinstance(old, TensorSpec) and isinstance(new, TensorSpec):
        if old.dtype != new.dtype or old.shape is None or new.shape is None or \
                len(old.shape) != len(new.shape):
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
        if spec.shape is None:
            raise TypeError(f"{state.graph.name}: argument '{name}' is a TensorSpec of unknown "
                            f"rank; a graph is traced for one rank. Give the TensorSpec a shape "
                            f"(None for each size that may vary), or pass an array.")
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


def _note_zero_d_arrays(arg, traced, graph) -> None:
    """Note the 0-d NumPy arrays among an argument's leaves (``graph.zero_d_arrays``):
    an in-place operator changes them for the caller, where it rebinds a NumPy scalar."""
    if arg.__class__ is np.ndarray and not arg.shape and traced.__class__ is Tensor:
        graph.zero_d_arrays.add(traced._value.id)
    elif arg.__class__ in (tuple, list) and traced.__class__ is arg.__class__:
        for a, t in zip(arg, traced):
            _note_zero_d_arrays(a, t, graph)
    elif arg.__class__ is dict and traced.__class__ is dict:
        for k in arg.keys() & traced.keys():
            _note_zero_d_arrays(arg[k], traced[k], graph)


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
    if is_namedtuple(obj):
        return obj.__class__(*(_strip(x) for x in obj))
    if obj.__class__ is dict:
        return {k: _strip(v) for k, v in obj.items()}
    return obj


# Imported last: ConcreteFunction needs the helpers above.
from .concrete import ConcreteFunction
