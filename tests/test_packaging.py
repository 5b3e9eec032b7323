"""Packaging: what pyproject.toml declares, what the wheel holds, what the docs cover.

The wheel test builds a wheel from a copy of the checkout (or inspects the one named by
``AUTOGRAPH_WHEEL``: CI builds the sdist and wheel first and passes it in)."""

from __future__ import annotations

import email.parser
import os
import re
import shutil
import subprocess
import sys
import zipfile

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MAPPING = {"autograph": "autograph", "converters": "autograph.converters", "runtime": "autograph.runtime"}
DISTRIBUTION = "autograph-transpiler"
TESTED_PYTHONS = ["3.9", "3.10", "3.11", "3.12", "3.13"]


def _pyproject() -> str:
    with open(os.path.join(ROOT, "pyproject.toml"), encoding="utf-8") as f:
        return f.read()


def _listed_packages() -> set:
    listed = re.search(r"^packages = \[(.*?)\]$", _pyproject(), re.M | re.S).group(1)
    return {name.strip().strip('"') for name in listed.split(",") if name.strip()}


def _version() -> str:
    """``autograph.__version__`` as setuptools reads it: a string literal, found without importing."""
    with open(os.path.join(ROOT, "autograph", "__init__.py"), encoding="utf-8") as f:
        return re.search(r'^__version__ = "([^"]+)"$', f.read(), re.M).group(1)


def test_every_package_is_installed():
    found = set()
    for top, name in MAPPING.items():
        for dirpath, _, files in os.walk(os.path.join(ROOT, top)):
            if "__init__.py" in files:
                rel = os.path.relpath(dirpath, os.path.join(ROOT, top))
                found.add(name if rel == "." else name + "." + rel.replace(os.sep, "."))
    assert found == _listed_packages()


def test_the_version_has_one_source():
    import autograph

    text = _pyproject()
    assert re.search(r'^name = "autograph-transpiler"$', text, re.M)
    assert re.search(r'^dynamic = \["version"\]$', text, re.M)
    assert not re.search(r"^version = \"", text, re.M)
    assert 'version = {attr = "autograph.__version__"}' in text
    assert autograph.__version__ == _version()
    assert re.fullmatch(r"\d+\.\d+\.\d+((a|b|rc)\d+)?(\.dev\d+)?", _version())


def test_classifiers_name_the_tested_pythons():
    text = _pyproject()
    listed = re.findall(r'"Programming Language :: Python :: (3\.\d+)"', text)
    assert listed == TESTED_PYTHONS
    assert f'requires-python = ">={TESTED_PYTHONS[0]}"' in text


def test_every_public_name_is_documented():
    import autograph

    documented = set()
    pages = os.path.join(ROOT, "docs", "api")  # one page per name, listed by api.rst
    for page in os.listdir(pages):
        with open(os.path.join(pages, page), encoding="utf-8") as f:
            documented |= set(re.findall(
                r"^\.\. auto(?:function|class|exception):: autograph\.(\w+)$", f.read(), re.M))
    assert documented == set(autograph.__all__)


def test_a_source_checkout_imports_without_the_installer_mapping():
    """``python -m autograph`` from the repository root finds ``autograph/`` there first;
    its subpackages must resolve from the checkout, with no editable-install finder."""
    import site
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


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> str:
    given = os.environ.get("AUTOGRAPH_WHEEL")
    if given:
        return given
    # Build from a copy holding what the build reads, so the checkout gets no build/ or egg-info.
    src = tmp_path_factory.mktemp("src")
    for name in ("pyproject.toml", "README.md", "LICENSE", "MANIFEST.in"):
        shutil.copy(os.path.join(ROOT, name), src)
    for top in MAPPING:
        shutil.copytree(os.path.join(ROOT, top), src / top,
                        ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    out = tmp_path_factory.mktemp("wheel")
    result = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(out), str(src)],
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    (built,) = out.glob("*.whl")
    return str(built)


def test_the_wheel_holds_the_autograph_package_only(wheel):
    with zipfile.ZipFile(wheel) as z:
        names = z.namelist()
    info = f"autograph_transpiler-{_version()}.dist-info/"
    assert os.path.basename(wheel) == f"autograph_transpiler-{_version()}-py3-none-any.whl"
    assert {n for n in names if not n.startswith(("autograph/", info))} == set()
    packages = {os.path.dirname(n).replace("/", ".") for n in names if n.endswith("/__init__.py")}
    assert packages == _listed_packages()
    assert "autograph/py.typed" in names
    assert f"{info}licenses/LICENSE" in names
    assert not [n for n in names if re.search(r"(^|/)(tests?|benchmarks|examples|docs)/|__pycache__|\.pyc$", n)]
    # Every module of the checkout is in the wheel, where the package-dir mapping puts it.
    expected = set()
    for top, name in MAPPING.items():
        for dirpath, _, files in os.walk(os.path.join(ROOT, top)):
            rel = os.path.relpath(dirpath, ROOT).split(os.sep)[1:]
            expected |= {"/".join([*name.split("."), *rel, f]) for f in files if f.endswith(".py")}
    assert expected == {n for n in names if n.endswith(".py")}


def test_the_wheel_metadata(wheel):
    with zipfile.ZipFile(wheel) as z:
        info = f"autograph_transpiler-{_version()}.dist-info/"
        meta = email.parser.Parser().parsestr(z.read(info + "METADATA").decode())
        entry_points = z.read(info + "entry_points.txt").decode()
        top_level = z.read(info + "top_level.txt").decode().split()
    assert meta["Name"] == DISTRIBUTION
    assert meta["Version"] == _version()
    assert meta["License-Expression"] == "Apache-2.0"
    assert meta["Requires-Python"] == f">={TESTED_PYTHONS[0]}"
    classifiers = meta.get_all("Classifier")
    assert [c.rsplit(" :: ", 1)[1] for c in classifiers if re.match(r"Programming Language :: Python :: 3\.\d+$", c)] == TESTED_PYTHONS
    assert {u.split(",")[0] for u in meta.get_all("Project-URL")} == {"Homepage", "Documentation", "Changelog", "Issues"}
    assert "autograph = autograph.cli:main" in entry_points
    assert top_level == ["autograph"]
