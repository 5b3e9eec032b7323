"""Random small programs for the property-based differential tests.

``programs()`` draws the source of a function ``f(a, b)`` (beside a helper
``step`` it may call, and in half the programs a closure ``get_c`` over ``c``) of nested
``if``/``elif``/``else``, ``for`` (over ``range``, over ``range`` reached through a
variable, and over tuples with unpacking targets), bounded ``while``, ``for/else``
and ``while/else``, ``break``, ``continue``, ``return`` anywhere,
``try``/``except``/``else``/``finally`` with jumps in any of their blocks (a jump
in ``finally`` replaces what was pending), ternaries, ``and``/``or``/``not``,
chained comparisons whose middle operands are expressions, and ``print``, over a
few int variables (``d`` is only ever assigned on some paths, so reads of it may
raise ``UnboundLocalError``). Every loop terminates: ``for`` loops run over at most
four items and each ``while`` has its own counter, incremented first thing in the
body. Divisors may be zero (``ZeroDivisionError`` mid-run).

Optional shapes (``SHAPES``), each drawn in about half the programs that allow it:
a nested dict updated in branches (``x['k']['v']``, and on the Python path keys
added in one branch), a namedtuple as the result, ``print`` of Python-only values
(``ag.print`` in staged programs), a Python float carried into loops that assign
it ints (``z``), a variable read in a branch before any definition, and (Python 3.10+)
``match`` statements with value patterns. ``ARRAY_SHAPES``, drawn only where a test
asks for them: a NumPy array made in the function (``arr``, int32) written and read
anywhere (an item, an item in place, the whole array in place by a constant), and a
view of it (``view = arr[1:]``) written and read too.

``programs(for_graphs=True)`` draws what a graph can stage: int32 values, no
division by a variable, no ``d`` assigned on some paths, one result structure on
every path. The shapes in ``KNOWN_BUGS`` hit staging bugs being fixed in the
runtime; staged programs leave them out unless ``shapes`` (or the environment
variable ``AUTOGRAPH_PROGRAM_SHAPES``, comma-separated) asks for them.
"""

from __future__ import annotations

import ast
import builtins
import functools
import importlib.util
import io
import itertools
import keyword
import os
import random
import sys
import tempfile
import tokenize

from hypothesis import strategies as st

CMP_OPS = ("<", "<=", ">", ">=", "==", "!=")
ARITH = ("+", "-", "*", "%", "//")

SHAPES = frozenset({"nested_dict", "namedtuple", "python_print", "scalar_carry", "undefined_read"}
                   | ({"match"} if sys.version_info >= (3, 10) else set()))  # `match`: 3.10 syntax

# NumPy arrays made in the function (issue 27): drawn only where asked for (``shapes``),
# so that the samples of the other tests stay as they were.
ARRAY_SHAPES = frozenset({"arrays", "array_view"})

# Shapes that staged programs leave out by default: each hits a runtime bug that is
# being fixed elsewhere ({shape: the bug, with its issue and item}).
KNOWN_BUGS = {
    "python_print": ("a function whose trace raises (here a read of 'u' before its "
                     "definition, outside any staged branch) never runs its graph: the "
                     "ag.print calls before the raise print nothing, where eager code prints "
                     "them and then raises; both backends (issue 9, random programs)"),
}


def staged_shapes() -> frozenset:
    """The optional shapes staged programs use: those not in ``KNOWN_BUGS``, and
    those ``AUTOGRAPH_PROGRAM_SHAPES`` names."""
    asked = {s.strip() for s in os.environ.get("AUTOGRAPH_PROGRAM_SHAPES", "").split(",") if s.strip()}
    unknown = asked - SHAPES - ARRAY_SHAPES
    if unknown:
        raise ValueError(f"AUTOGRAPH_PROGRAM_SHAPES: unknown shapes {sorted(unknown)}; known: "
                         f"{sorted(SHAPES | ARRAY_SHAPES)}")
    return (SHAPES - set(KNOWN_BUGS)) | asked


class _Writer:
    """What both program writers share: a jump or a compound statement of a kind drawn."""

    def compound(self, kind, scope, depth, in_loop):
        if kind in ("break", "continue"):
            return [kind]
        if kind == "if":
            return self.if_statement(scope, depth, in_loop)
        if kind == "try":
            return self.try_statement(scope, depth, in_loop)
        if kind == "match":
            return self.match_statement(scope, depth, in_loop)
        return self.loop(kind, scope, depth)


class _ProgramWriter(_Writer):
    """Draws one program, statement by statement, with a budget on its size."""

    def __init__(self, draw, for_graphs: bool, shapes: frozenset):
        self.draw = draw
        self.loops = 0
        self.prints = 0
        self.budget = 14
        # For graphs (the values become tensors): no division by a variable, and no
        # variable that only some paths assign.
        self.for_graphs = for_graphs
        self.shapes = {s for s in sorted(shapes) if draw(st.booleans())}
        # In half of the Python programs, 'd' (assigned on some paths only) is read too.
        self.maybe_d = ("d",) if not for_graphs and draw(st.booleans()) else ()
        # In half, a closure reads 'c': every construct that assigns it must share it.
        self.closure = draw(st.booleans())
        self.renamed = ["a", "b", "c", "d"]  # names ``programs`` may replace by template names

    def pick(self, options):
        return self.draw(st.sampled_from(options))

    def var(self, scope):
        # 'd' is rarely read: it is unassigned on most paths.
        return self.pick(("a", "b", "c") * 12 + self.maybe_d + tuple(scope) * 8)

    def expr(self, scope, depth=0):
        kinds = ["const", "var", "var"] + (["closure"] if self.closure else [])
        kinds += ["dict"] if "nested_dict" in self.shapes else []
        kinds += ["array"] if "arrays" in self.shapes else []
        if depth < 2:
            kinds += ["arith", "arith", "ternary", "boolop", "call"]
            kinds += [] if self.for_graphs else ["generator"]
        kind = self.pick(kinds)
        if kind == "const":
            return str(self.draw(st.integers(-3, 5)))
        if kind == "generator":  # a generator expression passed to a call (its own scope)
            self.loops += 1
            item = f"g{self.loops}"
            self.renamed.append(item)
            inner = (*scope, item)
            return (f"sum({self.expr(inner, depth + 1)} for {item} in ({self.var(scope)}, "
                    f"{self.var(scope)}) if {self.cond(inner, depth + 1)})")
        if kind == "closure":
            return "get_c()"
        if kind == "dict":
            return "x['k']['v']"
        if kind == "array":
            name = self.pick(("arr", "view") if "array_view" in self.shapes else ("arr",))
            return f"{name}[{self.draw(st.integers(0, 1 if name == 'view' else 2))}]"
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
        kinds = ["cmp", "cmp", "truth", "chain", "chain_expr"]
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
        if kind == "chain_expr":  # middle operands that are expressions, evaluated once each
            links = [self.expr(scope, depth + 1) for _ in range(self.draw(st.integers(2, 3)))]
            ops = [self.pick(CMP_OPS) for _ in links]
            text = str(self.draw(st.integers(-3, 3)))
            for op, operand in zip(ops, links):
                text += f" {op} {operand}"
            return text
        if kind == "not":
            return f"not ({self.cond(scope, depth + 1)})"
        op = self.pick(("and", "or"))
        return f"({self.cond(scope, depth + 1)}) {op} ({self.cond(scope, depth + 1)})"

    def result(self, first):
        """A return value: one structure on every path."""
        extras = "".join(f", {e}" for e in self.extras())
        if "namedtuple" in self.shapes:
            return f"Out({first}, (b, c{extras}))"
        return f"{first}, b, c{extras}"

    def extras(self):
        out = []
        if "scalar_carry" in self.shapes:
            out.append("z")
        if "nested_dict" in self.shapes:
            out.append("x['k']['v']")
            if not self.for_graphs:
                out.append("x['k'].get('w')")
        if "arrays" in self.shapes:
            out += ["arr[0]", "arr[1]", "arr[2]"] + (["view[0]"] if "array_view" in self.shapes else [])
        return out

    def block(self, scope, depth, in_loop, in_branch=False):
        # A jump (return, break, continue) only ends a block, as people write it.
        size = self.draw(st.integers(1, 3))
        lines = []
        for i in range(size):
            lines += self.statement(scope, depth, in_loop, last=i == size - 1, in_branch=in_branch)
        return lines

    def statement(self, scope, depth, in_loop, last, in_branch=False):
        self.budget -= 1
        kinds = ["assign", "assign", "aug"]
        if not self.for_graphs or "python_print" in self.shapes:
            kinds.append("print")
        if "nested_dict" in self.shapes:
            kinds.append("dict_update")
        if "arrays" in self.shapes:
            kinds += ["array_write", "array_write"]
        if "scalar_carry" in self.shapes and in_loop:
            kinds.append("carry")
        if "undefined_read" in self.shapes and in_branch:
            kinds.append("undefined_read")
        if last:
            kinds += ["return"]
            if in_loop:
                kinds += ["break", "continue"]
        if depth < 3 and self.budget > 0:
            kinds += ["if", "if", "for", "while", "try"]
            kinds += ["match"] if "match" in self.shapes else []
        kind = self.pick(kinds)
        if kind == "assign":
            target = self.pick(("a", "b", "c", "c") + (() if self.for_graphs else ("d",)))
            return [f"{target} = {self.expr(scope)}"]
        if kind == "aug":
            return [f"{self.pick(('a', 'b', 'c'))} {self.pick(('+=', '-=', '*='))} {self.expr(scope, 1)}"]
        if kind == "print":
            self.prints += 1
            if self.for_graphs:  # Python-only arguments, printed at every run of the graph
                return [f"ag.print('p{self.prints}', {self.draw(st.integers(-3, 5))})"]
            return [f"print('p{self.prints}', {self.var(scope)}, {self.expr(scope, 1)})"]
        if kind == "dict_update":
            key = "'v'" if self.for_graphs else self.pick(("'v'", "'w'"))
            return [f"x['k'][{key}] = {self.expr(scope, 1)}"]
        if kind == "array_write":
            return [self.array_write(scope)]
        if kind == "carry":  # a Python float turned into the loop's int values
            return [f"z = {self.expr(scope, 1)}"]
        if kind == "undefined_read":  # 'u' is assigned at the end only: the read raises when it runs
            return [f"{self.pick(('a', 'b'))} = u + {self.expr(scope, 1)}"]
        if kind == "return":
            if self.for_graphs:  # one structure on every path: a staged branch must merge them
                return [f"return {self.result(self.expr(scope))}"]
            return [f"return {self.expr(scope)}"]
        return self.compound(kind, scope, depth, in_loop)

    def array_write(self, scope):
        """A write into the NumPy array made in the function: an item, an item in place,
        the whole array in place (by a constant), or an item through its view."""
        how = self.pick(("item", "aug_item", "in_place")
                        + (("view",) if "array_view" in self.shapes else ()))
        if how == "item":
            return f"arr[{self.draw(st.integers(0, 2))}] = {self.expr(scope, 1)}"
        if how == "aug_item":
            return f"arr[{self.draw(st.integers(0, 2))}] {self.pick(('+=', '-='))} {self.expr(scope, 1)}"
        if how == "in_place":
            return f"arr {self.pick(('+=', '*='))} {self.draw(st.integers(-2, 3))}"
        return f"view[{self.draw(st.integers(0, 1))}] = {self.expr(scope, 1)}"

    def if_statement(self, scope, depth, in_loop):
        lines = [f"if {self.cond(scope)}:"] + _indent(self.block(scope, depth + 1, in_loop, True))
        for _ in range(self.draw(st.integers(0, 1))):
            lines += [f"elif {self.cond(scope)}:"] + _indent(self.block(scope, depth + 1, in_loop, True))
        if self.draw(st.booleans()):
            lines += ["else:"] + _indent(self.block(scope, depth + 1, in_loop, True))
        return lines

    def match_statement(self, scope, depth, in_loop):
        """``match`` on an expression with value patterns: literals, ``|``, ``as``,
        captures with guards (names bound for their case), and maybe ``case _``."""
        self.loops += 1  # (a counter for fresh capture names)
        k = self.loops
        lines = [f"match {self.expr(scope)}:"]
        for i in range(self.draw(st.integers(1, 3))):
            name = f"m{k}_{i}"
            kind = self.pick(("literal", "or", "as", "guarded_capture", "guarded_literal"))
            inner = scope
            if kind == "literal":
                head = f"case {self.draw(st.integers(-3, 5))}:"
            elif kind == "or":
                head = f"case {self.draw(st.integers(-3, 5))} | {self.draw(st.integers(-3, 5))}:"
            elif kind == "as":
                alternatives = f"{self.draw(st.integers(-3, 5))} | {self.draw(st.integers(-3, 5))}"
                head = f"case ({alternatives}) as {name}:"
                inner = (*scope, name)
            elif kind == "guarded_capture":
                inner = (*scope, name)
                head = f"case {name} if {self.cond(inner)}:"
            else:
                head = f"case {self.draw(st.integers(-3, 5))} if {self.cond(scope)}:"
            lines += _indent([head] + _indent(self.block(inner, depth + 1, in_loop, True)))
        if self.draw(st.booleans()):
            lines += _indent(["case _:"] + _indent(self.block(scope, depth + 1, in_loop, True)))
        return lines

    def try_statement(self, scope, depth, in_loop):
        """``try`` with an ``except``, an ``else`` and a ``finally`` in any valid mix;
        any of their blocks may end in a jump."""
        handler, orelse, final = self.draw(st.sampled_from(
            [(True, False, False), (True, True, False), (True, False, True), (True, True, True), (False, False, True)]))
        lines = ["try:"] + _indent(self.block(scope, depth + 1, in_loop))
        if handler:
            lines += ["except ZeroDivisionError:"] + _indent(self.block(scope, depth + 1, in_loop))
        if orelse:
            lines += ["else:"] + _indent(self.block(scope, depth + 1, in_loop))
        if final:
            lines += ["finally:"] + _indent(self.block(scope, depth + 1, in_loop))
        return lines

    def loop(self, kind, scope, depth):
        self.loops += 1
        k = self.loops
        if kind == "for":
            shape = self.draw(st.integers(0, 2))
            if shape < 2:
                bound = f"{self.var(scope)} % 4"
                if shape == 0:
                    header = f"for i{k} in range({bound}):"
                    prologue = []
                else:  # range reached through a variable: still the builtin
                    header = f"for i{k} in rng{k}({bound}):"
                    prologue = [f"rng{k} = range"]
                inner = (*scope, f"i{k}")
            else:
                header = f"for x{k}, y{k} in (({self.var(scope)}, 1), (2, {self.var(scope)})):"
                inner = (*scope, f"x{k}", f"y{k}")
                prologue = []
            lines = [header] + _indent(self.block(inner, depth + 1, True))
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
def programs(draw, for_graphs: bool = False, shapes=None):
    """The source of one random ``def f(a, b)``; ``shapes``: the optional shapes
    it may use (all on the Python path; ``staged_shapes()`` for graphs)."""
    if shapes is None:
        shapes = staged_shapes() if for_graphs else SHAPES
    writer = _ProgramWriter(draw, for_graphs, frozenset(shapes))
    head = ["def f(a, b):", "    c = a"] + (["    get_c = lambda: c"] if writer.closure else [])
    if "nested_dict" in writer.shapes:
        head.append("    x = {'k': {'v': b}}")
    if "scalar_carry" in writer.shapes:
        head.append("    z = 2.5")
    if "arrays" in writer.shapes:
        head.append("    arr = np.zeros(3, np.int32)")
        if "array_view" in writer.shapes:
            head.append("    view = arr[1:]")
    body = writer.block((), 0, False)
    if for_graphs:
        final = "return " + writer.result("a")
    elif writer.maybe_d and draw(st.booleans()):
        final = "return a, b, c, d"
    else:
        final = "return " + writer.result("a") if writer.shapes & {"namedtuple", "nested_dict", "scalar_carry", "arrays"} else "return a, b, c"
    if "undefined_read" in writer.shapes:
        body.append("u = 0")  # a local, read before this definition: UnboundLocalError
    function = "\n".join(head + _indent(body) + ["    " + final]) + "\n"
    if not for_graphs:  # (staged programs keep their draws, and the sample CI runs)
        function = _renamed(function, writer.renamed, draw)
    return "\n".join(_HELPER) + "\n" + function


def _renamed(source: str, names: list, draw) -> str:
    """``source`` with some of the variables ``names`` renamed after the
    converters' template placeholders (``fn``, ``element``, ``ag__`` ...): a user's
    name must never be taken for a placeholder."""
    tokens = list(tokenize.generate_tokens(io.StringIO(source).readline))
    taken = {t.string for t in tokens if t.type == tokenize.NAME}
    mapping = {}
    for name in names:
        choice = draw(st.sampled_from((name,) * 3 + placeholder_names()))
        if choice != name and (choice in taken or keyword.iskeyword(choice) or choice in dir(builtins)):
            choice = name
        taken.add(choice)
        mapping[name] = choice
    return tokenize.untokenize(
        (t.type, mapping.get(t.string, t.string) if t.type == tokenize.NAME else t.string, t.start, t.end, t.line)
        for t in tokens)


@functools.lru_cache(maxsize=None)
def placeholder_names() -> tuple:
    """The names of every placeholder the converters' templates use (the keywords
    of their ``templates.replace`` calls), and ``ag__``."""
    import autograph.converters

    files = [os.path.join(d, f) for d in autograph.converters.__path__ for f in sorted(os.listdir(d))
             if f.endswith(".py")]
    files += [os.path.join(os.path.dirname(autograph.converters.__path__[0]), "autograph", "conversion.py")]
    names = {"ag__"}
    for path in files:
        if not os.path.exists(path):
            continue
        with open(path, encoding="utf-8") as f:
            tree = ast.parse(f.read())
        for node in ast.walk(tree):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                    and node.func.attr in ("replace", "replace_expr")
                    and isinstance(node.func.value, ast.Name) and node.func.value.id == "templates"):
                names.update(k.arg for k in node.keywords if k.arg)
    return tuple(sorted(names))


_HELPER = [
    "import collections",
    "",
    "import numpy as np",
    "",
    "import autograph as ag",
    "",
    "Out = collections.namedtuple('Out', 'first rest')",
    "",
    "",
    "def step(v):",
    "    if v > 2:",
    "        return v - 1",
    "    return v + 1",
    "",
    "",
]


# Examples per backend in the slow run (``pytest -m slow``).
SLOW_EXAMPLES = int(os.environ.get("AUTOGRAPH_SLOW_EXAMPLES", "2000"))


def same_outcome(expected, actual, source: str) -> bool:
    """Whether a staged run's ``(result, printed)`` is what the eager run's allows:
    the same, or a StagingError the semantics permit — for a Python float carried
    into a loop that assigns it ints (``z``: a value could be lost) and for a read
    of a variable before its definition (``u``: on a backend that cannot raise when
    the graph runs, inside a ``try`` that would handle the error, or in both branches
    of an ``if`` in a staged loop, which may run zero times)."""
    if expected == actual:
        return True
    result = actual[0]
    if result[0] == "raise" and any(c.__name__ == "StagingError" for c in result[1].__mro__):
        z_lost = "z = 2.5" in source and ("'z'" in result[2] or "a Python float" in result[2])
        u_read = "u = 0" in source and ("'u'" in result[2] or "both branches raise" in result[2])
        # a write into 'arr' or its view under staged control flow, where the other
        # would keep the old contents (issue 27)
        shared = "view = arr[1:]" in source and any(
            text in result[2] for text in ("shares its memory", "is also held by 'view'",
                                            "is also held by 'arr'"))
        return z_lost or u_read or shared
    return False


def leaves(value) -> list:
    """The values in a program's result, flattened (tuples, namedtuples, lists)."""
    if isinstance(value, (tuple, list)):
        return [leaf for v in value for leaf in leaves(v)]
    return [value]


_counter = itertools.count()


_directory = None


def load(directory, source):
    """Write ``source`` to a module in ``directory`` (None: a temporary directory of this
    process), import it, return its ``f`` (conversion reads source from files)."""
    global _directory
    if directory is None:
        if _directory is None:
            _directory = tempfile.mkdtemp(prefix="autograph_programs_")
        directory = _directory
    name = f"program_{os.getpid()}_{next(_counter)}"
    path = os.path.join(directory, f"{name}.py")
    with open(path, "w", encoding="utf-8") as out:
        out.write(source)
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module.f


# ---------------------------------------------------------------- the differential fuzzer's programs
# (tests/fuzz): seeded with ``random.Random``, not drawn by hypothesis.
#
# A seeded generator of small Python functions for the differential tester.
#
# ``program(seed)`` writes the source of one ``def f(n, x, v, lst)``: ``n`` an int,
# ``x`` a float (Python numbers, or NumPy 0-d arrays and scalars when staged), ``v`` a
# 1-d float64 NumPy array of four items and ``lst`` a Python list of three ints. Its
# body mixes ``if``/``elif``/``else``, bounded ``while`` loops, ``for`` over ``range``,
# over the array and over the list, ``break``/``continue``/``return`` (in loops, nested),
# ``and``/``or``/``not``, ternaries, augmented assignment (in place on the array: an
# item, the whole array, through a view, under a mask), ``lst`` items written, a nested
# function that rebinds a ``nonlocal``, a closure that reads a local, ``try``/``except``,
# ``assert``, ``raise`` and ``ag.print``. Conditions read the arguments, so that with
# array arguments they are staged.
#
# The locals keep one type on every path (``t`` an int, ``acc`` a float, ``w`` a view of
# ``v``), so that most programs can be staged; what cannot is refused with a
# ``StagingError``, which the oracles count. Every loop ends: ``for`` loops run over at
# most four items, each ``while`` counts its own iterations (at most three).
#
# ``inputs(seed)`` draws the argument tuples a program runs on. The same seed always
# gives the same program and inputs (``random.Random(seed)``), whatever ran before.

FUZZ_HEADER = "import numpy as np\n\nimport autograph as ag\n\n\n"


# Session 13's constructs (``FUZZ_NEW``): what real code does with arrays and Python values
# beside the control flow above; each drawn in about half the programs that may draw it.
SESSION13 = {
    "objects": "an instance of a small user class (Acc) made in the function, its methods "
               "called (s.add(e): self.total += e; self.count += 1), its attributes read and "
               "updated (s.total += v[i]), and passed to a module function (feed(s, v, i))",
    "dict_arrays": "a dict of arrays updated in loops (d['a'] = d['a'] * 0.5 + e, d['b'] += "
                   "d['a'], d['b'][i] = ...)",
    "swap": "tuple unpacking of arrays and ints in loops (fa, fb = fb, fa + fb; ta, tb = tb, "
            "(ta + tb) % 97)",
    "nested_return": "an early return inside nested loops (for i in range(3): for e in v: "
                     "if ...: return ...)",
    "enum_zip": "for i, (p, q) in enumerate(zip(v, <lst, v[::-1], np.cumsum(v)>))",
    "compound_while": "while loops whose condition mixes Python values, a Python flag the body "
                      "clears and array items (while go and c < 3 and (v[c] > x or t < n))",
    "array_closure": "nested functions returning arrays, closed over v, acc and t (scaled(k) = "
                     "v * k + acc; mk() = np.array([t, 1.0, acc]))",
    "listcomp": "list comprehensions over arrays (sum([e * 2.0 for e in v]), [e for e in v if "
                "e > x], [v[i] * x for i in range(3)][j]), in staged branches too",
    "npcalls": "np.where, np.clip, np.cumsum, np.argmax/np.argmin on staged values (items, "
               "whole-array writes v[:] = np.where(...))",
    "dtype_mix": "int, float and bool values mixed: t / 2, t + (acc > x), np.sum(v > x), "
                 "(v > x).astype(float)[i], acc // 1.0, float(t)",
    "maybe_none": "mb = <value> if cond else None, then is None / is not None checks",
    "builtins": "min/max/abs/sum builtins on arrays (min(v), sum(v), abs(v)[i]) and on Python "
                "values carried through loops (best = max(best, e))",
    "zero_d_made": "0-d arrays the function makes (z0 = np.where(x > 0, x, 0.0), np.array(n)), "
                   "held by another name (zb = z0) and changed in place (z0 += ...)",
}


class _Session13:
    """The writers of ``SESSION13``'s constructs (a mixin of ``_SeededWriter``: it draws with
    its ``rng``; ``new13`` holds the constructs this program draws)."""

    INT13 = frozenset({"obj_count", "swap_int", "argmax", "dtype_int", "builtin_int"})
    FLOAT13 = frozenset({"obj_total", "dict_item", "swap_item", "closure_item", "np_item",
                         "dtype_float", "builtin_float"})
    STATEMENT13 = frozenset({"obj_call", "dict_write", "swap", "nested_return", "enum_zip",
                             "compound_while", "closure_use", "listcomp", "np_write", "dtype_write",
                             "maybe_none", "carry_best", "zero_d_write"})

    def int_kinds13(self, depth):
        on = self.new13
        return [kind for feature, kind in (("objects", "obj_count"), ("swap", "swap_int"),
                                           ("npcalls", "argmax"), ("dtype_mix", "dtype_int"),
                                           ("builtins", "builtin_int")) if feature in on]

    def float_kinds13(self, depth):
        on = self.new13
        return [kind for feature, kind in (
            ("objects", "obj_total"), ("dict_arrays", "dict_item"), ("swap", "swap_item"),
            ("array_closure", "closure_item"), ("npcalls", "np_item"), ("dtype_mix", "dtype_float"),
            ("builtins", "builtin_float")) if feature in on]

    def statement_kinds13(self, scope, depth):
        on = self.new13
        kinds = [kind for feature, kind in (
            ("objects", "obj_call"), ("dict_arrays", "dict_write"), ("swap", "swap"),
            ("array_closure", "closure_use"), ("listcomp", "listcomp"), ("npcalls", "np_write"),
            ("dtype_mix", "dtype_write"), ("maybe_none", "maybe_none"),
            ("builtins", "carry_best"), ("zero_d_made", "zero_d_write")) if feature in on]
        if depth < 3 and self.budget > 0:
            kinds += [kind for feature, kind in (
                ("nested_return", "nested_return"), ("enum_zip", "enum_zip"),
                ("compound_while", "compound_while")) if feature in on]
        return kinds

    def _const13(self):
        return self.pick(("0.5", "1.5", "-1.0", "2.0"))

    def int13(self, kind, scope, depth):
        if kind == "obj_count":
            return "s.count"
        if kind == "swap_int":
            return self.pick(("ta", "tb"))
        if kind == "argmax":
            return self.pick(("int(np.argmax(v))", "np.argmax(v)",
                              f"np.argmin(v * {self._const13()})",
                              "int(np.argmax(np.cumsum(v)))"))
        if kind == "dtype_int":
            return self.pick((f"np.sum(v > {self.float_expr(scope, depth + 1)})",
                              f"(t > 0) + ({self.int_expr(scope, depth + 1)} > 1)",
                              f"True * {self.int_expr(scope, depth + 1)}",
                              f"int({self.pick(('x', 'acc', 'v[1]'))} > 0)"))
        return self.pick(("sum(lst)", "abs(t)", "min(lst)", f"max(t, n, {self.rng.randint(-1, 2)})",
                          f"abs({self.int_expr(scope, depth + 1)})"))

    def float13(self, kind, scope, depth):
        if kind == "obj_total":
            return self.pick(("s.total", f"s.scaled({self._const13()})"))
        if kind == "dict_item":
            return self.pick((f"d['{self.pick('ab')}'][{self.rng.randint(0, 3)}]", "d['b'].sum()",
                              "np.sum(d['a'])"))
        if kind == "swap_item":
            return f"{self.pick(('fa', 'fb'))}[{self.rng.randint(0, 3)}]"
        if kind == "closure_item":
            return self.pick((f"scaled({self._const13()})[{self.rng.randint(0, 3)}]",
                              "np.sum(scaled(x))",
                              f"mk()[{self.rng.randint(0, 2)}]"))
        if kind == "np_item":
            f = self.float_expr(scope, depth + 1)
            return self.pick((f"np.where(v > {f}, v, {self._const13()})[{self.rng.randint(0, 3)}]",
                              f"np.clip(v, -1.0, {f})[{self.rng.randint(0, 3)}]",
                              f"np.cumsum(v)[{self.rng.randint(0, 3)}]",
                              f"np.clip({f}, -1.0, 1.0)",
                              f"np.where({self.cond(scope, depth + 1)}, {f}, {self._const13()})"))
        if kind == "dtype_float":
            return self.pick(("t / 2", "(t + acc)",
                              f"(v > x).astype(float)[{self.rng.randint(0, 3)}]",
                              "acc // 1.0", "float(t)", "n / (abs(t) + 1)", "np.mean(v > 0)"))
        return self.pick(("min(v)", "max(v)", "sum(v)", "abs(x)",
                          f"abs(v)[{self.rng.randint(0, 3)}]",
                          f"abs({self.float_expr(scope, depth + 1)})", "best"))

    def statement13(self, kind, scope, depth, in_loop):
        if kind == "obj_call":
            return [self.pick((f"s.add({self.float_expr(scope, 1)})",
                               f"s.total += v[{self.index(scope)}]", "s.count += 1",
                               f"t += feed(s, v, {self.index(scope)})",
                               f"acc = s.add({self.float_expr(scope, 1)})"))]
        if kind == "dict_write":
            return [self.pick((f"d['a'] = d['a'] * 0.5 + {self.float_expr(scope, 1)}",
                               "d['b'] += d['a']",
                               f"d['b'][{self.index(scope)}] = {self.float_expr(scope, 1)}",
                               "d['a'] -= v", "d['b'] = np.maximum(d['a'], d['b'])"))]
        if kind == "swap":
            return [self.pick(("fa, fb = fb, fa + fb", "ta, tb = tb, (ta + tb) % 97",
                               f"fa, fb = fb * {self._const13()}, fa", "ta, tb = tb + t, ta"))]
        if kind == "closure_use":
            return [self.pick((f"acc += scaled({self._const13()})[{self.rng.randint(0, 3)}]",
                               "acc = np.sum(scaled(x)) + mk()[1]"))]
        if kind == "listcomp":
            f = self.float_expr(scope, 1)
            return [self.pick((f"acc = sum([e * {self._const13()} for e in v])",
                               f"t = len([e for e in v if e > {f}])",
                               f"acc += [v[i] * x for i in range(3)][{self.rng.randint(0, 2)}]",
                               f"acc = max([e + {f} for e in v])",
                               f"t = sum([j * 2 for j in lst])"))]
        if kind == "np_write":
            return [self.pick(("v[:] = np.where(v > x, v, -v)", "v[:] = np.clip(v, -2.0, 2.0)",
                               "acc = float(np.cumsum(v)[-1])",
                               f"acc = np.where(v > acc, v, acc)[{self.index(scope)}]"))]
        if kind == "dtype_write":
            return [self.pick((f"t += {self.float_expr(scope, 1)} > x", "t = t + (acc > 0)",
                               f"acc = t / 2 + {self.float_expr(scope, 1)}",
                               "t = int(np.sum(v > x))"))]
        if kind == "maybe_none":
            value = self.float_expr(scope, 1)
            cond = self.cond(scope, 1)
            return [self.pick((f"mb = {value} if {cond} else None", f"mb = mb if {cond} else None",
                               f"mb = {value} if mb is None else mb + 1.0")),
                    *self.pick((["if mb is None:", "    t += 1", "else:", f"    acc += mb"],
                                ["if mb is not None and mb > x:", "    acc = mb"],
                                [f"t += 0 if mb is None else 1"]))]
        if kind == "carry_best":
            items = [name for name, k in scope if k == "float" and name[0] in "ep"]
            item = self.pick(items) if items else self.float_expr(scope, 1)
            return [f"best = {self.pick(('max', 'min'))}(best, {item})"]
        if kind == "zero_d_write":
            return [self.pick((f"z0 {self.pick(('+=', '*=', '-='))} {self.float_expr(scope, 1)}",
                               f"zi += {self.int_expr(scope, 1)}", "zb = z0"))]
        if kind == "nested_return":
            return self.nested_return13(scope, depth)
        if kind == "enum_zip":
            return self.enum_zip13(scope, depth)
        return self.compound_while13(scope, depth)

    def nested_return13(self, scope, depth):
        self.loops += 1
        k = self.loops
        inner = self.pick(((f"for e{k} in v:", (f"e{k}", "float")),
                           (f"for j{k} in lst:", (f"j{k}", "int"))))
        inner_scope = (*scope, (f"i{k}", "int"), inner[1])
        body = [f"if {self.cond(inner_scope)}:", f"    return {self.result(inner_scope)}"]
        body += self.block(inner_scope, depth + 2, True)
        return ([f"for i{k} in range({self.pick(('2', '3', 'n % 3'))}):", f"    {inner[0]}"]
                + _indent(_indent(body)))

    def enum_zip13(self, scope, depth):
        self.loops += 1
        k = self.loops
        second, kind = self.pick((("lst", "int"), ("v[::-1]", "float"), ("np.cumsum(v)", "float")))
        inner = (*scope, (f"i{k}", "int"), (f"p{k}", "float"), (f"q{k}", kind))
        return [f"for i{k}, (p{k}, q{k}) in enumerate(zip(v, {second})):"] + _indent(
            self.block(inner, depth + 1, True))

    def compound_while13(self, scope, depth):
        self.loops += 1
        k = self.loops
        inner = (*scope, (f"c{k}", "int"))
        test = self.pick((f"go{k} and c{k} < 3 and (v[c{k}] > {self.float_expr(scope, 1)} "
                          f"or t < n)",
                          f"c{k} < 3 and go{k} or c{k} < 1",
                          f"c{k} < min(len(lst), 3) and not (go{k} and {self.cond(scope, 1)})"))
        body = [f"c{k} += 1"] + self.block(inner, depth + 1, True)
        body += [f"if {self.cond(inner, 1)}:", f"    go{k} = False"]
        return ([f"c{k} = 0", f"go{k} = {self.pick(('True', 'n > 0'))}", f"while {test}:"]
                + _indent(body))

    def head13(self):
        on = self.new13
        head = []
        if "objects" in on:
            head += [f"s = Acc({self.pick(('0.0', 'x'))})"]
        if "dict_arrays" in on:
            head += ["d = {'a': v * 1.0, 'b': np.zeros(4)}"]
        if "swap" in on:
            head += ["fa = v * 1.0", "fb = np.ones(4)", "ta, tb = 0, 1"]
        if "array_closure" in on:
            head += ["", "def scaled(k):", "    return v * k + acc", "", "def mk():",
                     "    return np.array([t, 1.0, acc])", ""]
        if "maybe_none" in on:
            head += ["mb = None"]
        if "builtins" in on:
            head += ["best = -10.0"]
        if "zero_d_made" in on:
            head += [f"z0 = np.where({self.pick(('x > 0', 'n > 1', 'v[0] > x'))}, x, 0.5)",
                     "zb = z0", "zi = np.array(n)", "zl = [zi]"]
        return head

    def module13(self):
        if "objects" not in self.new13:
            return []
        return ["class Acc:", "    def __init__(self, start):", "        self.total = start",
                "        self.count = 0", "", "    def add(self, e):", "        self.total += e",
                "        self.count += 1", "        return self.total", "",
                "    def scaled(self, k):", "        return self.total * k", "", "",
                "def feed(s, arr, i):", "    s.total += arr[i]", "    return s.count", "", ""]

    def results13(self):
        on = self.new13
        return ((", s.total, s.count" if "objects" in on else "")
                + (", d['a'][0], d['b'][3]" if "dict_arrays" in on else "")
                + (", fa[1], fb[2], ta, tb" if "swap" in on else "")
                + (", mb is None" if "maybe_none" in on else "")
                + (", best" if "builtins" in on else "")
                + (", z0, zb, zl[0]" if "zero_d_made" in on else ""))


# Optional constructs that hit open bugs (found by this tester): left out by default
# for the oracles they are open on (``FUZZ_OPEN_ON``; ``run.py --all`` draws them).
FUZZ_KNOWN_BUGS = {
    "int_division": "a floor division by an int whose kind (Python int or NumPy int) a "
                    "staged ternary, if or min/max chose: eagerly 1 // 0 raises "
                    "ZeroDivisionError for a Python 0, where NumPy's is 0. Fixed on the "
                    "NumPy engine (session 11: the kind is kept); open on JAX, PyTorch and "
                    "TensorFlow (their operators divide: the framework's quotient)",
}
FUZZ_OPEN_ON = {"int_division": frozenset({"jax", "torch", "tf"})}
# New constructs, drawn only where asked for (``run.py --all``) so that the fixed sample
# (``tests/test_fuzz_differential.py``) stays as it was.
FUZZ_NEW = {
    "collect": "a local list appended to (in loops, staged ones too), returned as len(out) "
               "and sum(out)",
    "zero_d_alias": "a 0-d argument array (np.array(1.5), not np.float64) held by a local "
                    "that is then updated in place (acc = x; acc *= 1.5 in a staged loop; "
                    "t = n or 4; t += t); the oracles pass NumPy scalars unless asked",
    "grid": "a 2-d array m written item by item (m[i][j] += ...), read back, and written "
            "through a row taken with a (maybe staged) index (r = m[n % 2]; r[1] += ...)",
    "dtypes": "arrays of other dtypes beside Python numbers and float64 staged values: iv "
              "(int64), fv (float32), bv (bool), written by items and whole, mixed in "
              "expressions and returned (dtypes compared)",
    "while_true": "while True: loops that end by a counted break",
    # session 12: the mechanisms of NumPy's mutable arrays and of Python state
    "containers": "arrays held by a list and a dict and written through them (for pk in "
                  "params: pk -= ...; params[0][1] = ...; opt['q'] += ...), and a list holding "
                  "an array written through its own name (held = [p]; p[1] = ...; held[0][1])",
    "views": "views written, then their base read: a slice of v, b.T, b.reshape(6), a row "
             "b[1] of a local 2-d array b",
    "after_use": "an array used, then changed in place (u = v * 2.0; v *= 3.0; return u), "
                 "an alias (u = v), ufuncs with out= (np.add(v, x, out=v))",
    "counters": "a closure counting calls by nonlocal (tick), a module function counting by "
                "global (gtick), a class attribute (Box.total) and an object's attribute "
                "(o.val) written anywhere (staged branches and loops too)",
    "state": "a global list and dict (HIST, CACHE) given values anywhere, try/except "
             "Exception around staged code; no staged value may be left in them",
    # session 13: what real code does with arrays and Python values (``_Session13``)
    **SESSION13,
}
# The module state (globals, class attributes) of ``counters``/``state``: every program
# module with it has ``_fuzz_reset()`` (the oracles call it before each run) and
# ``_fuzz_state()`` (compared after it, and checked for staged values left behind).
STATE_FEATURES = frozenset({"counters", "state"})
FUZZ_FEATURES = frozenset(FUZZ_KNOWN_BUGS) | frozenset(FUZZ_NEW)


def fuzz_features(oracles, everything: bool = False) -> frozenset:
    """The optional constructs programs for ``oracles`` draw: all with ``everything``,
    else the known bugs fixed for every one of them."""
    if everything:
        return FUZZ_FEATURES
    return frozenset(c for c, on in FUZZ_OPEN_ON.items() if not on & set(oracles))


class _SeededWriter(_Session13, _Writer):
    """Draws one program, statement by statement, with a budget on its size."""

    def __init__(self, rng: random.Random, features=frozenset()):
        self.rng = rng
        self.features = features
        self.budget = rng.randint(6, 16)
        self.loops = 0
        self.prints = 0
        self.view = rng.random() < 0.4       # w = v[1:], written and read
        self.bump = rng.random() < 0.35      # a nested function rebinding t (nonlocal)
        self.getter = rng.random() < 0.3     # a closure reading acc
        # a local list the body appends to, returned as its length and sum
        self.collect = rng.random() < 0.3 and "collect" in features
        # (the draws below only where their construct is asked for: the fixed sample stays)
        # a 2-d array m written item by item (m[i][j] += ...), also through a row taken
        # with a staged index (r = m[n % 2]; r[1] += ...)
        self.grid = "grid" in features and rng.random() < 0.5
        # arrays of other dtypes beside Python numbers: iv (int64), fv (float32), bv (bool)
        self.dtypes = "dtypes" in features and rng.random() < 0.5
        # while True: ... with a counted break
        self.while_true = "while_true" in features
        # session 12 (FUZZ_NEW): each in about half the programs that may draw it
        self.containers = "containers" in features and rng.random() < 0.5
        self.views = "views" in features and rng.random() < 0.5
        self.after_use = "after_use" in features and rng.random() < 0.5
        self.counters = "counters" in features and rng.random() < 0.5
        self.state = "state" in features and rng.random() < 0.5
        # session 13 (SESSION13): each in about half the programs that may draw it
        self.new13 = {c for c in sorted(SESSION13) if c in features and rng.random() < 0.5}

    def pick(self, options):
        return self.rng.choice(options)

    def chance(self, p: float) -> bool:
        return self.rng.random() < p

    # -- expressions

    def int_expr(self, scope, depth=0):
        ints = ["n", "t", "t"] + [name for name, kind in scope if kind == "int"]
        kinds = ["const", "var", "var", "var", "lst"]
        if depth < 2:
            kinds += ["arith", "arith", "mod", "ternary", "minmax", "boolop"]
        if self.dtypes:
            kinds += ["int_item", "bool_item"]
        if self.counters:
            kinds += ["k", "tick"]
        kinds += self.int_kinds13(depth)
        kind = self.pick(kinds)
        if kind in self.INT13:
            return self.int13(kind, scope, depth)
        if kind == "k":
            return "k"
        if kind == "tick":
            return "tick()"
        if kind == "const":
            return str(self.rng.randint(-2, 4))
        if kind == "var":
            return self.pick(ints)
        if kind == "lst":
            return self.pick(("lst[0]", "lst[1]", "lst[-1]", "len(lst)"))
        if kind == "arith":
            return f"({self.int_expr(scope, depth + 1)} {self.pick(('+', '-', '*'))} {self.int_expr(scope, depth + 1)})"
        if kind == "mod":
            return f"({self.int_expr(scope, depth + 1)} {self.pick(('%', '//'))} {self.rng.randint(2, 3)})"
        if kind == "ternary":
            return f"({self.int_expr(scope, depth + 1)} if {self.cond(scope, depth + 1)} else {self.int_expr(scope, depth + 1)})"
        if kind == "minmax":
            return f"{self.pick(('min', 'max'))}({self.int_expr(scope, depth + 1)}, {self.int_expr(scope, depth + 1)})"
        if kind == "int_item":
            return f"iv[{self.small_index(scope, 3)}]"
        if kind == "bool_item":
            return f"(bv[{self.small_index(scope, 3)}] {self.pick(('+', '*'))} {self.int_expr(scope, depth + 1)})"
        return f"({self.int_expr(scope, depth + 1)} {self.pick(('and', 'or'))} {self.int_expr(scope, depth + 1)})"

    def float_expr(self, scope, depth=0):
        floats = ["x", "acc", "acc"] + [name for name, kind in scope if kind == "float"]
        kinds = ["const", "var", "var", "item", "item", "reduce"]
        if self.getter:
            kinds.append("getter")
        if self.view:
            kinds.append("view")
        if self.grid:
            kinds.append("grid_item")
        if self.dtypes:
            kinds.append("f32_item")
        kinds += ["held_item"] if self.containers else []
        kinds += ["base_item"] if self.views else []
        kinds += ["used_item"] if self.after_use else []
        kinds += ["attr"] if self.counters else []
        kinds += self.float_kinds13(depth)
        if depth < 2:
            kinds += ["arith", "arith", "ternary", "scaled"]
        kind = self.pick(kinds)
        if kind in self.FLOAT13:
            return self.float13(kind, scope, depth)
        if kind == "held_item":
            return self.pick((f"params[{self.rng.randint(0, 1)}][{self.rng.randint(0, 1)}]",
                              f"opt['{self.pick('pq')}'][{self.rng.randint(0, 1)}]",
                              f"held[0][{self.rng.randint(0, 2)}]", f"p[{self.rng.randint(0, 2)}]"))
        if kind == "base_item":
            return self.pick((f"b[{self.rng.randint(0, 1)}, {self.rng.randint(0, 2)}]", "b.sum()",
                              f"bt[{self.rng.randint(0, 2)}, {self.rng.randint(0, 1)}]",
                              f"v[{self.rng.randint(0, 3)}]"))
        if kind == "used_item":
            return f"u[{self.rng.randint(0, 3)}]"
        if kind == "attr":
            return self.pick(("o.val", "Box.total"))
        if kind == "const":
            return self.pick(("0.5", "1.5", "-1.0", "2.0", "0.25"))
        if kind == "var":
            return self.pick(floats)
        if kind == "item":
            return f"v[{self.index(scope)}]"
        if kind == "view":
            return f"w[{self.rng.randint(0, 2)}]"
        if kind == "getter":
            return "get()"
        if kind == "reduce":
            return self.pick(("np.sum(v)", "np.max(v)", "np.min(v)", "v[0]"))
        if kind == "arith":
            return f"({self.float_expr(scope, depth + 1)} {self.pick(('+', '-', '*'))} {self.float_expr(scope, depth + 1)})"
        if kind == "scaled":
            return f"({self.int_expr(scope, depth + 1)} * {self.pick(('0.5', '1.0', '2.0'))})"
        if kind == "grid_item":
            return f"m[{self.small_index(scope, 2)}][{self.small_index(scope, 3)}]"
        if kind == "f32_item":
            return f"fv[{self.small_index(scope, 3)}]"
        return f"({self.float_expr(scope, depth + 1)} if {self.cond(scope, depth + 1)} else {self.float_expr(scope, depth + 1)})"

    def index(self, scope):
        """An index into ``v``: a constant, a loop variable, or an int expression kept in range."""
        loop_ints = [name for name, kind in scope if kind == "int" and name.startswith("i")]
        kind = self.pick(("const", "const", "loop", "mod"))
        if kind == "loop" and loop_ints:
            return self.pick(loop_ints)
        if kind == "mod":
            return f"{self.int_expr(scope, 1)} % 4"
        return str(self.rng.randint(-4, 3))

    def small_index(self, scope, size: int):
        """An index below ``size``: a constant, or an int expression (maybe staged) mod it."""
        if self.chance(0.5):
            return str(self.rng.randint(-size, size - 1))
        return f"({self.int_expr(scope, 1)}) % {size}"

    def cond(self, scope, depth=0):
        kinds = ["int_cmp", "float_cmp", "float_cmp", "parity", "any", "truth"]
        if depth < 2:
            kinds += ["not", "boolop", "boolop", "chain"]
        kind = self.pick(kinds)
        if kind == "int_cmp":
            return f"{self.int_expr(scope, depth + 1)} {self.pick(CMP_OPS)} {self.int_expr(scope, depth + 1)}"
        if kind == "float_cmp":
            return f"{self.float_expr(scope, depth + 1)} {self.pick(CMP_OPS[:4])} {self.float_expr(scope, depth + 1)}"
        if kind == "parity":
            return f"{self.pick(('n', 't'))} % 2 == {self.rng.randint(0, 1)}"
        if kind == "any":
            return f"np.{self.pick(('any', 'all'))}(v {self.pick(('>', '<'))} {self.float_expr(scope, depth + 1)})"
        if kind == "truth":
            return self.pick(("t", "n", "x", "acc"))
        if kind == "not":
            return f"not ({self.cond(scope, depth + 1)})"
        if kind == "chain":
            return f"{self.rng.randint(-2, 1)} <= {self.int_expr(scope, depth + 1)} < {self.rng.randint(2, 5)}"
        return f"({self.cond(scope, depth + 1)}) {self.pick(('and', 'or'))} ({self.cond(scope, depth + 1)})"

    # -- statements

    def block(self, scope, depth, in_loop):
        size = self.rng.randint(1, 3)
        lines = []
        for i in range(size):
            lines += self.statement(scope, depth, in_loop, last=i == size - 1)
        return lines

    def statement(self, scope, depth, in_loop, last):
        self.budget -= 1
        kinds = ["t", "t", "t_aug", "acc", "acc_aug", "acc_aug", "v_item", "v_aug", "v_whole",
                 "lst_item", "print"]
        if self.view:
            kinds += ["w_item"]
        if self.bump:
            kinds += ["bump"]
        kinds += ["mask"] if self.chance(0.3) else []
        kinds += ["assert"] if self.chance(0.3) else []
        kinds += ["append"] if self.chance(0.1) else []
        kinds += ["collect", "collect"] if self.collect else []
        kinds += ["grid_write", "grid_write", "row_write"] if self.grid else []
        kinds += ["int_write", "f32_write", "bool_write", "dtype_whole"] if self.dtypes else []
        kinds += ["container_write", "container_write"] if self.containers else []
        kinds += ["view_write", "view_write"] if self.views else []
        kinds += ["after_use", "after_use"] if self.after_use else []
        kinds += ["counter", "counter"] if self.counters else []
        kinds += ["stash"] if self.state else []
        kinds += self.statement_kinds13(scope, depth)
        if last:
            kinds += ["return"]
            if in_loop:
                kinds += ["break", "continue", "break"]
        if depth < 3 and self.budget > 0:
            kinds += ["if", "if", "if", "for", "for", "while", "try"]
        kind = self.pick(kinds)
        if kind == "t":
            return [f"t = {self.int_expr(scope)}"]
        if kind == "t_aug":
            return [f"t {self.pick(('+=', '-=', '*='))} {self.int_expr(scope, 1)}"]
        if kind == "acc":
            return [f"acc = {self.float_expr(scope)}"]
        if kind == "acc_aug":
            return [f"acc {self.pick(('+=', '-=', '*='))} {self.float_expr(scope, 1)}"]
        if kind == "v_item":
            return [f"v[{self.index(scope)}] = {self.float_expr(scope, 1)}"]
        if kind == "v_aug":
            return [f"v[{self.index(scope)}] {self.pick(('+=', '-=', '*='))} {self.float_expr(scope, 1)}"]
        if kind == "v_whole":
            return [f"v {self.pick(('+=', '-=', '*='))} {self.pick(('1.0', '0.5', 'x', 'acc'))}"]
        if kind == "w_item":
            return [f"w[{self.rng.randint(0, 2)}] {self.pick(('=', '+='))} {self.float_expr(scope, 1)}"]
        if kind == "mask":
            return [f"v[v {self.pick(('>', '<'))} {self.float_expr(scope, 1)}] = {self.pick(('0.0', '1.0', 'x'))}"]
        if kind == "lst_item":
            return [f"lst[{self.rng.randint(0, 2)}] = {self.int_expr(scope, 1)}"]
        if kind == "collect":
            return [f"out.append({self.float_expr(scope, 1)})"]
        if kind == "append":  # (not inside a loop over lst: it would never end)
            value = self.int_expr(scope, 1)
            if any(name.startswith("j") for name, _ in scope):
                return [f"lst[-1] = {value}"]
            return [f"lst.append({value})"]
        if kind == "bump":
            return [f"bump({self.int_expr(scope, 1)})"]
        if kind == "grid_write":
            return [f"m[{self.small_index(scope, 2)}][{self.small_index(scope, 3)}] "
                    f"{self.pick(('=', '+=', '*='))} {self.float_expr(scope, 1)}"]
        if kind == "row_write":
            return [f"r = m[{self.small_index(scope, 2)}]",
                    f"r[{self.small_index(scope, 3)}] {self.pick(('=', '+=', '-='))} {self.float_expr(scope, 1)}"]
        if kind == "int_write":
            return [f"iv[{self.small_index(scope, 3)}] {self.pick(('=', '+=', '-=', '*='))} {self.int_expr(scope, 1)}"]
        if kind == "f32_write":
            return [f"fv[{self.small_index(scope, 3)}] {self.pick(('=', '+=', '*='))} {self.float_expr(scope, 1)}"]
        if kind == "bool_write":
            return [f"bv[{self.small_index(scope, 3)}] = {self.cond(scope, 1)}"]
        if kind == "dtype_whole":
            return [self.pick((f"iv += {self.pick(('t', 'n', '1', 'bv'))}",
                               f"fv *= {self.pick(('x', 'acc', '0.5', 't'))}",
                               f"fv += {self.pick(('iv', 'bv', 'acc'))}"))]
        if kind in self.STATEMENT13:
            return self.statement13(kind, scope, depth, in_loop)
        if kind == "container_write":
            return self.container_write(scope)
        if kind == "view_write":
            return self.view_write(scope)
        if kind == "after_use":
            return self.after_use_write(scope)
        if kind == "counter":
            return self.counter(scope)
        if kind == "stash":
            return self.pick(([f"HIST.append({self.float_expr(scope, 1)})"],
                              [f"CACHE['last'] = {self.int_expr(scope, 1)}"],
                              [f"CACHE.setdefault('seen', []).append({self.int_expr(scope, 1)})"]))
        if kind == "print":
            self.prints += 1
            value = self.pick((self.int_expr(scope, 1), self.float_expr(scope, 1), str(self.prints)))
            return [f"ag.print('p{self.prints}', {value})"]
        if kind == "assert":
            return [f"assert {self.cond(scope, 1)}, 'a{self.rng.randint(0, 9)}'"]
        if kind == "return":
            return [f"return {self.result(scope)}"]
        return self.compound(kind, scope, depth, in_loop)

    def container_write(self, scope):
        """A write into the arrays ``params``/``opt``/``held`` hold, through the container
        or through the array's own name."""
        self.loops += 1
        how = self.pick(("loop", "item", "dict", "own"))
        if how == "loop":
            return [f"for pk{self.loops} in params:",
                    f"    pk{self.loops} {self.pick(('-=', '+=', '*='))} {self.float_expr(scope, 1)}"]
        if how == "item":
            return [f"params[{self.rng.randint(0, 1)}][{self.rng.randint(0, 1)}] "
                    f"{self.pick(('=', '+=', '-='))} {self.float_expr(scope, 1)}"]
        if how == "dict":
            return [self.pick((f"opt['{self.pick('pq')}'] {self.pick(('+=', '*='))} {self.float_expr(scope, 1)}",
                               f"opt['q'][{self.rng.randint(0, 1)}] = {self.float_expr(scope, 1)}"))]
        return [f"p[{self.rng.randint(0, 2)}] {self.pick(('=', '+='))} {self.float_expr(scope, 1)}"]

    def view_write(self, scope):
        """A write through a view (a slice of ``v``, ``b.T``, ``b.reshape(6)``, the row
        ``b[1]``) whose base is read later."""
        value = self.float_expr(scope, 1)
        return [self.pick((f"vs[{self.rng.randint(0, 1)}] {self.pick(('=', '*='))} {value}",
                           f"bt[{self.rng.randint(0, 2)}, {self.rng.randint(0, 1)}] {self.pick(('=', '+='))} {value}",
                           f"bf[{self.rng.randint(0, 5)}] {self.pick(('=', '-='))} {value}",
                           f"b1 {self.pick(('+=', '*='))} {value}",
                           f"b1[{self.rng.randint(0, 2)}] = {value}",
                           f"vs[:] = {value}"))]

    def after_use_write(self, scope):
        """``u`` computed from ``v`` (or made its alias), ``v`` or ``u`` changed in place
        later, by an operator or a ufunc's ``out=``."""
        return [self.pick((f"u = v * {self.float_expr(scope, 1)}", "u = v", "u = v.copy()",
                           f"v {self.pick(('*=', '+='))} {self.pick(('3.0', 'x', '-1.0'))}",
                           f"np.add(v, {self.float_expr(scope, 1)}, out=v)",
                           f"np.multiply(u, {self.pick(('2.0', 'x'))}, out=u)",
                           "np.negative(v, out=v)"))]

    def counter(self, scope):
        """A call of the counting closure or the global-counting function, or a write
        into the class attribute or the object's."""
        return [self.pick(("tick()", f"t += tick()", "gtick()", f"gtick({self.int_expr(scope, 1)})",
                           f"Box.total {self.pick(('=', '+='))} {self.float_expr(scope, 1)}",
                           f"o.val {self.pick(('=', '+=', '*='))} {self.float_expr(scope, 1)}"))]

    def result(self, scope):
        extra = (", m[0][0], m[1][2]" if self.grid else "") + \
            (", iv[0] + iv[2], fv[1] * 2, bv[0], iv[1] * acc, fv[0] + t" if self.dtypes else "") + \
            (", p[0], p[2], q[1], opt['p'][1]" if self.containers else "") + \
            (", b[0, 1], b[1, 2], v[1]" if self.views else "") + \
            (", u[0], u[3], v[2]" if self.after_use else "") + \
            (", k, o.val" if self.counters else "") + self.results13()
        if self.collect:
            return "t, acc, len(out), sum(out)" + extra
        return ("t, acc, v[0]" if self.chance(0.3) else "t, acc") + extra

    def if_statement(self, scope, depth, in_loop):
        lines = [f"if {self.cond(scope)}:"] + _indent(self.block(scope, depth + 1, in_loop))
        for _ in range(self.rng.randint(0, 1)):
            lines += [f"elif {self.cond(scope)}:"] + _indent(self.block(scope, depth + 1, in_loop))
        if self.chance(0.5):
            lines += ["else:"] + _indent(self.block(scope, depth + 1, in_loop))
        if self.chance(0.1):
            lines += [f"if {self.cond(scope)}:", f"    raise ValueError('r{self.rng.randint(0, 9)}')"]
        return lines

    def try_statement(self, scope, depth, in_loop):
        exc = self.pick(("ZeroDivisionError", "IndexError", "ValueError", "AssertionError")
                        + (("Exception",) if self.state else ()))
        body = self.block(scope, depth + 1, in_loop)
        if exc == "ZeroDivisionError" and self.chance(0.6) and "int_division" in self.features:
            body.insert(0, f"t = {self.rng.randint(1, 6)} // ({self.int_expr(scope, 1)})")
        lines = ["try:"] + _indent(body)
        lines += [f"except {exc}:"] + _indent(self.block(scope, depth + 1, in_loop))
        if self.chance(0.3):
            lines += ["finally:"] + _indent(self.block(scope, depth + 1, in_loop))
        return lines

    def loop(self, kind, scope, depth):
        self.loops += 1
        k = self.loops
        prologue = []
        if kind == "for":
            shape = self.pick(("range", "range", "range_var", "array", "enumerate", "list"))
            if shape == "range":
                header, inner = f"for i{k} in range(4):", [(f"i{k}", "int")]
            elif shape == "range_var":
                header, inner = f"for i{k} in range({self.pick(('n', 't', 'len(lst)'))} % 4):", [(f"i{k}", "int")]
            elif shape == "array":
                header, inner = f"for e{k} in v:", [(f"e{k}", "float"), ("v", "iterated")]
            elif shape == "enumerate":
                header, inner = f"for i{k}, e{k} in enumerate(v):", [(f"i{k}", "int"), (f"e{k}", "float"), ("v", "iterated")]
            else:
                header, inner = f"for j{k} in lst:", [(f"j{k}", "int")]
            lines = [header] + _indent(self.block((*scope, *inner), depth + 1, True))
        elif self.while_true and self.chance(0.4):  # ends by a break only (a continue
            prologue = [f"c{k} = 0"]                  # skips the last one, not the first)
            lines = ["while True:"] + _indent(
                [f"c{k} += 1", f"if c{k} > 3:", "    break"]
                + self.block((*scope, (f"c{k}", "int")), depth + 1, True)
                + [f"if {self.cond(scope)}:", "    break"])
        else:
            prologue = [f"c{k} = 0"]
            lines = [f"while c{k} < 3 and ({self.cond(scope)}):"]
            lines += _indent([f"c{k} += 1"] + self.block((*scope, (f"c{k}", "int")), depth + 1, True))
        if self.chance(0.15):
            lines += ["else:"] + _indent(self.block(scope, depth + 1, False))
        return prologue + lines


def seeded_program(seed: int, features=frozenset()) -> str:
    """The source of the module holding program ``seed``'s ``f`` (and nothing else);
    ``features``: the optional constructs it may use (``fuzz_features``)."""
    rng = random.Random(f"program-{seed}")
    writer = _SeededWriter(rng, frozenset(features))
    body = writer.block((), 0, False)
    head = ["t = 0", "acc = 0.0"] + (["out = []"] if writer.collect else [])
    if writer.view:
        head.append("w = v[1:]")
    if writer.bump:
        head += ["", "def bump(d):", "    nonlocal t", "    t += d", ""]
    if writer.getter:
        head += ["get = lambda: acc * 2.0"]
    if writer.grid:
        head += ["m = np.zeros((2, 3))"]
    if writer.dtypes:
        head += ["iv = np.arange(3)", "fv = np.ones(3, np.float32)", "bv = v[:3] > 0"]
    if writer.containers:
        head += ["p = np.zeros(3)", "q = np.ones(2)", "params = [p, q]", "opt = {'p': p, 'q': q}",
                 "held = [p]"]
    if writer.views:
        head += ["b = np.arange(6.0).reshape(2, 3)", "bt = b.T", "bf = b.reshape(6)", "b1 = b[1]",
                 "vs = v[1:3]"]
    if writer.after_use:
        head += ["u = v * 2.0"]
    if writer.counters:
        head += ["k = 0", "", "def tick():", "    nonlocal k", "    k += 1", "    return k", "",
                 "o = Box()", "o.val = 0.0"]
    head += writer.head13()
    module = writer.module13()
    if writer.counters or writer.state:  # module state: reset before each run, compared after
        module = ["COUNT = 0", "HIST = []", "CACHE = {}", "", "", "class Box:", "    total = 0.0",
                  "", "", "def gtick(d=1):", "    global COUNT", "    COUNT += d", "", "",
                  "def _fuzz_reset():", "    global COUNT", "    COUNT = 0", "    HIST.clear()",
                  "    CACHE.clear()", "    Box.total = 0.0", "", "",
                  "def _fuzz_state():", "    return COUNT, list(HIST), dict(CACHE), Box.total", "", ""] + module
    final = f"return {writer.result(())}"
    lines = module + ["def f(n, x, v, lst):"] + _indent(head + body + [final])
    return FUZZ_HEADER + "\n".join(lines) + "\n"


def seeded_inputs(seed: int, count: int = 3) -> list:
    """``count`` argument tuples ``(n, x, v, lst)`` with Python numbers for program
    ``seed`` (the oracles turn ``n`` and ``x`` into arrays where they stage)."""
    rng = random.Random(f"inputs-{seed}")
    out = []
    for _ in range(count):
        n = rng.randint(-3, 6)
        x = rng.choice((-1.5, 0.0, 0.5, 1.0, 2.25))
        v = [rng.choice((-2.0, -0.5, 0.0, 0.5, 1.0, 1.5, 3.0)) for _ in range(4)]
        lst = [rng.randint(-2, 4) for _ in range(3)]
        out.append((n, x, v, lst))
    return out
