"""The graph engine's intermediate representation: values, ops, blocks, graphs.

A graph is plain data. A ``Value`` is one symbolic array (dtype, shape with
``None`` for unknown dims, and ``weak`` when it stands for a Python scalar, whose
NEP 50 promotion is weaker than an array's). An ``Op`` records one operation:
its ``kind`` (how it is written as Python: a NumPy call, an operator, a method,
an index, a control-flow construct ...), its ``target`` (the function, operator
or method name), its arguments as a nested structure in which values appear as
``Value`` objects, its outputs, the user's source line, and for control flow
its sub-``Block``s. A ``Block`` is a straight list of ops with parameters (the
values its op binds, like loop variables) and results.

Blocks are lexically scoped, exactly like the Python the graph compiles to: an
op inside a branch may read any value defined earlier in an enclosing block.
That is what keeps the compiled code straight-line Python with native ``if``,
``while`` and ``for`` statements.
"""

from __future__ import annotations

import linecache
import os
from typing import Any, Optional

import numpy as np


class Value:
    """One symbolic array in a graph. The user sees it wrapped in a ``Tensor``."""

    __slots__ = ("const", "dtype", "id", "name", "op", "shape", "weak")

    def __init__(self, id: int, dtype, shape: tuple, weak: bool = False, const=None,
                 name: Optional[str] = None):
        self.id = id
        self.dtype = np.dtype(dtype)
        self.shape = tuple(shape)
        self.weak = weak  # a Python scalar at run time (bool, int, float, complex)
        self.const = const  # the concrete value of a constant, else None
        self.name = name or f"t{id}"
        self.op: Optional[Op] = None

    def type_str(self) -> str:
        return type_str(self.dtype, self.shape, self.weak)

    def __repr__(self) -> str:
        return f"<{self.name}: {self.type_str()}>"


def type_str(dtype, shape, weak=False) -> str:
    """``float32[3,?]``; a weak value is the Python scalar it stands for."""
    if weak:
        return {"b": "python bool", "i": "python int", "u": "python int",
                "f": "python float", "c": "python complex"}[np.dtype(dtype).kind]
    dims = ",".join("?" if d is None else str(d) for d in shape)
    return f"{np.dtype(dtype).name}[{dims}]"


class VarRef:
    """A variable an op reads or assigns: captured (``v0``) or a parameter."""

    __slots__ = ("dtype", "name", "shape")

    def __init__(self, name: str, dtype, shape):
        self.name = name
        self.dtype = np.dtype(dtype)
        self.shape = tuple(shape)

    def __repr__(self) -> str:
        return self.name


class Op:
    """One recorded operation. ``outputs`` is a flat list; ``out_tree`` the
    structure the target returns, with values at the leaves (None: one value)."""

    __slots__ = (
        "args",
        "blocks",
        "effect",
        "kind",
        "kwargs",
        "out_tree",
        "outputs",
        "source",
        "target",
    )

    def __init__(self, kind: str, target, args=(), kwargs=None, outputs=(), out_tree=None,
                 blocks=None, source=None, effect: bool = False):
        self.kind = kind
        self.target = target
        self.args = tuple(args)
        self.kwargs = dict(kwargs or {})
        self.outputs = list(outputs)
        self.out_tree = out_tree
        self.blocks: dict[str, Block] = dict(blocks or {})
        self.source = source  # (filename, lineno) of the user's line
        self.effect = effect  # has side effects: never removed, never merged
        for value in self.outputs:
            value.op = self

    def inputs(self) -> list[Value]:
        """Values this op reads directly (not those its blocks read)."""
        found: list[Value] = []
        walk_values((self.args, self.kwargs), found.append)
        return found

    def has_effects(self) -> bool:
        return self.effect or any(op.has_effects() for b in self.blocks.values() for op in b.ops)


class Block:
    """A list of ops with the values its op binds (``params``) and gives back."""

    __slots__ = ("ops", "params", "pattern", "results")

    def __init__(self, params=()):
        self.params: list = list(params)
        self.ops: list[Op] = []
        self.results: list = []
        self.pattern = None  # for loops: the item structure, a nested tuple of params


class Graph:
    """A traced function: its parameters, top-level block and output structure."""

    def __init__(self, name: str):
        self.name = name
        self.body = Block()
        self.inputs: list = []  # Value or VarRef, one per array/variable leaf of the arguments
        self.outputs: Any = None  # nested structure with Values at the leaves
        self.captured: list = []  # Variable objects read or written by the graph
        self.signature = None  # set by the tracer: the ``ArgSpec`` the graph was traced for
        # the inputs that are 0-d NumPy arrays (mutable), not NumPy scalars: ids of Values
        self.zero_d_arrays: set = set()
        self._next_id = 0

    def new_value(self, dtype, shape, weak=False, const=None, name=None) -> Value:
        self._next_id += 1
        return Value(self._next_id, dtype, shape, weak, const, name)

    # ``str(graph)``, the text form, is ``printing.graph_text``: that module installs it
    # (the package imports it), so the IR, plain data, imports nothing of its readers.


def walk_values(structure, visit) -> None:
    """Call ``visit`` on every Value in a nested tuple/list/dict/slice structure
    (named tuples included)."""
    cls = structure.__class__
    if cls is Value:
        visit(structure)
    elif cls is tuple or cls is list:
        for item in structure:
            walk_values(item, visit)
    elif cls is dict:
        for item in structure.values():
            walk_values(item, visit)
    elif cls is slice:
        walk_values((structure.start, structure.stop, structure.step), visit)
    elif is_namedtuple(structure):
        for item in structure:
            walk_values(item, visit)


def is_namedtuple(obj) -> bool:
    return isinstance(obj, tuple) and hasattr(obj.__class__, "_fields")


def map_values(structure, fn):
    """A copy of a nested structure with every Value replaced by ``fn(value)``."""
    cls = structure.__class__
    if cls is Value:
        return fn(structure)
    if cls is tuple or cls is list:
        return cls(map_values(item, fn) for item in structure)
    if cls is dict:
        return {key: map_values(item, fn) for key, item in structure.items()}
    if cls is slice:
        return slice(*(map_values(v, fn) for v in (structure.start, structure.stop, structure.step)))
    if is_namedtuple(structure):
        return cls(*(map_values(item, fn) for item in structure))
    return structure


def source_text(source) -> str:
    """``file.py:12`` for an op's source location (empty if unknown)."""
    if not source:
        return ""
    filename, lineno = source
    return f"{os.path.basename(filename)}:{lineno}"


def source_line(source) -> str:
    if not source:
        return ""
    return linecache.getline(source[0], source[1]).strip()


def escaped_value(graph: Graph):
    """``(reader source, value)`` for the first value read where no enclosing block
    defines it — a value computed in a branch or loop body that left it other than
    as one of its results (through an attribute, a global, a container) — or None.
    ``reader source`` is None when the graph's outputs read it."""
    def missing(values, visible):
        for value in values:
            if value.const is None and value.id not in visible:
                return value
        return None

    def check(block: Block, visible: set, results: list):
        visible = visible | {p.id for p in block.params}
        for op in block.ops:
            value = missing(op.inputs(), visible)
            if value is not None:
                return op.source, value
            for sub in op.blocks.values():
                found = check(sub, visible, _values(sub.results))
                if found is not None:
                    return found
            visible |= {v.id for v in op.outputs}
        value = missing(results, visible)
        return None if value is None else (None, value)

    inputs = {v.id for v in graph.inputs if isinstance(v, Value)}
    return check(graph.body, inputs, _values(graph.body.results) + _values(graph.outputs))


def _values(structure) -> list:
    found: list = []
    walk_values(structure, found.append)
    return found
