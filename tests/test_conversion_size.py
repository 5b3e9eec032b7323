"""Conversion grows linearly with the function, however deep the nesting.

Each early exit nests the rest of the function in the other branch of its check,
and the Python paths once copied everything under a construct into every
construct around it (24 nested ``if``s took 13 s, 30 about 20 minutes). The
bound below is loose on purpose: it guards against that blowup, not a speed,
which the benchmarks measure (a 200-check function or 600 nested conditional
expressions convert in about 1 s of CPU on an idle machine; the bound leaves room
for a test run sharing its cores with other work: 2 s failed once under load 15).
Each converted function is checked against the original, on its Python path
and on its staged body.
"""

from __future__ import annotations

import itertools
import linecache
import time

import pytest

import autograph as ag
from autograph import deep
from autograph.runtime.staging.mode import force_staged

_files = itertools.count()


def _function(source: str):
    filename = f"<conversion-size-{next(_files)}>"
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    namespace: dict = {}
    exec(compile(source, filename, "exec"), namespace)
    return namespace["f"]


def nested_ifs(depth: int) -> str:
    lines = ["def f(x):"]
    for i in range(depth):
        lines += ["    " * (i + 1) + f"if x > {i}:", "    " * (i + 2) + f"x = x + {i}"]
    return "\n".join(lines) + "\n    return x\n"


def elif_chain(length: int) -> str:
    lines = ["def f(x):", "    if x == 0:", "        x = x + 1"]
    for i in range(1, length):
        lines += [f"    elif x == {i}:", f"        x = x + {i}"]
    return "\n".join(lines) + "\n    return x\n"


def checks(count: int, exit: str) -> str:
    """``count`` checks in a row, each leaving by ``exit`` (raise, return, continue)."""
    lines = ["def f(x):"]
    indent = "    "
    if exit == "continue":
        lines += ["    for y in range(3):"]
        indent = "        "
    leave = {"raise": "raise ValueError(x)", "return": "return -x", "continue": "continue"}[exit]
    for i in range(count):
        lines += [f"{indent}if x == {i}:", f"{indent}    {leave}", f"{indent}x = x + 1"]
    return "\n".join(lines) + "\n    return x\n"


def nested_ternaries(count: int) -> str:
    """``a if c else b if c2 else ...``: each level nests the rest in its ``else``."""
    chain = " else ".join(f"{i} if x > {i}" for i in range(count))
    return f"def f(x):\n    return {chain} else -1\n"


SOURCES = {
    "98 nested ifs (Python allows 99 levels)": (nested_ifs(98), [-1, 5, 200]),
    "an elif chain of 200": (elif_chain(200), [0, 150, 500]),
    "200 checks that raise": (checks(200, "raise"), [7, 500]),
    "200 checks that return": (checks(200, "return"), [150, 500]),
    "200 checks that continue": (checks(200, "continue"), [7, 500]),
    "600 nested conditional expressions": (nested_ternaries(600), [-5, 300, 900]),
}


def _outcome(fn, x):
    try:
        return "value", fn(x)
    except ValueError as e:
        return "raised", e.args


@pytest.mark.parametrize("what", list(SOURCES))
def test_conversion_is_linear_in_the_nesting(what):
    source, inputs = SOURCES[what]
    fn = _function(source)
    start = time.process_time()
    converted = ag.to_graph(fn)
    seconds = time.process_time() - start
    assert seconds < 5.0, f"{what}: {seconds:.2f} s of CPU to convert"
    for x in inputs:
        expected = _outcome(fn, x)
        assert _outcome(converted, x) == expected
        with force_staged():
            assert _outcome(converted, x) == expected


def test_nesting_deeper_than_conversion_can_go_is_refused_naming_the_function(monkeypatch):
    monkeypatch.setattr(deep, "_FRAMES", 1000)  # the deep thread no deeper than Python's default
    fn = _function(checks(200, "return"))
    with pytest.raises(ag.ConversionError) as info:
        ag.to_graph(fn)
    filename = fn.__code__.co_filename
    assert str(info.value) == (
        f"{filename}:1: f is nested too deeply to convert (thousands of levels of blocks or of "
        f"operands); split it into functions")


LONG_EXPRESSIONS = {
    "a 150-operand and": "def f(x):\n    return " + " and ".join(f"x > {i}" for i in range(150)) + "\n",
    "a 150-operand or": "def f(x):\n    return " + " or ".join(f"x == {i}" for i in range(150)) + "\n",
    "a 150-operand chained comparison": "def f(x):\n    return " + " < ".join(
        ["x"] + [f"x + {i}" for i in range(1, 150)]) + "\n",
    "150 nested conditional expressions": "def f(x):\n    return " + "".join(
        f"{i} if x == {i} else " for i in range(150)) + "-1\n",
}


@pytest.mark.parametrize("what", list(LONG_EXPRESSIONS))
def test_long_expressions_convert(what):
    """Their lowering nests 150 deep (each operand a lambda around the rest): they
    convert, and ``to_code`` shows them (both were a bare RecursionError)."""
    fn = _function(LONG_EXPRESSIONS[what])
    converted = ag.to_graph(fn)
    for x in (-1, 3, 200):
        assert _outcome(converted, x) == _outcome(fn, x)
        with force_staged():
            assert _outcome(converted, x) == _outcome(fn, x)
    assert "ag__." in ag.to_code(fn)
