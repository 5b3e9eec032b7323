"""PyTorch reports when it compiles or exports (``backends.torch.tracing``): with
PyTorch imported and nothing compiling, ``mode.python`` stays True (converted
functions skip ``torch.compiler.is_compiling()``), and the entry test is exact while
PyTorch traces a converted function: ``torch.compile``, non-strict and strict
``torch.export``, a compile that fails; a compiled function is not compiled again
because the hint changed between its calls."""

from __future__ import annotations

import subprocess
import sys
import textwrap


def test_the_hint_follows_pytorch_compiles_and_exports(tmp_path):
    # A fresh interpreter (the probe loaded by the first call), from a file: autograph
    # reads the functions' source.
    script = textwrap.dedent("""
        import sys

        import torch
        import autograph as ag
        from autograph import runtime as ag__

        mode = ag__.mode
        # the probe records what it sees while PyTorch traces, on purpose: behind a module
        # (sys), which the region-state watch (backends/torch/region_state) does not read
        sys.hint_seen = set()

        @ag.do_not_convert
        def probe(x):
            sys.hint_seen.add((mode.python, mode.python or not mode.staging()))
            return x

        def f(x):
            return probe(x) + 1

        def returns_a_string(x):
            if probe(x).sum() > 0:
                return "a string"
            return x

        class Module(torch.nn.Module):
            def forward(self, x):
                return converted(x)

        def phase(name, run, fails=False):
            sys.hint_seen.clear()
            try:
                run()
            except Exception:
                if not fails:
                    raise
            print(name, sorted(sys.hint_seen))

        converted = ag.convert(f)
        x = torch.ones(2)
        phase("eager", lambda: converted(x))
        compiled = torch.compile(converted, fullgraph=True, backend="aot_eager")
        phase("compile", lambda: compiled(x))
        phase("compiled again", lambda: compiled(x))
        phase("after", lambda: converted(x))
        phase("export", lambda: torch.export.export(Module(), (x,), strict=False))
        phase("after", lambda: converted(x))
        phase("strict export", lambda: torch.export.export(Module(), (x,), strict=True))
        phase("after", lambda: converted(x))
        phase("failed compile", lambda: torch.compile(
            ag.convert(returns_a_string), fullgraph=True, backend="aot_eager")(x), fails=True)
        phase("after", lambda: converted(x))
        print("graphs", torch._dynamo.utils.counters["stats"]["unique_graphs"])
    """)
    path = tmp_path / "hint.py"
    path.write_text(script)
    done = subprocess.run([sys.executable, str(path)], capture_output=True, text=True,
                          timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    eager, staged = "[(True, True)]", "[(False, False)]"
    assert done.stdout.split("\n") == [
        f"eager {eager}", f"compile {staged}", "compiled again []", f"after {eager}",
        f"export {staged}", f"after {eager}", f"strict export {staged}", f"after {eager}",
        f"failed compile {staged}", f"after {eager}", "graphs 2", ""]
