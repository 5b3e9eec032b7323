"""The backend's runtime side: tracing probe, lazy import, printing, asserts."""

from __future__ import annotations

import subprocess
import sys

import jax
import jax.numpy as jnp
import pytest
from autograph.runtime.backends.jax import backend as jax_backend
from jax_helpers import staged

import autograph as ag
from autograph import runtime as ag__


def test_import_autograph_does_not_import_jax():
    code = "import sys, autograph; assert 'jax' not in sys.modules, 'jax imported'"
    subprocess.run([sys.executable, "-c", code], check=True)


def test_is_tracing_probe():
    seen = []

    def probe(x):
        seen.append(jax_backend.is_tracing())
        return x

    probe(1.0)
    jax.jit(probe)(1.0)
    jax.vmap(probe)(jnp.ones(2))
    jax.grad(probe)(1.0)
    jax.lax.scan(lambda c, x: (probe(c), x), 0.0, jnp.ones(2))
    assert seen == [False, True, True, True, True]
    assert not jax_backend.is_tracing()
    assert ag__.staging() is False


def test_the_entry_test_follows_traces_forced_runs_and_graph_traces():
    _in_a_process_with_jax_only("_test_the_entry_test_follows_traces_forced_runs_and_graph_traces")


def _test_the_entry_test_follows_traces_forced_runs_and_graph_traces():
    from autograph.runtime.staging.mode import force_staged, tracing

    mode = ag__.mode
    seen = []

    def probe(x):
        seen.append(mode.python or not mode.staging())  # the converted entry test
        return x

    mode.staging()  # loads JAX's probe, which reports JAX's traces from then on
    assert mode.python is True  # jax is imported, but traces nowhere
    probe(1.0)
    jax.jit(probe)(1.0)
    with force_staged():
        probe(1.0)
    probe(1.0)
    with tracing():  # the graph engine tracing while jax is imported
        probe(1.0)
        jax.jit(lambda x: probe(x))(2.0)  # a new function: jit traces it again
    probe(1.0)
    assert seen == [True, False, False, True, False, False, True]


def test_the_hint_follows_jax_traces_in_every_thread_and_failed_traces():
    _in_a_process_with_jax_only("_test_the_hint_follows_jax_traces_in_every_thread_and_failed_traces")


def _test_the_hint_follows_jax_traces_in_every_thread_and_failed_traces():
    import threading

    mode = ag__.mode
    mode.staging()
    inside, release, seen = threading.Event(), threading.Event(), []

    def tracing_elsewhere(x):
        inside.set()
        release.wait(30)
        return x

    other = threading.Thread(target=lambda: jax.jit(tracing_elsewhere)(1.0))
    other.start()
    inside.wait(30)
    seen.append((mode.python, mode.python or not mode.staging()))  # this thread: not tracing
    release.set()
    other.join()
    seen.append((mode.python, None))

    def fails(x):
        seen.append((mode.python, mode.python or not mode.staging()))
        raise ValueError("inside")

    with pytest.raises(ValueError, match="inside"):
        jax.jit(fails)(1.0)
    seen.append((mode.python, None))
    assert seen == [(False, True), (True, None), (False, False), (True, None)]


def test_the_backend_owns_tracers_only():
    assert ag__.backend_of(jnp.ones(2)) is None  # concrete arrays run as Python
    jax.jit(lambda x: ag__.backend_of(x) is jax_backend.backend or pytest.fail("not owned"))(1.0)


def printing(x):
    ag.print("x is", x, "and", x + 1, sep="|", end=";\n")
    for i in range(x.shape[0]):
        if x[i] > 1:
            ag.print("big", i, x[i])
    return x


def test_print_runs_each_time_with_values(capsys):
    f = staged(printing)
    f(jnp.array([1.0, 2.0]))
    f(jnp.array([3.0, 0.5]))
    jax.effects_barrier()
    out = capsys.readouterr().out
    assert out == ("x is|[1. 2.]|and|[2. 3.];\nbig 1 2.0\n"
                   "x is|[3.  0.5]|and|[4.  1.5];\nbig 0 3.0\n")


def print_in_loop(n):
    i = 0
    while i < n:
        ag.print("step", i)
        i += 1
    return i


def test_print_in_a_staged_loop(capsys):
    staged(print_in_loop)(3)
    jax.effects_barrier()
    assert capsys.readouterr().out == "step 0\nstep 1\nstep 2\n"


def checked_sqrt(x):
    assert x >= 0, "x must be non-negative"
    return jnp.sqrt(x)


def test_assert_passes_and_fails_at_run_time():
    f = staged(checked_sqrt)
    assert f(4.0) == 2.0
    with pytest.raises(Exception, match="AssertionError: x must be non-negative"):
        jax.block_until_ready(f(-1.0))


def test_converted_function_is_plain_python_on_concrete_values():
    def f(x):
        if x > 0:
            return x * 2
        return -x

    g = ag.convert(f)
    assert jax.make_jaxpr(lambda: g(3))().eqns == []
    assert g(jnp.float32(3.0)) == 6.0


def checked_with_value(x):
    assert x < 10, x * 2
    return x


def test_assert_message_with_a_traced_value():
    f = staged(checked_with_value)
    assert f(1.0) == 1.0
    with pytest.raises(Exception, match="AssertionError: 40.0"):
        jax.block_until_ready(f(20.0))


def _in_a_process_with_jax_only(body: str) -> None:
    """Run ``body`` of this module in a fresh interpreter: the hint it checks is about JAX
    alone, and a framework that does not report its traces (PyTorch, TensorFlow), imported
    by other tests in this worker, turns it off by design (``staging.mode``)."""
    import os

    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.dirname(os.path.dirname(here))
    code = (f"import sys; sys.path[:0] = [{here!r}, {root!r}]; "
            f"import test_jax_runtime as t; t.{body}()")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
