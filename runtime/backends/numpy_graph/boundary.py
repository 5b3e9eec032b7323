"""What a concrete function does around its graph, kept as data: ``Boundary``.

A graph maps arrays to arrays. Around it, the function's boundary keeps NumPy's and
Python's semantics where a graph cannot: after a run it writes the final value of
each argument array (or list item) the function wrote into back where the caller
holds it (``writes``), and puts back each ``None`` and each string chosen by a staged
condition (``maybe_none``). The graph computes what the boundary needs as extra
outputs: the final values (``finals``) and the flags and indices (``flags``). Those
are ordinary graph values, so a boundary is data — argument positions, paths, option
strings and graph values — and a saved function keeps it (``serialize``).

``compile_function`` is the one place a graph becomes a callable, for a fresh trace
and for a loaded file alike: the compiled graph, wrapped by the boundary, and by the
guard that restores NumPy's error settings when the graph has ``np.errstate`` blocks.
"""

from __future__ import annotations

from .codegen import compile_graph
from .ir import Graph
from .numeric import errstate_guard, uses_errstate
from .optimize import optimize
from .writes import with_extras


class Boundary:
    """``writes``: one ``writes.ArgumentWrite`` per value in ``finals``; ``places``: one
    ``(path, how)`` of ``maybe_none.boundary`` per value in ``flags``."""

    __slots__ = ("finals", "flags", "places", "writes")

    def __init__(self, writes=(), finals=(), places=(), flags=()) -> None:
        self.writes, self.finals = list(writes), tuple(finals)
        self.places, self.flags = list(places), tuple(flags)

    def __bool__(self) -> bool:
        return bool(self.writes or self.places)


def compile_function(graph: Graph, layout, boundary: Boundary, optimize_first: bool = False,
                     jit_compile: bool = False):
    """The callable of a concrete function: ``graph`` compiled (optimized first when
    ``optimize_first``: a fresh trace; by XLA when ``jit_compile``, see
    ``lowerings.xla``), with ``boundary``'s extra outputs, wrapped to apply them."""
    if boundary:
        graph.outputs = (graph.outputs, boundary.flags, boundary.finals)
    try:
        if optimize_first:
            optimize(graph)  # may replace the boundary's values too: read them back
        if jit_compile:
            from .lowerings.xla import compile_graph as lower

            fn = lower(graph, layout)
        else:
            fn = compile_graph(graph, layout)
    finally:
        if boundary:
            graph.outputs, boundary.flags, boundary.finals = graph.outputs
    if boundary:
        fn = with_extras(fn, boundary.writes, boundary.places)
    if uses_errstate(graph):
        fn = errstate_guard(fn)
    return fn
