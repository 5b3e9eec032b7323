"""The TensorFlow backend: Python control flow on graph tensors inside ``tf.function``.

``tf.function(ag.convert(f), autograph=False)``: TensorFlow traces, our converter did
the control flow. While TensorFlow builds a graph (``tf.executing_eagerly()`` is
False: a ``tf.function`` trace, a Keras ``fit``/``predict`` step, a dataset function)
converted functions run their staged body, and a condition or iterable that is a
graph tensor (``SymbolicTensor``) or a ``tf.data.Dataset`` reaches this backend.
Eager tensors are concrete values and run as Python.

Staging itself (joining branches, settling loop carries, errors) is ``staging``'s;
this module answers its questions in TensorFlow: the ``Aval`` of a leaf (a Python
number is weak: carried as a ``weak.Weak``, a scalar tensor that takes the dtype of the
tensor it meets, as the number would eagerly), casts, and ops:
``If`` for ``if``/ternaries/``and``/``or``, ``While`` for ``while`` and every staged
``for`` (``loops``). Each body is traced once per settling step: a loop's test and
body into the graphs that become the ``While`` op's own (``while_op``), a branch of
an ``if`` into the graph that becomes the ``If`` op's branch (TensorFlow's
``tf.cond``/``tf.while_loop`` would trace them again); a dataset loop's body into a
concrete function, which ``Dataset.reduce`` calls. Nested control flow costs no
new Python trace per level, and Python side effects of a body (a plain ``print``)
happen once, while it is traced. ``assert`` and a staged
``raise`` become ``tf.debugging.Assert`` ops: a failing one raises TensorFlow's
``InvalidArgumentError`` when the graph runs, with the Python exception's class and
message in its text. ``ag.print`` is ``tf.print`` to standard output.
"""

from __future__ import annotations

import re
import sys
from sys import _getframe  # the runtime's own: a user may take it off sys
import types

import numpy as np
import tensorflow as tf
from tensorflow.python.eager.polymorphic_function.concrete_function import ConcreteFunction
from tensorflow.python.framework import func_graph as _func_graph
from tensorflow.python.framework import ops as _ops
from tensorflow.python.ops import cond_v2 as _cond_v2
from tensorflow.python.ops import control_flow_util_v2 as _cf_util

from ...staging import accumulate, backend as backends, errors, maybe_none
from ...staging import raises as staged_raise
from ...staging import state as staging
from ...staging.arg_writes import user_location
from ...staging.state import Aval
from . import items, loops, messages, ndarray_like, numeric, numpy_twins, while_op  # noqa: F401
from . import maybe_none as _tf_maybe_none  # noqa: F401  (its nest: refused as an output)
from .weak import Weak, kind_of, rewrap, strong
from .tensors import (
    SymbolicTensor, as_tf_dtype, aval_of, invariants, is_tracing, predicate, spec,
)

class Traced:
    """A traced loop body: a concrete function of flat tensors, and how to call it in a graph."""

    __slots__ = ("function", "avals")

    def __init__(self, fn, avals) -> None:
        self.avals = avals
        def flat(*args):
            return [tf.convert_to_tensor(x) for x in fn(*rewrap(args, avals))]

        graph = _func_graph.func_graph_from_py_func(
            _cf_util.unique_fn_name("", "body"), flat, None, None,
            signature=[spec(a) for a in avals])
        self.function = ConcreteFunction.from_func_graph(graph, None, {})

    def __call__(self, *args) -> list:
        out = self.function._call_flat([strong(a) for a in args],
                                       self.function.captured_inputs)
        return [] if out is None else list(out)


class Branch:
    """A traced branch of a staged ``if`` (a function of no arguments): the graph that
    becomes one branch of the ``If`` op itself (``cond``), so the op calls no function
    of its own. Its outputs are the leaves the branch gave until ``cond`` adds the ops
    that give the joined outputs."""

    __slots__ = ("graph", "_function")

    def __init__(self, fn) -> None:
        def flat():
            return [tf.convert_to_tensor(x) for x in fn()]

        outer = _ops.get_default_graph()
        name = _cf_util.unique_fn_name("", "branch")
        self.graph = _func_graph.func_graph_from_py_func(
            name, flat, [], {},
            func_graph=_cf_util.CondBranchFuncGraph(name, collections=outer._collections),
            add_control_dependencies=outer._add_control_dependencies)
        self._function = None

    def finish(self, finish) -> None:
        """Make ``finish(leaves)`` (ops in this graph) the branch's outputs."""
        graph = self.graph
        with graph.as_default():
            outs = [tf.convert_to_tensor(x) for x in finish(list(graph.outputs))]
        outs = [x if x.graph is graph else graph.capture(x) for x in outs]
        graph.outputs = outs
        graph.structured_outputs = list(outs)

    def __call__(self) -> list:
        """The branch called as a function (a loop that carries nothing uses it so)."""
        if self._function is None:
            self._function = ConcreteFunction.from_func_graph(self.graph, None, {})
        out = self._function._call_flat([], self._function.captured_inputs)
        return [] if out is None else list(out)


def _if_op(pred, branches, finish) -> list:
    """One ``If`` op whose branches are the traced ``branches`` (``Branch``), their
    outputs ``finish[i](leaves)``: what ``tf.cond`` builds, without tracing again."""
    for branch, fin in zip(branches, finish):
        branch.finish(fin)
    graphs = [b.graph for b in branches]
    with tf.name_scope("cond") as scope:
        _cond_v2.verify_captures(_cond_v2._COND, graphs)
        out = _cond_v2._build_cond(pred, graphs[0], graphs[1], graphs[0].external_captures,
                                   graphs[1].external_captures, building_gradient=False,
                                   name=scope)
    return list(out) if isinstance(out, (list, tuple)) else [out]


_MISMATCH = re.compile(r"has type (\w+) that does not match type (\w+)")


def _meet(avals, error: TypeError):
    """``avals`` with the weak leaves of the dtype an op refused in ``error`` given the
    other dtype it names (where the number keeps its value), or None."""
    found = _MISMATCH.search(str(error))
    if found is None:
        return None
    a, b = (np.dtype(tf.as_dtype(name).as_numpy_dtype) for name in found.groups())
    out, changed = [], False
    for aval in avals:
        target = b if aval.dtype == a else a if aval.dtype == b else None
        if aval.weak and target is not None and staging.keeps_value(aval.dtype.kind, target):
            aval, changed = aval._replace(dtype=target), True
        out.append(aval)
    return out if changed else None


# ---------------------------------------------------------------- the backend


class TfBackend(backends.Backend):
    """Builds TensorFlow control flow for graph tensors (see the module docstring)."""

    name = "tensorflow"
    compiler, framework = "tf.function", "TensorFlow"
    raises_at_run_time = True  # an assertion: InvalidArgumentError with the exception's text
    unknown_dims = True  # TensorFlow shapes may hold None
    needs_shape_invariants = True  # a loop variable's shape changes only where the user says
    loop_options = frozenset({"maximum_iterations", "shape_invariants", "parallel_iterations",
                              "swap_memory"})
    isinstance_as_concrete = True  # a graph tensor is a tf.Tensor, as the eager one
    weak_placeholders = False  # a placeholder is an int32 or float32 tensor, weak or not
    numpy_in_place_keeps_dtype = True  # TensorFlow's operator would cast the NumPy array

    def owns_type(self, cls: type) -> bool:
        return issubclass(cls, (SymbolicTensor, Weak, tf.data.Dataset, tf.RaggedTensor,
                                *loops.STAGED_ITERABLES))

    def is_tracing(self) -> bool:
        return is_tracing()

    def leaked(self, value) -> bool:
        return isinstance(value, (SymbolicTensor, Weak))

    def explain_error(self, error, location):
        """TensorFlow's error while it traced the user's line at ``location`` said there
        (``messages.explained``: NumPy asked a graph tensor for its values, ``MatMul`` was
        given a vector, a graph tensor lacks an ndarray attribute that code autograph
        does not convert asked for)."""
        return None if location == "?" else messages.explained(error, location)

    def trace_failure(self, error) -> bool:
        # bool() of a graph tensor, NumPy asking one for its values, an attribute a graph
        # tensor lacks (x.item(), x.numpy()): ``messages.tracing_error`` classifies them
        return messages.tracing_error(error) in messages.STAGED_ONLY

    # -- primitives

    def aval(self, value):
        return aval_of(value)

    def cast(self, x, aval: Aval):
        dtype = as_tf_dtype(aval.dtype)
        if aval.weak:  # a Python number: a Weak of its kind
            return Weak.of(x if x.__class__ is Weak or staging.is_number(x) else
                           tf.convert_to_tensor(x), kind_of(dtype))
        x = strong(x)
        if isinstance(x, tf.Tensor):
            return x if x.dtype == dtype else tf.cast(x, dtype)
        if staging.is_number(x) or isinstance(x, (np.ndarray, np.generic)):
            return tf.constant(np.asarray(x).astype(aval.dtype) if dtype != tf.string else x,
                               dtype)
        return tf.cast(tf.convert_to_tensor(x), dtype)

    def zeros(self, aval: Aval):
        shape = [0 if d is None else d for d in aval.shape]
        if aval.dtype.kind in "OSU":
            return tf.fill(shape, "")
        return tf.zeros(shape, as_tf_dtype(aval.dtype))

    def predicate(self, cond):
        return predicate(cond)

    def trace(self, fns, avals) -> list:
        """Each of ``fns`` traced on placeholders of ``avals`` (a weak one: a ``Weak``).
        Where an op still refuses a Python number's dtype next to a tensor of another
        (a TensorFlow function that converts its arguments separately), the number takes
        that tensor's dtype, as it would eagerly; the staging core then settles the
        carry on it. The branches of a staged if (no ``avals``) are traced into the
        graphs that become the ``If`` op's branches."""
        if not avals:  # the branches of a staged if
            return [Branch(fn) for fn in fns]
        layout = while_op.current()

        def traced(avals):
            if layout is while_op.FUNCTIONS:
                with while_op.body_scope():
                    return [Traced(fn, avals) for fn in fns]
            return while_op.trace(fns, avals, layout)

        for _ in range(4):
            try:
                return traced(avals)
            except TypeError as error:
                widened = _meet(avals, error)
                if widened is None:
                    raise
                avals = widened
        return traced(avals)

    def cond(self, pred, handles, finish, avals) -> list:
        if not avals:  # only effects: the branches still run (tf.print, assign)
            _if_op(pred, handles, [lambda lv, f=f: (f(lv), tf.constant(0))[1:] for f in finish])
            return []
        out = _if_op(pred, handles, [lambda lv, f=f: [strong(x) for x in f(lv)] for f in finish])
        return rewrap(out, avals)

    def while_loop(self, test, body, init) -> list:
        if not init:  # the condition reads state the body changes in place (a tf.Variable)
            tf.while_loop(lambda i: test()[0], lambda i: (body(), i + 1)[1],
                          [tf.constant(0)], **loops.while_options())
            return []
        avals = body.avals  # the carry's (None where set_loop_options' shape_invariants say)
        out = while_op.build(test, body, [strong(x) for x in init], invariants(avals),
                             **loops.while_options())
        return rewrap(out, avals)

    # -- what staging leaves to the framework

    def not_(self, value):
        staging.predicate(self, value, "'not' expression", None)
        return tf.logical_not(predicate(value))

    def assert_stmt(self, cond, message):
        """Checked when the graph runs: a failure raises ``InvalidArgumentError`` whose
        text holds ``AssertionError: <message>``. The message is evaluated at trace
        time; a tensor in it is shown with its run-time value (a text that shows staged
        values: made when the graph runs, ``messages``)."""
        pred = staging.predicate(self, cond, "assert statement", message)
        text = message() if message is not None else None
        if text.__class__ is str:
            data = [messages.message(AssertionError(text), user_location())]
        else:
            data = ["AssertionError" if text is None else "AssertionError:"]
            if text is not None:
                data.append(text if isinstance(text, tf.Tensor) else str(text))
        tf.debugging.Assert(pred, data, summarize=100)

    def raise_(self, exc, branch):
        """``exc``, raised by a traced branch, becomes an assertion that fails when the
        graph runs that branch: TensorFlow raises ``InvalidArgumentError`` with
        ``<class name>: <message>`` in its text, the message made from the values of
        that run (``messages``)."""
        where = staged_raise.origin(exc)
        location = errors.at_line(*where) if where else errors.where(branch)
        if messages.asked_for_values(exc):  # NumPy's error, not the user's raise
            raise messages.needs_values(location) from exc
        text = messages.message(exc, location)
        tf.debugging.Assert(tf.constant(False), [text])

    def raise_where(self, flag, exc):
        """As ``raise_``, where the staged ``flag`` holds when the graph runs."""
        tf.debugging.Assert(tf.logical_not(predicate(flag)), [f"{type(exc).__name__}: {exc}"])

    def show(self, value, conversion):
        return messages.show(value, conversion)  # a raise shows the run-time value

    def settle(self, label, before, after):
        """A ``tf.TensorArray`` as a loop variable is refused, naming what to write: a
        staged loop here carries tensors, and a Python list it appends to is collected
        in the graph (TensorFlow's AutoGraph's own answer is the TensorArray)."""
        if isinstance(before, tf.TensorArray) or isinstance(after, tf.TensorArray):
            raise errors.StagingError(
                f"loop at {user_location()}: {errors.subject(label)} is a tf.TensorArray, "
                f"which autograph's staged loops do not carry. Append to a Python list in the "
                f"loop (lst.append(x)) and stack it after the loop (np.stack(lst) or "
                f"tf.stack(lst)): autograph collects its items in the graph.")
        return None

    def pair_values(self, label, t, f):
        return maybe_none.pair_values(label, t, f, self)  # None on one side: a flag

    def pair_unbound(self, label, t, f):
        return maybe_none.pair_unbound(label, t, f, self)  # reads raise where unassigned

    def for_stmt(self, iterable, body, state, names, extra_test, shared=None):
        return loops.for_stmt(self, iterable, body, state, names, extra_test, shared)

    # -- lists a staged loop appends to (``accumulate``)

    def write_row(self, rows, index, value):
        """``rows`` with row ``index`` set to ``value``; a buffer of a run-time capacity
        (it starts with no rows) doubles first where ``index`` is past its end."""
        rows, index = strong(rows), tf.cast(strong(index), tf.int32)
        value = tf.cast(strong(value), rows.dtype)
        if rows.shape[0] is not None:  # a static capacity
            return tf.tensor_scatter_nd_update(rows, tf.reshape(index, [1, 1]), value[None])
        n = tf.shape(rows, out_type=tf.int32)[0]
        grown = tf.where(index < n, n, tf.maximum(2 * n, index + 1))
        pad = tf.concat([[grown - n], tf.shape(rows, out_type=tf.int32)[1:]], 0)
        rows = tf.concat([rows, tf.zeros(pad, rows.dtype)], 0)
        return tf.tensor_scatter_nd_update(rows, tf.reshape(index, [1, 1]), value[None])

    def read_row(self, rows, index):
        return tf.gather(strong(rows), tf.cast(strong(index), tf.int32))

    def rows_upto(self, rows, count):
        return strong(rows)[:tf.cast(strong(count), tf.int32)]

    # -- builtins

    def range_(self, start, stop, step):
        return loops.Range(start, stop, step)

    def enumerate_(self, iterable, start):
        return loops.Enumerate(iterable, start)

    def zip_(self, iterables, strict):
        return loops.Zip(tuple(iterables), strict)

    def len_(self, value):
        """A static length is a Python int; an unknown one a ``Weak`` int (a Python
        int the graph computes)."""
        if isinstance(value, tf.Tensor):
            if value.shape.rank == 0:
                raise TypeError("len() of unsized object")
            n = value.shape[0]
            return n if n is not None else Weak.of(tf.shape(value)[0], int)
        return len(value)

    def unrolled(self, value):
        """A graph tensor's rows (``tf.unstack``) where its length is static, as eagerly
        iterating it gives them; else the tensor (TensorFlow's own refusal)."""
        if isinstance(value, tf.Tensor) and value.shape.rank and value.shape[0] is not None:
            return tf.unstack(value)
        if isinstance(value, loops.Zip):
            return list(zip(*(self.unrolled(it) for it in value.iterables)))
        if isinstance(value, loops.Enumerate):
            return list(enumerate(self.unrolled(value.iterable), value.start))
        return value

    def getitem(self, target, index):
        return items.getitem(target, index)

    def setitem(self, target, index, value):
        return items.setitem(target, index, value)

    def check_in_place(self, target) -> None:
        items.check_in_place(target)

    def print_(self, args, sep, end, file, flush):
        """``tf.print`` to standard output (or ``file`` if it is ``sys.stderr``), each
        time the graph runs; tensors are shown as ``tf.print`` shows them."""
        stream = sys.stderr if file is sys.stderr else sys.stdout
        tf.print(*args, sep=sep, end=end, output_stream=stream)

    def numeric(self, name, args, kwargs):
        return numeric.numeric(name, args, kwargs)

    def numpy_call(self, fn, args, kwargs):
        return numpy_twins.numpy_call(fn, args, kwargs)


# How ``tf.function`` converts what the traced function returns (a function nested in
# ``func_graph_from_py_func``): a list collected at run time met there is returned.
_OUTPUT_CONVERSION = next(c for c in _func_graph.func_graph_from_py_func.__code__.co_consts
                          if isinstance(c, types.CodeType) and c.co_name == "convert")


def _collected_as_tensor(value, dtype=None, name=None, as_ref=False):
    """A list a staged loop collected (of a run-time length) handed to a TensorFlow op:
    its items stacked (``tf.stack(lst)``). Returned from the ``tf.function``, a
    ``StagingError``: eagerly it is a list, and a ``tf.function`` returns tensors."""
    frame = _getframe(1)
    for _ in range(8):
        if frame is None or frame.f_code is _OUTPUT_CONVERSION:
            break
        frame = frame.f_back
    if frame is not None and frame.f_code is _OUTPUT_CONVERSION:
        raise errors.StagingError(
            f"{errors.subject(value.label)}, a list the staged loop at {value.where} appended "
            f"to a number of items known only at run time, is returned from the tf.function, "
            f"which returns tensors, not a list of a run-time length. Return np.stack(lst) "
            f"(its items as one tensor) instead.")
    stacked = value.stacked()
    return stacked if dtype is None else tf.cast(stacked, dtype)


tf.register_tensor_conversion_function(accumulate.Collected, _collected_as_tensor)

backend = TfBackend()
backends.register(backend)
