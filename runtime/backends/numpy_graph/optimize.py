"""Graph optimizations run once per trace: common subexpressions and dead code.

Constant folding happens earlier, while tracing (an op whose inputs are all
constants runs at once, see ``trace.record``); buffer reuse happens later, in
the compiler, which knows the order values die in.

- **CSE**: two pure ops with the same kind, target and arguments compute the
  same value; the second is dropped and its outputs replaced by the first's. The
  table is scoped like the blocks are: a branch sees what was computed before
  it, but not what a sibling branch computed.
- **DCE**: an op without effects whose outputs nobody reads is dropped, working
  backwards so that chains of dead ops disappear; blocks are cleaned inside out.
  The ops that computed a loop's test before the loop was staged die here.
"""

from __future__ import annotations

from .ir import Block, Graph, Value, map_values, walk_values

_PURE_KINDS = {"call", "binop", "unop", "method", "attr", "getitem", "pycast"}


def optimize(graph: Graph) -> None:
    replace: dict[int, Value] = {}
    _cse(graph.body, {}, replace)
    graph.outputs = _substitute(graph.outputs, replace)
    _dce(graph.body, _reads_of(graph.outputs))


def _substitute(structure, replace):
    if not replace:
        return structure
    return map_values(structure, lambda v: replace.get(v.id, v))


def _key(obj):
    """A hashable description of an argument structure, or raise TypeError."""
    cls = obj.__class__
    if cls is Value:
        return ("v", obj.id) if obj.const is None else ("c", id(obj.const))
    if cls in (tuple, list):
        return (cls.__name__,) + tuple(_key(x) for x in obj)
    if cls is dict:
        return ("dict",) + tuple((k, _key(v)) for k, v in obj.items())
    if cls is slice:
        return ("slice", _key(obj.start), _key(obj.stop), _key(obj.step))
    hash(obj)
    return (cls, obj)


def _cse(block: Block, table: dict, replace: dict, added: list = None) -> None:
    """CSE in ``block``; the keys it adds to ``table`` are appended to ``added``, so
    that the caller can take them out again after a nested block (one table for
    the whole graph, not a copy per branch: linear in the graph's size)."""
    kept = []
    for op in block.ops:
        op.args = _substitute(op.args, replace)
        op.kwargs = _substitute(op.kwargs, replace)
        for inner in op.blocks.values():
            scoped: list = []
            _cse(inner, table, replace, scoped)
            for key, before in reversed(scoped):  # a sibling branch, or what follows,
                if before is None:                # does not see them
                    del table[key]
                else:
                    table[key] = before
        if op.kind in _PURE_KINDS and not op.effect:
            try:
                key = (op.kind, op.target if op.kind != "call" else id(op.target),
                       _key(op.args), _key(op.kwargs))
            except TypeError:
                key = None
            if key is not None:
                earlier = table.get(key)
                if earlier is not None and len(earlier.outputs) == len(op.outputs):
                    for old, new in zip(op.outputs, earlier.outputs):
                        replace[old.id] = new
                    continue
                if added is not None:
                    added.append((key, earlier))
                table[key] = op
        kept.append(op)
    block.ops = kept
    block.results = _substitute(block.results, replace)


def _reads_of(structure) -> set:
    found: set = set()
    walk_values(structure, lambda v: found.add(v.id))
    return found


def block_reads(block: Block) -> set:
    """Ids of every value a block reads, including inside nested blocks."""
    found = _reads_of(block.results)
    for op in block.ops:
        found |= _reads_of((op.args, op.kwargs))
        for inner in op.blocks.values():
            found |= block_reads(inner)
    return found


def _dce(block: Block, live: set) -> None:
    live = set(live) | _reads_of(block.results)
    kept = []
    for op in reversed(block.ops):
        if not op.has_effects() and not any(v.id in live for v in op.outputs):
            continue
        for inner in op.blocks.values():
            _dce(inner, set())
            live |= block_reads(inner)
        live |= _reads_of((op.args, op.kwargs))
        kept.append(op)
    kept.reverse()
    block.ops = kept
