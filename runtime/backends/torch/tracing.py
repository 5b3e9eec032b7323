"""Telling autograph's mode when PyTorch compiles, exports or runs what it compiled, so
converted functions called on Python values skip PyTorch's is-compiling test otherwise.

``torch.compiler.is_compiling()`` (``backend.is_tracing``) costs several times a tiny
converted function itself (two Python calls). The hint ``mode.python`` may be True only
where the entry test's answer cannot matter to PyTorch:

- While PyTorch traces, the flag ``torch.compiler._is_compiling_flag`` that
  ``is_compiling()`` reads is set, in two places only in PyTorch 2.13: dynamo's compile
  of a frame (``torch.compiler._compile_session_context``, looked up on the module at
  each compile) and ``torch.export`` (``_compiling_state_context``, which assigns the
  module's attribute from outside: the module's class gains a ``__setattr__`` that
  notes it).
- While a thread runs a function ``torch.compile`` made (dynamo's frame callback is set,
  ``eval_frame._maybe_set_eval_frame``): dynamo may compile a converted function's own
  frame there (where a non-strict region failed and it goes on without one, or in a
  graph break's gap), reading the hint as a constant and guarding on it; the guard is
  checked when the compiled code runs again, inside such a call, where the hint must
  read as it did while dynamo compiled.

``install`` wraps those steps and reports to ``staging.mode`` the threads inside a
compiled call, plus one while the flag is set (``report_tracing``); while that is 0,
``mode.python`` stays True with PyTorch imported. A thread's entry into compiled calls is
reported at once, its exit lazily: by its next converted call (``compiling``, the exact
test, whose first line is ``is_compiling()``, which dynamo reads as True with no guard),
since a compiled call switches dynamo's callback several times. After each report the
exact test is chosen at once, so dynamo never reads the chooser. Where the hooks cannot
be installed (another PyTorch), nothing is reported and every converted call asks
``is_compiling()``, as before.
"""

from __future__ import annotations

import contextlib
import threading
import types

import torch

from ...staging import mode as _mode
from .patches import wrap_once

_FLAG = "_is_compiling_flag"
_installed = False
_counted = False  # whether the flag's state reported last was "set"
_lock = threading.Lock()


def install(is_tracing):
    """Install the hooks once; ``is_tracing()`` reads the flag. Returns the is-compiling
    test for ``staging.mode``."""
    global _installed
    compiler = torch.compiler
    try:
        from torch._C._dynamo.eval_frame import get_eval_frame_callback
        from torch._dynamo import eval_frame
    except ImportError:
        return is_tracing
    if (_installed or type(compiler) is not types.ModuleType
            or not isinstance(getattr(compiler, _FLAG, None), bool)
            or getattr(compiler, "_compile_session_context", None) is None
            or getattr(eval_frame, "_maybe_set_eval_frame", None) is None):
        return is_tracing
    threads = _mode.ThreadTraces("torch")

    def wrap_session(session):
        @contextlib.contextmanager
        def compile_session():
            try:
                with session():
                    _report()
                    yield
            finally:
                _report()

        return compile_session

    def wrap_callback(set_callback):
        def maybe_set_eval_frame(callback):
            if callback is None or threads.inside():
                return set_callback(callback)
            # noted with no callback set: dynamo would compile the frames of the note
            prior = eval_frame.set_eval_frame(None)
            threads.note(True)
            _report()
            set_callback(callback)
            return prior

        return maybe_set_eval_frame

    def compiling():
        """``is_tracing()``; a thread that left the compiled calls it was noted inside
        (left lazily: each compiled call switches dynamo's callback several times, each
        disabled frame of its graph twice) is noted outside here, at its first converted
        call after them. Dynamo reads the first line as True and no further."""
        if is_tracing():
            return True
        if threads.inside() and get_eval_frame_callback() is None:
            threads.note(False)
            _report()
        return False

    wrap_once(compiler, "_compile_session_context", wrap_session)
    wrap_once(eval_frame, "_maybe_set_eval_frame", wrap_callback)
    compiler.__class__ = _WatchedModule
    _installed = True
    threads.start(get_eval_frame_callback() is not None)
    _report()
    return compiling


def _report() -> None:
    """Report the flag's state if it changed since the last report (a compile already
    under way when the hooks were installed ends unseen: its end is reported at the next
    hook), then install the exact test at once (a report resets it to the chooser, which
    dynamo must not read)."""
    global _counted
    with _lock:
        now = getattr(torch.compiler, _FLAG)
        if now is not _counted:
            _counted = now
            _mode.tracing_changed("torch", 1 if now else -1)
    if not _mode.mode.python:
        _mode.choose_test()


class _WatchedModule(types.ModuleType):
    """``torch.compiler``, whose flag's assignments from outside (``torch.export``) are
    reported."""

    def __setattr__(self, name, value):
        super().__setattr__(name, value)
        if name == _FLAG:
            _report()
