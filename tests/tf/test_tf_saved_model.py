"""A converted ``tf.function`` saves with ``tf.saved_model.save``; the loaded SavedModel
runs both branches of the converted control flow (it needs no autograph to run)."""

import subprocess
import sys

import numpy as np
import tensorflow as tf

import autograph as ag


class Clipper(tf.Module):
    @tf.function(input_signature=[tf.TensorSpec([None], tf.float32)], autograph=False)
    @ag.convert
    def __call__(self, x):
        total = 0.0
        for v in x:
            if v > 0:
                total += v
            else:
                total -= 2.0 * v
        return total


def test_saved_model_round_trip_runs_both_branches(tmp_path):
    path = str(tmp_path / "clipper")
    tf.saved_model.save(Clipper(), path)
    loaded = tf.saved_model.load(path)
    assert loaded(tf.constant([1.0, 2.0])).numpy() == 3.0
    assert loaded(tf.constant([-1.0, 2.0])).numpy() == 4.0
    assert loaded(tf.constant([], tf.float32)).numpy() == 0.0


def test_the_saved_model_loads_without_autograph(tmp_path):
    path = str(tmp_path / "clipper")
    tf.saved_model.save(Clipper(), path)
    code = (
        "import sys\n"
        "sys.modules['autograph'] = None  # any import of autograph raises ImportError\n"
        "import tensorflow as tf\n"
        f"m = tf.saved_model.load({path!r})\n"
        "print(float(m(tf.constant([-1.0, 2.0]))), float(m(tf.constant([3.0]))))\n"
        "assert not [n for n in sys.modules if n.startswith('autograph.')], 'autograph loaded'\n")
    # -I: no PYTHONPATH, no current directory on the path; and where autograph is installed
    # (CI's venv), the import is blocked: the loaded program must not need it
    out = subprocess.run([sys.executable, "-I", "-c", code], capture_output=True, text=True,
                         timeout=120, cwd=tmp_path)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.split() == ["4.0", "3.0"]  # both branches: -2 * -1 + 2, and 3
