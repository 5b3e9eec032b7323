"""Telling autograph's mode when JAX traces, so converted functions called on
Python values skip JAX's is-tracing test while JAX traces nowhere.

Reading JAX's current trace (``is_tracing``) costs more than a tiny converted
function itself. JAX changes a thread's current trace only through
``TracingContext.set_trace`` (entering and leaving ``jit``/``vmap``/``grad``
traces, and around each eager op, where it sets the top-level trace again); a
wrapper there notes, per thread, whether the thread is inside a trace, and reports
the number of such threads to ``staging.mode`` (``report_tracing``). While it is 0
``mode.python`` stays True. Where the wrapper cannot be installed (another JAX),
nothing is reported and every converted call asks ``is_tracing``, as before.

Installed when autograph first needs JAX's probe (the first converted call after
JAX was imported). A trace already under way in *another* thread at that moment is
not counted until it ends; converted code that thread runs meanwhile takes the
Python path, where a JAX tracer in a condition raises JAX's own error.
"""

from __future__ import annotations

import sys
import threading

from jax._src import core as _core

from ...staging import converted, kept
from ...staging import mode as _mode

_installed = False
staging_test = None  # set by ``install``


_PENDING = object()  # a trace began: the first converted function it runs saves its state
_local = threading.local()


def install(is_tracing):
    """Wrap ``TracingContext.set_trace`` once; ``is_tracing()`` gives this thread's
    state now. Returns the is-tracing test for ``staging.mode`` (``is_tracing``, which
    also saves what the trace may change: see ``staging_test``)."""
    global _installed
    context = getattr(_core, "TracingContext", None)
    original = getattr(context, "set_trace", None)
    eval_trace = getattr(_core, "eval_trace", None)
    if _installed or original is None or eval_trace is None:
        return globals()["staging_test"] if _installed else is_tracing
    local = _local

    def set_trace(self, trace):
        original(self, trace)
        tracing = trace is not eval_trace
        if tracing is not getattr(local, "tracing", False):
            local.tracing = tracing
            if tracing and getattr(local, "trace", None) is not _outermost(trace):
                local.saved, local.trace = _PENDING, _outermost(trace)  # a new trace
            elif not tracing:
                _failed(local)
            _mode.tracing_changed("jax", 1 if tracing else -1)

    set_trace.__wrapped__ = original

    def staging_test() -> bool:
        if getattr(local, "saved", None) is _PENDING:
            frame = sys._getframe(1)
            while frame is not None and frame.f_code not in converted.codes:
                frame = frame.f_back
            local.saved = kept.Saved(frame) if frame is not None else None
        return is_tracing()

    globals()["staging_test"] = staging_test
    local.tracing = is_tracing()
    if local.tracing:  # installed by the first converted call of a trace under way
        local.saved, local.trace = _PENDING, _outermost(_core.trace_ctx.trace)
    context.set_trace = set_trace
    _installed = True
    _mode.report_tracing("jax", 1 if local.tracing else 0)
    return staging_test


def _outermost(trace):
    """A weak reference to the trace ``trace`` is nested in (through ``parent_trace``)
    at the top: one for a ``jit`` trace and the traces of its branches and loops."""
    parent = getattr(trace, "parent_trace", None)
    while parent is not None and parent is not _core.eval_trace:
        trace, parent = parent, getattr(parent, "parent_trace", None)
    return getattr(trace, "_weakref", None)


def _failed(local) -> None:
    """A top-level trace stopped (for now: JAX returns to the top level for eager work
    inside a trace too). If the converted function it ran is failing (the exception on
    its way out passed through that function's frame), what that function changed is
    put back (``kept.Saved``)."""
    saved = getattr(local, "saved", None)
    failed = sys.exc_info()[1]
    if saved is None or saved is _PENDING or failed is None:
        return
    tb = failed.__traceback__
    while tb is not None and id(tb.tb_frame) != saved.frame_id:
        tb = tb.tb_next
    if tb is not None:
        local.saved = None
        saved.restore()
