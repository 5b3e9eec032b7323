"""What every lowering of the graph IR needs: the arguments' leaves, the ops in order,
the outputs rebuilt, and one way to refuse an op the target cannot run."""

from __future__ import annotations

from ....staging.errors import StagingError
from ..ir import Block, Graph, Op, Value, is_namedtuple, source_line
from ..writes import access_path


def walk(block: Block, in_loop: bool = False):
    """``(op, in_loop)`` for every op of ``block`` and its sub-blocks, in program order
    (a branch's ops before the ops after its ``cond``); ``in_loop``: inside a loop body."""
    for op in block.ops:
        yield op, in_loop
        loop = in_loop or op.kind in ("while", "for")
        for sub in op.blocks.values():
            yield from walk(sub, loop)


def argument_leaves(layout) -> list:
    """``(argument index, path, leaf)`` for each array or Variable leaf of the arguments,
    in the order of ``layout`` (see ``codegen.compile_graph``)."""
    return [(i, access_path(access), leaf) for i, leaves in enumerate(layout)
            for access, leaf in leaves]


def fetch(args, index: int, path: tuple):
    obj = args[index]
    for key in path:
        obj = obj[key]
    return obj


def output_values(graph: Graph) -> list:
    """The Values of the graph's outputs that are computed (not constants), in order."""
    found: list = []

    def visit(obj):
        if obj.__class__ is Value:
            if obj.const is None:
                found.append(obj)
        elif obj.__class__ in (tuple, list) or is_namedtuple(obj):
            for item in obj:
                visit(item)
        elif obj.__class__ is dict:
            for item in obj.values():
                visit(item)

    visit(graph.outputs)
    return found


def rebuild(outputs, computed, to_array):
    """The graph's output structure with each computed Value taken, in order, from the
    iterator ``computed`` (made a NumPy array by ``to_array``) and each constant copied,
    as the NumPy code generator returns them."""
    import numpy as np

    cls = outputs.__class__
    if cls is Value:
        if outputs.const is not None:
            return np.array(outputs.const)
        return to_array(next(computed))
    if cls is tuple or cls is list:
        return cls(rebuild(x, computed, to_array) for x in outputs)
    if is_namedtuple(outputs):
        return cls(*(rebuild(x, computed, to_array) for x in outputs))
    if cls is dict:
        return {k: rebuild(v, computed, to_array) for k, v in outputs.items()}
    return outputs


def where(op: Op) -> str:
    """``file:line (`text`)`` of the user's line that made ``op``."""
    if not op.source:
        return "an unknown line"
    filename, line = op.source
    return f"{filename}:{line} (`{source_line(op.source)}`)"


def refuse(option: str, what: str, op: Op, why: str, fix: str) -> StagingError:
    """The one error for an op a lowering cannot run: the option, the op, the user's line,
    why, and what to do."""
    return StagingError(f"{option}: {what} at {where(op)} {why}. {fix}")
