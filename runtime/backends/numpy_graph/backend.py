"""The graph engine as an autograph backend: staged if / while / for and friends.

Converted code hands control flow on a symbolic ``Tensor`` to this backend (see
``autograph.runtime.staging.backend``); staging itself (joining branches, settling loop
variables, errors) is ``autograph.runtime.staging``'s. This module answers its
questions for the graph: the ``Aval`` of a leaf (a ``Value``'s dtype, shape with
``None`` for unknown dims, and weakness), casts, and ops. Each traced function is
a sub-block of the graph:

- ``if`` → a ``cond`` op whose blocks give the joined outputs; the compiled code
  is a Python ``if``;
- ``while`` → a ``while`` op with a test block and a body block sharing the loop
  variables as parameters; ``for`` over a tensor's first axis, over ``range`` with
  tensor bounds, or ``enumerate``/``zip`` of those → a ``for`` op;
- ``not`` is a Python ``not`` at run time; ``assert`` and ``print`` are ops with
  effects.
"""

from __future__ import annotations

import numpy as np

from ...staging import holders, maybe_none as staged_maybe_none, state as staging
from ...staging.loops import Carry, reversed_bounds
from ...staging.backend import Backend
from ...staging.state import Aval
from . import maybe_none, messages, numeric, raising, rows, trace, writes
from .ir import Block, Op, Value
from .tensor import Tensor, has_mask, is_view


class GraphRange:
    """``range(start, stop, step)`` with a tensor bound, for a staged ``for``."""

    def __init__(self, start, stop, step):
        self.args = (start, stop, step)

    def __reversed__(self):
        return GraphRange(*reversed_bounds(*self.args))


class GraphEnumerate:
    def __init__(self, iterable, start):
        self.iterable, self.start = iterable, start

    def __iter__(self):  # iterated in Python (a generator expression): unrolled
        return enumerate(self.iterable, self.start)


class GraphZip:
    def __init__(self, iterables):
        self.iterables = tuple(iterables)

    def __iter__(self):
        return zip(*self.iterables)


_OWNED = (Tensor, GraphRange, GraphEnumerate, GraphZip)


def _value(x) -> Value:
    """The graph Value of a tensor, an array or a Python number (a weak constant)."""
    st = trace.current()
    if x.__class__ in staging.PY_NUMBERS:
        return st.graph.new_value(np.asarray(x).dtype, (), weak=True, const=x)
    return trace.to_value(x, st)


def _in(block: Block, fn):
    """``fn()`` with ``block`` as the block being traced."""
    blocks = trace.current().blocks
    blocks.append(block)
    try:
        return fn()
    finally:
        blocks.pop()


def _outputs(avals) -> list:
    graph = trace.current().graph
    return [graph.new_value(a.dtype, a.shape, weak=a.weak) for a in avals]


class GraphBackend(Backend):
    """Builds graph ops for control flow on symbolic tensors."""

    name = "autograph.function"
    unknown_dims = True
    writes_into_numpy = True  # a symbolic tensor stands for a NumPy array
    compiler = "autograph.function"
    # a staged raise is a flag the graph raises on when it runs; the boundary gives back
    # None and strings staged conditions chose (``staging.maybe_none``, ``maybe_none``)
    raises_at_run_time = returns_none_at_run_time = True
    follows_iterated_writes = True  # from the loop body's graph (``_iterated_write``)

    def owns_type(self, cls: type) -> bool:
        return issubclass(cls, _OWNED)

    def is_tracing(self) -> bool:
        return trace.current() is not None

    def trace_failure(self, error) -> bool:
        return isinstance(error, (messages.SymbolicValueError, messages.SymbolicAttributeError))

    # --- primitives -------------------------------------------------------------------
    def aval(self, x):
        if x.__class__ is Tensor:
            v = x._value
            return Aval(v.dtype, v.shape, v.weak)
        if isinstance(x, (np.ndarray, np.generic)):
            return Aval(x.dtype, x.shape, False)
        if x.__class__ in staging.PY_NUMBERS:
            return Aval(np.asarray(x).dtype, (), True)
        return None

    def cast(self, x, aval: Aval):
        st = trace.current()
        v = _value(x)
        if v.dtype == aval.dtype and v.weak == aval.weak:
            return Tensor(v, st.graph)
        if v.const is not None:
            const = np.asarray(v.const, aval.dtype)
            out = st.graph.new_value(aval.dtype, v.shape, weak=aval.weak,
                                     const=const.item() if aval.weak else const)
        else:
            out = st.graph.new_value(aval.dtype, v.shape, weak=aval.weak)
            st.append(Op("call", np.asarray, (v,), {"dtype": aval.dtype}, [out], out))
        return Tensor(out, st.graph)

    def zeros(self, aval: Aval):
        shape = tuple(0 if d is None else d for d in aval.shape)
        const = np.zeros(shape, aval.dtype)
        const = const.item() if aval.weak else const
        return Tensor(trace.current().graph.new_value(aval.dtype, aval.shape, weak=aval.weak,
                                                      const=const), trace.current().graph)

    def predicate(self, cond) -> Value:
        return _value(cond)

    def trace(self, fns, avals) -> list:
        """One block per function, all on the same parameters (a loop's test and
        body share them); the handle is (block, the leaves the function returned)."""
        st = trace.current()
        params = _outputs(avals)
        tensors = [Tensor(p, st.graph) for p in params]
        handles = []
        for fn in fns:
            block = Block(params)
            leaves = _in(block, lambda: fn(*tensors))
            block.results = [_value(x) for x in leaves]
            handles.append((block, leaves))
        return handles

    def cond(self, pred, handles, finish, avals) -> list:
        blocks = []
        for (block, leaves), make in zip(handles, finish):
            block.results = [_value(x) for x in _in(block, lambda: make(leaves))]
            blocks.append(block)
        outs = _outputs(avals)
        if outs or any(op.has_effects() for b in blocks for op in b.ops):
            trace.current().append(Op("cond", None, (pred,), {}, outs, None,
                                      {"true": blocks[0], "false": blocks[1]},
                                      source=trace.user_source()))
        return self._tensors(outs)

    def while_loop(self, test, body, init) -> list:
        (tb, _), (bb, _) = test, body
        return self._loop("while", (self._inits(init),), {}, {"test": tb, "body": bb})

    @staticmethod
    def _inits(init) -> list:
        return [_value(x) for x in init]

    def _loop(self, kind, args, kwargs, blocks) -> list:
        bb = blocks["body"]
        n_items = len(bb.params) - len(args[-1])
        outs = [trace.current().graph.new_value(p.dtype, p.shape, weak=p.weak)
                for p in bb.params[n_items:]]
        trace.current().append(Op(kind, None, args, kwargs, outs, None, blocks,
                                  source=trace.user_source()))
        return self._tensors(outs)

    @staticmethod
    def _tensors(values) -> list:
        graph = trace.current().graph
        return [Tensor(v, graph) for v in values]

    # --- what staging leaves to the framework ----------------------------------------
    def for_stmt(self, iterable, body, state, names, extra_test, shared=None):
        built = self._for(iterable, body, state, names, extra_test, shared, None)
        if built.__class__ is int:  # the body writes into the array it iterates over
            built = self._for(iterable, body, state, names, extra_test, shared, built)
        return built

    def _for(self, iterable, body, state, names, extra_test, shared, live):
        """The ``for`` op over ``iterable``; or, where the body writes into the array it
        iterates over (carried as ``state[j]``) and ``live`` is None, ``j``: the loop is
        then built again with ``live=j``, over the indices, each iteration reading its
        item from the array as the iterations before it left it, as NumPy's iteration
        does (``for e in v: v[2] = 1.0`` gives ``e`` the new ``v[2]`` at the third)."""
        seq = iterable.iterable if iterable.__class__ is GraphEnumerate else iterable
        over = iterable
        if live is not None:
            n = seq._value.shape[0] if seq._value.shape[0] is not None else self.len_(seq)
            over = GraphRange(0, n, 1)
            if iterable.__class__ is GraphEnumerate:
                over = GraphEnumerate(over, iterable.start)
        desc, item = self._iteration(over, trace.current())
        item_values: list = []
        _collect(item, item_values)
        carry = Carry(self, tuple(state), names, shared, "for loop", body)
        carry.trips = _static_length(iterable)
        avals = [Aval(v.dtype, v.shape, v.weak) for v in item_values]

        def step(xs, s):
            got = _pattern(item, iter(xs))
            if live is not None:  # the index, and the item read from the array now
                if iterable.__class__ is GraphEnumerate:
                    got = (got[0], s[live][got[0] - iterable.start])
                else:
                    got = s[live][got]
            return body(got, *s)

        (handle,) = carry.trace(step, avals, extra_test=extra_test)
        bb = handle[0]
        j = _iterated_write(carry, seq, bb, len(item_values))
        if live is None and j is not None:
            return j
        if live is not None and j != live:
            from .messages import iterated_array_rebound

            raise iterated_array_rebound(staging.label_of(names, live), body)
        bb.pattern = _pattern(item, iter(bb.params))
        kwargs = {"extra": True} if extra_test is not None else {}
        return carry.finish(self._loop("for", (desc, self._inits(carry.init())), kwargs,
                                       {"body": bb}))

    def check_in_place(self, target) -> None:
        """``v op= x`` on a tensor a staged branch cannot update in place (made before
        the branch): only ``v`` gets the new value, so an alias read later is refused. (A
        0-d one other than an argument's 0-d array may stand for a NumPy scalar, which the
        operator rebinds: left alone.) A value a staged condition chose among a 0-d
        argument array and others (``t = n or 4``) is refused: eagerly the operator
        changes the argument on the paths that chose it."""
        if target.__class__ is not Tensor:
            return
        graph = trace.current().graph
        if target._value.shape or target._value.id in graph.zero_d_arrays:
            if not target._updatable():
                holders.refuse_shared_in_place(
                    lambda h: h is target, "autograph.function",
                    "a staged branch gives only that name the new array")
        elif graph.zero_d_arrays:
            chosen = _chosen_argument(target._value, graph)
            if chosen is not None:
                from .messages import zero_d_argument_chosen

                raise zero_d_argument_chosen(holders.rebound_name(), chosen.name)

    def check_loop_writes(self, carry, handles, n_items: int) -> None:
        block = handles[-1][0]
        befores = list(carry.before) + list(carry.side.before)  # (side: nonlocal names)
        for label, before, spec in zip(carry.labels, befores, carry.specs):
            for where, array, k in _numpy_leaves(label, before, spec):
                # a NumPy array made before the loop: the loop carries it as a staged value,
                # so another name holding it (an alias q = p, a list or dict item) would
                # keep the old contents (fuzz seed 20062: 0.0 where eagerly 4.0)
                if writes.written_in_block(block, block.params[n_items + k], block.results[k]):
                    held = holders.stale(lambda h: h is array, skip=frozenset({label}))
                    if held is not None:
                        from .messages import loop_write_shared

                        raise loop_write_shared(carry.construct, carry.where_fn, where, held[0],
                                                None if held[2] else held[1])
            if before.__class__ is not Tensor or spec.__class__ is not staging.Slot or not (
                    before._value.shape or before._value.id in trace.current().graph.zero_d_arrays):
                continue  # (another 0-d value may be a NumPy scalar, which is rebound)
            k = spec.index
            if not writes.written_in_block(block, block.params[n_items + k], block.results[k]):
                continue
            # the array's memory: its base's value (a staged try hands its body new
            # handles of the same values); another carried name counts too (inside the
            # body the two are separate arrays)
            root = _memory_of(before)._value
            held = holders.stale(
                lambda h: h.__class__ is Tensor and _memory_of(h)._value is root,
                skip=frozenset({label}))
            if held is not None:
                from .messages import loop_write_shared

                raise loop_write_shared(carry.construct, carry.where_fn, label, held[0])

    # lists a staged loop appends to: buffers written in place (``rows``)
    def rows(self, aval):
        return rows.new_rows(aval)

    def write_row(self, buffer, index, value):
        return rows.write(buffer, index, value)

    def read_row(self, buffer, index):
        return rows.read(buffer, index)

    def rows_upto(self, buffer, count):
        return rows.upto(buffer, count)

    def not_(self, value):
        staging.predicate(self, value, "'not' expression", None)
        return trace.record("unop", "not", (value,), weak_result=True)

    def _iteration(self, iterable, st):
        """(iteration descriptor with Values, item structure of new Values)."""
        graph = st.graph
        if iterable.__class__ is Tensor:
            value = trace.to_value(iterable, st)
            if not value.shape:
                raise TypeError("iteration over a 0-d array")
            return ("iter", value), graph.new_value(value.dtype, value.shape[1:])
        if iterable.__class__ is GraphRange:
            bounds = []
            for bound in iterable.args:
                if bound.__class__ is Tensor:
                    bound = trace.to_value(bound, st)
                    if bound.dtype.kind not in "iub" or bound.shape:
                        raise TypeError(f"'{bound.type_str()}' object cannot be interpreted "
                                        f"as an integer")
                bounds.append(bound)
            return ("range", *bounds), graph.new_value(np.int64, (), weak=True)
        if iterable.__class__ is GraphEnumerate:
            inner, item = self._iteration(iterable.iterable, st)
            return ("enumerate", inner, iterable.start), (graph.new_value(np.int64, (), weak=True), item)
        if iterable.__class__ is GraphZip:
            parts = [self._iteration(it, st) for it in iterable.iterables]
            return ("zip", *[p[0] for p in parts]), tuple(p[1] for p in parts)
        raise TypeError(f"autograph.function cannot loop over {staging.describe(iterable, self)} "
                        f"in a graph")

    # --- builtins ---------------------------------------------------------------------
    def range_(self, start, stop, step):
        return GraphRange(start, stop, step)

    def enumerate_(self, iterable, start):
        if isinstance(iterable, _OWNED):
            return GraphEnumerate(iterable, start)
        return enumerate(iterable, start)

    def zip_(self, iterables, strict):
        if all(isinstance(it, _OWNED) for it in iterables):
            return GraphZip(iterables)
        return zip(*iterables)

    def len_(self, value):
        if value.__class__ is Tensor:
            if value.shape and value.shape[0] is not None:
                return value.shape[0]
            return trace.record("call", len, (value,), weak_result=True)
        return len(value)

    def getitem(self, target, index):
        """``target[index]``: an array made while tracing (``c = np.arange(4.0) / 4``),
        indexed by a tensor, is a constant of the graph's op."""
        if isinstance(target, np.ndarray):
            result = trace.record("getitem", None, (target, index), data_dependent=has_mask(index))
            if result.__class__ is Tensor and is_view(index, result):
                result._view = (target, index)  # NumPy's view: a write through it is refused
            return result
        return target[index]

    def setitem(self, target, index, value):
        return writes.setitem(target, index, value)

    def assert_stmt(self, cond, message):
        st = trace.current()
        c = staging.predicate(self, cond, "assert statement", message)
        mb = Block()
        msg = _in(mb, (lambda: message()) if message is not None else (lambda: None))
        mb.results = [trace.to_value(msg, st)]
        st.append(Op("assert", None, (c,), {}, [], None, {"message": mb},
                     source=trace.user_source(), effect=True))

    def print_(self, args, sep, end, file, flush):
        st = trace.current()
        items = trace.to_value(tuple(args), st)
        kwargs = {"sep": sep, "end": end, "file": file, "flush": flush}
        st.append(Op("print", None, items, kwargs, [], None, source=trace.user_source(),
                     effect=True))

    # --- numerical code (issue 22): run-time raises and flags -------------------------
    def raise_(self, exc, branch):
        """Raise ``exc`` when the graph runs this branch (``raises``)."""
        raising.record_raise(exc)

    def pair_values(self, label, t, f):
        return maybe_none.pair(label, t, f, self)  # None or a string on one side

    keeps_kinds = True

    def python_kind(self, value):
        from .python_chosen import python_bit

        return python_bit(value)

    def keep_kind(self, result, cond, if_true, if_false, origin):
        if result.__class__ is Tensor:
            from .python_chosen import keep

            keep(result, cond, if_true, if_false, origin)

    def raise_where(self, flag, exc):
        raising.raise_where(flag, exc)

    def eager_type_name(self, value):
        return maybe_none.eager_type_name(value)  # a NumPy scalar's, an array's, a number's

    def show(self, value, conversion):
        return raising.shown(value, conversion)  # a raise shows the run-time value

    def settle(self, label, before, after):
        return maybe_none.settle(label, before, after)  # a string that becomes a choice

    def pair_unbound(self, label, t, f):
        return staged_maybe_none.pair_unbound(label, t, f, self)  # reads raise where unassigned

    def maybe_no_return(self, value, function):
        return staged_maybe_none.NoneOnSomePaths(value.flag, value.value,
                                                 f"the return value of {function}()")

    def numeric(self, name, args, kwargs):
        return numeric.numeric(name, args, kwargs)

    def users_numpy_call(self, fn, args, kwargs):
        result = self.numpy_call(fn, args, kwargs)
        if result.__class__ is Tensor and not result.shape:  # (np.where of scalars: a 0-d array)
            trace.note_zero_d_array(fn, result._value, result._graph)
        return result

    def numpy_call(self, fn, args, kwargs):
        if fn is np.stack and len(args) == 1 and not kwargs:  # a collected list, unchanged
            whole = rows.stacked_rows(args[0])
            if whole is not None:
                return whole
        owner = getattr(fn, "__self__", None)
        if isinstance(owner, np.ndarray):  # T.dot(W) with W a tensor: the tensor's method
            return numeric.numeric("ndarray." + fn.__name__, (owner, *args), kwargs)
        return numeric.numpy_function(fn, args, kwargs)

    def errstate(self, args, kwargs):
        return numeric.GraphErrstate(args, kwargs)

    def catching(self, region):
        return numeric.CatchScope(region)


def _numpy_leaves(label: str, before, spec):
    """``(label, array, slot index)`` of the NumPy arrays (not 0-d) a loop carries in
    ``before`` (a carried variable, or the lists and dicts it holds)."""
    if spec.__class__ is staging.Slot:
        if isinstance(before, np.ndarray) and before.shape:
            yield label, before, spec.index
    elif staging.is_node(before) and staging.is_node(spec):
        for (suffix, item), (_, item_spec) in zip(staging.items(before), staging.items(spec)):
            yield from _numpy_leaves(label + suffix, item, item_spec)


def _memory_of(t: Tensor) -> Tensor:
    """The handle whose memory ``t`` shares: the array its views (``t._view``) lead to."""
    while t._view is not None:
        t = t._view[0]
    return t


def _chosen_argument(value, graph, depth: int = 0):
    """The 0-d argument array (a Value of ``graph.zero_d_arrays``) a staged ``if`` (or
    and/or, a ternary) may have chosen as ``value``, else None."""
    if value.id in graph.zero_d_arrays:
        return value
    op = value.op
    if op is None or op.kind != "cond" or depth > 8:
        return None
    i = next((k for k, out in enumerate(op.outputs) if out is value), None)
    for block in op.blocks.values():
        results = block.results or ()
        if i is not None and i < len(results) and results[i].__class__ is value.__class__:
            found = _chosen_argument(results[i], graph, depth + 1)
            if found is not None:
                return found
    return None


def _iterated_write(carry, seq, block, n_items):
    """The index of the loop variable that is ``seq`` (the array a ``for`` iterates over)
    when the body writes into it (``writes.written_in_block``), else None."""
    if seq.__class__ is not Tensor:
        return None
    befores = list(carry.before) + list(carry.side.before)  # (side: nonlocal names)
    for j, (before, spec) in enumerate(zip(befores, carry.specs)):
        if before is seq and spec.__class__ is staging.Slot:
            k = spec.index
            if writes.written_in_block(block, block.params[n_items + k], block.results[k]):
                if j >= len(carry.before):  # not a value the body is given: refused
                    from .messages import iterated_array_rebound

                    raise iterated_array_rebound(carry.labels[j], carry.where_fn)
                return j
    return None


def _static_length(iterable):
    """The trip count of a staged ``for`` over ``iterable`` where it is static."""
    if iterable.__class__ is Tensor:
        return iterable._value.shape[0] if iterable._value.shape else None
    if iterable.__class__ is GraphEnumerate:
        return _static_length(iterable.iterable)
    if iterable.__class__ is GraphZip:
        lengths = [_static_length(it) for it in iterable.iterables]
        return None if None in lengths else min(lengths)
    return None


def _collect(item, found: list):
    if item.__class__ is Value:
        found.append(item)
    else:
        for x in item:
            _collect(x, found)


def _pattern(item, values):
    """``item``'s structure with its Values replaced, in order, by ``values``."""
    if item.__class__ is Value:
        return next(values)
    return tuple(_pattern(x, values) for x in item)


BACKEND = GraphBackend()
