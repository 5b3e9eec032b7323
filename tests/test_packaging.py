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
