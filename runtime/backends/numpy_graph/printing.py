"""``str(graph)``: one line per op, sub-blocks indented, each op with its source line.

    graph collatz_steps(n: int64[]) -> int64[]
      t4, t5 = while (n, 0)                               # collatz.py:7
        test(t2: int64[], t3: python int):
          t6 = t2 != 1                    : bool[]         # collatz.py:7
          -> t6
        ...
      return t5

A loop is one op however often it runs; constants show their value when small.
"""

from __future__ import annotations

from ...staging.source_text import SourceText
from .ir import Block, Graph, Op, Value, source_text
from .raising import raise_copy
from .render import Namer, expr, render, subscript, target_pattern

_WIDTH = 44


def graph_text(graph: Graph) -> SourceText:
    """The text form; a ``str`` that notebooks display as highlighted code."""
    return SourceText(format_graph(graph))


Graph.__str__ = graph_text  # type: ignore[method-assign]  # ``str(graph)``


def format_graph(graph: Graph) -> str:
    namer = Namer()
    params = ", ".join(f"{p.name}: {p.type_str()}" if isinstance(p, Value)
                       else f"{p.name}: Variable {p.dtype.name}{list(p.shape)}"
                       for p in graph.inputs)
    lines = [f"graph {graph.name}({params}) -> {_types(graph.outputs)}"]
    _block(graph.body, namer, lines, 1)
    lines.append(f"  return {render(graph.outputs, namer)}")
    return "\n".join(lines)


def _types(structure) -> str:
    if structure.__class__ is Value:
        return structure.type_str()
    if isinstance(structure, (tuple, list)):
        return "(" + ", ".join(_types(x) for x in structure) + ")"
    if isinstance(structure, dict):
        return "{" + ", ".join(f"{k!r}: {_types(v)}" for k, v in structure.items()) + "}"
    return repr(structure)


def _line(lines, depth, text, op: Op, types: str = "") -> None:
    body = "  " * depth + text
    if types:
        body = f"{body:<{_WIDTH}} : {types}"
    where = source_text(op.source)
    lines.append(f"{body:<{_WIDTH + 20}} # {where}" if where else body)


def _block(block: Block, namer, lines, depth) -> None:
    for op in block.ops:
        _op(op, namer, lines, depth)


def _op(op: Op, namer, lines, depth) -> None:
    outs = ", ".join(v.name for v in op.outputs)
    types = ", ".join(v.type_str() for v in op.outputs)
    kind = op.kind
    if kind == "call" and op.target is raise_copy:
        _line(lines, depth, f"raise {op.args[0]!r}", op)
    elif kind in ("call", "binop", "unop", "method", "attr", "getitem", "pycast", "read"):
        lhs = target_pattern(op.out_tree, namer) if op.outputs else "_"
        _line(lines, depth, f"{lhs} = {expr(op, namer)}", op, types)
    elif kind == "setitem":
        target, index, value = op.args
        text = f"{outs} = {render(target, namer)} with [{subscript(index, namer)}] = {render(value, namer)}"
        _line(lines, depth, text, op, types)
    elif kind == "assign":
        _line(lines, depth, f"{op.target.name}.assign({render(op.args[0], namer)})", op)
    elif kind == "print":
        _line(lines, depth, f"print({', '.join(render(a, namer) for a in op.args)})", op)
    elif kind == "assert":
        _line(lines, depth, f"assert {render(op.args[0], namer)}", op)
    elif kind == "cond":
        _line(lines, depth, f"{outs or '_'} = cond {render(op.args[0], namer)}", op, types)
        for label in ("true", "false"):
            _sub(label, op.blocks[label], (), namer, lines, depth + 1)
    elif kind == "while":
        _line(lines, depth, f"{outs or '_'} = while {render(op.args[0], namer)}", op, types)
        params = op.blocks["body"].params
        _sub("test", op.blocks["test"], params, namer, lines, depth + 1)
        _sub("body", op.blocks["body"], params, namer, lines, depth + 1)
    elif kind == "for":
        desc, inits = op.args
        body = op.blocks["body"]
        _line(lines, depth, f"{outs or '_'} = for {target_pattern(body.pattern, namer)} in "
              f"{_iteration(desc, namer)} with {render(inits, namer)}", op, types)
        _sub("body", body, body.params, namer, lines, depth + 1)
    else:
        _line(lines, depth, f"{outs} = {kind}", op, types)


def _iteration(desc, namer) -> str:
    kind = desc[0]
    if kind == "iter":
        return render(desc[1], namer)
    if kind == "range":
        return f"range({', '.join(render(b, namer) for b in desc[1:])})"
    if kind == "enumerate":
        return f"enumerate({_iteration(desc[1], namer)}, {render(desc[2], namer)})"
    return f"zip({', '.join(_iteration(d, namer) for d in desc[1:])})"


def _sub(label, block: Block, params, namer, lines, depth) -> None:
    header = ", ".join(f"{p.name}: {p.type_str()}" for p in params)
    lines.append("  " * depth + f"{label}({header}):")
    _block(block, namer, lines, depth + 1)
    lines.append("  " * (depth + 1) + "-> " + ", ".join(render(r, namer) for r in block.results))
