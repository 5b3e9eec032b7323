"""Section 3: the NumPy graph engine (``autograph.function``) against NumPy and TensorFlow.

The models are the tutorials' (the seeds): Flatten, 100 x Dense(64, relu),
Dense(10) on a [20, 28, 28] batch, where per-op overhead dominates; and Flatten,
Dense(128, relu), Dense(10) on [60, 28, 28]. Each is written three times with
the same weights: naive NumPy (a new array per op; eager, and under
``autograph.function``), NumPy writing into preallocated ``out=`` buffers (the
hand-tuned reference), and TensorFlow ops (eager, and under ``tf.function``).
Keras layers are not used: they would add their own overhead to TensorFlow's
side. Then the per-call cost of a trivial ``x + 1``, a data-dependent loop
(``functions.collatz`` on a 0-d integer array, the very same source for every
contestant), and trace times with a fresh function object per repeat (conversion
cached, as for any function called twice).

NumPy runs with one BLAS thread (set by ``python -m benchmarks``); TensorFlow
with its default thread pools.
"""

from __future__ import annotations

import time

import numpy as np

import autograph as ag

from . import contestants, functions
from .timing import Cell, Table, interleave, per_call


class Model:
    """Flatten, Dense(width, relu) per entry of ``widths``, Dense(10); naive NumPy."""

    def __init__(self, widths, seed: int = 0):
        rng = np.random.default_rng(seed)
        sizes = [28 * 28] + list(widths)
        self.hidden = [(rng.standard_normal((a, b), np.float32) * np.float32(0.1),
                        np.zeros(b, np.float32)) for a, b in zip(sizes, sizes[1:])]
        self.head = (rng.standard_normal((sizes[-1], 10), np.float32) * np.float32(0.1),
                     np.zeros(10, np.float32))

    def call(self, x):
        x = x.reshape(x.shape[0], -1)
        for w, b in self.hidden:
            x = np.maximum(x @ w + b, 0)
        w, b = self.head
        return x @ w + b


def preallocated(model: Model, batch: int):
    """The same model, every intermediate written into reused buffers."""
    buffers = {}
    for i, (w, _) in enumerate(model.hidden):
        buffers.setdefault((w.shape[1], i % 2), np.empty((batch, w.shape[1]), np.float32))
    out = np.empty((batch, 10), np.float32)

    def call(x):
        src = x.reshape(batch, -1)
        for i, (w, b) in enumerate(model.hidden):
            dst = buffers[w.shape[1], i % 2]
            np.matmul(src, w, out=dst)
            np.add(dst, b, out=dst)
            np.maximum(dst, 0, out=dst)
            src = dst
        w, b = model.head
        np.matmul(src, w, out=out)
        np.add(out, b, out=out)
        return out.copy()

    return call


def tensorflow_model(model: Model):
    tf = contestants.load("TensorFlow")
    hidden = [(tf.constant(w), tf.constant(b)) for w, b in model.hidden]
    head_w, head_b = (tf.constant(a) for a in model.head)

    def call(x):
        x = tf.reshape(x, (x.shape[0], -1))
        for w, b in hidden:
            x = tf.nn.relu(tf.matmul(x, w) + b)
        return tf.matmul(x, head_w) + head_b

    return call


def add_one(x):
    return x + 1


def twenty_five_lines(x, n):
    """Loops, branches and a break on arrays: what tracing costs for ordinary code."""
    total = np.zeros_like(x)
    count = 0
    i = 0
    while i < n:
        y = x * i
        if np.sum(y) > 10:
            y = y - 1
        elif np.sum(y) < -10:
            y = y + 1
        else:
            y = y * 0.5
        for v in y:
            if v > 3:
                break
            total = total + v
        count += 1
        i += 1
    scale = np.mean(total) if count > 0 else 0.0
    result = total / (1 + np.abs(scale))
    result = np.clip(result, -5, 5)
    result = np.where(result > 0, result, result * 0.1)
    return result, count


def _trace_sampler(make, fn, *args):
    """Seconds to build a fresh ``make(fn)`` and trace it for ``args``."""

    def sample() -> float:
        start = time.perf_counter()
        make(fn).get_concrete_function(*args)
        return time.perf_counter() - start

    return sample


def _model_calls(widths, batch: int, tf) -> tuple:
    """The calls that run one model every way, and the expected output."""
    model = Model(widths)
    x = np.random.default_rng(1).random((batch, 28, 28), dtype=np.float32)
    graph, fast = ag.function(model.call), preallocated(model, batch)
    calls = {"NumPy eager": lambda: model.call(x), "NumPy preallocated": lambda: fast(x),
             "ag.function": lambda: graph(x)}
    if tf:
        tf_call, tf_x = tensorflow_model(model), tf.constant(x)
        tf_graph = tf.function(tf_call)
        calls.update({"TF eager": lambda: tf_call(tf_x), "tf.function": lambda: tf_graph(tf_x)})
    return calls, model.call(x)


def _function_calls(fn, arg, tf) -> dict:
    """One function on a 0-d array: eager NumPy, ag.function, TF eager, tf.function."""
    graph = ag.function(fn)
    calls = {"NumPy eager": lambda: fn(arg), "ag.function": lambda: graph(arg)}
    if tf:
        tf_arg, tf_graph = tf.constant(arg), tf.function(fn)
        calls.update({"TF eager": lambda: fn(tf_arg), "tf.function": lambda: tf_graph(tf_arg)})
    return calls


def _trace_cells(fn, args, tf_fn, tf_args, tf, tf_status, repeats) -> dict:
    """Trace times of ag.function and (when ``tf_fn`` is given) tf.function."""
    samplers = {"ag.function": _trace_sampler(ag.function, fn, *args)}
    cells: dict[str, Cell] = {}
    if tf_fn is not None and tf:
        samplers["tf.function"] = _trace_sampler(tf.function, tf_fn(), *tf_args())
    elif tf_fn is not None:
        cells["tf.function"] = tf_status
    for sample in samplers.values():
        sample()  # convert once: both tools cache conversions, as for any function
    cells.update(interleave(samplers, repeats))
    return cells


def branchy(x, n):
    """Unrolled: per step a staged ``if`` with a few ops in each branch."""
    for i in range(n):
        if x[0] > i:
            x = x * 1.5 + 1.0
        else:
            x = np.sin(x) - 1.0
    return x


def _codegen_sampler(steps: int):
    """CPU seconds per op of compiling (``codegen.compile_graph``) a traced graph of
    about ``6 * steps`` ops: ``branchy`` unrolled ``steps`` times. CPU time, not wall
    time, so that other processes on the machine do not blur the per-op ratio."""
    from autograph.runtime.backends.numpy_graph.codegen import compile_graph

    concrete = ag.function(branchy).get_concrete_function(np.ones(3), steps)

    def count(block) -> int:
        return sum(1 + sum(count(b) for b in op.blocks.values()) for op in block.ops)

    ops = count(concrete.graph.body)

    def sample() -> float:
        start = time.process_time()
        compile_graph(concrete.graph, concrete.layout)
        return (time.process_time() - start) / ops

    return sample, ops


def _codegen_rows(table: Table, quick: bool) -> None:
    """Codegen per op at two graph sizes, 10x apart: it should be flat."""
    small, large = (50, 500) if quick else (170, 1700)
    labels = []
    for steps in (small, large):
        sample, ops = _codegen_sampler(steps)
        label = f"codegen per op (CPU), a {ops:,}-op graph"
        labels.append(label)
        table.add(label, interleave({"ag.function": sample}, 3))
    per_op = [table.median(label, "ag.function") for label in labels]
    table.check(f"codegen per op flat within 1.3x from {labels[0]} to {labels[1]} (ratio)",
                per_op[0] and per_op[1] / per_op[0], lambda r: r <= 1.3)


DENSE_100 = "Flatten, 100 x Dense(64, relu), Dense(10) on [20, 28, 28]"
DENSE_128 = "Flatten, Dense(128, relu), Dense(10) on [60, 28, 28]"
TRIVIAL = "trivial x + 1 on a 0-d array"


def run(quick: bool = False, skip=()) -> Table:
    tf_status = contestants.status("TensorFlow", skip)
    tf = None if tf_status else contestants.load("TensorFlow")
    columns = ["NumPy eager", "NumPy preallocated", "ag.function", "TF eager", "tf.function"]
    table = Table(
        "3. Graph engine",
        "Seconds per call (trace rows: per trace): median [25th, 75th percentile] over "
        "interleaved repeats. Ratios above 1: the contestant is slower than ag.function.",
        columns, [(c, "ag.function") for c in columns if c != "ag.function"],
    )
    budget, repeats = (0.002, 3) if quick else (0.05, 15)
    missing: dict[str, Cell] = {"TF eager": tf_status, "tf.function": tf_status} if tf_status else {}

    def measure(label, calls: dict, expected) -> None:
        for name, call in calls.items():
            np.testing.assert_allclose(np.asarray(call()), expected, rtol=1e-4, atol=1e-5,
                                       err_msg=f"{label}: {name}")
        cells = interleave({n: per_call(c, budget) for n, c in calls.items()}, repeats)
        table.add(label, {**missing, **cells})

    if not quick:
        measure(DENSE_100, *_model_calls((64,) * 100, 20, tf))
    measure(DENSE_128, *_model_calls((128,), 60, tf))
    measure(TRIVIAL, _function_calls(add_one, np.array(1.0), tf), 2.0)
    measure("collatz(27) on a 0-d int array (data-dependent while)",
            _function_calls(functions.collatz, np.array(27), tf), 111)

    dense = Model((64,) * (10 if quick else 100))
    x = np.random.default_rng(1).random((20, 28, 28), dtype=np.float32)
    n = np.array(27)
    for label, fn, args, tf_fn, tf_args in (
        (f"trace: the {len(dense.hidden)}-layer Dense(64) model", dense.call, (x,),
         lambda: tensorflow_model(dense), lambda: (tf.constant(x),)),
        ("trace: collatz on a 0-d int array", functions.collatz, (n,),
         lambda: functions.collatz, lambda: (tf.constant(n),)),
        ("trace: a 25-line NumPy function (loops, branches, break)", twenty_five_lines,
         (np.arange(4.0), np.array(5)), None, None),
    ):
        table.add(label, _trace_cells(fn, args, tf_fn, tf_args, tf, tf_status,
                                      3 if quick else 9))

    _codegen_rows(table, quick)

    table.check(f"ag.function faster than NumPy eager on {DENSE_100}",
                table.ratio(DENSE_100, "NumPy eager", "ag.function"),
                lambda r: r > 1)
    table.check(f"ag.function within 1.5x of NumPy preallocated on {DENSE_100}",
                table.ratio(DENSE_100, "ag.function", "NumPy preallocated"),
                lambda r: r <= 1.5)
    seconds = table.median(TRIVIAL, "ag.function")
    table.check("trivial ag.function call under 10 µs (in µs)",
                seconds and seconds * 1e6, lambda us: us < 10)
    return table
