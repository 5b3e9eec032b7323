"""Smoke test of an installed autograph (CI runs it with the venv that installed the
wheel, from a directory outside the checkout): the package comes from site-packages,
every public name imports, the versions agree, and converted code runs on both paths."""

import importlib.metadata
import os
import subprocess
import sys
import sysconfig

import numpy as np

import autograph

site_packages = os.path.realpath(sysconfig.get_paths()["purelib"])
assert os.path.realpath(autograph.__file__).startswith(site_packages), autograph.__file__
assert os.path.isfile(os.path.join(os.path.dirname(autograph.__file__), "py.typed"))

assert autograph.__all__, "autograph.__all__ is empty"
for name in autograph.__all__:
    getattr(autograph, name)
import autograph.converters  # noqa: E402,F401
import autograph.runtime.backends.numpy_graph  # noqa: E402,F401

version = autograph.__version__
assert importlib.metadata.version("autograph-transpiler") == version
cli = os.path.join(os.path.dirname(sys.executable), "autograph")
if "--version" in subprocess.run([cli, "--help"], capture_output=True, text=True).stdout:
    shown = subprocess.run([cli, "--version"], capture_output=True, text=True)
    assert shown.returncode == 0, f"autograph --version failed: {shown.stderr.strip()}"
    assert version in shown.stdout.split(), f"autograph --version says {shown.stdout!r}, not {version}"
else:  # the option comes with the CLI work of issue 16; from then on it is checked
    print("smoke: NOT CHECKED: this CLI has no --version option")


@autograph.convert
def collatz_steps(n):
    steps = 0
    while n != 1:
        n = n // 2 if n % 2 == 0 else 3 * n + 1
        steps += 1
    return steps


assert collatz_steps(27) == 111
assert autograph.function(collatz_steps)(np.array(27)) == 111
print(f"smoke: autograph {version} from {os.path.dirname(autograph.__file__)}: "
      f"{len(autograph.__all__)} public names import, the metadata has this version, both paths run")
