"""Random small programs for the property-based differential tests.

``programs()`` draws the source of a function ``f(a, b)`` (beside a helper
``step`` it may call, and in half the programs a closure ``get_c`` over ``c``) of nested
``if``/``elif``/``else``, ``for`` (over ``range`` and over tuples with unpacking
targets), bounded ``while``, ``for/else`` and ``while/else``, ``break``,
``continue``, ``return`` anywhere, ``try/except ZeroDivisionError`` (divisors may
be zero), ternaries, ``and``/``or``/``not``, chained comparisons and ``print``,
over a few int variables (``d`` is only ever assigned on some paths, so reads of
it may raise ``UnboundLocalError``). Every loop terminates: ``for`` loops run
over at most four items and each ``while`` has its own counter, incremented
first thing in the body. ``programs(for_graphs=True)`` leaves out what a graph
cannot stage (print, try, division by a variable, ``d``).
"""

from __future__ import annotations

import importlib.util
import itertools
import sys

from hypothesis import strategies as st

CMP_OPS = ("<", "<=", ">", ">=", "==", "!=")
ARITH = ("+", "-", "*", "%", "//")


class _ProgramWriter:
    """Draws one program, statement by statement, with a budget on its size."""

    def __init__(self, draw, for_graphs: bool = False):
        self.draw = draw
        self.loops = 0
        self.prints = 0
        self.budget = 14
        # For graphs (the values become tensors): no print, no try/except, no
        # division by a variable, and no variable that only some paths assign.
        self.for_graphs = for_graphs
        # In half of the programs, 'd' (assigned on some paths only) is read too.
        self.maybe_d = ("d",) if not for_graphs and draw(st.booleans()) else ()
        # In half, a closure reads 'c': every construct that assigns it must share it.
        self.closure = draw(st.booleans())

    def pick(self, options):
        return self.draw(st.sampled_from(options))

    def var(self, scope):
        # 'd' is rarely read: it is unassigned on most paths.
        return self.pick(("a", "b", "c") * 12 + self.maybe_d + tuple(scope) * 8)

    def expr(self, scope, depth=0):
        kinds = ["const", "var", "var"] + (["closure"] if self.closure else [])
        if depth < 2:
            kinds += ["arith", "arith", "ternary", "boolop", "call"]
        kind = self.pick(kinds)
        if kind == "const":
            return str(self.draw(st.integers(-3, 5)))
        if kind == "closure":
            return "get_c()"
        if kind == "call":  # a helper with its own control flow, converted when staged
            return f"step({self.expr(scope, depth + 1)})"
        if kind == "var":
            return self.var(scope)
        if kind == "arith":
            op = self.pick(ARITH)
            if op in "%//" and (self.for_graphs or self.draw(st.integers(0, 3))):
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
        kinds = ["assign", "assign", "aug"] + ([] if self.for_graphs else ["print"])
        if last:
            kinds += ["return"]
            if in_loop:
                kinds += ["break", "continue"]
        if depth < 3 and self.budget > 0:
            kinds += ["if", "if", "for", "while"] + ([] if self.for_graphs else ["try"])
        kind = self.pick(kinds)
        if kind == "assign":
            target = self.pick(("a", "b", "c", "c") + (() if self.for_graphs else ("d",)))
            return [f"{target} = {self.expr(scope)}"]
        if kind == "aug":
            return [f"{self.pick(('a', 'b', 'c'))} {self.pick(('+=', '-=', '*='))} {self.expr(scope, 1)}"]
        if kind == "print":
            self.prints += 1
            return [f"print('p{self.prints}', {self.var(scope)}, {self.expr(scope, 1)})"]
        if kind == "return":
            if self.for_graphs:  # one structure on every path: a staged branch must merge them
                return [f"return {self.expr(scope)}, b, c"]
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
def programs(draw, for_graphs: bool = False):
    """The source of one random ``def f(a, b)``."""
    writer = _ProgramWriter(draw, for_graphs)
    body = writer.block((), 0, False)
    final = "return a, b, c, d" if writer.maybe_d and draw(st.booleans()) else "return a, b, c"
    head = ["def f(a, b):", "    c = a"] + (["    get_c = lambda: c"] if writer.closure else [])
    lines = _HELPER + head + _indent(body) + ["    " + final]
    return "\n".join(lines) + "\n"


_HELPER = [
    "def step(v):",
    "    if v > 2:",
    "        return v - 1",
    "    return v + 1",
    "",
    "",
]


_counter = itertools.count()


def load(directory, source):
    """Write ``source`` to a module in ``directory``, import it, return its ``f``
    (conversion reads source from files)."""
    name = f"hypothesis_program_{next(_counter)}"
    path = directory / f"{name}.py"
    path.write_text(source)
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module.f
