"""Raising when the graph runs: a ``raise`` in a staged branch (see ``staged_raise``).

The branch's exception, made while tracing, is kept in the graph as the argument
of an op with effects; the compiled code raises a fresh copy of it, so each run
that takes the branch raises the same type with the same message, and a run
that does not take it never sees it.
"""

from __future__ import annotations

import copy

from .. import staged_raise
from . import trace
from .ir import Op


def raise_copy(exc: BaseException):
    """Raise a fresh copy of ``exc`` (the kept instance gathers no tracebacks)."""
    try:
        fresh = copy.copy(exc)
    except Exception:
        fresh = exc
    raise fresh.with_traceback(None)


raise_copy.__qualname__ = raise_copy.__name__ = "raise_"


def record_raise(exc: BaseException) -> None:
    """Append the op raising ``exc`` to the block being traced."""
    source = staged_raise.origin(exc) or trace.user_source()
    exc.__traceback__ = None
    exc.__context__ = None
    trace.current().append(Op("call", raise_copy, (exc,), {}, [], None, source=source,
                              effect=True))
