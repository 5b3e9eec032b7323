"""The backend registry: which framework owns a value, and the interface it answers.

A backend is a small object that recognises its framework's staged values (a
symbolic tensor of the graph engine, a JAX tracer) and builds that framework's
graph ops for the functional operators. The operators in ``control_flow`` and
``expressions`` call ``backend_of(value)`` on every condition or iterable that is
not a plain Python value; ``None`` means "run it as Python".

Ownership is decided per *type* and cached, so the dispatch cost after the first
sight of a type is one dictionary lookup. Frameworks are never imported by the
registry: a lazy backend is registered under the top-level module name of its
framework and its module is imported the first time a value of that framework is
seen (which means the framework is already imported by the user).
"""

from __future__ import annotations

import contextlib
import contextvars
import importlib
import sys
from typing import Any, Callable, Optional, Sequence

from . import mode as _mode

# How Python names the items of a NumPy value of each dtype kind (eager_type_name)
ITEM_TYPES = {"b": "bool", "i": "int", "u": "int", "f": "float", "c": "complex"}


class Backend:
    """What a backend answers: framework questions only.

    Staging itself (joining branches, settling loop carries, undefined variables,
    in-place state, error texts) is ``staging``'s; it calls the primitives below.
    A new backend implements the primitives and ``for_stmt`` (its iterables), and
    may override any construct where its framework offers more.

    Conventions: ``state`` is a tuple of the carried variables' values, ``names``
    their names (for messages); bodies take ``*state`` (loop bodies the item first)
    and return a state tuple. ``shared`` is the converter's ``(get, set, names)`` of
    variables assigned in place (see ``control_flow``).
    """

    name = "backend"
    unknown_dims = False  # may a joined shape hold None (a dimension known at run time)?
    # May the two branches of a staged if give an array different sizes (the joined
    # shape then holds None there), where a loop carry may not (PyTorch's cond)?
    branch_sizes_differ = False
    # Does isinstance answer for a staged value as for the arrays it stands for (a
    # match's class patterns, ``runtime.patterns``)?
    isinstance_as_concrete = False
    # Does a traced placeholder keep a Python number's weak type (JAX, the NumPy engine)?
    # Where it does not, a loop carry that only loses its weakness (``steps = 0`` that
    # ``steps += 1`` makes an int32 tensor) is traced no second time: the trace would be
    # the same.
    weak_placeholders = True
    # Does NumPy's in-place operator write this backend's staged value into a NumPy
    # array (``a += x``)? Eagerly it does where the value stands for a NumPy array (the
    # NumPy engine); a framework's array takes over the operator and the name gets it.
    writes_into_numpy = False
    # Does NumPy's in-place operator on a NumPy array keep the array's dtype when given
    # this backend's staged value (the result cast back, or NumPy's casting error), as
    # NumPy code does eagerly? Where eager code runs the framework's operator (JAX), the
    # name gets the framework's array in its dtype.
    numpy_in_place_keeps_dtype = False
    # How messages name this framework's compiler and its compiled code ("jax.jit", "JAX").
    compiler = "the compiler"
    framework = "compiled"
    # Can the compiled program raise a Python exception when it runs (``raise_where``)?
    raises_at_run_time = False
    # Does the compiled function's boundary give back None (and strings) that staged
    # conditions chose, after a run (the NumPy engine; ``staging.maybe_none``)?
    returns_none_at_run_time = False
    # Does the rest of a Python ``range`` loop whose break turned staged run as one loop
    # (its item a staged int), or as one staged ``if`` per item (``control_flow``)?
    stages_range_rest = True
    # Does the backend's staged ``for`` over an array its body writes into read the items
    # the earlier iterations wrote (the NumPy engine, from its graph), or does the loop
    # read them from the carried array by index (``staging.iterated``)?
    follows_iterated_writes = False

    def owns_type(self, cls: type) -> bool:
        """True if values of ``cls`` are this backend's staged values."""
        raise NotImplementedError

    def is_tracing(self) -> bool:
        """True while this framework is staging a computation right now."""
        return False

    def leaked(self, value) -> bool:
        """True for a value that exists only inside the trace that made it (a tracer):
        one left in a global after the trace is refused (``kept.Kept``). The NumPy
        engine finds its own (``numpy_graph.escapes``, naming the line that made it)."""
        return False

    def explain_error(self, error: BaseException, location: str):
        """An error the framework raised while a converted function's staged body ran
        under its trace, as the StagingError saying what the user's line at
        ``location`` asked and what to do instead; None to let ``error`` through."""
        return None

    def trace_failure(self, error: BaseException) -> bool:
        """Did the framework raise ``error`` because a staged value was asked for what
        only a run knows (its value as a bool, an index, a NumPy array) or for an
        operation it does not stage? Then the trace failed where eager code would go on,
        and a converted ``try``'s handlers pass it on (``catching.Region``): an ``except
        Exception`` running would take a path eager code does not take."""
        return False

    # -- primitives

    def aval(self, value):
        """``staging.Aval`` of an array-like ``value`` this backend can carry (its own
        arrays, NumPy arrays, Python numbers as weak types), else None."""
        raise NotImplementedError

    def cast(self, value, aval):
        """``value`` as an array of exactly ``aval``'s dtype and weakness."""
        raise NotImplementedError

    def zeros(self, aval):
        raise NotImplementedError

    def predicate(self, value):
        """A staged condition (one element) as a scalar bool of the framework."""
        raise NotImplementedError

    def trace(self, fns, avals) -> list:
        """Trace each of ``fns`` (taking placeholders of ``avals``, the same for all,
        returning a list of leaves) into a handle for ``cond``/``while_loop``."""
        raise NotImplementedError

    def cond(self, pred, handles, finish, avals) -> list:
        """One cond op choosing between two traced branches; ``finish[i](leaves)``
        (called inside branch i, on its leaves) gives its outputs, of ``avals``."""
        raise NotImplementedError

    def while_loop(self, test, body, init) -> list:
        """A while op over traced ``test`` and ``body`` (handles), from ``init``."""
        raise NotImplementedError

    # -- constructs (the staging core stages if/while/and/or/ternaries itself)

    def for_stmt(self, iterable, body, state, names, extra_test, shared=None):
        raise NotImplementedError(f"{self.name}: for loops over staged values")

    def not_(self, value):
        raise NotImplementedError(f"{self.name}: 'not' on staged values")

    def assert_stmt(self, cond, message: Callable[[], Any]):
        raise NotImplementedError(f"{self.name}: assert on staged values")

    def range_(self, start, stop, step):
        raise NotImplementedError(f"{self.name}: range() with staged bounds")

    def enumerate_(self, iterable, start):
        return enumerate(iterable, start)

    def zip_(self, iterables: Sequence, strict: bool):
        return zip(*iterables, strict=strict) if strict else zip(*iterables)

    def len_(self, value):
        return len(value)

    def unrolled(self, value):
        """What iterating ``value`` in Python gives (a generator expression over it):
        by default ``value`` itself, iterable where the framework knows its length."""
        return value

    def getitem(self, target, index):
        """``target[index]`` for a staged ``index`` (a local's item read in converted
        code); a backend with static shapes may answer a boolean mask with
        ``masked.MaskedItems``."""
        return target[index]

    def same_value(self, a, b) -> bool:
        """True if two staged values always hold the same (the same object, or, where the
        framework can tell, the same pure computation of the same inputs: ``~m`` twice);
        False if they may differ."""
        return a is b

    def setitem(self, target, index, value):
        """``target[index] = value`` as a new value (staged arrays are immutable)."""
        raise NotImplementedError(f"{self.name}: item assignment on staged values")

    def check_in_place(self, target) -> None:
        """Before ``name op= value`` runs Python's in-place operator on ``target`` (one of
        this backend's staged values, or a NumPy array given one): raise a
        ``StagingError`` where that would not do what eager code does, another name that
        is read later sharing what the operator changes eagerly
        (``holders.refuse_shared_in_place``)."""

    def check_loop_writes(self, carry, handles, n_items: int) -> None:
        """After a staged loop's body is traced (``handles``: the backend's, test first;
        ``n_items`` item leaves before the carry): raise a ``StagingError`` where the
        body writes in place into a carried array (``carry.before``) that another name
        read later shares eagerly (an alias, a view, the array it views), which the
        loop's op would leave holding the old contents."""

    def print_(self, args, sep, end, file, flush):
        """Print at every execution of the graph, with the values of staged args."""
        raise NotImplementedError(f"{self.name}: printing staged values")

    def raise_(self, exc: BaseException, branch) -> None:
        """A traced ``branch`` raised ``exc`` (the user's program did): make the
        graph raise it when that branch runs, or raise a StagingError."""
        from .raises import cannot_raise

        raise cannot_raise(self.name, exc, branch) from None

    # -- lists a staged loop appends to (``accumulate``)

    # The ``set_loop_options`` a staged loop on this backend may be given; the staging
    # core stops a loop after ``maximum_iterations`` itself (a counter in its carry).
    loop_options = frozenset({"maximum_iterations"})
    # Does a loop variable whose shape changes need ``shape_invariants`` (TensorFlow's
    # rule), where ``unknown_dims`` would otherwise make the changing dimensions run-time?
    needs_shape_invariants = False
    # May a value made after a loop have a first dimension of a size known only at run
    # time (PyTorch's data-dependent sizes), though a loop's carry keeps its shape? Then
    # a list a loop appends to is carried in a buffer of the loop's bound (its trip
    # count, or ``maximum_iterations``) and cut to its length after the loop.
    sizes_after_loops = False

    def rows(self, aval, capacity=None):
        """A new buffer of ``aval`` (``[capacity, *item shape]``; capacity None where
        ``unknown_dims``) for the items a staged loop appends to a list: zeros. Where
        ``sizes_after_loops``, ``capacity`` may be given as a staged integer (the trip
        count of a ``for`` over a range with staged bounds; ``aval``'s first dimension
        is then None)."""
        return self.zeros(aval)

    def write_row(self, rows, index, value):
        """``rows`` with row ``index`` (staged) set to ``value`` (of the row's type)."""
        return self.setitem(rows, index, value)

    def read_row(self, rows, index):
        """Row ``index`` (staged) of ``rows``, a value later writes do not change."""
        return rows[index]

    def rows_upto(self, rows, count):
        """The first ``count`` (staged) rows: a leading dimension known at run time
        (asked only where ``unknown_dims`` or ``sizes_after_loops``)."""
        return rows[:count]

    def collected_call(self, fn, args, kwargs):
        """``fn(lst, ...)``, a framework's function that takes a list of arrays first
        (``accumulate.LIST_TAKERS``: ``torch.stack``), of a list a staged loop collected
        (``accumulate.Collected``, ``args[0]``); by default ``fn`` as it is."""
        return fn(*args, **kwargs)

    def pair_values(self, label: str, t, f):
        """The two sides of a staged ``if``'s leaf ``label`` as values this backend's
        graph can carry (e.g. ``None`` on one side and an array on the other, carried
        with a run-time flag); by default unchanged (a mismatch is a StagingError)."""
        return t, f

    def raise_where(self, flag, exc: BaseException) -> None:
        """Make the program raise ``exc`` when it runs where the staged ``flag`` holds
        (``raises_at_run_time`` backends: a value None or unassigned on some paths,
        ``staging.maybe_none``)."""
        raise NotImplementedError(f"{self.name}: raising at run time")

    def eager_type_name(self, value) -> str:
        """How Python's TypeError names the type of what the staged ``value`` stands
        for in eager code (``'NoneType' and 'float'``): by default, as NumPy code's value
        meets None elementwise, the Python type of its items; its own class where it has
        no abstract value."""
        aval = self.aval(value)
        if aval is not None:
            return ITEM_TYPES.get(getattr(aval.dtype, "kind", None), "object")
        cls = type(value)
        return f"{cls.__module__.split('.')[0]}.{cls.__name__}"

    def show(self, value, conversion: str) -> str:
        """The text ``conversion % value`` (``"%.3f"``) gives in a message, for a staged
        ``value`` (``formatting.percent_format``): by default its own text."""
        return str(value)

    def settle(self, label: str, before, after):
        """A loop variable's value before a staged loop and after one iteration, when
        this backend can carry them as one type (the NumPy engine: a string that
        becomes a choice among strings): ``(before, after, changed)``, ``changed`` if
        the loop must be traced again carrying ``before``; None by default."""
        return None

    def pair_unbound(self, label: str, t, f):
        """A plain variable one branch of a staged ``if`` assigns and the other does
        not (``Undefined``): both sides as values carried with a run-time flag whose
        reads raise ``UnboundLocalError``, or None (a StagingError) by default."""
        return None

    def runs_once(self, trips) -> bool:
        """A staged loop's trip count ``trips``, not a Python int (a size the compiler
        keeps symbolic), is known to be at least 1 where the compiled program runs: False
        by default (the loop may run zero times)."""
        return False

    def maybe_no_return(self, value, function: str):
        """What ``function`` returns when some staged paths returned a value and others
        none (``value``: a ``returns.Pending``, whose run-time flag is set where
        none ran): a value the caller sees as None exactly when eager returns None, or
        by default the StagingError that this backend's graph cannot return None."""
        from . import errors

        raise errors.falls_off_end(function, value.where, self.name)

    def numeric(self, name: str, args, kwargs):
        """``min``/``max``/``abs``/``round``/``int``/``float``/``bool``, ``math.<f>``,
        ``numpy.asarray``/``numpy.array`` with a staged argument (``numeric_builtins``)."""
        raise TypeError(f"{self.name}: {name}() of a staged value is not supported")

    # Does this backend keep, beside a staged value, whether it is a Python number or a
    # NumPy value on each run-time path (``python_kind``/``keep_kind``)? A staged choice
    # between a Python number and a NumPy scalar (a staged ``if``, a ternary, ``min``)
    # is one or the other eagerly, and ``5 // u`` raises ZeroDivisionError only for a
    # Python zero (the NumPy engine's ``python_chosen``).
    keeps_kinds = False

    def python_kind(self, value):
        """True where ``value`` is a Python number on every path, False where it is an
        array or NumPy scalar on every path, else this backend's staged bool saying which
        (``keeps_kinds`` backends)."""
        from .state import is_number

        return is_number(value)

    def keep_kind(self, result, cond, if_true, if_false, origin: str) -> None:
        """``result`` (a staged value) is a Python number on the paths where ``cond``
        holds and ``if_true`` does, or ``cond`` does not and ``if_false`` does (each a
        ``python_kind``): a ``keeps_kinds`` backend notes it; ``origin`` says where the
        choice was made, for messages ("'u', chosen by the if statement at f.py:3")."""

    def array_method(self, method):
        """What converted code calls for ``method``, a method of one of this backend's
        arrays, where NumPy's ndarray has a method of that name taking other arguments;
        None: ``method`` itself."""
        return None

    def numpy_call(self, fn, args, kwargs):
        """``fn(*args, **kwargs)``: a NumPy function called from staged code with a staged
        argument of this backend (``numpy_calls``). By default as it is, for staged values
        that implement NumPy's dispatch protocols (``__array_ufunc__``, ``__array_function__``)."""
        return fn(*args, **kwargs)

    def users_numpy_call(self, fn, args, kwargs):
        """``numpy_call`` for the user's own call of ``fn`` (``numpy_calls``; the runtime's
        calls, a staged ``min``'s ``np.where``, go to ``numpy_call``): where a backend
        notes what eager NumPy's result is beyond its dtype and shape (the NumPy engine:
        a 0-d array, not a NumPy scalar). By default ``numpy_call``."""
        return self.numpy_call(fn, args, kwargs)

    def catching(self, region):
        """The body of a ``try`` (``catching.Region``) starts: an object whose
        ``close(raised)`` ends it and returns ``{handler index: staged flag}``, the
        handlers to run because the graph raised when it ran; None catches nothing."""
        return None

    def entry_point(self, fn) -> None:
        """``fn``, a converted function, was handed to the user (``ag.convert``): a
        framework whose tracer reads bytecode (PyTorch's dynamo) may need to know it."""

    def convert_object(self, obj, convert: Callable):
        """``ag.convert(obj)`` for an object of this framework that is converted in its
        own way (a PyTorch module: its ``forward``), with ``convert`` for its
        functions; None for any other object."""
        return None

    def errstate(self, args, kwargs):
        """``np.errstate(*args, **kwargs)`` while this framework traces. Its operations
        never raise (nor call a function) on floating-point errors where NumPy's would
        under ``'raise'``/``'call'``: such a region is refused (numpy-financial's ``nper``
        handles the FloatingPointError of a division by a zero rate, a path a trace would
        silently never take). One that ignores, warns or prints runs as NumPy's."""
        import numpy as np

        asked = sorted(f"{k}={v!r}" for k, v in kwargs.items() if v in ("raise", "call"))
        if asked:
            from . import errors
            from .arg_writes import user_location

            raise errors.StagingError(
                f"np.errstate at {user_location()} asks for floating-point errors to "
                f"{'raise' if 'raise' in str(asked) else 'call a function'} "
                f"({', '.join(asked)}), and {self.name} is tracing: its operations never "
                f"raise or call anything on floating-point errors, so a path that relies on "
                f"them (a handler of FloatingPointError) would silently not be taken. Test "
                f"the values instead (np.isfinite, a comparison with 0), or stage the "
                f"function with autograph.function, whose NumPy graph honours np.errstate.")
        return np.errstate(*args, **kwargs)


# The backend whose trace is running in this context (thread, asyncio task), if it
# stages even Python-only code: the graph engine sets it while it traces, so that
# ``ag.print("x")`` prints at every run.
_tracing_backend: contextvars.ContextVar[Optional[Backend]] = contextvars.ContextVar(
    "autograph_tracing_backend", default=None)


def tracing_backend() -> Optional[Backend]:
    """The backend tracing in this context that stages Python-only code, or None."""
    return _tracing_backend.get()


@contextlib.contextmanager
def tracing_with(backend: Backend):
    """Make ``backend`` this context's ``tracing_backend()`` for the block."""
    token = _tracing_backend.set(backend)
    try:
        yield
    finally:
        _tracing_backend.reset(token)


_loaded: list[Backend] = []
_lazy: dict[str, str] = {}  # framework top-level module -> backend module path
_owner: dict[type, Optional[Backend]] = {}


def register(backend: Backend) -> None:
    """Make ``backend`` known; its probe makes converted code stage while it traces."""
    _loaded.append(backend)
    _owner.clear()


def register_lazy(framework: str, module_path: str, load_probe: Callable[[], Callable[[], bool]]) -> None:
    """Register a backend whose module is imported on first sight of a value of
    ``framework``. ``load_probe()`` returns the test that is True while the
    framework traces; it is called once, after the framework was imported."""
    _lazy[framework] = module_path
    _mode.add_probe(framework, load_probe)
    _owner.clear()


def present() -> list:
    """The backends of the frameworks imported so far (lazy ones are loaded now)."""
    for top in [t for t in _lazy if t in sys.modules]:
        importlib.import_module(_lazy.pop(top))  # registers itself
    return list(_loaded)


def backend_of(value) -> Optional[Backend]:
    """The backend owning ``value``'s type, or None for values that run as Python."""
    cls = type(value)
    try:
        return _owner[cls]
    except KeyError:
        pass
    owner = _find_owner(cls)
    _owner[cls] = owner
    return owner


def _find_owner(cls: type) -> Optional[Backend]:
    for base in cls.__mro__:
        top = (base.__module__ or "").partition(".")[0]
        if top in _lazy:
            importlib.import_module(_lazy.pop(top))  # registers itself
    for backend in _loaded:
        if backend.owns_type(cls):
            return backend
    return None


def tracing_now() -> Optional[Backend]:
    """The backend staging Python-only code right now: the graph engine while it
    traces, or a loaded framework whose trace is running (``jax.jit``)."""
    tracing = _tracing_backend.get()
    if tracing is not None:
        return tracing
    for backend in _loaded:
        if backend.is_tracing():
            return backend
    return None


def staged_leaf(values) -> Optional[Backend]:
    """The backend of the first staged value in ``values``, looking into lists and tuples."""
    for value in values:
        cls = value.__class__
        backend = staged_leaf(value) if cls is list or cls is tuple else backend_of(value)
        if backend is not None:
            return backend
    return None


def first_backend(values) -> Optional[Backend]:
    """The backend of the first staged value among ``values``, if any."""
    for value in values:
        backend = backend_of(value)
        if backend is not None:
            return backend
    return None
