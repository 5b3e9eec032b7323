"""Every package directory is listed in pyproject.toml, so a non-editable install has it all."""

from __future__ import annotations

import os
import re

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MAPPING = {"autograph": "autograph", "converters": "autograph.converters", "runtime": "autograph.runtime"}


def test_every_package_is_installed():
    with open(os.path.join(ROOT, "pyproject.toml"), encoding="utf-8") as f:
        listed = set(re.search(r"^packages = \[(.*)\]$", f.read(), re.M).group(1).replace('"', "").split(", "))
    found = set()
    for top, name in MAPPING.items():
        for dirpath, _, files in os.walk(os.path.join(ROOT, top)):
            if "__init__.py" in files:
                rel = os.path.relpath(dirpath, os.path.join(ROOT, top))
                found.add(name if rel == "." else name + "." + rel.replace(os.sep, "."))
    assert found == listed


def test_a_source_checkout_imports_without_the_installer_mapping():
    """``python -m autograph`` from the repository root finds ``autograph/`` there first;
    its subpackages must resolve from the checkout, with no editable-install finder."""
    import site
    import subprocess
    import sys
    import sysconfig

    paths = [ROOT, sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]]
    paths += site.getsitepackages() if hasattr(site, "getsitepackages") else []
    code = (
        "import sys; sys.path[:0] = {paths!r}\n"
        "import autograph, autograph.runtime, autograph.converters\n"
        "assert autograph.runtime.__file__.startswith({root!r})\n"
        "from autograph import cli\n"
        "print(cli.run('examples/collatz.py', ['collatz_steps'], False))\n"
    ).format(paths=paths, root=os.path.join(ROOT, "runtime"))
    # -S: no site-packages processing, so no editable-install finder (.pth) is active.
    result = subprocess.run([sys.executable, "-S", "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert "ag__.while_loop(" in result.stdout
