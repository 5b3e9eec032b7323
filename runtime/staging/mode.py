"""Which body a converted function runs: its Python path or its staged path.

Every converted function carries two bodies: the user's original statements, run
when nothing is being traced, and the staged body, in which control flow goes
through the functional operators (``if_stmt``, ``while_stmt`` ...). The entry test
the converter emits is ``if ag__.mode.python or not ag__.mode.staging():``.

The answer belongs to the caller's context: a trace in one thread (or asyncio
task) never switches another thread onto staged bodies. Two levels keep the
common path cheap:

- ``mode.python`` is a process-wide *hint*, a plain attribute, so the common
  test costs one attribute read. It is True only while nothing can be staging in
  any thread: no graph-engine trace and no ``force_staged()`` block runs anywhere,
  and no foreign framework (JAX, ...) is imported — or, for a framework that
  reports when its traces begin and end (``report_tracing``; JAX, TensorFlow and
  PyTorch do, see ``backends.jax.tracing``, ``backends.tf.tracing`` and
  ``backends.torch.tracing``), none of its traces runs in any thread.
- When it is False, ``mode.staging()`` answers exactly for the calling context.
  Graph-engine traces and ``force_staged()`` blocks are counted in a
  ``contextvars.ContextVar`` (so per thread and per asyncio task); a foreign
  framework's own is-tracing test is per thread already. ``mode.staging`` is the
  cheapest exact test for the situation, chosen on its first call after anything
  changed (with one framework imported and no graph trace anywhere: that
  framework's test alone, a single read of its trace state; a framework that
  reports its traces adds no test while it traces nowhere).
"""

from __future__ import annotations

import contextlib
import contextvars
import sys
from sys import _getframe  # the runtime's own: a user may take it off sys
import threading


class Mode:
    __slots__ = ("python", "staging")

    def __init__(self) -> None:
        self.python = True  # hint: nothing can be staging anywhere
        self.staging = _choose_test  # the exact test for this context, when ``python`` is False


# Graph-engine traces and forced staged runs open in this context (thread, task).
_depth: contextvars.ContextVar[int] = contextvars.ContextVar("autograph_staging_depth", default=0)

# The same, summed over every context of the process; guarded by ``_lock``, which
# is never held while anything is imported (the import watcher takes it).
_lock = threading.RLock()
_active = 0
_generation = 0  # bumped on every change of ``_active`` or of the imported frameworks

# Foreign frameworks that can trace: (top-level module name, loader of its
# is-tracing test). A loader runs once, after the framework was imported.
_probes: list = []
_tests: dict = {}
_loading = threading.RLock()  # held while a probe loads (never by the import watcher)
# Frameworks that report their traces: name -> how many threads trace now.
_reported: dict = {}


def staging() -> bool:
    """True when converted functions called in this context must run their staged body."""
    if _depth.get():
        return True
    return any(_test(name, load)() for name, load in _probes if name in sys.modules)


def _in_context() -> bool:
    return _depth.get() > 0


def _in_context_or(framework_test):
    """The exact test while a graph trace runs somewhere and one framework is imported."""
    def test() -> bool:
        return _depth.get() > 0 or framework_test()

    return test


def _test(name: str, load):
    test = _tests.get(name)
    if test is None:
        with _loading:  # threads that meet a framework at once load its probe once
            test = _tests.get(name)
            if test is None:
                try:
                    test = load()
                except ImportError:  # what is imported under that name is not a usable framework
                    test = _never
                _tests[name] = test
    return test


def _never() -> bool:
    return False


def _until_imported(names: tuple, test):
    """``test`` while none of ``names`` (frameworks looked up, not imported: dynamo asks
    ``find_spec("tensorflow")``) is in ``sys.modules``; once one is, the test is chosen
    again. Loading a framework's probe imports it, so a look-up alone loads nothing."""
    modules = sys.modules

    def check() -> bool:
        for name in names:  # a loop, not any(): this runs on every converted call
            if name in modules:
                return _choose_test()
        return test()

    return check


def _choose_test() -> bool:
    """``mode.staging`` after a change: install the cheapest exact test, run it."""
    choose_test()
    return staging()


def choose_test() -> None:
    """Install the cheapest exact test as ``mode.staging`` now, without running it (a
    framework's hook that reported a change: ``backends.torch.tracing``)."""
    generation = _generation
    active, pending = [], []  # each framework looked at once: its import may finish now
    for name, load in _probes:
        if name in sys.modules:
            if _reported.get(name) != 0:  # a framework that reports no trace anywhere: no test
                active.append((name, load))
        elif name in _ImportWatcher.seen:
            pending.append(name)
    for name, load in active:
        _test(name, load)  # loading may import: done before the lock is taken
    if _active:
        test = _in_context if not active else (
            _in_context_or(_test(*active[0])) if len(active) == 1 else staging)
    elif not active:
        test = _never
    elif len(active) == 1:
        test = _test(*active[0])
    else:
        test = staging
    if pending:
        test = _until_imported(tuple(pending), test)
    with _lock:
        if generation == _generation:
            mode.staging = test


mode = Mode()


def _changed() -> None:
    """Recompute the hint after a trace began or ended anywhere (``_lock`` held)."""
    global _generation
    _generation += 1
    mode.python = not (_active or any(
        (name in sys.modules or name in _ImportWatcher.seen) and _reported.get(name, 1)
        for name, _ in _probes))
    mode.staging = _choose_test


def refresh() -> None:
    """Recompute ``mode`` after a framework was imported."""
    with _lock:
        _changed()


def report_tracing(module_name: str, threads: int) -> None:
    """A framework's hook reports how many threads are inside one of its traces. While
    that is 0 (and nothing else stages), ``mode.python`` stays True with the framework
    imported: converted functions skip its is-tracing test. A framework that never
    reports counts as tracing whenever it is imported."""
    with _lock:
        _reported[module_name] = threads
        _changed()


def tracing_changed(module_name: str, delta: int) -> None:
    """One more (``delta`` 1) or one fewer (-1) thread inside a trace of a framework
    that reports its traces (after ``report_tracing`` gave the count once)."""
    with _lock:
        if module_name in _reported:  # not after ``ThreadTraces.stop``
            _reported[module_name] += delta
            _changed()


class ThreadTraces:
    """For a framework's hook that sees a thread enter or leave one of its traces: keeps
    whether each thread is inside one, and reports the number of such threads
    (``report_tracing``, ``tracing_changed``)."""

    def __init__(self, module_name: str) -> None:
        self.name = module_name
        self._local = threading.local()  # .tracing: this thread is inside a trace
        self._stopped = False

    def start(self, tracing: bool) -> None:
        """Report the first count: this thread's state (``tracing``), once the hook is in."""
        self._local.tracing = tracing
        report_tracing(self.name, 1 if tracing else 0)

    def inside(self) -> bool:
        """Whether this thread was last noted inside a trace."""
        return getattr(self._local, "tracing", False)

    def note(self, tracing: bool) -> None:
        """The hook saw this thread's state after a change: ``tracing`` or not."""
        if tracing is not getattr(self._local, "tracing", False) and not self._stopped:
            self._local.tracing = tracing
            tracing_changed(self.name, 1 if tracing else -1)

    def stop(self) -> None:
        """The hook can no longer see every trace (a thread may now start inside one):
        the framework counts as tracing whenever it is imported, as one that never
        reported."""
        with _lock:
            self._stopped = True
            _reported.pop(self.name, None)
            _changed()


def add_probe(module_name: str, load) -> None:
    """Register ``load()``, which returns a test that is True while
    ``module_name``'s framework traces; it is called once that is imported."""
    _probes.append((module_name, load))
    _watch(module_name)
    refresh()


@contextlib.contextmanager
def _staging_here():
    global _active
    token = _depth.set(_depth.get() + 1)
    with _lock:
        _active += 1
        _changed()
    try:
        yield
    finally:
        _depth.reset(token)
        with _lock:
            _active -= 1
            _changed()


def tracing():
    """Mark a graph-engine trace: converted functions called in this context
    (thread, asyncio task) run staged inside it."""
    return _staging_here()


def force_staged():
    """Run converted functions in this context staged even on Python values (tests,
    benchmarks)."""
    return _staging_here()


class _ImportWatcher:
    """A meta-path finder that never finds anything: it only notices when a
    framework with a tracing probe is imported, so that ``mode.python`` turns
    False without any per-call check of ``sys.modules``."""

    names: set = set()
    seen: set = set()  # names whose import began (they may not be in sys.modules yet)

    def find_spec(self, fullname, path=None, target=None):
        if fullname in self.names and not _only_looked_up():
            global _generation
            self.seen.add(fullname)
            with _lock:
                _generation += 1
                mode.python = False
                mode.staging = _choose_test
        return None


def _only_looked_up() -> bool:
    """True when ``importlib.util.find_spec`` asks for a framework without importing it
    (dynamo asks for TensorFlow's spec): nothing is imported, so nothing changes. Any
    other caller is taken as an import (when in doubt, the exact per-call test)."""
    try:
        caller = _getframe(3)  # find_spec <- importlib's _find_spec <- its caller
    except ValueError:  # called from a shallower stack: not importlib's lookup
        return False
    return caller.f_code.co_name == "find_spec" and caller.f_globals.get("__name__") == "importlib.util"


_watcher = _ImportWatcher()


def _watch(module_name: str) -> None:
    _ImportWatcher.names.add(module_name)
    if _watcher not in sys.meta_path:
        sys.meta_path.insert(0, _watcher)
