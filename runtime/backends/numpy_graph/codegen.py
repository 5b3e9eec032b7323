"""Compiling a graph into one straight-line Python function of NumPy calls.

Each op becomes one statement (``t3 = t1 + t2``); a ``cond`` becomes a Python
``if``, a ``while`` a ``while True`` with the test block inside, a ``for`` a
Python ``for`` over the array, ``range`` or ``enumerate``. Constants, NumPy
functions and variables are bound to names in the module's namespace, so the
compiled function does no lookups beyond local variables and those names. The
source is compiled once per concrete function; running it is running NumPy.

Buffer reuse: within each block, an elementwise ufunc or matrix product whose
result has the same dtype and (known) shape as a temporary array that dies at or
before it writes into that array with ``out=`` instead of allocating. A buffer
is reused only if the graph created it (never an argument, constant or variable
value), no value that may be a view of it is still needed, and it is not a
result of its block. Item assignment updates such a dying buffer in place
instead of copying it.
"""

from __future__ import annotations

import ast
import collections
import linecache
import sys

import numpy as np

from ...staging.locks import AST_LOCK
from . import numpy_api
from .ir import Block, Graph, Op, Value, walk_values
from .render import Namer, expr, literal, render, subscript, target_pattern

_UFUNC_OF = {"+": np.add, "-": np.subtract, "*": np.multiply, "/": np.true_divide,
             "//": np.floor_divide, "%": np.remainder, "&": np.bitwise_and, "|": np.bitwise_or,
             "^": np.bitwise_xor, "<<": np.left_shift, ">>": np.right_shift, "==": np.equal,
             "!=": np.not_equal, "<": np.less, "<=": np.less_equal, ">": np.greater,
             ">=": np.greater_equal}
_UNARY_UFUNC = {"-": np.negative, "~": np.invert, "abs": np.absolute}


class CodeNamer(Namer):
    """Binds constants, functions and other objects into the generated namespace."""

    def __init__(self, namespace: dict):
        self.ns = namespace
        self._ids: dict[int, str] = {}

    def _bind(self, obj, prefix: str) -> str:
        name = self._ids.get(id(obj))
        if name is None:
            name = f"{prefix}{len(self._ids)}"
            self._ids[id(obj)] = name
            self.ns[name] = obj
        return name

    def const(self, value: Value) -> str:
        if value.weak:
            return literal(value.const) or self._bind(value.const, "_k")
        return self._bind(value.const, "_c")

    def func(self, fn) -> str:
        return self._bind(fn, "_f")

    def static(self, obj) -> str:
        return literal(obj) or self._bind(obj, "_k")


def _print(*items, sep=" ", end="\n", file=None, flush=False):
    print(*items, sep=sep, end=end, file=sys.stdout if file is None else file, flush=flush)


def _assert_failed(message):
    raise AssertionError() if message is None else AssertionError(message)


def _as_array(x):
    return x if x.__class__ is np.ndarray else np.asarray(x)


def compile_graph(graph: Graph, layout) -> callable:
    """The graph as a Python function of the canonical arguments.

    ``layout`` has one entry per argument of the traced function: a list of
    ``(access, leaf)`` pairs saying where each array or variable leaf of the
    argument is (``""`` for the argument itself, ``"[0]"`` for an item).
    """
    ns = {"np": np, "_print": _print, "_assert_failed": _assert_failed, "_as_array": _as_array}
    namer = CodeNamer(ns)
    for k, variable in enumerate(graph.captured):
        ns[f"v{k}"] = variable
    params, prologue = [], []
    for i, leaves in enumerate(layout):
        if len(leaves) == 1 and leaves[0][0] == "":
            params.append(leaves[0][1].name)
            continue
        params.append(f"_a{i}")
        prologue += [f"{leaf.name} = _a{i}{access}" for access, leaf in leaves]
    emitter = _Emitter(namer)
    body = emitter.block(graph.body, _escaping_outputs(graph), 1)
    lines = [f"def {_identifier(graph.name)}({', '.join(params)}):"]
    lines += ["    " + line for line in prologue]
    lines += body
    lines.append("    return " + _render_outputs(graph.outputs, namer, emitter))
    source, origins = _take_marks(lines, emitter.sources)
    exec(_compile_at_origins(source, origins, graph.name), ns)
    fn = ns[_identifier(graph.name)]
    fn.__autograph_source__ = source
    return fn


# Each generated line that an op produced ends with this mark and the index of the
# op's source in ``_Emitter.sources``; ``_take_marks`` removes the marks.
_MARK = "  #@op "


def _take_marks(lines: list, sources: list) -> tuple:
    """(the source without marks, {generated line number: user's (file, line)})."""
    clean, origins = [], {}
    for number, line in enumerate("\n".join(lines).split("\n"), 1):
        at = line.rfind(_MARK)
        if at >= 0:
            origins[number] = sources[int(line[at + len(_MARK):])]
            line = line[:at]
        clean.append(line)
    return "\n".join(clean) + "\n", origins


def _compile_at_origins(source: str, origins: dict, name: str):
    """Compile the generated code under the user's file name, each statement at the
    line of the user's code that made its op: an error or a NumPy warning raised
    while the graph runs points at the user's line. The file is the one most ops
    come from; statements from other files, and the glue between ops, take the
    first line of that file's ops."""
    files = collections.Counter(f for f, _ in origins.values())
    if not files:
        return compile(source, f"<autograph graph {name}>", "exec")
    filename = files.most_common(1)[0][0]
    first = min(line for f, line in origins.values() if f == filename)
    with AST_LOCK:
        tree = ast.parse(source)
        for node in ast.walk(tree):
            if "lineno" in node._attributes:
                where = origins.get(node.lineno)
                line = where[1] if where is not None and where[0] == filename else first
                node.lineno = node.end_lineno = line
                node.col_offset, node.end_col_offset = _whole_line(filename, line)
        return compile(tree, filename, "exec")


def _whole_line(filename: str, line: int) -> tuple:
    """The columns of a user's line without its indentation: a traceback then shows
    the line without markers under a part of it (the generated code's columns
    mean nothing there)."""
    text = linecache.getline(filename, line).rstrip()
    return len(text) - len(text.lstrip()), len(text)


def _identifier(name: str) -> str:
    cleaned = "".join(c if c.isalnum() or c == "_" else "_" for c in name)
    return "graph_" + cleaned


def _escaping_outputs(graph: Graph) -> set:
    found: set = set()
    walk_values(graph.outputs, lambda v: found.add(v.id))
    return found


def _render_outputs(outputs, namer, emitter) -> str:
    cls = outputs.__class__
    if cls is Value:
        name = namer.value(outputs)
        if outputs.const is not None:
            return f"np.array({name})"
        if outputs.id in emitter.shared:
            return f"np.array({name})"
        if outputs.weak or not outputs.shape:
            return f"_as_array({name})"
        return name
    if cls is tuple or cls is list:
        inner = ", ".join(_render_outputs(x, namer, emitter) for x in outputs)
        if cls is list:
            return f"[{inner}]"
        return f"({inner},)" if len(outputs) == 1 else f"({inner})"
    if cls is dict:
        return "{" + ", ".join(f"{render(k, namer)}: {_render_outputs(v, namer, emitter)}"
                               for k, v in outputs.items()) + "}"
    if isinstance(outputs, tuple) and hasattr(outputs, "_fields"):
        inner = ", ".join(_render_outputs(x, namer, emitter) for x in outputs)
        return f"{namer.static(type(outputs))}({inner})"
    return namer.static(outputs)


def _is_fresh(op: Op) -> bool:
    """True if the op's single output is always a newly allocated array."""
    if len(op.outputs) != 1 or op.blocks:
        return False
    out = op.outputs[0]
    if out.weak or not out.shape:
        return False
    if op.kind in ("binop", "unop") or op.kind == "setitem":
        return True
    if op.kind == "call":
        return isinstance(op.target, np.ufunc) or op.target in numpy_api.FRESH
    if op.kind == "method":
        return op.target in numpy_api.FRESH_METHODS
    return False


def _reads(op: Op) -> list:
    found: list = []
    walk_values((op.args, op.kwargs), found.append)
    for inner in op.blocks.values():
        found += _block_reads(inner)
    return found


def _block_reads(block: Block) -> list:
    found: list = []
    walk_values(block.results, found.append)
    for op in block.ops:
        found += _reads(op)
    return found


class _Plan:
    """Which values of one block share buffers with which, and when buffers die."""

    def __init__(self, block: Block, escaping: set):
        ops = block.ops
        self.defined = {v.id for op in ops for v in op.outputs}
        last_use: dict[int, int] = {}
        for k, op in enumerate(ops):
            for v in _reads(op):
                last_use[v.id] = k
        end = len(ops)
        escaping = escaping | {v.id for v in block.results if v.__class__ is Value}
        roots: dict[int, frozenset] = {}
        self.fresh: set = set()
        for k, op in enumerate(ops):
            if _is_fresh(op):
                out = op.outputs[0]
                self.fresh.add(out.id)
                roots[out.id] = frozenset((out.id,))
                continue
            inherited = frozenset().union(*(roots.get(v.id, frozenset()) for v in _reads(op)))
            for out in op.outputs:
                roots[out.id] = inherited
        self.roots = roots
        death: dict[int, int] = {}
        self.escaped: set = set()
        for k, op in enumerate(ops):
            for out in op.outputs:
                for r in roots.get(out.id, ()):
                    when = end if out.id in escaping else last_use.get(out.id, k)
                    death[r] = max(death.get(r, k), when)
                    if out.id in escaping:
                        self.escaped.add(r)
        self.death = death
        self.dying: dict[int, list] = {}  # op index -> fresh values whose buffers die there
        for op in ops:
            for out in op.outputs:
                if out.id in self.fresh:
                    self.dying.setdefault(death[out.id], []).append(out)

    def reusable(self, value: Value, k: int) -> bool:
        """True if ``value``'s buffer is free to overwrite at op ``k``."""
        vid = value.id
        return (vid in self.fresh and vid not in self.escaped and self.death.get(vid) == k
                and self.roots.get(vid) == frozenset((vid,)))


class _Emitter:
    def __init__(self, namer: CodeNamer):
        self.namer = namer
        self.shared: set = set()  # top-level values that may alias constants or variables
        self.sources: list = []  # the user's (file, line) of ops, indexed by line marks
        self.taken: set = set()  # values whose buffer an in-place item assignment took over

    def _mark(self, op: Op) -> str:
        if not op.source:
            return ""
        self.sources.append(tuple(op.source))
        return f"{_MARK}{len(self.sources) - 1}"

    def block(self, block: Block, escaping: set, depth: int) -> list[str]:
        plan = _Plan(block, escaping)
        pool: dict[tuple, list[Value]] = {}
        lines: list[str] = []
        pad = "    " * depth
        for k, op in enumerate(block.ops):
            mark = self._mark(op)
            for line in self.op(op, k, plan, pool, escaping, depth):
                line = pad + line if not line.startswith("\0") else line[1:]
                lines.append(line if _MARK in line else line + mark)
            self._release(plan.dying.get(k, ()), plan, pool)
        if depth == 1:
            self._mark_shared(block)
        return lines or [pad + "pass"]

    def _release(self, dying, plan, pool):
        for out in dying:
            if out.id in self.taken:  # its buffer lives on as the assignment's result
                continue
            if out.id in plan.fresh and out.id not in plan.escaped and None not in out.shape:
                pool.setdefault((out.dtype, out.shape), []).append(out)

    def _mark_shared(self, block: Block):
        """Values that may be (views of) constants or variable values: outputs copy them."""
        shared: set = set()
        for op in block.ops:
            reads = _reads(op)
            if op.kind == "read" or any(v.const is not None or v.id in shared for v in reads):
                if not _is_fresh(op):
                    shared.update(v.id for v in op.outputs)
        self.shared = shared

    def op(self, op: Op, k: int, plan: _Plan, pool: dict, escaping: set, depth: int) -> list[str]:
        n = self.namer
        kind = op.kind
        if kind in ("call", "binop", "unop", "method", "attr", "getitem", "pycast", "read"):
            lhs = target_pattern(op.out_tree, n) if op.outputs else "_"
            buffer = self._buffer(op, k, plan, pool)
            if buffer is not None:
                return [f"{lhs} = {self._with_out(op, buffer)}"]
            return [f"{lhs} = {expr(op, n)}"]
        if kind == "setitem":
            target, index, value = op.args
            out = n.value(op.outputs[0])
            source = n.value(target)
            # a 0-d value may be a NumPy scalar at run time (immutable): copy it as an array
            scalar = target.__class__ is not Value or not target.shape
            in_place = not scalar and plan.reusable(target, k)
            if in_place:
                self.taken.add(target.id)
            first = (f"{out} = {source}" if in_place else
                     f"{out} = {source}[...].copy()" if scalar else f"{out} = {source}.copy()")
            return [first, f"{out}[{subscript(index, n)}] = {render(value, n)}"]
        if kind == "assign":
            return [f"{op.target.name}._assign({render(op.args[0], n)})"]
        if kind == "print":
            items = ", ".join(render(a, n) for a in op.args)
            kw = ", ".join(f"{key}={render(v, n)}" for key, v in op.kwargs.items())
            return [f"_print({items}{', ' if items else ''}{kw})"]
        if kind == "assert":
            mb = op.blocks["message"]
            inner = self.block(mb, set(), depth + 1)
            return [f"if not {render(op.args[0], n)}:", *["\0" + x for x in inner],
                    f"    _assert_failed({render(mb.results[0], n)})"]
        if kind == "cond":
            return self._cond(op, depth)
        if kind == "while":
            return self._while(op, depth)
        if kind == "for":
            return self._for(op, depth)
        raise ValueError(f"cannot compile op kind {kind!r}")

    def _assign_results(self, names: list[str], values: list) -> list[str]:
        if not names:
            return []
        rhs = ", ".join(v.name if v.__class__ is _Name else render(v, self.namer) for v in values)
        return [f"{', '.join(names)} = {rhs}"]

    def _cond(self, op: Op, depth: int) -> list[str]:
        n = self.namer
        outs = [n.value(v) for v in op.outputs]
        lines = [f"if {render(op.args[0], n)}:"]
        for label in ("true", "false"):
            block = op.blocks[label]
            if label == "false":
                lines.append("else:")
            inner = self.block(block, set(), depth + 1)
            inner = [x for x in inner if x != "    " * (depth + 1) + "pass"]
            inner += ["    " * (depth + 1) + x for x in self._assign_results(outs, block.results)]
            lines += ["\0" + x for x in (inner or ["    " * (depth + 1) + "pass"])]
        return lines

    def _loop_vars(self, op: Op, inits: list) -> tuple:
        n = self.namer
        params = [n.value(p) for p in op.blocks["body"].params[self._n_items(op):]]
        start = self._assign_results(params, inits)
        return params, start

    @staticmethod
    def _n_items(op: Op) -> int:
        pattern = op.blocks["body"].pattern
        if pattern is None:
            return 0
        count = [0]

        def visit(x):
            if x.__class__ is Value:
                count[0] += 1
            else:
                for y in x:
                    visit(y)

        visit(pattern)
        return count[0]

    def _loop_end(self, op: Op, params: list[str], results: list, depth: int) -> list[str]:
        pad = "    " * (depth + 1)
        return [pad + x for x in self._assign_results(params, results)]

    def _while(self, op: Op, depth: int) -> list[str]:
        n = self.namer
        (inits,) = op.args
        params, lines = self._loop_vars(op, inits)
        test, body = op.blocks["test"], op.blocks["body"]
        pad = "    " * (depth + 1)
        inner = [x for x in self.block(test, set(), depth + 1) if x != pad + "pass"]
        inner.append(f"{pad}if not {render(test.results[0], n)}:")
        inner.append(f"{pad}    break")
        inner += [x for x in self.block(body, set(), depth + 1) if x != pad + "pass"]
        inner += self._loop_end(op, params, body.results, depth)
        lines.append("while True:")
        lines += ["\0" + x for x in inner]
        lines += self._assign_results([n.value(v) for v in op.outputs], [_Name(p) for p in params])
        return lines

    def _for(self, op: Op, depth: int) -> list[str]:
        n = self.namer
        iter_desc, inits = op.args
        params, lines = self._loop_vars(op, inits)
        body = op.blocks["body"]
        pad = "    " * (depth + 1)
        extra = op.kwargs.get("extra", False)
        results = body.results[:-1] if extra else body.results
        inner = [x for x in self.block(body, set(), depth + 1) if x != pad + "pass"]
        inner += self._loop_end(op, params, results, depth)
        if extra:
            inner.append(f"{pad}if not {render(body.results[-1], n)}:")
            inner.append(f"{pad}    break")
        if not inner:
            inner = [pad + "pass"]
        lines.append(f"for {target_pattern(body.pattern, n)} in {self._iterable(iter_desc)}:")
        lines += ["\0" + x for x in inner]
        lines += self._assign_results([n.value(v) for v in op.outputs], [_Name(p) for p in params])
        return lines

    def _iterable(self, desc) -> str:
        n = self.namer
        kind = desc[0]
        if kind == "iter":
            return render(desc[1], n)
        if kind == "range":
            return f"range({', '.join(render(b, n) for b in desc[1:])})"
        if kind == "enumerate":
            return f"enumerate({self._iterable(desc[1])}, {render(desc[2], n)})"
        if kind == "zip":
            return f"zip({', '.join(self._iterable(d) for d in desc[1:])})"
        raise ValueError(f"unknown iteration {kind!r}")

    # --- buffer reuse ---------------------------------------------------------------
    def _buffer(self, op: Op, k: int, plan: _Plan, pool: dict):
        if len(op.outputs) != 1 or op.kwargs:
            return None
        out = op.outputs[0]
        if out.weak or not out.shape or None in out.shape:
            return None
        matmul = (op.kind == "binop" and op.target == "@") or (op.kind == "call" and op.target is np.matmul)
        elementwise = (op.kind == "binop" and op.target in _UFUNC_OF) or \
            (op.kind == "unop" and op.target in _UNARY_UFUNC) or \
            (op.kind == "call" and isinstance(op.target, np.ufunc) and op.target.nout == 1)
        if not (matmul or elementwise):
            return None
        if elementwise:
            for v in op.inputs():
                if v.dtype == out.dtype and v.shape == out.shape and plan.reusable(v, k) \
                        and v.id in plan.defined:
                    plan.fresh.discard(v.id)
                    return v
        bucket = pool.get((out.dtype, out.shape))
        if bucket:
            return bucket.pop()
        return None

    def _with_out(self, op: Op, buffer: Value) -> str:
        n = self.namer
        if op.kind == "binop":
            fn = np.matmul if op.target == "@" else _UFUNC_OF[op.target]
        elif op.kind == "unop":
            fn = _UNARY_UFUNC[op.target]
        else:
            fn = op.target
        args = ", ".join(render(a, n) for a in op.args)
        return f"{n.func(fn)}({args}, out={n.value(buffer)})"


class _Name:
    """A ready-made name in a rendered structure."""

    def __init__(self, name: str):
        self.name = name
