"""Section 8: TensorFlow: the first call (convert + trace) and the steady-state call of
``tf.function(ag.convert(f), autograph=False)`` against ``tf.function(f)`` (TensorFlow's
own AutoGraph), on the benchmark functions with tensor arguments and on the seeds'
model of 100 small Dense layers (its ``call`` wrapped in ``tf.function``, the model
built eagerly first, as the seeds do). A third column, *TensorFlow by hand*, is the
floor no converter can go below: the same functions written by hand with
``tf.while_loop``/``tf.cond`` (the model as it is: its loop runs over a Python list),
in ``tf.function(..., autograph=False)``; it builds the same graph ops autograph
builds, so its first call is TensorFlow's own tracing and first run alone.
*TensorFlow AutoGraph / by hand* is the most any converter could gain over
TensorFlow's AutoGraph on that workload.

* first call: a new process imports TensorFlow and autograph and runs one unrelated
  function through the same tool (not timed), then times wrapping the function
  (``tf.function(ag.convert(f), autograph=False)``: our conversion happens here, or
  ``tf.function(f)``) and its first call (TensorFlow's AutoGraph converts here), its
  tracing and one run. The child
  is this module: ``python -m benchmarks.tf_first_call TOOL WORKLOAD``.
* steady state: seconds per call once traced, interleaved in this process.

Target: autograph's first call at least 5x faster than TensorFlow's AutoGraph.
Run alone: ``python -m benchmarks.tf_first_call [--quick]`` (prints the table).
"""

from __future__ import annotations

import functools
import json
import os
import sys
import time

from . import contestants, functions
from .timing import Table, child, failure, interleave, per_call

COLUMNS = ["autograph", "TensorFlow AutoGraph", "TensorFlow by hand"]
WORKLOADS = ["collatz", "sum_odd", "sign", "calls_helper", "model_100_layers"]
TOOLS = {"autograph": "ours", "TensorFlow AutoGraph": "theirs", "TensorFlow by hand": "hand"}


def _model_class(tf):
    class SequentialModel(tf.keras.Model):
        """The seeds' model: many small layers (100 Dense layers of 64 units)."""

        def __init__(self, **kwargs):
            super().__init__(**kwargs)
            self.flatten = tf.keras.layers.Flatten()
            self.my_layers = [tf.keras.layers.Dense(64, activation="relu") for _ in range(100)]
            self.dropout = tf.keras.layers.Dropout(0.2)
            self.dense_2 = tf.keras.layers.Dense(10)

        def call(self, x):
            x = self.flatten(x)
            for layer in self.my_layers:
                x = layer(x)
            x = self.dropout(x)
            x = self.dense_2(x)
            return x

    return SequentialModel


def _by_hand(tf):
    """The benchmark functions written by hand in TensorFlow's control flow (what a
    user writes without a converter): the floor of a first call."""

    def collatz(n):
        def body(n, steps):
            n = tf.cond(tf.equal(n % 2, 0), lambda: n // 2, lambda: 3 * n + 1)
            return n, steps + 1
        return tf.while_loop(lambda n, steps: tf.not_equal(n, 1), body,
                             (n, tf.constant(0)))[1]

    def sum_odd(n):
        def body(i, total):
            total = tf.cond(tf.equal(i % 2, 0), lambda: total, lambda: total + i)
            return i + 1, total
        return tf.while_loop(lambda i, total: i < n, body,
                             (tf.constant(0), tf.constant(0)))[1]

    def sign(x):
        return tf.cond(x > 0, lambda: tf.constant(1), lambda: tf.constant(-1))

    def countdown(n):
        return tf.while_loop(lambda n: n > 0, lambda n: n - 1, (n,))[0]

    return {"collatz": collatz, "sum_odd": sum_odd, "sign": sign,
            "calls_helper": functions.calls_helper, "countdown": countdown}


def workload(name: str, tool: str):
    """``(make, args)``: what makes the staged callable for ``tool`` ("ours"/"theirs"/
    "hand"), converting the function (ours) and wrapping it in ``tf.function``, and its
    arguments."""
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    import tensorflow as tf

    import autograph as ag

    if name == "model_100_layers":
        data = tf.random.uniform([20, 28, 28], seed=0)
        model = _model_class(tf)()
        model(data)  # built eagerly first; not part of the first call

        def make_model():
            if tool == "ours":
                model.call = tf.function(ag.convert(model).call, autograph=False)
            elif tool == "hand":
                model.call = tf.function(model.call, autograph=False)
            else:
                model.call = tf.function(model.call)
            return model
        return make_model, (data,)
    fn = getattr(functions, name)
    args = {"collatz": (tf.constant(27),), "sum_odd": (tf.constant(100),),
            "sign": (tf.constant(-3),), "calls_helper": (tf.constant(3.0),)}[name]

    def make():
        if tool == "hand":
            return tf.function(_by_hand(tf)[name], autograph=False)
        return tf.function(ag.convert(fn), autograph=False) if tool == "ours" else \
            tf.function(fn)
    return make, args


def _warm_up(tool: str) -> None:
    """One unrelated function through the same tool first: the process's one-time costs
    (TensorFlow's first graph, the converter's first use) are not this function's."""
    import tensorflow as tf

    import autograph as ag

    def countdown(n):
        while n > 0:
            n -= 1
        return n

    if tool == "hand":
        fn = tf.function(_by_hand(tf)["countdown"], autograph=False)
    else:
        fn = tf.function(ag.convert(countdown), autograph=False) if tool == "ours" \
            else tf.function(countdown)
    fn(tf.constant(3))


def _first_call_child(tool: str, name: str) -> None:
    try:
        _warm_up(tool)
        make, args = workload(name, tool)
        start = time.perf_counter()
        make()(*args)
        result = {"first": time.perf_counter() - start}
    except Exception as exc:  # noqa: BLE001 - reported to the parent as "fails"
        result = {"error": failure(exc)}
    print(json.dumps(result))


def _first_call_sampler(tool: str, name: str):
    def sample() -> float:
        result = child("tf_first_call", tool, name)
        if "error" in result:
            raise RuntimeError(result["error"][len("fails: "):])
        return result["first"]
    return sample


def run(quick: bool = False, skip=()) -> Table:
    table = Table(
        "8. TensorFlow: first call (convert + trace) and steady state",
        "Seconds: median [25th, 75th percentile] over interleaved repeats. *first call*: "
        "a new process (TensorFlow imported, not timed) wraps the function (autograph "
        "converts it here) in a new tf.function and calls it once. "
        "*steady state*: per call once traced. Ratios above 1: TensorFlow's AutoGraph is "
        "slower than autograph; *TensorFlow AutoGraph / by hand*: the most any converter "
        "can gain (the same graph written by hand with tf.while_loop/tf.cond).",
        COLUMNS, [("TensorFlow AutoGraph", "autograph"),
                  ("TensorFlow AutoGraph", "TensorFlow by hand")],
    )
    missing = contestants.status("TensorFlow", skip)
    if missing:
        table.add("every workload", dict.fromkeys(COLUMNS, missing))
        return table
    names = WORKLOADS[:1] if quick else WORKLOADS
    repeats = (1, 3) if quick else (3, 15)
    budget = 0.002 if quick else 0.02
    for name in names:
        samplers = {col: _first_call_sampler(tool, name) for col, tool in TOOLS.items()}
        table.add(f"first call: {name}", interleave(samplers, repeats[0]))
        steady = {}
        for col, tool in TOOLS.items():
            if tool == "hand":  # the floor of a first call; its steady state is the same graph
                continue
            try:
                make, args = workload(name, tool)
                fn = make()
                fn(*args)
                steady[col] = per_call(functools.partial(fn, *args), budget)
            except Exception as exc:  # noqa: BLE001 - a contestant that fails is reported
                steady[col] = _failing(failure(exc))
        cells = interleave(steady, repeats[1])
        cells["TensorFlow by hand"] = "n/a"  # the same graph as autograph's
        table.add(f"steady state: {name}", cells)
    for name in names:
        table.check(f"first call of {name} at least 5x faster than TensorFlow's AutoGraph",
                    table.ratio(f"first call: {name}", "TensorFlow AutoGraph", "autograph"),
                    lambda r: r >= 5)
    return table


def _failing(reason: str):
    def sample() -> float:
        raise RuntimeError(reason[len("fails: "):])
    return sample


if __name__ == "__main__":
    if len(sys.argv) == 3:  # the first-call child: TOOL WORKLOAD
        _first_call_child(sys.argv[1], sys.argv[2])
    else:  # python -m benchmarks.tf_first_call [--quick]
        print(run(quick="--quick" in sys.argv).markdown())
