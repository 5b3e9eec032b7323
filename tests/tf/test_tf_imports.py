"""A framework looked up before it is imported still stages converted code once it
is: ``importlib.util.find_spec("tensorflow")`` (dynamo makes that call) changes
nothing, and the import that follows is seen by autograph's import watcher."""

from __future__ import annotations

import subprocess
import sys
import textwrap


def test_a_lookup_then_an_import_stages_under_tf_function(tmp_path):
    script = textwrap.dedent("""
        import importlib.util
        import autograph as ag

        def f(x):
            if x > 0:
                x = x + 1
            else:
                x = x - 1
            return x

        converted = ag.convert(f)
        assert converted(2) == 3  # nothing imported: the Python path
        assert importlib.util.find_spec("tensorflow") is not None  # looked up only
        assert converted(-2) == -3
        import tensorflow as tf

        graph = tf.function(converted, autograph=False)
        print(float(graph(tf.constant(2.0))), float(graph(tf.constant(-2.0))),
              len(graph.get_concrete_function(tf.TensorSpec([], tf.float32)).graph.get_operations()) > 3)
    """)
    path = tmp_path / "lookup_then_import.py"  # a file: ag.convert reads the source
    path.write_text(script)
    out = subprocess.run([sys.executable, str(path)], capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "3.0 -3.0 True"
