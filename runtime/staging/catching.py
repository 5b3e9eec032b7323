"""``try`` around staged code: errors the graph raises when it runs (issue 22 leftovers, 2).

Converted code runs a ``try``'s body in a catching region (``catching``, made by the
``try_statements`` converter) and each handler a second time, staged, on
``region.caught(i)``. While tracing, a Python exception still goes to the original
handlers, and ``caught(i)`` is ``False``: nothing changes for Python values.

What a graph raises when it runs is another matter. A backend that records code
(the NumPy engine, ``Backend.catching``) catches NumPy's floating-point errors of
the ops recorded in the region (``np.errstate(divide='raise')``: the
``FloatingPointError`` SciPy's ``_cubicmin`` catches with ``except
ArithmeticError``): the region notes them instead of raising, and ``caught(i)`` of
the first handler that catches ``FloatingPointError`` is that run-time flag, so the
handler's staged copy runs exactly when eager Python would run the handler. The
backend refuses (a StagingError naming the ``try``) what it cannot do: give the
handler the exception (``except ... as e``), or catch an exception a staged
``raise`` in the body raises when the graph runs. JAX's compiled code raises
nothing, so there a region catches nothing.

A ``StagingError`` raised in the body (the trace failed) leaves the region and is
raised again by ``check()`` in the ``else`` clause: a handler such as ``except
Exception`` would otherwise swallow it and run as if the program had raised. So does
what the tracing framework raises because a staged value cannot do what a NumPy value
does (``Backend.trace_failure``: the NumPy engine's ``float(t)``, JAX's
``ConcretizationTypeError``): eagerly the body goes on where the trace stopped.
"""

from __future__ import annotations


from . import backend as backends, errors
from .arg_writes import user_line


def catches(handler_types, exc_type) -> bool:
    """Would ``except handler_types:`` (None: a bare ``except``) catch ``exc_type``?"""
    if handler_types is None:
        return True
    try:
        return issubclass(exc_type, handler_types)
    except TypeError:
        return False


class Region:
    """The body of one ``try``; ``caught(i)``: handler ``i`` runs (a staged bool or False)."""

    def __init__(self, types, named, line) -> None:
        self.types, self.named = list(types), list(named)
        where = user_line()
        self.where = (where[0], line) if where else None
        self.scope = None
        self.flags: dict = {}
        self.error = None

    def __enter__(self):
        backend = backends.tracing_backend()
        if backend is not None:
            self.scope = backend.catching(self)
        return self

    def __exit__(self, exc_type, exc, tb) -> bool:
        # autograph's own errors are the trace's, not the program's, and so are a tracing
        # framework's refusals of a staged value (``float(x)``, a NumPy function it has
        # not): the try's handlers (``except Exception``) must not swallow them, so
        # check() raises them after.
        own = isinstance(exc, errors.StagingError) or _trace_failure(exc)
        if self.scope is not None:
            try:
                self.flags = self.scope.close(raised=exc is not None and not own)
            except errors.StagingError as error:
                self.error = error
        if own and self.error is None:
            self.error = exc
        return own

    def check(self) -> None:
        """Raise the backend's refusal of this ``try``, if any."""
        if self.error is not None:
            error, self.error = self.error, None
            raise error

    def caught(self, i: int):
        return self.flags.get(i, False)

    def handler_for(self, exc_type):
        """The index of the handler that catches ``exc_type``, or None."""
        return next((i for i, t in enumerate(self.types) if catches(t, exc_type)), None)

    def location(self) -> str:
        return "<unknown location>" if self.where is None else errors.at_line(*self.where)

    def _handler_text(self, i: int) -> str:
        t = self.types[i]
        if t is None:
            return "except"
        names = [c.__name__ for c in (t if isinstance(t, tuple) else (t,))]
        return "except " + (names[0] if len(names) == 1 else f"({', '.join(names)})")

    def named_handler(self, i: int, exc_type) -> errors.StagingError:
        return errors.StagingError(
            f"try statement at {self.location()}: its '{self._handler_text(i)} as ...' catches "
            f"the {exc_type.__name__} that the graph's operations raise when it runs, and a "
            f"graph can run the handler then but cannot give it the exception object. Drop "
            f"the 'as' name, or check the values before the operation.")

    def staged_raise(self, i: int, exc: BaseException, where) -> errors.StagingError:
        at = errors.at_line(*where) if where else "?"
        return errors.StagingError(
            f"try statement at {self.location()}: the raise at {at} in its body is staged "
            f"(the graph raises {type(exc).__name__} when it runs and takes that branch), "
            f"and its '{self._handler_text(i)}' would catch it; a graph cannot catch the "
            f"exceptions it raises (only NumPy's floating-point errors). Test the condition "
            f"and run the handler's code in an if statement instead of raising.")


def _trace_failure(exc) -> bool:
    if not isinstance(exc, Exception):
        return False
    backend = backends.tracing_now()
    return backend is not None and backend.trace_failure(exc)


def catching(types, named, line: int) -> Region:
    """The catching region of a ``try`` at ``line`` whose handlers catch ``types`` (one
    per handler; ``named[i]``: handler ``i`` binds the exception to a name)."""
    return Region(types, named, line)
