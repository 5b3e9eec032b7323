"""Telling autograph's mode when TensorFlow builds a graph, so converted functions
called on Python values skip TensorFlow's is-tracing test while no thread builds one.

``tf.executing_eagerly()`` (``tensors.is_tracing``) costs more than a tiny converted
function itself. A thread leaves eager execution only through ``Context._mode``
(``context.graph_mode()``, entered by ``Graph.as_default``: a ``tf.function`` or
dataset-function trace, a ``tf.compat.v1`` graph) and comes back through it
(``context.eager_mode()``: ``tf.init_scope``, ``tf.py_function``). A wrapper there
notes, per thread, whether the thread builds a graph after each switch and reports
the number of such threads to ``staging.mode`` (``report_tracing``); while it is 0
``mode.python`` stays True with TensorFlow imported.

Nothing is reported, and every converted call asks ``tf.executing_eagerly()`` as
before, where the wrapper cannot be installed (another TensorFlow) or where graph
mode is the default (``tf.compat.v1.disable_eager_execution()`` already called:
every new thread starts in graph mode, without a switch). Made after the wrapper was
installed, that call stops the reports: ``disable_eager_execution`` is wrapped too,
wherever a loaded module holds it (``tf.compat.v1``, ``ops``), and from then on every
converted call asks ``tf.executing_eagerly()`` again.
A graph being built in *another* thread when the wrapper is installed is not counted
until that thread switches again, as with JAX (``backends.jax.tracing``).
"""

from __future__ import annotations

import contextlib
import functools
import sys

from tensorflow.python.eager import context as _context

from ...staging import mode as _mode

_installed = False


def install(is_tracing):
    """Wrap ``Context._mode`` once; ``is_tracing()`` gives this thread's state now.
    Returns the is-tracing test for ``staging.mode``."""
    global _installed
    context_class = getattr(_context, "Context", None)
    original = getattr(context_class, "_mode", None)
    if (_installed or original is None
            or getattr(_context, "default_execution_mode", None) != getattr(_context, "EAGER_MODE", 1)):
        return is_tracing
    threads = _mode.ThreadTraces("tensorflow")

    @contextlib.contextmanager
    def switch(self, mode):
        try:
            with original(self, mode) as value:
                threads.note(is_tracing())
                yield value
        finally:
            threads.note(is_tracing())  # after TensorFlow restored the thread's mode

    switch.__wrapped__ = original
    context_class._mode = switch
    _installed = True
    threads.start(is_tracing())
    _stop_on_graph_default(threads)
    return is_tracing


def _stop_on_graph_default(threads) -> None:
    """Wrap ``disable_eager_execution`` in every loaded module that holds it, so that
    making graph mode the default stops ``threads``' reports."""
    from tensorflow.python.framework import ops

    original = ops.disable_eager_execution

    @functools.wraps(original)
    def disable_eager_execution(*args, **kwargs):
        threads.stop()
        return original(*args, **kwargs)

    for module in list(sys.modules.values()):
        if getattr(module, "__name__", "").startswith("tensorflow") and \
                getattr(module, "disable_eager_execution", None) is original:
            module.disable_eager_execution = disable_eager_execution
