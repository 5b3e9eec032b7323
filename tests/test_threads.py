"""Stress: converted code and ``autograph.function`` used from 8 threads at once.

Each scenario starts 8 threads held at a ``threading.Barrier`` so that they really
run together, and checks every result against plain Python (eager NumPy), the
number of traces per signature (trace-time side effects count them), and that no
thread ever runs a staged body it did not ask for: ``probe`` returns whether its
staged body ran (``locals()`` there holds generated names).

A round of every scenario takes a fraction of a second. The longer run is the
same test with more rounds:

    AUTOGRAPH_STRESS_ROUNDS=300 python -m pytest -q tests/test_threads.py
"""

from __future__ import annotations

import asyncio
import collections
import os
import sys
import threading

import numpy as np
import pytest

import autograph as ag

ROUNDS = int(os.environ.get("AUTOGRAPH_STRESS_ROUNDS", "2"))
THREADS = 8


def probe(n):
    """(sum of range(n), whether the staged body ran)."""
    total = 0
    for i in range(n):
        total += i
    return total, bool(set(locals()) - {"n", "total", "i"})  # the staged body's generated names


def clipped_sum(x, limit):
    """Staged under a trace: a tensor ``if`` and a tensor ``while``."""
    TRACES.append(("clipped_sum", x.shape, x.dtype.name, limit))
    total = np.zeros((), x.dtype)
    i = 0
    while i < x.shape[0]:
        if x[i] > limit:
            total = total + limit
        else:
            total = total + x[i]
        i += 1
    staged = probe(2)[1]
    return total, np.asarray(staged)


def scaled(x, k):
    TRACES.append(("scaled", x.shape, k))
    if np.sum(x) > 0:
        y = x * k
    else:
        y = -x
    return y


TRACES: list = []  # appended to while tracing (list.append is atomic)


def run_together(work, threads: int = THREADS) -> list:
    """``work(i)`` in ``threads`` threads released together; their results, in order.
    An exception in any thread fails the test with that exception."""
    barrier = threading.Barrier(threads)
    results: list = [None] * threads
    errors: list = []

    def run(i):
        try:
            barrier.wait()
            results[i] = work(i)
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    pool = [threading.Thread(target=run, args=(i,)) for i in range(threads)]
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-5)  # switch threads often: interleave them finely
    try:
        for t in pool:
            t.start()
        for t in pool:
            t.join()
    finally:
        sys.setswitchinterval(interval)
    if errors:
        raise errors[0]
    return results


def _traces_of(name) -> collections.Counter:
    return collections.Counter(t[1:] for t in TRACES if t[0] == name)


def _python_mode_calls(converted_probe, until: threading.Event, count: int = 200) -> int:
    """Call ``probe`` on Python values at least ``count`` times and until ``until``."""
    n = 0
    while n < count or not until.is_set():
        total, staged = converted_probe(n % 7)
        assert staged is False, "a Python-mode call ran the staged body"
        assert total == sum(range(n % 7))
        n += 1
    return n


class _Countdown:
    """Set ``event`` when ``count`` workers said they are done."""

    def __init__(self, count: int):
        self.event = threading.Event()
        self._left = count
        self._lock = threading.Lock()

    def done(self) -> None:
        with self._lock:
            self._left -= 1
            if self._left == 0:
                self.event.set()


@pytest.fixture(autouse=True)
def _fresh_traces():
    TRACES.clear()
    yield
    TRACES.clear()


@pytest.mark.parametrize("round_", range(ROUNDS))
def test_python_mode_calls_never_see_another_threads_trace(round_):
    converted_probe = ag.convert(probe)

    tracers = _Countdown(THREADS // 2)

    def work(i):
        if i % 2:
            _python_mode_calls(converted_probe, tracers.event)
            return None
        try:
            out = []
            for k in range(3):
                fn = ag.function(clipped_sum)  # a new Function: every call traces
                x = np.arange(i + k + 3, dtype=np.float64)
                total, staged = fn(x, 2.0)
                assert bool(staged) is True  # the traced function did run staged
                out.append((float(total), float(clipped_sum_eager(x, 2.0))))
            return out
        finally:
            tracers.done()

    for result in run_together(work):
        for got, expected in result or ():
            assert got == expected


def clipped_sum_eager(x, limit):
    return sum(min(v, limit) for v in x)


@pytest.mark.filterwarnings("ignore::autograph.RetracingWarning")  # many signatures on purpose
@pytest.mark.parametrize("round_", range(ROUNDS))
def test_one_function_many_signatures(round_):
    fn = ag.function(clipped_sum)
    shapes = 4  # per thread, all different

    def work(i):
        out = []
        for j in range(shapes):
            for dtype in (np.float64, np.float32):
                x = np.arange(i * shapes + j + 1, dtype=dtype)
                out.append((float(fn(x, 3.0)[0]), float(clipped_sum_eager(x, 3.0))))
        return out

    for result in run_together(work):
        for got, expected in result:
            assert got == expected
    traces = _traces_of("clipped_sum")
    assert len(traces) == THREADS * shapes * 2
    assert set(traces.values()) == {1}  # each signature traced once
    assert fn.experimental_get_tracing_count() == THREADS * shapes * 2


@pytest.mark.parametrize("round_", range(ROUNDS))
def test_two_functions_traced_at_once(round_):
    f, g = ag.function(clipped_sum), ag.function(scaled)

    def work(i):
        x = np.linspace(-1.0, 1.0, i + 2) + (0.5 if i % 3 else -0.5)
        if i % 2:
            return np.asarray(f(x, 0.25)[0]), clipped_sum_eager(x, 0.25)
        return g(x, i), (x * i if np.sum(x) > 0 else -x)

    for got, expected in run_together(work):
        np.testing.assert_allclose(got, expected)
    assert set(_traces_of("clipped_sum").values()) == {1}
    assert set(_traces_of("scaled").values()) == {1}
    assert f.experimental_get_tracing_count() == THREADS // 2
    assert g.experimental_get_tracing_count() == THREADS // 2


@pytest.mark.parametrize("round_", range(ROUNDS))
def test_same_signature_first_calls_trace_once(round_):
    fn = ag.function(clipped_sum)
    x = np.array([1.0, 5.0, 2.0])

    results = run_together(lambda i: float(fn(x, 2.0)[0]))
    assert results == [5.0] * THREADS
    assert _traces_of("clipped_sum") == {((3,), "float64", 2.0): 1}
    assert fn.experimental_get_tracing_count() == 1


@pytest.mark.parametrize("round_", range(ROUNDS))
def test_same_signature_waiters_retry_after_a_failed_trace(round_):
    attempts = []

    def flaky(x):
        attempts.append(1)
        if len(attempts) == 1:
            raise RuntimeError("first trace fails")
        return x + 1

    fn = ag.function(flaky)

    def work(i):
        try:
            return float(fn(np.float64(i))) - i
        except RuntimeError:
            return "failed"

    results = run_together(work)
    assert results.count("failed") == 1
    assert results.count(1.0) == THREADS - 1
    assert fn.experimental_get_tracing_count() == 1


@pytest.mark.filterwarnings("ignore::autograph.RetracingWarning")  # many signatures on purpose
def test_asyncio_tasks_each_have_their_own_mode():
    converted_probe = ag.convert(probe)
    fn = ag.function(clipped_sum)

    async def python_task():
        for n in range(50):
            assert converted_probe(n % 5)[1] is False
            await asyncio.sleep(0)

    async def tracing_task():
        for k in range(5):
            fn(np.ones(k + 1), 0.5)
            await asyncio.sleep(0)

    async def main():
        await asyncio.gather(python_task(), tracing_task(), python_task())

    asyncio.run(main())


@pytest.mark.parametrize("round_", range(ROUNDS))
def test_jax_jit_from_threads_with_python_mode_and_graph_traces(round_):
    import jax  # installed in CI: a missing JAX is an error, not a skip
    import jax.numpy as jnp

    converted_probe = ag.convert(probe)
    converted = ag.convert(clipped_sum)

    tracers = _Countdown(THREADS - THREADS // 4)

    def work(i):
        if i % 4 == 1:
            _python_mode_calls(converted_probe, tracers.event)
            return None
        try:
            x = np.arange(i + 2, dtype=np.float32)
            if i % 4 == 3:
                total, staged = ag.function(clipped_sum)(x, 1.5)
            else:
                total, staged = jax.jit(converted, static_argnums=1)(jnp.asarray(x), 1.5)
            assert bool(staged) is True
            return float(total), float(clipped_sum_eager(x, 1.5))
        finally:
            tracers.done()

    for result in run_together(work):
        if result is not None:
            assert result[0] == pytest.approx(result[1])


def test_a_failed_signature_check_leaves_no_trace_under_way():
    fn = ag.function(clipped_sum, input_signature=[ag.TensorSpec((None,))])
    for _ in range(2):  # the second call would wait forever for a trace never started
        with pytest.raises(TypeError, match="input_signature has 1 entries"):
            fn(np.ones(2), 1.0)
