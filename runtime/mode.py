"""Which body a converted function runs: its Python path or its staged path.

Every converted function carries two bodies: the user's original statements, run
when nothing is being traced, and the staged body, in which control flow goes
through the functional operators (``if_stmt``, ``while_stmt`` ...). The entry test
the converter emits is ``if ag__.mode.python or not ag__.staging():``.

``mode.python`` is a plain attribute, so on the common path the test costs one
attribute read. It is True while no tracing framework can be active: the built-in
graph engine is not tracing and no foreign framework (JAX, ...) has been imported.
When it is False, ``staging()`` asks precisely: is the graph engine tracing, is a
staged run forced (tests, benchmarks), or does a loaded backend report that its
framework is tracing right now.
"""

from __future__ import annotations

import contextlib
import sys


class Mode:
    __slots__ = ("python", "tracing_depth", "forced")

    def __init__(self) -> None:
        self.python = True
        self.tracing_depth = 0  # nesting of graph-engine traces
        self.forced = 0  # nesting of force_staged() blocks


mode = Mode()

# Tracing probes of foreign frameworks: (top-level module name, backend loader).
_probes: list = []


def staging() -> bool:
    """True when converted functions must run their staged body."""
    if mode.tracing_depth or mode.forced:
        return True
    for module_name, probe in _probes:
        if module_name in sys.modules and probe():
            return True
    return False


def refresh() -> None:
    """Recompute ``mode.python`` after a framework was imported or a trace ended."""
    mode.python = not (
        mode.tracing_depth
        or mode.forced
        or any(name in sys.modules for name, _ in _probes)
    )


def add_probe(module_name: str, probe) -> None:
    """Register ``probe()`` (True while ``module_name``'s framework traces)."""
    _probes.append((module_name, probe))
    _watch(module_name)
    refresh()


@contextlib.contextmanager
def tracing():
    """Mark a graph-engine trace: converted functions run staged inside it."""
    mode.tracing_depth += 1
    mode.python = False
    try:
        yield
    finally:
        mode.tracing_depth -= 1
        refresh()


@contextlib.contextmanager
def force_staged():
    """Run converted functions staged even on Python values (tests, benchmarks)."""
    mode.forced += 1
    mode.python = False
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
        return None


_watcher = _ImportWatcher()


def _watch(module_name: str) -> None:
    _ImportWatcher.names.add(module_name)
    if _watcher not in sys.meta_path:
        sys.meta_path.insert(0, _watcher)
