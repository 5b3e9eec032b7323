"""Saying what long work is doing: conversions and traces that take a while.

Work wrapped in ``long_work`` that is still running after ``LONG``
seconds logs one line at INFO on the ``autograph`` logger, from a watcher thread
(``autograph: tracing 'f' (model.py:12) has taken 2 s so far``): the user of a
10 s trace learns what it is, while it runs, once. Nothing is logged for work that
ends sooner. As in TensorFlow's AutoGraph, ``set_verbosity(level,
alsologtostdout)`` makes it say more: at level 1 and above every conversion and
trace is logged when it ends, with its time; ``alsologtostdout`` also prints the
lines. The ``AUTOGRAPH_VERBOSITY`` environment variable gives the initial level.

Entering and leaving costs a lock and a list append, not a thread or a timer per
piece of work: one daemon thread, started on first use, sleeps until the oldest
open piece of work is ``LONG`` seconds old.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from typing import Callable

logger = logging.getLogger("autograph")
LONG = 2.0  # seconds of work after which it says what it is doing

_settings = {"level": 0, "stdout": False}
try:
    _settings["level"] = int(os.environ.get("AUTOGRAPH_VERBOSITY", "0"))
except ValueError:
    pass


def set_verbosity(level: int, alsologtostdout: bool = False) -> None:
    """How much autograph says about its work, through ``logging`` (logger ``autograph``).

    At level 0 (the default) a conversion or trace still running after 2 seconds
    logs one line at INFO saying what it is; at level 1 and above every conversion
    and trace logs one line at INFO when it ends, with its time. The lines are
    shown where your ``logging`` configuration shows INFO records of the
    ``autograph`` logger (``logging.basicConfig(level=logging.INFO)``).

    Args:
        level: 0 or more.
        alsologtostdout: Also print the lines to standard output.

    Returns:
        None.

    Raises:
        ValueError: ``level`` is not an int of 0 or more.

    Example:
        >>> import autograph as ag
        >>> ag.set_verbosity(1, alsologtostdout=True)
        >>> def double(x):
        ...     return x * 2
        >>> ag.to_graph(double)(2)  # doctest: +ELLIPSIS
        autograph: converted double (...) in ... s
        4
        >>> ag.set_verbosity(0)
    """
    if level.__class__ is not int or level < 0:
        raise ValueError(f"autograph.set_verbosity: level must be an int of 0 or more, "
                         f"got {level!r}")
    _settings["level"] = level
    _settings["stdout"] = bool(alsologtostdout)


def get_verbosity() -> int:
    return _settings["level"]


def say(text: str) -> None:
    """One line about autograph's work: INFO on the ``autograph`` logger (and stdout)."""
    logger.info("%s", text)
    if _settings["stdout"]:
        print(f"autograph: {text}", flush=True)


def _finished() -> str:
    return "(finished work)"


class _Work:
    __slots__ = ("doing", "done", "start", "subject")

    def __init__(self, doing: str, subject: Callable[[], str]) -> None:
        self.doing, self.subject = doing, subject
        self.start = time.monotonic()
        self.done = False


class long_work:
    """Context manager around one conversion or trace: says what it is if it runs
    longer than ``LONG`` (once), and at verbosity 1 and above how long it took.
    ``doing`` and ``did`` are its verbs (``tracing``, ``traced``); ``subject()`` gives
    what it works on (``'f' (model.py:12)``), made only when a line is logged."""

    __slots__ = ("did", "work")

    def __init__(self, doing: str, did: str, subject: Callable[[], str]) -> None:
        self.work = _Work(doing, subject)
        self.did = did

    def __enter__(self):
        _watcher.add(self.work)
        return self

    def __exit__(self, *exc) -> None:
        work = self.work
        work.done = True
        if _settings["level"] >= 1 and exc[0] is None:
            say(f"{self.did} {work.subject()} in {time.monotonic() - work.start:.3g} s")
        work.subject = _finished  # the watcher may hold the work a while: keep nothing alive


class _Watcher:
    """The one thread that notices work running longer than ``LONG``."""

    def __init__(self) -> None:
        self.open: list = []  # work in the order it began
        self.wake = threading.Condition(threading.Lock())
        self.thread = None

    def add(self, work: _Work) -> None:
        with self.wake:
            if len(self.open) > 256:  # many short pieces of work while the thread sleeps
                self.open = [w for w in self.open if not w.done]
            self.open.append(work)
            if self.thread is None:
                self.thread = threading.Thread(target=self.run, name="autograph-progress",
                                               daemon=True)
                self.thread.start()
            elif all(w.done for w in self.open[:-1]):  # the oldest open work: wake to time it
                self.wake.notify()

    def run(self) -> None:
        while True:
            due = []
            with self.wake:
                self.open = [w for w in self.open if not w.done]
                while not self.open:
                    self.wake.wait()
                    self.open = [w for w in self.open if not w.done]
                oldest = self.open[0]
                wait = oldest.start + LONG - time.monotonic()
                if wait > 0:
                    self.wake.wait(wait)
                    continue
                now = time.monotonic()
                while self.open and (self.open[0].done or self.open[0].start + LONG <= now):
                    work = self.open.pop(0)
                    if not work.done:
                        due.append(work)
            for work in due:
                try:
                    say(f"{work.doing} {work.subject()} has taken {LONG:g} s so far")
                except Exception:  # noqa: BLE001 - a report must never break the work
                    pass


_watcher = _Watcher()
