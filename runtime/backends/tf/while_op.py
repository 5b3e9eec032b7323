"""A staged loop as one TensorFlow ``While`` op built from the graphs its test and body
were traced into.

``tf.while_loop`` traces its ``cond`` and ``body`` callables itself; the staging core
has already traced them (once per settling step). Calling those traces from
``tf.while_loop``'s callables would put a function call inside each of its graphs: a
second graph per body to build, and one more function for TensorFlow to instantiate
and inline when the ``tf.function`` first runs. So the last trace is made directly
into the graphs that become the op's ``cond`` and ``body`` (``LoopGraph``), laid out
as TensorFlow's ``while_v2`` lays them out (an iteration counter and the maximum
iterations first, then the carry, then the tensors the graphs capture), and ``build``
makes the op from them: the op, its gradient and a saved function are TensorFlow's own.

How a loop's graphs are laid out is its ``Layout``: a ``while`` (the default) has a
traced test; a ``for`` computes its item from the iteration counter inside the body
(``items``) and its test is built here (``test``), with the lowered ``break``/
``return`` flag carried last (``flag``).
"""

from __future__ import annotations

import contextlib

import tensorflow as tf
from tensorflow.python.framework import func_graph as _func_graph
from tensorflow.python.framework import ops as _ops
from tensorflow.python.ops import control_flow_util_v2 as _cf_util
from tensorflow.python.ops import while_v2 as _while_v2

from .tensors import spec
from .weak import rewrap

_COUNTER = tf.TensorSpec([], tf.int32)


class Layout:
    """What a loop's graphs hold besides its carry: ``n_items`` leading avals are an
    item computed by ``items(counter)`` (a ``for``), ``test(counter, flag)`` the
    condition built by the backend (else the first traced function is the test), and
    ``flag`` a scalar bool carried last (the body's last output)."""

    def __init__(self, n_items=0, items=None, test=None, flag=False) -> None:
        self.n_items, self.items, self.test, self.flag = n_items, items, test, flag


WHILE = Layout()
FUNCTIONS = Layout()  # no While op: concrete functions (a dataset's reduce calls them)
_current: list = [None]


@contextlib.contextmanager
def laid_out(layout):
    """The next loop traced (not loops nested in its body) has ``layout``."""
    before = _current[0]
    _current[0] = layout
    try:
        yield
    finally:
        _current[0] = before


def current():
    """The layout of the loop being traced (``WHILE`` unless a ``for`` says)."""
    return _current[0] if _current[0] is not None else WHILE


@contextlib.contextmanager
def body_scope():
    """Loops in a body being traced are laid out by their own staging."""
    before = _current[0]
    _current[0] = None
    try:
        yield
    finally:
        _current[0] = before


class LoopGraph:
    """A loop's test or body traced into the graph that becomes the ``While`` op's
    ``cond`` or ``body``. Its inputs: the counter, the maximum iterations, the carry
    (and the flag); a body's outputs: the counter plus one, the maximum iterations,
    the next carry (and flag)."""

    __slots__ = ("graph", "avals")

    def __init__(self, fn, avals, layout: Layout, is_body: bool, captures_first=()) -> None:
        n_items = layout.n_items
        self.avals = avals[n_items:]  # the carry's
        carried = [spec(a) for a in self.avals]
        signature = [_COUNTER, _COUNTER] + carried + (
            [tf.TensorSpec([], tf.bool)] if layout.flag else [])
        outer = _ops.get_default_graph()
        name = _cf_util.unique_fn_name("", "body" if is_body else "cond")
        kind = _cf_util.WhileBodyFuncGraph if is_body else _cf_util.WhileCondFuncGraph
        graph = kind(name, collections=outer._collections)

        def flat(counter, maximum, *args):
            for t in captures_first:  # the test's captures first, in its order
                graph.capture(t)
            items = list(layout.items(counter)) if n_items else []
            leaves = rewrap(items + list(args[:len(carried)]), avals)
            with body_scope():
                outs = [tf.convert_to_tensor(x) for x in fn(*leaves)]
            if not is_body:
                return outs[0]
            return [counter + 1, maximum] + outs

        self.graph = _func_graph.func_graph_from_py_func(
            name, flat, [], {}, signature=signature, func_graph=graph,
            add_control_dependencies=outer._add_control_dependencies)

    @classmethod
    def test_of(cls, layout: Layout, avals) -> "LoopGraph":
        """The cond graph of a loop whose test the backend builds (``layout.test``)."""
        self = cls.__new__(cls)
        self.avals = avals[layout.n_items:]
        outer = _ops.get_default_graph()
        name = _cf_util.unique_fn_name("", "cond")
        n = len(avals) - layout.n_items

        def flat(counter, maximum, *args):
            return layout.test(counter, args[n] if layout.flag else None)

        signature = [_COUNTER, _COUNTER] + [spec(a) for a in avals[layout.n_items:]] + (
            [tf.TensorSpec([], tf.bool)] if layout.flag else [])
        self.graph = _func_graph.func_graph_from_py_func(
            name, flat, [], {}, signature=signature,
            func_graph=_cf_util.WhileCondFuncGraph(name, collections=outer._collections),
            add_control_dependencies=outer._add_control_dependencies)
        return self


def trace(fns, avals, layout: Layout) -> list:
    """``fns`` traced into a loop's graphs: [test, body] of a ``while``, [body] of a
    loop whose ``layout`` builds the test (returned first all the same)."""
    if layout.test is not None:
        test = LoopGraph.test_of(layout, avals)
        (body_fn,) = fns
    else:
        test_fn, body_fn = fns
        test = LoopGraph(test_fn, avals, layout, False)
    body = LoopGraph(body_fn, avals, layout, True, test.graph.external_captures)
    return [test, body]


def build(test: LoopGraph, body: LoopGraph, init, shapes, parallel_iterations=10,
          swap_memory=False) -> list:
    """The ``While`` op of the traced ``test`` and ``body`` on the carry ``init`` (its
    leaves' shapes ``shapes``); returns the carry after the loop. (``swap_memory``,
    as TensorFlow 2's own loop, changes nothing.)"""
    cond_graph, body_graph = test.graph, body.graph
    n = len(init)
    loop_vars = [tf.constant(0, tf.int32), tf.constant(-1, tf.int32)] + list(init)
    # what the body captures is carried unchanged, after the carry; the test takes
    # it too (the op's two functions have one signature)
    extra = body_graph.external_captures + tf.nest.flatten(
        [c() for c in body_graph.deferred_external_captures])
    loop_vars += extra
    body_graph.outputs.extend(body_graph.internal_captures)
    body_graph.outputs.extend(body_graph.deferred_internal_captures)
    n_test = len(cond_graph.external_captures)
    with cond_graph.as_default():
        _while_v2._duplicate_body_captures_in_cond(cond_graph, extra[n_test:])
    with tf.name_scope("while") as scope, _ops.control_dependencies(
            list(cond_graph.function_captures.control)
            + list(body_graph.function_captures.control)):
        output_shapes = [t.shape for t in body_graph.outputs]
        output_shapes[2:2 + n] = shapes
        outs = _while_v2._build_while_op(
            loop_vars, cond_graph, body_graph, output_shapes=output_shapes,
            parallel_iterations=parallel_iterations, name=scope,
            num_original_outputs=len(body_graph.outputs))
    return list(outs[2:2 + n])
