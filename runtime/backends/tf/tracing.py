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
every new thread starts in graph mode, without a switch). TensorFlow allows that call
only at program start; made after autograph's first converted call it goes unnoticed,
and a graph tensor that then reaches a Python ``if`` raises TensorFlow's own error.
A graph being built in *another* thread when the wrapper is installed is not counted
until that thread switches again, as with JAX (``backends.jax.tracing``).
"""

from __future__ import annotations

import contextlib

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
    return is_tracing
