"""The graph-engine tests that run graphs also run with ``jit_compile=True`` (the same
graphs compiled by XLA): ``ag.function`` itself takes the option for them. The files
about the engine's front — signatures, escapes, trace-time errors, saved files (a saved
graph loads as NumPy code: ``jit_compile`` is a call-time choice) — and the NumPy code
generator's own buffer reuse run once. A test that needs what XLA does not do is a strict
xfail with the reason."""

from __future__ import annotations

import functools

import pytest

import autograph as ag

XLA_FILES = {"test_graph_differential", "test_graph_function", "test_graph_run_errors",
             "test_graph_seeds"}

# test file::function[case] -> why it fails under XLA, and the exception it fails with
XLA_REFUSES: dict = {
    "test_graph_seeds.py::test_polymorphic_function[numpy-xla":
        ("a string array has no XLA dtype: refused", ag.StagingError),
    "test_graph_run_errors.py::test_a_numpy_warning_while_the_graph_runs_points_at_the_use"
    "rs_line[numpy-xla":
        ("XLA does not warn on floating-point errors (the values are NumPy's)", ValueError),
}


def pytest_generate_tests(metafunc):
    if metafunc.module.__name__.rpartition(".")[2] in XLA_FILES:
        metafunc.parametrize("graph_engine", ["numpy", "numpy-xla"], indirect=True)


@pytest.fixture(autouse=True)
def graph_engine(request, monkeypatch):
    """``numpy-xla``: ``ag.function`` compiles with XLA unless a test says otherwise."""
    engine = getattr(request, "param", "numpy")
    if engine == "numpy-xla":
        import jax  # noqa: F401  (a missing framework is an error here, never a skip)

        original = ag.function

        @functools.wraps(original)
        def function(fn=None, **options):
            options.setdefault("jit_compile", True)
            return original(fn, **options)

        monkeypatch.setattr(ag, "function", function)
    return engine


def pytest_collection_modifyitems(items):
    for item in items:
        nodeid = item.nodeid.rpartition("/")[2]
        for prefix, (reason, raises) in XLA_REFUSES.items():
            if nodeid.startswith(prefix):
                item.add_marker(pytest.mark.xfail(raises=raises, strict=True, reason=reason))
