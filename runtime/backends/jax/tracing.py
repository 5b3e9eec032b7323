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

What a failed trace changed is put back by the staging core, as on every backend
(``staging.kept``).
"""

from __future__ import annotations

from jax._src import core as _core

from ...staging import mode as _mode

_installed = False


def install(is_tracing):
    """Wrap ``TracingContext.set_trace`` once; ``is_tracing()`` gives this thread's
    state now. Returns the is-tracing test for ``staging.mode``."""
    global _installed
    context = getattr(_core, "TracingContext", None)
    original = getattr(context, "set_trace", None)
    eval_trace = getattr(_core, "eval_trace", None)
    if _installed or original is None or eval_trace is None:
        return is_tracing
    threads = _mode.ThreadTraces("jax")

    def set_trace(self, trace):
        original(self, trace)
        threads.note(trace is not eval_trace)

    set_trace.__wrapped__ = original
    context.set_trace = set_trace
    _installed = True
    threads.start(is_tracing())
    return is_tracing
