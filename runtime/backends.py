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

import importlib
from typing import Any, Callable, Optional, Sequence

from . import mode as _mode


class Backend:
    """What a backend answers. Subclasses override what their framework supports.

    State conventions shared by all methods: ``state`` is a tuple of the carried
    variables' values, ``names`` the tuple of their names (for error messages).
    ``body``/``orelse``/``test`` take ``*state`` (loop bodies take the iterated
    item first) and return a state tuple (``test``: a condition). A value may be
    an ``Undefined`` (a variable not yet assigned); the backend decides whether it
    can carry it and otherwise raises the errors in ``errors``.
    """

    name = "backend"

    def owns_type(self, cls: type) -> bool:
        """True if values of ``cls`` are this backend's staged values."""
        raise NotImplementedError

    def is_tracing(self) -> bool:
        """True while this framework is staging a computation right now."""
        return False

    def if_stmt(self, cond, body, orelse, state, names):
        raise NotImplementedError(f"{self.name}: if statements on staged values")

    def while_stmt(self, test, body, state, names, cond):
        """Stage a while loop. ``cond`` is ``test(*state)``, already evaluated on
        the current ``state`` (a Python loop being handed over keeps its state)."""
        raise NotImplementedError(f"{self.name}: while loops on staged values")

    def for_stmt(self, iterable, body, state, names, extra_test):
        raise NotImplementedError(f"{self.name}: for loops over staged values")

    def if_exp(self, cond, if_true, if_false):
        """``if_true()`` if cond else ``if_false()``, both thunks."""
        (value,) = self.if_stmt(cond, lambda: (if_true(),), lambda: (if_false(),), (), ())
        return value

    def not_(self, value):
        raise NotImplementedError(f"{self.name}: 'not' on staged values")

    def and_(self, value, rest: Callable[[], Any]):
        """``value and rest()`` for a staged ``value``; ``rest`` is a thunk."""
        raise NotImplementedError(f"{self.name}: 'and' on staged values")

    def or_(self, value, rest: Callable[[], Any]):
        raise NotImplementedError(f"{self.name}: 'or' on staged values")

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

    def setitem(self, target, index, value):
        """``target[index] = value`` as a new value (staged arrays are immutable)."""
        raise NotImplementedError(f"{self.name}: item assignment on staged values")

    def print_(self, args, sep, end, file, flush):
        """Print at every execution of the graph, with the values of staged args."""
        raise NotImplementedError(f"{self.name}: printing staged values")

    def raise_(self, exc: BaseException, branch) -> None:
        """A traced ``branch`` raised ``exc`` (the user's program did): make the
        graph raise it when that branch runs, or raise a StagingError."""
        from .staged_raise import cannot_raise

        raise cannot_raise(self.name, exc, branch) from None

    def numeric(self, name: str, args, kwargs):
        """``min``/``max``/``abs``/``round``/``int``/``float``/``bool``, ``math.<f>``,
        ``numpy.asarray``/``numpy.array`` with a staged argument (``numeric_builtins``)."""
        raise TypeError(f"{self.name}: {name}() of a staged value is not supported")

    def errstate(self, args, kwargs):
        """``np.errstate(*args, **kwargs)`` while this backend traces."""
        import numpy as np

        return np.errstate(*args, **kwargs)


# The backend whose trace is running, if it stages even Python-only code (the
# graph engine sets this while tracing, so ``ag.print("x")`` prints per run).
tracing_backend: Optional[Backend] = None


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


def first_backend(values) -> Optional[Backend]:
    """The backend of the first staged value among ``values``, if any."""
    for value in values:
        backend = backend_of(value)
        if backend is not None:
            return backend
    return None
