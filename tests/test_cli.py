"""The ``autograph`` command, run as a real process.

Every test runs both ``python -m autograph`` and the installed ``autograph``
console script (found on PATH, or next to the running interpreter; skipped if
neither exists). Bad input must give exactly one line on stderr that names the
file (and the line, for a syntax error), exit status 1, nothing on stdout and
no traceback.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from sources import canonical

import autograph as ag

SOURCE = textwrap.dedent("""\
    import numpy as np


    def absolute(x):
        return x if x > 0 else -x


    class Counter:
        def count(self, n):
            steps = 0
            while n > 0:
                n -= 1
                steps += 1
            return steps

        def plain(self):
            return 1
    """)

ABSOLUTE = textwrap.dedent("""\
    def absolute(x):
        return ag__.choose(x > 0, lambda: x, lambda: -x)()
    """)

COUNT = textwrap.dedent("""\
    def count(self, n):
        steps = 0

        def loop_test(n, steps):
            return n > 0

        def loop_body(n, steps):
            n -= 1
            steps += 1
            return (n, steps)
        loop = ag__.while_loop(loop_test, loop_body, (n, steps), ('n', 'steps'))
        for state in loop:
            loop.state = loop_body(*state)
        n, steps = loop.state
        return steps
    """)

PLAIN = textwrap.dedent("""\
    def plain(self):
        return 1
    """)


def _console_script():
    found = shutil.which("autograph")
    if found:
        return found
    beside = Path(sys.executable).parent / "autograph"
    return str(beside) if beside.exists() else None


def _invokers():
    yield pytest.param([sys.executable, "-m", "autograph"], id="python-m")
    script = _console_script()
    yield pytest.param(
        [script] if script else None, id="console-script",
        marks=pytest.mark.skipif(script is None, reason="no autograph console script installed"),
    )


@pytest.fixture(params=list(_invokers()))
def cli(request, tmp_path):
    command = request.param

    def invoke(*args, stdin=None):
        return subprocess.run(
            command + list(args), input=stdin, capture_output=True, cwd=tmp_path, timeout=60,
        )

    return invoke


@pytest.fixture
def source_file(tmp_path):
    path = tmp_path / "mod.py"
    path.write_text(SOURCE, encoding="utf-8")
    return path


def _ok(result) -> str:
    stderr = result.stderr.decode()
    assert result.returncode == 0, stderr
    assert stderr == ""
    return result.stdout.decode()


def test_all_functions(cli, source_file):
    out = _ok(cli("mod.py"))
    assert canonical(out) == canonical("# mod.py:4: absolute\n" + ABSOLUTE + "\n"
        + "# mod.py:9: Counter.count\n" + COUNT + "\n"
        + "# mod.py:16: Counter.plain\n" + PLAIN + "\n")


def test_absolute_path(cli, source_file):
    out = _ok(cli(str(source_file), "absolute"))
    assert canonical(out) == canonical(f"# {source_file}:4: absolute\n" + ABSOLUTE + "\n")


def test_selected_names_in_given_order(cli, source_file):
    out = _ok(cli("mod.py", "Counter.count", "absolute"))
    assert canonical(out) == canonical("# mod.py:9: Counter.count\n" + COUNT + "\n" + "# mod.py:4: absolute\n" + ABSOLUTE + "\n")


def test_stdin(cli):
    out = _ok(cli("-", "absolute", stdin=SOURCE.encode()))
    assert canonical(out) == canonical("# <stdin>:4: absolute\n" + ABSOLUTE + "\n")


def test_diff(cli, source_file):
    out = _ok(cli("--diff", "mod.py", "absolute"))
    expected = textwrap.dedent("""\
        --- mod.py:absolute (original)
        +++ mod.py:absolute (converted)
        @@ -1,2 +1,2 @@
         def absolute(x):
        -    return x if x > 0 else -x
        +    return ag__.choose(x > 0, lambda: x, lambda: -x)()
        """)
    if sys.version_info < (3, 11):  # older unparsers write "lambda : x"
        expected = expected.replace("lambda:", "lambda :")
    assert out == expected


def test_diff_of_unchanged_function_is_empty(cli, source_file):
    assert _ok(cli("--diff", "mod.py", "Counter.plain")) == ""


def test_diff_of_method_is_dedented(cli, source_file):
    out = _ok(cli("--diff", "mod.py", "Counter.count"))
    assert out.startswith("--- mod.py:Counter.count (original)\n+++ mod.py:Counter.count (converted)\n")
    assert "\n def count(self, n):\n" in out  # context line: the dedented original header
    assert "\n-    while n > 0:\n" in out
    assert "\n+    loop = ag__.while_loop(loop_test, loop_body, (n, steps), ('n', 'steps'))\n" in out


def test_never_imports_the_file(cli, tmp_path):
    marker = tmp_path / "imported.txt"
    (tmp_path / "side.py").write_text(textwrap.dedent(f"""\
        import nonexistent_module_xyz
        print("IMPORTED")
        open({str(marker)!r}, "w").close()
        raise SystemExit(3)


        def f(x):
            return not x
        """), encoding="utf-8")
    out = _ok(cli("side.py"))
    assert canonical(out) == canonical("# side.py:7: f\ndef f(x):\n    return ag__.not_(x)\n\n")
    assert "IMPORTED" not in out
    assert not marker.exists()


def _one_line_error(result, *fragments) -> str:
    stdout, stderr = result.stdout.decode(), result.stderr.decode()
    assert result.returncode == 1, (result.returncode, stderr)
    assert stdout == ""
    assert "Traceback" not in stderr
    lines = stderr.splitlines()
    assert len(lines) == 1, stderr
    assert stderr.endswith("\n")
    for fragment in fragments:
        assert fragment in lines[0]
    return lines[0]


def test_missing_file(cli):
    line = _one_line_error(cli("missing.py"), "missing.py")
    assert line == "autograph: error: cannot read missing.py: No such file or directory"


def test_syntax_error_names_file_and_line(cli, tmp_path):
    (tmp_path / "bad.py").write_text("def f(x):\n    return x\n\n\ndef g(:\n    pass\n", encoding="utf-8")
    line = _one_line_error(cli("bad.py"), "bad.py:5:")
    assert line == "autograph: error: bad.py:5: syntax error: invalid syntax"


def test_syntax_error_in_method_names_its_line(cli, tmp_path):
    (tmp_path / "bad.py").write_text(
        "class C:\n    def m(self):\n        return 1\n   def n(self): pass\n", encoding="utf-8")
    _one_line_error(cli("bad.py"), "bad.py:4:", "syntax error")


def test_syntax_error_on_stdin(cli):
    line = _one_line_error(cli("-", stdin=b"x = 1\ndef f(:\n"), "<stdin>:2:")
    assert line == "autograph: error: <stdin>:2: syntax error: invalid syntax"


def test_unknown_name(cli, source_file):
    line = _one_line_error(cli("mod.py", "absolute", "nope"), "mod.py", "nope")
    assert line == "autograph: error: mod.py: no function or method named 'nope'"


def test_method_name_without_class_is_unknown(cli, source_file):
    _one_line_error(cli("mod.py", "count"), "mod.py", "'count'")


def test_non_utf8_file(cli, tmp_path):
    (tmp_path / "latin.py").write_bytes(b"def f(x):\n    return '\xe9\xff'\n")
    line = _one_line_error(cli("latin.py"), "latin.py")
    assert line.startswith("autograph: error: cannot read latin.py: not UTF-8 text")


def test_directory(cli, tmp_path):
    (tmp_path / "pkg").mkdir()
    line = _one_line_error(cli("pkg"), "pkg")
    assert line.startswith("autograph: error: cannot read pkg: ")


def test_empty_file_prints_nothing_and_says_so(cli, tmp_path):
    (tmp_path / "empty.py").write_text("x = 1\n", encoding="utf-8")
    result = cli("empty.py")
    assert result.returncode == 0 and result.stdout == b""
    assert result.stderr.decode() == "autograph: empty.py has no functions or methods to convert\n"


def test_methods_of_nested_classes(cli, tmp_path):
    (tmp_path / "nested.py").write_text(textwrap.dedent("""\
        class Outer:
            class Inner:
                def m(self, x):
                    return x if x else 1
        """), encoding="utf-8")
    assert canonical(_ok(cli("nested.py", "Outer.Inner.m"))) == canonical(
        "# nested.py:3: Outer.Inner.m\n"
        "def m(self, x):\n"
        "    return ag__.choose(x, lambda: x, lambda: 1)()\n\n"
    )


def test_utf8_bom_file_is_accepted(cli, tmp_path):
    (tmp_path / "bom.py").write_bytes(b"\xef\xbb\xbfdef f(x):\n    return not x\n")
    assert _ok(cli("bom.py")) == "# bom.py:1: f\ndef f(x):\n    return ag__.not_(x)\n\n"


def test_no_arguments_is_a_usage_error(cli):
    result = cli()
    assert result.returncode == 2
    assert result.stdout == b""
    assert result.stderr.decode().splitlines() == [
        "usage: autograph [-h] [--diff] [--version] file [names ...]",
        "autograph: error: the following arguments are required: file",
    ]


def test_version(cli):
    import autograph

    result = cli("--version")
    assert result.returncode == 0 and result.stderr == b""
    assert result.stdout.decode() == f"autograph {autograph.__version__}\n"


NESTED = textwrap.dedent("""\
    def outer(x):
        def inner(y):
            if y > 0:
                return y
            return -y
        if x:
            def helper(z):
                return not z
        return inner(x)
    """)

INNER = textwrap.dedent("""\
    def inner(y):
        retval_ = ag__.NO_RETURN

        def if_body(retval_):
            retval_ = y
            return (retval_,)

        def else_body(retval_):
            retval_ = -y
            return (retval_,)
        retval_, = ag__.branch(y > 0, if_body, else_body, ('the return value',))(retval_)
        return ag__.retval(retval_)
    """)


@pytest.fixture
def nested_file(tmp_path):
    (tmp_path / "nested_fn.py").write_text(NESTED, encoding="utf-8")


@pytest.mark.parametrize("name", ["outer.inner", "outer.<locals>.inner"])
def test_nested_function_is_selected_by_qualified_name(cli, nested_file, name):
    assert canonical(_ok(cli("nested_fn.py", name))) == canonical(
        f"# nested_fn.py:2: {name}\n{INNER}\n")


def test_nested_function_in_a_block_is_selected(cli, nested_file):
    out = _ok(cli("nested_fn.py", "outer.helper"))
    assert out == "# nested_fn.py:7: outer.helper\ndef helper(z):\n    return ag__.not_(z)\n\n"


def test_nested_functions_show_the_staged_form_like_top_level_ones(cli, nested_file):
    out = _ok(cli("nested_fn.py", "outer"))
    assert "ag__.mode" not in out
    assert canonical(textwrap.indent(INNER, "    ")) in canonical(out)


def test_unknown_name_suggests_close_matches(cli, nested_file):
    line = _one_line_error(cli("nested_fn.py", "outer.iner"), "nested_fn.py")
    assert line == ("autograph: error: nested_fn.py: no function or method named 'outer.iner'; "
                    "did you mean 'outer.inner'?")


def test_unknown_method_suggests_the_class(cli, source_file):
    line = _one_line_error(cli("mod.py", "Counter.cont"), "mod.py")
    assert line == ("autograph: error: mod.py: no function or method named 'Counter.cont'; "
                    "did you mean 'Counter.count'?")


def test_coding_cookie_is_honoured(cli, tmp_path):
    (tmp_path / "latin.py").write_bytes(
        b"# -*- coding: latin-1 -*-\ndef f(x):\n    return '\xe9' if x else ''\n")
    assert _ok(cli("latin.py")) == (
        "# latin.py:2: f\ndef f(x):\n    return ag__.choose(x, lambda: '\u00e9', lambda: '')()\n\n")


def test_coding_cookie_on_stdin(cli):
    out = _ok(cli("-", stdin=b"# vim: set fileencoding=cp1252 :\ndef f():\n    return '\x80'\n"))
    assert out == "# <stdin>:2: f\ndef f():\n    return '\u20ac'\n\n"


def test_unknown_coding_cookie(cli, tmp_path):
    (tmp_path / "odd.py").write_bytes(b"# coding: klingon\ndef f():\n    pass\n")
    line = _one_line_error(cli("odd.py"), "odd.py")
    assert line == "autograph: error: odd.py: unknown encoding: klingon"


def test_binary_data_on_stdin(cli):
    data = bytes(range(256)) * 16
    line = _one_line_error(cli("-", stdin=data), "<stdin>")
    assert line.startswith("autograph: error: cannot read <stdin>: not UTF-8 text (")


def test_nul_bytes(cli, tmp_path):
    (tmp_path / "nul.py").write_bytes(b"def f():\n    return 1\x00\n")
    line = _one_line_error(cli("nul.py"), "nul.py")
    assert line == "autograph: error: nul.py: not Python source: it contains NUL bytes"


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="no /dev/zero")
def test_endless_input_is_capped(cli):
    from autograph import cli as module

    line = _one_line_error(cli("/dev/zero"), "/dev/zero")
    available = module._available_memory()
    if available is None or available // module.PARSE_MEMORY_PER_BYTE >= module.MAX_BYTES:
        assert line == "autograph: error: /dev/zero holds more than 64 MB; autograph reads Python source files"
    else:  # a machine with less than 16 GB available: the memory cap comes first
        assert line.startswith("autograph: error: /dev/zero holds more than ")
        assert line.endswith(" GB this machine has available; convert a smaller file")


def test_input_is_capped_by_the_memory_parsing_it_takes(monkeypatch):
    """A 50 MB file needs about 12 GB to parse (a MemoryError and an 'internal error'
    before): the cap is what the machine can parse."""
    import io

    from autograph import cli as module

    monkeypatch.setattr(module, "_available_memory", lambda: 2**30)
    with pytest.raises(ag.ConversionError) as info:
        module._read_capped(io.BytesIO(b"x = 1\n" * 2**20), "big.py")
    assert str(info.value) == (
        "big.py holds more than 4.1 MB: parsing that much source takes about 250 times its size "
        "in memory, more than the 1.0 GB this machine has available; convert a smaller file")
    assert module._read_capped(io.BytesIO(b"x = 1\n"), "small.py") == b"x = 1\n"


def test_a_coding_that_is_not_a_text_encoding_is_refused_naming_its_line(cli, tmp_path):
    (tmp_path / "rot.py").write_text("# coding: rot13\nqrs s(k):\n    erghea k\n", encoding="ascii")
    line = _one_line_error(cli("rot.py"), "rot.py")
    assert line == ("autograph: error: rot.py:1: cannot read it as Python does: 'rot13' is not a "
                    "text encoding; use codecs.decode() to handle arbitrary codecs")


def test_long_expressions_convert(cli, tmp_path):
    """150-operand and/or chains, chained comparisons and nested conditional
    expressions nest 150 deep once lowered: they convert (the CLI said 'internal
    error: RecursionError')."""
    operands = range(150)
    (tmp_path / "long.py").write_text(
        "def conj(x):\n    return " + " and ".join(f"x > {i}" for i in operands) + "\n\n\n"
        "def chain(x):\n    return " + " < ".join(["x"] + [f"x + {i}" for i in operands][1:]) + "\n\n\n"
        "def pick(x):\n    return " + "".join(f"{i} if x == {i} else " for i in operands) + "-1\n",
        encoding="ascii")
    out = _ok(cli("long.py"))
    assert [line for line in out.splitlines() if line.startswith("# ")] == [
        "# long.py:1: conj", "# long.py:5: chain", "# long.py:9: pick"]
    assert out.count("ag__.choose(") == 150


def test_output_is_streamed_function_by_function(tmp_path):
    """The first function is printed before the last one is converted."""
    path = tmp_path / "many.py"
    path.write_text("".join(f"def f{i}(x):\n    return x if x else {i}\n\n" for i in range(3)),
                    encoding="utf-8")
    from autograph import cli as cli_module

    chunks = cli_module.convert_file(str(path), [], False)
    assert next(chunks).startswith(f"# {path}:1: f0\n")
    assert len(list(chunks)) == 2


def test_progress_on_a_terminal(tmp_path, monkeypatch, capsys):
    import io

    from autograph import cli as cli_module

    class Terminal(io.StringIO):
        def isatty(self):
            return True

    path = tmp_path / "two.py"
    path.write_text("def f(x):\n    return not x\n\n\ndef g(x):\n    return -x\n", encoding="utf-8")
    terminal = Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    monkeypatch.setattr(cli_module, "PROGRESS_AFTER", 0.0)
    monkeypatch.setattr(cli_module, "PARSE_NOTICE_CHARS", 10)
    assert cli_module.main([str(path)]) == 0
    shown = terminal.getvalue()
    assert shown.startswith(f"\r\x1b[Kautograph: parsing {path} (0.0 MB)")
    assert f"\r\x1b[Kautograph: {path}: converted 1/2 functions" in shown
    assert f"\r\x1b[Kautograph: {path}: converted 2/2 functions" in shown
    assert shown.endswith("\r\x1b[K")  # the line is erased at the end
    assert capsys.readouterr().out.count("# ") == 2


def test_no_progress_when_not_a_terminal(tmp_path, monkeypatch, capsys):
    from autograph import cli as cli_module

    path = tmp_path / "one.py"
    path.write_text("def f(x):\n    return not x\n", encoding="utf-8")
    monkeypatch.setattr(cli_module, "PROGRESS_AFTER", 0.0)
    assert cli_module.main([str(path)]) == 0
    assert capsys.readouterr().err == ""
