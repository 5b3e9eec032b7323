"""Property-based differential test: random small programs, original vs converted.

Hypothesis writes functions ``f(a, b)`` of nested ``if``/``elif``/``else``,
``for`` (over ``range`` and over tuples with unpacking targets), bounded
``while``, ``for/else`` and ``while/else``, ``break``, ``continue``, ``return``
anywhere, ``try/except ZeroDivisionError`` (divisors may be zero), ternaries, ``and``/``or``/``not``, chained comparisons and ``print``,
over a few int variables (``d`` is only ever assigned on some paths, so reads of
it may raise ``UnboundLocalError``). Every loop terminates: ``for`` loops run
over at most four items and each ``while`` has its own counter, incremented
first thing in the body.

Conversion needs source, so each program is written to a file and imported.
The converted function must match the original, on its default path and under
``force_staged()``, in return value, exception, and printed output.
"""

from __future__ import annotations

import contextlib
import importlib.util
import io
import itertools
import sys

import pytest

hypothesis = pytest.importorskip("hypothesis")
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

CMP_OPS = ("<", "<=", ">", ">=", "==", "!=")
ARITH = ("+", "-", "*", "%", "//")


class _ProgramWriter:
    """Draws one program, statement by statement, with a budget on its size."""

    def __init__(self, draw):
        self.draw = draw
        self.loops = 0
        self.prints = 0
        self.budget = 14
        # In half of the programs, 'd' (assigned on some paths only) is read too.
        self.maybe_d = ("d",) if draw(st.booleans()) else ()

    def pick(self, options):
        return self.draw(st.sampled_from(options))

    def var(self, scope):
        # 'd' is rarely read: it is unassigned on most paths.
        return self.pick(("a", "b", "c") * 12 + self.maybe_d + tuple(scope) * 8)

    def expr(self, scope, depth=0):
        kinds = ["const", "var", "var"]
        if depth < 2:
            kinds += ["arith", "arith", "ternary", "boolop"]
        kind = self.pick(kinds)
        if kind == "const":
            return str(self.draw(st.integers(-3, 5)))
        if kind == "var":
            return self.var(scope)
        if kind == "arith":
            op = self.pick(ARITH)
            if op in "%//" and self.draw(st.integers(0, 3)):
                right = str(self.draw(st.integers(1, 4)))
            else:  # a variable divisor may be zero: ZeroDivisionError mid-run
                right = self.expr(scope, depth + 1)
            return f"({self.expr(scope, depth + 1)} {op} {right})"
        if kind == "ternary":
            return (f"({self.expr(scope, depth + 1)} if {self.cond(scope, depth + 1)} "
                    f"else {self.expr(scope, depth + 1)})")
        op = self.pick(("and", "or"))
        return f"({self.expr(scope, depth + 1)} {op} {self.expr(scope, depth + 1)})"

    def cond(self, scope, depth=0):
        kinds = ["cmp", "cmp", "truth", "chain"]
        if depth < 2:
            kinds += ["not", "boolop"]
        kind = self.pick(kinds)
        if kind == "cmp":
            return f"{self.expr(scope, depth + 1)} {self.pick(CMP_OPS)} {self.expr(scope, depth + 1)}"
        if kind == "truth":
            return f"{self.var(scope)} % {self.draw(st.integers(2, 3))}"
        if kind == "chain":
            lo = self.draw(st.integers(-3, 3))
            return f"{lo} < {self.var(scope)} <= {lo + self.draw(st.integers(0, 4))}"
        if kind == "not":
            return f"not ({self.cond(scope, depth + 1)})"
        op = self.pick(("and", "or"))
        return f"({self.cond(scope, depth + 1)}) {op} ({self.cond(scope, depth + 1)})"

    def block(self, scope, depth, in_loop):
        # A jump (return, break, continue) only ends a block, as people write it.
        size = self.draw(st.integers(1, 3))
        lines = []
        for i in range(size):
            lines += self.statement(scope, depth, in_loop, last=i == size - 1)
        return lines

    def statement(self, scope, depth, in_loop, last):
        self.budget -= 1
        kinds = ["assign", "assign", "aug", "print"]
        if last:
            kinds += ["return"]
            if in_loop:
                kinds += ["break", "continue"]
        if depth < 3 and self.budget > 0:
            kinds += ["if", "if", "for", "while", "try"]
        kind = self.pick(kinds)
        if kind == "assign":
            target = self.pick(("a", "b", "c", "c", "d"))
            return [f"{target} = {self.expr(scope)}"]
        if kind == "aug":
            return [f"{self.pick(('a', 'b', 'c'))} {self.pick(('+=', '-=', '*='))} {self.expr(scope, 1)}"]
        if kind == "print":
            self.prints += 1
            return [f"print('p{self.prints}', {self.var(scope)}, {self.expr(scope, 1)})"]
        if kind == "return":
            return [f"return {self.expr(scope)}"]
        if kind in ("break", "continue"):
            return [kind]
        if kind == "if":
            return self.if_statement(scope, depth, in_loop)
        if kind == "try":
            return (["try:"] + _indent(self.block(scope, depth + 1, in_loop))
                    + ["except ZeroDivisionError:"] + _indent(self.block(scope, depth + 1, in_loop)))
        return self.loop(kind, scope, depth)

    def if_statement(self, scope, depth, in_loop):
        lines = [f"if {self.cond(scope)}:"] + _indent(self.block(scope, depth + 1, in_loop))
        for _ in range(self.draw(st.integers(0, 1))):
            lines += [f"elif {self.cond(scope)}:"] + _indent(self.block(scope, depth + 1, in_loop))
        if self.draw(st.booleans()):
            lines += ["else:"] + _indent(self.block(scope, depth + 1, in_loop))
        return lines

    def loop(self, kind, scope, depth):
        self.loops += 1
        k = self.loops
        if kind == "for":
            if self.draw(st.booleans()):
                header = f"for i{k} in range({self.var(scope)} % 4):"
                inner = (*scope, f"i{k}")
            else:
                header = f"for x{k}, y{k} in (({self.var(scope)}, 1), (2, {self.var(scope)})):"
                inner = (*scope, f"x{k}", f"y{k}")
            lines = [header] + _indent(self.block(inner, depth + 1, True))
            prologue = []
        else:
            prologue = [f"w{k} = 0"]
            lines = [f"while w{k} < 4 and ({self.cond(scope)}):"]
            lines += _indent([f"w{k} += 1"] + self.block((*scope, f"w{k}"), depth + 1, True))
        if self.draw(st.integers(0, 3)) == 0:
            lines += ["else:"] + _indent(self.block(scope, depth + 1, False))
        return prologue + lines


def _indent(lines):
    return ["    " + line for line in lines]


@st.composite
def programs(draw):
    writer = _ProgramWriter(draw)
    body = writer.block((), 0, False)
    final = "return a, b, c, d" if writer.maybe_d and draw(st.booleans()) else "return a, b, c"
    lines = ["def f(a, b):", "    c = a"] + _indent(body) + ["    " + final]
    return "\n".join(lines) + "\n"


_counter = itertools.count()


@pytest.fixture(scope="module")
def program_dir(tmp_path_factory):
    return tmp_path_factory.mktemp("hypothesis_programs")


def _load(directory, source):
    name = f"hypothesis_program_{next(_counter)}"
    path = directory / f"{name}.py"
    path.write_text(source)
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module.f


def _outcome(fn, args, staged=False):
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        try:
            if staged:
                from autograph.runtime.mode import force_staged

                with force_staged():
                    value = fn(*args)
            else:
                value = fn(*args)
            result = ("return", value, [type(v) for v in value] if isinstance(value, tuple) else type(value))
        except Exception as e:  # noqa: BLE001 - the exception is the outcome
            result = ("raise", type(e), str(e))
    return result, out.getvalue()


@settings(max_examples=100, deadline=None, suppress_health_check=list(HealthCheck))
@given(source=programs(), inputs=st.lists(st.tuples(st.integers(-4, 6), st.integers(-4, 6)),
                                          min_size=1, max_size=3))
def test_random_program_matches_original(program_dir, source, inputs):
    ag = pytest.importorskip("autograph")
    original = _load(program_dir, source)
    converted = ag.to_graph(original)
    for args in inputs:
        expected = _outcome(original, args)
        for staged in (False, True):
            actual = _outcome(converted, args, staged)
            assert actual == expected, (
                f"{'staged' if staged else 'default'} path differs on f{args}\n"
                f"--- program ---\n{source}--- original ---\n{expected}\n"
                f"--- converted ---\n{actual}")
