"""The package as a user meets it: its public names, their documentation and
examples, their types (mypy on a small user file), and how ``to_code`` and a
graph's text display in IPython/Jupyter."""

from __future__ import annotations

import doctest
import inspect
import os
import pydoc
import re
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import autograph as ag

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PUBLIC = [
    "convert", "to_graph", "to_code", "do_not_convert", "set_loop_options",
    "function", "TensorSpec", "Variable", "print", "load",
    "run_functions_eagerly", "functions_run_eagerly",
    "ConversionError", "StagingError", "RetracingWarning", "TraceTimeWarning",
    "set_verbosity",
]
CALLABLES = [n for n in PUBLIC if not isinstance(getattr(ag, n), type)]


def _readme_api() -> str:
    with open(os.path.join(ROOT, "README.md"), encoding="utf-8") as f:
        text = f.read()
    return text[text.index("## API"):text.index("## The CLI")]


def test_dir_shows_exactly_the_public_names():
    assert dir(ag) == sorted(PUBLIC + ["__version__"])
    assert sorted(ag.__all__) == sorted(PUBLIC)


def test_every_public_name_is_in_the_readme():
    api = _readme_api()
    for name in PUBLIC:
        assert f"ag.{name}" in api, name


def test_help_shows_the_public_names_and_only_the_package_modules():
    text = pydoc.render_doc(ag, renderer=pydoc.plaintext)
    for name in PUBLIC:
        assert re.search(rf"\b{name}\b", text), name
    contents = text[text.index("PACKAGE CONTENTS"):text.index("CLASSES")]
    for outside in ("benchmarks", "tests", "examples", "autograph (package)"):
        assert outside not in contents


@pytest.mark.parametrize("name", PUBLIC)
def test_docstring_has_the_sections(name):
    doc = inspect.getdoc(getattr(ag, name))
    assert doc and len(doc.splitlines()) > 3, name
    assert "Example:\n    >>> " in doc, name
    obj = getattr(ag, name)
    takes_arguments = name in ("TensorSpec", "Variable") or (
        name in CALLABLES and inspect.signature(obj).parameters)
    if takes_arguments:
        assert "Args:" in doc, name
    if name in CALLABLES and name not in ("print", "run_functions_eagerly"):
        assert "Returns:" in doc, name


@pytest.mark.parametrize("name", PUBLIC)
def test_docstring_examples_run(name):
    obj = getattr(ag, name)
    finder = doctest.DocTestFinder(recurse=False)
    runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE)
    tests = finder.find(obj, name=f"autograph.{name}", globs={})
    assert tests and tests[0].examples
    for test in tests:
        runner.run(test)
    assert runner.failures == 0


@pytest.mark.parametrize("name", ["Function", "ConcreteFunction", "LoadedFunction"])
def test_the_returned_classes_have_examples_that_run(name):
    """What ``ag.function`` and ``ag.load`` return have reference pages too."""
    from autograph.runtime.backends import numpy_graph

    runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE | doctest.ELLIPSIS)
    tests = doctest.DocTestFinder(recurse=False).find(getattr(numpy_graph, name), globs={})
    assert tests and tests[0].examples
    for test in tests:
        runner.run(test)
    assert runner.failures == 0
    assert os.path.isfile(os.path.join(ROOT, "docs", "api", f"{name}.rst"))


def test_package_docstring_example_runs():
    runner = doctest.DocTestRunner()
    for test in doctest.DocTestFinder(recurse=False).find(ag, globs={}):
        runner.run(test)
    assert runner.failures == 0


@pytest.mark.parametrize("name", PUBLIC)
def test_every_public_name_has_its_reference_page(name):
    """docs/api/autograph.NAME.rst documents the name (an autodoc directive) and links to
    the guides; api.rst lists it in a table and in its toctree."""
    with open(os.path.join(ROOT, "docs", "api", f"autograph.{name}.rst"), encoding="utf-8") as f:
        page = f.read()
    assert re.search(rf"^\.\. auto(function|class|exception):: autograph\.{name}$", page, re.M)
    assert ".. rubric:: See also" in page and (":doc:" in page or ":ref:" in page)
    with open(os.path.join(ROOT, "docs", "api.rst"), encoding="utf-8") as f:
        index = f.read()
    assert re.search(rf"^   {name}$", index, re.M) and f"   api/autograph.{name}\n" in index


def test_the_docs_name_no_internal_issue():
    """Users cannot look up this project's internal issue numbers."""
    pages = [os.path.join(ROOT, "README.md")] + [
        os.path.join(folder, name) for folder, _, names in os.walk(os.path.join(ROOT, "docs"))
        for name in names if name.endswith(".rst")]
    texts = [open(page, encoding="utf-8").read() for page in pages]
    texts += [inspect.getdoc(getattr(ag, name)) for name in PUBLIC]
    for text in texts:
        assert not re.search(r"\bissues? \d|\(issue", text, re.I), text[:80]


@pytest.mark.parametrize("name", CALLABLES)
def test_public_callables_have_type_hints(name):
    signature = inspect.signature(getattr(ag, name))
    assert signature.return_annotation is not inspect.Signature.empty, name
    for parameter in signature.parameters.values():
        assert parameter.annotation is not inspect.Parameter.empty, (name, parameter.name)


def test_py_typed_is_shipped():
    assert os.path.isfile(os.path.join(ROOT, "autograph", "py.typed"))
    with open(os.path.join(ROOT, "pyproject.toml"), encoding="utf-8") as f:
        assert 'autograph = ["py.typed"]' in f.read()


USER_FILE = textwrap.dedent("""\
    import numpy as np
    import autograph as ag


    @ag.convert
    def sign(x: int) -> int:
        return 1 if x > 0 else -1


    @ag.function
    def double(x: np.ndarray) -> np.ndarray:
        return x * 2


    reveal_type(sign)
    reveal_type(ag.to_code(sign))
    reveal_type(double)
    reveal_type(double.get_concrete_function(ag.TensorSpec([None], np.float64)))
    reveal_type(ag.Variable(1.0))
    wrong: int = ag.to_code(sign)
    """)


def test_mypy_sees_the_types(tmp_path):
    """mypy on a user file, with autograph laid out as an installed package."""
    pytest.importorskip("mypy")
    package = tmp_path / "site" / "autograph"
    package.mkdir(parents=True)
    try:
        for entry in os.listdir(os.path.join(ROOT, "autograph")):
            os.symlink(os.path.join(ROOT, "autograph", entry), package / entry)
        for sub in ("runtime", "converters"):
            os.symlink(os.path.join(ROOT, sub), package / sub)
    except OSError:
        pytest.skip("no symbolic links here")
    (tmp_path / "user.py").write_text(USER_FILE, encoding="utf-8")
    # The optional backends' frameworks are not analysed: jax alone would take minutes.
    (tmp_path / "mypy.ini").write_text(
        "[mypy]\nfollow_imports = silent\n\n"
        "[mypy-autograph.runtime.backends.jax.backend,jax.*,tensorflow.*,torch.*]\nfollow_imports = skip\n",
        encoding="utf-8")
    result = subprocess.run(
        [sys.executable, "-m", "mypy", "--config-file", "mypy.ini", "--no-incremental",
         "--cache-dir", os.devnull, "--no-error-summary", "user.py"],
        cwd=tmp_path, capture_output=True, text=True, timeout=600,
        env={**os.environ, "MYPYPATH": str(tmp_path / "site")},
    )
    assert result.stdout.replace("builtins.", "").splitlines() == [
        'user.py:15: note: Revealed type is "def (x: int) -> int"',
        'user.py:16: note: Revealed type is "str"',
        'user.py:17: note: Revealed type is "autograph.runtime.backends.numpy_graph.polymorphic.Function"',
        'user.py:18: note: Revealed type is "autograph.runtime.backends.numpy_graph.concrete.ConcreteFunction"',
        'user.py:19: note: Revealed type is "autograph.runtime.backends.numpy_graph.variables.Variable"',
        'user.py:20: error: Incompatible types in assignment (expression has type "str", '
        'variable has type "int")  [assignment]',
    ], result.stdout + result.stderr


# --- notebooks ---------------------------------------------------------------------------


def absolute(x):
    return x if x > 0 else -x


ABSOLUTE = "def absolute(x):\n    return ag__.choose(x > 0, lambda: x, lambda: -x)()\n"


def test_to_code_is_still_a_string():
    code = ag.to_code(absolute)
    assert isinstance(code, str)
    assert code == ABSOLUTE and str(code) == ABSOLUTE and type(str(code)) is str
    assert code + "#" == ABSOLUTE + "#" and code.splitlines()[0] == "def absolute(x):"
    compile(code, "<to_code>", "exec")


def _graph():
    @ag.function
    def f(x):
        return x + 1 if x.sum() > 0 else x

    return f.get_concrete_function(np.ones(2)).graph


def _formatted(obj):
    formatters = pytest.importorskip("IPython.core.formatters")
    data, _ = formatters.DisplayFormatter().format(obj)
    return data


@pytest.mark.parametrize("make", [lambda: ag.to_code(absolute), lambda: str(_graph())],
                         ids=["to_code", "graph"])
def test_ipython_shows_highlighted_code(make):
    pytest.importorskip("pygments")
    text = make()
    data = _formatted(text)
    assert data["text/plain"] == text.rstrip("\n")  # the code itself, not its escaped repr
    html = data["text/html"]
    assert html.startswith('<div class="highlight"') and "<span" in html
    assert re.sub(r"<[^>]+>", "", html).replace("&gt;", ">").replace("&#39;", "'").replace(
        "&lt;", "<").replace("&quot;", '"').replace("&amp;", "&").strip() == text.strip()


def test_ipython_without_pygments_shows_a_pre_block(monkeypatch):
    monkeypatch.setitem(sys.modules, "pygments", None)
    data = _formatted(ag.to_code(absolute))
    assert data["text/html"] == "<pre>def absolute(x):\n    return ag__.choose(x &gt; 0, " \
                                "lambda: x, lambda: -x)()\n</pre>"
