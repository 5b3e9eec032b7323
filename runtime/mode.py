"""Which body a converted function runs: its Python path or its staged path.

Every converted function carries two bodies: the user's original statements, run
when nothing is being traced, and the staged body, in which control flow goes
through the functional operators (``if_stmt``, ``while_stmt`` ...). The entry test
the converter emits is ``if ag__.mode.python or not ag__.mode.staging():``.

``mode.python`` is a plain attribute, so on the common path the test costs one
attribute read. It is True while no tracing framework can be active: the built-in
graph engine is not tracing and no foreign framework (JAX, ...) has been imported.
When it is False, ``mode.staging()`` answers precisely, and cheaply: it is the
cheapest exact test for the current situation (always True inside a graph-engine
trace or a forced staged run; with one framework imported, that framework's own
is-tracing test, a single read of its trace state), chosen on its first call after
anything changed.
"""

from __future__ import annotations

import contextlib
import sys


class Mode:
    __slots__ = ("python", "staging", "tracing_depth", "forced")

    def __init__(self) -> None:
        self.python = True
        self.staging = _choose_test  # the exact test, when ``python`` is False
        self.tracing_depth = 0  # nesting of graph-engine traces
        self.forced = 0  # nesting of force_staged() blocks


# Foreign frameworks that can trace: (top-level module name, loader of its
# is-tracing test). A loader runs once, after the framework was imported.
_probes: list = []
_tests: dict = {}


def staging() -> bool:
    """True when converted functions must run their staged body."""
    if mode.tracing_depth or mode.forced:
        return True
    return any(_test(name, load)() for name, load in _probes if name in sys.modules)


def _test(name: str, load):
    test = _tests.get(name)
    if test is None:
        try:
            test = load()
        except ImportError:  # what is imported under that name is not a usable framework
            test = _never
        _tests[name] = test
    return test


def _always() -> bool:
    return True


def _never() -> bool:
    return False


def _choose_test() -> bool:
    """``mode.staging`` after a change: install the cheapest exact test, run it."""
    if mode.tracing_depth or mode.forced:
        mode.staging = _always
    else:
        active = [(name, load) for name, load in _probes if name in sys.modules]
        if not active:
            mode.staging = _never
        elif len(active) == 1:
            mode.staging = _test(*active[0])
        else:
            mode.staging = staging
    return mode.staging()


mode = Mode()


def refresh() -> None:
    """Recompute ``mode`` after a framework was imported or a trace began or ended."""
    mode.python = not (
        mode.tracing_depth
        or mode.forced
        or any(name in sys.modules for name, _ in _probes)
    )
    mode.staging = _choose_test


def add_probe(module_name: str, load) -> None:
    """Register ``load()``, which returns a test that is True while
    ``module_name``'s framework traces; it is called once that is imported."""
    _probes.append((module_name, load))
    _watch(module_name)
    refresh()


@contextlib.contextmanager
def tracing():
    """Mark a graph-engine trace: converted functions run staged inside it."""
    mode.tracing_depth += 1
    refresh()
    try:
        yield
    finally:
        mode.tracing_depth -= 1
        refresh()


@contextlib.contextmanager
def force_staged():
    """Run converted functions staged even on Python values (tests, benchmarks)."""
    mode.forced += 1
    refresh()
    try:
        yield
    finally:
        mode.forced -= 1
        refresh()


class _ImportWatcher:
    """A meta-path finder that never finds anything: it only notices when a
    framework with a tracing probe is imported, so that ``mode.python`` turns
    False without any per-call check of ``sys.modules``."""

    names: set = set()

    def find_spec(self, fullname, path=None, target=None):
        if fullname in self.names:
            mode.python = False
            mode.staging = _choose_test
        return None


_watcher = _ImportWatcher()


def _watch(module_name: str) -> None:
    _ImportWatcher.names.add(module_name)
    if _watcher not in sys.meta_path:
        sys.meta_path.insert(0, _watcher)
