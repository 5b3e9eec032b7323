"""TensorFlow reports when a thread builds a graph (``backends.tf.tracing``): with
TensorFlow imported and no graph being built, ``mode.python`` stays True (converted
functions skip ``tf.executing_eagerly()``), and the entry test is exact in every
graph TensorFlow builds: ``tf.function`` traces, ``tf.init_scope`` inside them, dataset
functions, traces that fail, traces in another thread."""

from __future__ import annotations

import subprocess
import sys
import textwrap


def test_the_hint_follows_tensorflow_graphs():
    # A fresh interpreter: no other framework imported by other tests of this worker.
    script = textwrap.dedent("""
        import threading
        import tensorflow as tf
        from autograph import runtime as ag__

        mode = ag__.mode
        seen = []

        def probe(x):
            seen.append((mode.python, mode.python or not mode.staging()))
            return x

        mode.staging()  # loads TensorFlow's probe, which reports graphs from then on
        probe(1.0)

        @tf.function
        def traced(x):
            probe(x)
            with tf.init_scope():  # eager again inside the trace: no graph anywhere
                probe(x)
            probe(x)
            return x

        traced(tf.constant(1.0))
        probe(1.0)

        def fails(x):
            probe(x)
            raise ValueError("inside")

        try:
            tf.function(fails)(1.0)
        except ValueError:
            pass
        probe(1.0)
        tf.data.Dataset.range(2).map(probe)
        probe(1.0)

        inside, release = threading.Event(), threading.Event()

        def building_elsewhere(x):
            inside.set()
            release.wait(30)
            return x

        other = threading.Thread(target=lambda: tf.function(building_elsewhere)(1.0))
        other.start()
        inside.wait(30)
        probe(1.0)  # this thread: eager, while another builds a graph
        release.set()
        other.join()
        probe(1.0)
        print(seen)
    """)
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    eager, staged, eager_elsewhere = (True, True), (False, False), (False, True)
    assert done.stdout.strip() == str([
        eager, staged, eager, staged, eager, staged, eager, staged, eager, eager_elsewhere, eager])


def test_graph_mode_made_the_default_later_stops_the_hint(tmp_path):
    # ``disable_eager_execution`` after the hook is in: a new thread starts inside a
    # graph without a switch the hook could see, so every converted call asks again.
    script = textwrap.dedent("""
        import threading
        import tensorflow as tf
        import autograph as ag
        from autograph import runtime as ag__

        @ag.convert
        def magnitude(x):
            if x > 0:
                return x
            return -x

        ag__.mode.staging()
        print(magnitude(-2.0), ag__.mode.python)
        tf.compat.v1.disable_eager_execution()
        print(ag__.mode.python)

        def in_a_new_thread():
            x = tf.compat.v1.placeholder(tf.float32, ())
            y = magnitude(x)
            with tf.compat.v1.Session() as session:
                print(session.run(y, {x: 3.0}), session.run(y, {x: -4.0}))

        thread = threading.Thread(target=in_a_new_thread)
        thread.start()
        thread.join()
    """)
    program = tmp_path / "graph_default.py"  # a file: autograph reads the function's source
    program.write_text(script)
    done = subprocess.run([sys.executable, str(program)], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.split() == ["2.0", "True", "False", "3.0", "4.0"]
