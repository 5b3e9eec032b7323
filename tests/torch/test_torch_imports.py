"""A framework dynamo only looks up is not imported by autograph's import watcher:
``import torch._dynamo`` asks ``importlib.util.find_spec("tensorflow")``, and loading
the TensorFlow probe on that look-up imported TensorFlow (seconds per process)."""

from __future__ import annotations

import subprocess
import sys
import textwrap


def test_compiling_a_converted_function_does_not_import_tensorflow(tmp_path):
    script = textwrap.dedent("""
        import sys
        import torch
        import autograph as ag

        def f(x):
            if x.sum() > 0:
                x = x + 1
            return x

        compiled = torch.compile(ag.convert(f), fullgraph=True, backend="aot_eager")
        assert compiled(torch.ones(3)).tolist() == [2.0, 2.0, 2.0]
        assert compiled(-torch.ones(3)).tolist() == [-1.0, -1.0, -1.0]
        import importlib.util
        assert importlib.util.find_spec("tensorflow") is not None  # installed, looked up
        print(sorted(m for m in ("tensorflow", "jax") if m in sys.modules))
    """)
    path = tmp_path / "compile_converted.py"  # a file: ag.convert reads the source
    path.write_text(script)
    out = subprocess.run([sys.executable, str(path)], capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]"
