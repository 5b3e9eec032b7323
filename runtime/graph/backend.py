"""The graph engine as an autograph backend: staged if / while / for and friends.

Converted code hands control flow on a symbolic ``Tensor`` to this backend (see
``autograph.runtime.backends``). Each construct traces its Python bodies into
sub-blocks of the graph and records one op:

- ``if`` → a ``cond`` op; both branches are traced, each carried variable is
  reconciled across them (``merge``), and the compiled code is a Python ``if``;
- ``while`` → a ``while`` op with a test block and a body block sharing the loop
  variables as parameters; ``for`` over a tensor's first axis, over ``range``
  with tensor bounds, or ``enumerate``/``zip`` of those → a ``for`` op. A loop is
  traced until its variables settle: a Python scalar that becomes an array, or a
  return value that was not set before the loop, changes the loop variables'
  types once and the body is traced again;
- ``and``/``or``/ternaries are conds (lazy, like Python); ``not`` is a Python
  ``not`` at run time; ``assert`` and ``print`` are ops with effects.
"""

from __future__ import annotations

import numpy as np

from .. import errors
from .. import staged_raise
from ..backends import Backend
from ..staged_raise import RAISED
from ..undefined import NO_RETURN, Undefined
from . import maybe_none, numeric, raising, trace, writes
from .ir import Block, Op, Value
from .merge import (
    as_value,
    castable,
    coerce,
    describe,
    flatten,
    join_shapes,
    same_structure,
    unflatten,
    zeros_like,
)
from .tensor import Tensor


class GraphRange:
    """``range(start, stop, step)`` with a tensor bound, for a staged ``for``."""

    def __init__(self, start, stop, step):
        self.args = (start, stop, step)


class GraphEnumerate:
    def __init__(self, iterable, start):
        self.iterable, self.start = iterable, start


class GraphZip:
    def __init__(self, iterables):
        self.iterables = tuple(iterables)


_OWNED = (Tensor, GraphRange, GraphEnumerate, GraphZip)


def _is_array_like(value) -> bool:
    """A value a graph can hold: a tensor, an array, or a Python number."""
    return isinstance(value, (Tensor, np.ndarray, np.generic, bool, int, float, complex))


def _source(fn):
    code = errors.code_of(fn)
    return (code.co_filename, code.co_firstlineno) if code is not None else trace.user_source()


def _trace_block(state, fn, params=()):
    block = Block(params)
    state.blocks.append(block)
    try:
        result = fn()
    finally:
        state.blocks.pop()
    return block, result


def _condition(cond, state) -> Value:
    """The Value of a condition; its truth must be one element, as NumPy requires."""
    value = as_value(cond, state.graph) if not isinstance(cond, Tensor) else trace.to_value(cond, state)
    shape = value.shape
    if None not in shape and int(np.prod(shape, dtype=np.int64)) != 1:
        raise ValueError("The truth value of an array with more than one element is ambiguous. "
                         "Use a.any() or a.all()")
    return value


class GraphBackend(Backend):
    """Builds graph ops for control flow on symbolic tensors."""

    name = "autograph.function"

    def owns_type(self, cls: type) -> bool:
        return issubclass(cls, _OWNED)

    def is_tracing(self) -> bool:
        return trace.current() is not None

    # --- if -------------------------------------------------------------------------
    def if_stmt(self, cond, body, orelse, state, names):
        st = trace.current()
        c = _condition(cond, st)
        tb, t_out = _trace_block(st, lambda: body(*state))
        fb, f_out = _trace_block(st, lambda: orelse(*state))
        t_out, f_out = tuple(t_out), tuple(f_out)
        outs: list[Value] = []
        merged = []
        for i, (t, f) in enumerate(zip(t_out, f_out)):
            name = names[i] if i < len(names) else "<value>"
            merged.append(self._merge_branches(name, t, f, tb, fb, outs, st, body, orelse))
        if outs or any(op.has_effects() for op in tb.ops + fb.ops):
            st.append(Op("cond", None, (c,), {}, outs, None, {"true": tb, "false": fb},
                         source=_source(body)))
        return tuple(merged)

    def _merge_branches(self, name, t, f, tb, fb, outs, st, body, orelse):
        graph = st.graph
        if t is RAISED or f is RAISED:  # the raising side takes the other's values
            if t is f:
                return t
            t, f = (_raised_fill(f, graph), f) if t is RAISED else (t, _raised_fill(t, graph))
        if t.__class__ is Undefined or f.__class__ is Undefined:
            if t.__class__ is f.__class__:
                return t
            if name in staged_raise.local_names() and maybe_none.assignable(t, f):
                t, f = maybe_none.pair_unbound(name, t, f, graph)  # unbound on one side
            else:
                raise errors.defined_in_one_branch(
                    name, "false" if t.__class__ is Undefined else "true", body)
        if t is NO_RETURN or f is NO_RETURN:
            if t is f or (t is None or f is None):
                return None if t is None or f is None else t
            t, f = (zeros_like(f, graph), f) if t is NO_RETURN else (t, zeros_like(t, graph))
        t, f = maybe_none.pair(name, t, f, graph)  # None on one side, an array on the other
        t_leaves, f_leaves = [], []
        t_tree, f_tree = flatten(t, t_leaves), flatten(f, f_leaves)
        if not same_structure(t_tree, f_tree):
            if t.__class__ is f.__class__ and not isinstance(t, (tuple, list, dict)):
                raise errors.python_values_differ(name, body, t)
            raise errors.branch_mismatch(name, body, describe(t), describe(f))
        merged = []
        for a, b in zip(t_leaves, f_leaves):
            if a is b or (a.__class__ is b.__class__ and a.__class__ in (bool, int, float, complex)
                          and a == b):
                merged.append(a)
                continue
            if a.__class__ is b.__class__ and not _is_array_like(a):
                raise errors.python_values_differ(name, body, a)
            va, vb = as_value(a, graph), as_value(b, graph)
            if va.dtype != vb.dtype or va.weak != vb.weak:
                if va.weak and not vb.weak and (va.dtype == vb.dtype or castable(va, vb.dtype)):
                    va = coerce(va, vb.dtype, tb, graph)
                elif vb.weak and not va.weak and (va.dtype == vb.dtype or castable(vb, va.dtype)):
                    vb = coerce(vb, va.dtype, fb, graph)
                elif va.weak and vb.weak and va.dtype.kind != "b" and vb.dtype.kind != "b":
                    va, vb = numeric.weak_join(va, vb, tb, fb, graph)  # int and float: a float
                else:
                    raise errors.branch_mismatch(name, body, describe(a), describe(b))
            shape = join_shapes(va.shape, vb.shape)
            if shape is None:
                raise errors.branch_mismatch(name, body, describe(a), describe(b))
            out = graph.new_value(va.dtype, shape, weak=va.weak and vb.weak)
            tb.results.append(va)
            fb.results.append(vb)
            outs.append(out)
            merged.append(Tensor(out, graph))
        return unflatten(t_tree, merged)

    def if_exp(self, cond, if_true, if_false):
        (value,) = self.if_stmt(cond, lambda: (if_true(),), lambda: (if_false(),), (),
                                ("<conditional expression>",))
        return value

    def and_(self, value, rest):
        return self.if_exp(value, rest, lambda: value)

    def or_(self, value, rest):
        return self.if_exp(value, lambda: value, rest)

    def not_(self, value):
        _condition(value, trace.current())
        return trace.record("unop", "not", (value,), weak_result=True)

    # --- loops ----------------------------------------------------------------------
    def while_stmt(self, test, body, state, names, cond):
        return self._loop("while loop", None, test, body, state, names, None)

    def for_stmt(self, iterable, body, state, names, extra_test):
        return self._loop("for loop", iterable, None, body, state, names, extra_test)

    def _loop(self, construct, iterable, test, body, state, names, extra_test):
        st = trace.current()
        graph = st.graph
        init = list(state)
        names = tuple(names) + tuple(f"<state {i}>" for i in range(len(names), len(init)))
        strong: dict = {}  # (variable index, leaf index) whose Python scalar became an array -> its dtype
        for _attempt in range(8):
            params, carried, specs = self._loop_params(init, strong, graph)
            iter_desc, item = self._iteration(iterable, st) if iterable is not None else (None, None)
            item_params = []
            if item is not None:
                _collect(item, item_params)
            tb = None
            if test is not None:
                tb, c = _trace_block(st, lambda: test(*carried), params)
                tb.results = [_condition(c, st)]
            bb = Block(item_params + params)
            st.blocks.append(bb)
            try:
                out = tuple(body(*carried) if item is None else body(trace.wrap(item, st), *carried))
                flag = extra_test(*out) if extra_test is not None else None
            finally:
                st.blocks.pop()
            changed = self._settle(construct, body, names, init, out, specs, strong, graph)
            if not changed:
                break
        else:
            raise errors.StagingError(f"{construct} at {errors.where(body)}: the loop variables "
                                      f"did not settle to fixed types after 8 traces.")
        return self._finish(construct, iterable, iter_desc, item, tb, bb, init, out, specs, flag,
                            params, st, body)

    def _loop_params(self, init, strong, graph):
        """Placeholders for the loop variables: (params, values for the body, leaf specs)."""
        params, carried, specs = [], [], []
        for i, v in enumerate(init):
            if v.__class__ is Undefined or v is NO_RETURN:
                carried.append(v)
                specs.append(None)
                continue
            leaves = []
            tree = flatten(v, leaves)
            leaf_specs, tensors = [], []
            for j, leaf in enumerate(leaves):
                value = as_value(leaf, graph)
                if value.weak and (i, j) in strong:
                    p = graph.new_value(strong[(i, j)], value.shape, weak=False)
                else:
                    p = graph.new_value(value.dtype, value.shape, weak=value.weak)
                params.append(p)
                leaf_specs.append(p)
                tensors.append(Tensor(p, graph))
            carried.append(unflatten(tree, tensors))
            specs.append((tree, leaf_specs))
        return params, carried, specs

    def _settle(self, construct, body, names, init, out, specs, strong, graph) -> bool:
        """Check one traced iteration against the loop variables; True if they must change."""
        changed = False
        for i, (v, o) in enumerate(zip(init, out)):
            name = names[i]
            if v.__class__ is Undefined:
                if o.__class__ is not Undefined and o is not NO_RETURN:
                    raise errors.undefined_loop_variable(name, construct, body)
                continue
            if v is NO_RETURN:
                if o is not NO_RETURN and o is not None:
                    init[i] = zeros_like(o, graph)
                    changed = True
                continue
            tree, leaf_specs = specs[i]
            leaves = []
            o_tree = flatten(o, leaves) if o.__class__ is not Undefined else None
            if o_tree is None or not same_structure(tree, o_tree):
                if v.__class__ is list and o.__class__ is list and len(v) != len(o):
                    raise errors.list_length_changed(name, construct, body, len(v), len(o))
                raise errors.loop_variable_changed(name, construct, body, describe(v), describe(o))
            for j, (p, leaf) in enumerate(zip(leaf_specs, leaves)):
                ov = as_value(leaf, graph)
                if p.weak and not ov.weak:
                    # A Python scalar that the body turns into an array (0 + int32 array):
                    # carry the array's dtype from the start, as NumPy's promotion would.
                    strong[(i, j)] = ov.dtype
                    changed = True
                elif ov.dtype != p.dtype and not (castable(ov, p.dtype) and not p.weak):
                    raise errors.loop_variable_changed(name, construct, body, p.type_str(),
                                                       ov.type_str())
                if len(ov.shape) != len(p.shape) or any(
                        d is not None and d != e for d, e in zip(p.shape, ov.shape)):
                    raise errors.loop_variable_changed(name, construct, body, p.type_str(),
                                                       ov.type_str())
        return changed

    def _finish(self, construct, iterable, iter_desc, item, tb, bb, init, out, specs, flag,
                params, st, body):
        graph = st.graph
        outer = st.blocks[-1]
        init_values, outputs, results = [], [], []
        final = []
        for i, (v, o) in enumerate(zip(init, out)):
            if specs[i] is None:
                final.append(v)
                continue
            tree, leaf_specs = specs[i]
            v_leaves, o_leaves = [], []
            flatten(v, v_leaves)
            flatten(o, o_leaves)
            tensors = []
            for p, a, b in zip(leaf_specs, v_leaves, o_leaves):
                va, vb = as_value(a, graph), as_value(b, graph)
                if va.weak and not p.weak:
                    va = coerce(va, p.dtype, outer, graph)
                if vb.weak and not p.weak:
                    vb = coerce(vb, p.dtype, bb, graph)
                init_values.append(va)
                results.append(vb)
                out_value = graph.new_value(p.dtype, p.shape, weak=p.weak)
                outputs.append(out_value)
                tensors.append(Tensor(out_value, graph))
            final.append(unflatten(tree, tensors))
        bb.results = results
        blocks = {"body": bb}
        kwargs = {}
        if tb is not None:
            blocks["test"] = tb
        if flag is not None:
            bb.results = results + [_condition(flag, st)]
            kwargs["extra"] = True
        args = (init_values,) if iter_desc is None else (iter_desc, init_values)
        if item is not None:
            bb.pattern = item
        kind = "while" if iterable is None else "for"
        st.append(Op(kind, None, args, kwargs, outputs, None, blocks, source=_source(body)))
        return tuple(final)

    def _iteration(self, iterable, st):
        """(iteration descriptor with Values, item structure of new params)."""
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
        raise TypeError(f"autograph.function cannot loop over {describe(iterable)} in a graph")

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

    def setitem(self, target, index, value):
        return writes.setitem(target, index, value)

    def assert_stmt(self, cond, message):
        st = trace.current()
        c = _condition(cond, st)
        mb, msg = _trace_block(st, (lambda: message()) if message is not None else (lambda: None))
        mb.results = [trace.to_value(msg, st)]
        st.append(Op("assert", None, (c,), {}, [], None, {"message": mb},
                     source=trace.user_source(), effect=True))

    def print_(self, args, sep, end, file, flush):
        st = trace.current()
        items = trace.to_value(tuple(args), st)
        kwargs = {"sep": sep, "end": end, "file": file, "flush": flush}
        st.append(Op("print", None, items, kwargs, [], None, source=trace.user_source(),
                     effect=True))

    # --- numerical code (issue 22): run-time raises ------------------------------------
    def raise_(self, exc, branch):
        """Raise ``exc`` when the graph runs this branch (``staged_raise``)."""
        raising.record_raise(exc)

    def numeric(self, name, args, kwargs):
        return numeric.numeric(name, args, kwargs)

    def errstate(self, args, kwargs):
        return numeric.GraphErrstate(args, kwargs)


def _raised_fill(value, graph):
    return staged_raise.fill(value, lambda v: zeros_like(v, graph) if v.__class__ is Tensor else v)


def _collect(item, found: list):
    if item.__class__ is Value:
        found.append(item)
    else:
        for x in item:
            _collect(x, found)


BACKEND = GraphBackend()
