"""``autograph.function(jit_compile=True)``: a graph lowered to one JAX function, compiled
by XLA once per concrete function (``jax.jit``; again per shape where the signature has
``None`` sizes).

The lowering walks the typed graph and calls ``jax.numpy`` for each op (``xla_ops``: with
NumPy's dtypes kept); ``cond`` becomes ``lax.cond`` (a select of both sides where they are
a few elementwise ops that cannot fail: ``_Program._selectable``), ``while`` and ``for`` become
``lax.while_loop`` (the loop's test is evaluated at the end of each trip, inside the body,
so a test with effects threads them like the body does) — a ``for`` over an array with no
``break`` becomes ``lax.scan`` over it, the program ``jax.jit(ag.convert(f))`` gives —, item
assignment ``.at[].set``, a row of a list a staged loop collects ``.at[i].set``
into a buffer bounded by the loop's trip count or ``maximum_iterations`` (unbounded:
refused). A value whose first dimension is known only at run time (``x[mask]``,
``x[:n]``, a collected list) is a buffer and a count (``xla_ragged``).
Blocks are lexically scoped in the IR, as they are in Python closures, so a branch or
loop body reads the values of enclosing blocks through the closure ``lax`` traces.

The boundary stays the engine's. Effects are state threaded through the program: the
values of the Variables it reads and assigns, an error code, and one payload per place
that may fail — a staged ``raise`` (the values its message shows), an ``assert``, an
index out of bounds, a ``math`` domain error, a singular matrix. Once the code is set, no
later failure replaces it, loops stop, and later assignments and prints are skipped; the
host then raises the same class with the same message, after updating the Variables as
far as the eager run got. ``autograph.print`` outside loops comes back as payload and is
printed by the host in program order; inside a loop it is an ordered
``jax.debug.callback``.
"""

from __future__ import annotations

import functools
import sys

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

from ....staging.errors import StagingError
from ..ir import Value, VarRef, map_values
from ..numeric import errstate_enter, errstate_exit
from ..raising import raise_copy
from ..render import Namer, expr
from . import xla_ops, xla_ragged
from .common import argument_leaves, fetch, output_values, rebuild, refuse, walk
from .xla_ops import OPTION
from .xla_ragged import Ragged

_SIMPLE = ("call", "binop", "unop", "method", "attr", "getitem", "pycast")
_SELECT_OPS, _SELECT_SIZE = 8, 1024  # a staged if this small is a select (``_selectable``)
_LINALG = {np.linalg.inv: "Singular matrix", np.linalg.solve: "Singular matrix",
           np.linalg.cholesky: "Matrix is not positive definite"}


class _Site:
    """One place the program may fail. ``slots``: the ``(dtype, shape)`` of its payload;
    ``throw`` raises the user's exception from the payload's values."""

    __slots__ = ("exc", "kind", "op", "slots")

    def __init__(self, kind: str, op, exc=None, slots=()):
        self.kind, self.op, self.exc, self.slots = kind, op, exc, list(slots)

    def exception(self, values) -> BaseException:
        """The exception the eager run raises here, made from the payload's values."""
        if self.kind == "raise":
            args = self.op.args
            shown = [_python(v, value.weak) for v, value in zip(values, args[2])] \
                if len(args) == 3 else ()
            try:
                raise_copy(args[0], args[1] if len(args) == 3 else None, shown)
            except BaseException as made:  # noqa: BLE001 (the user's exception, any class)
                return made
        if self.kind == "assert":
            message = self.op.blocks["message"].results[0]
            if message.__class__ is Value and message.const is None:
                message = _python(values[0], message.weak)
            elif message.__class__ is Value:
                message = message.const
            return AssertionError() if message is None else AssertionError(message)
        if self.kind == "index":
            index, axis, size = (int(v) for v in values)
            return IndexError(f"index {index} is out of bounds for axis {axis} with size {size}")
        if self.kind == "count":
            given, wanted = (int(v) for v in values)
            return ValueError(f"NumPy boolean array indexing assignment cannot assign {given} "
                              f"input values to the {wanted} output values where the mask is "
                              f"true")
        return type(self.exc)(*self.exc.args)

    def throw(self, values):
        """Raise the exception from a frame at the user's line, as the NumPy code does."""
        exc = self.exception(values).with_traceback(None)
        exc.__context__ = None
        _thrower(self.op.source)(exc)


_THROWERS: dict = {}


def _thrower(source):
    """A function whose ``raise`` statement sits at the user's ``(file, line)``: a
    traceback ends at the user's line, not in the lowering."""
    thrower = _THROWERS.get(source)
    if thrower is None:
        filename, line = source if source else ("<autograph xla>", 1)
        namespace: dict = {}
        exec(compile("\n" * (line - 1) + "def raise_(exc): raise exc", filename, "exec"),
             namespace)
        thrower = _THROWERS[source] = namespace["raise_"]
    return thrower


def _python(value, weak: bool):
    """A run-time value as the NumPy code would hold it: a NumPy scalar for a 0-d array."""
    value = np.asarray(value)
    if value.ndim:
        return np.array(value)
    return value.item() if weak else value[()]


def _known(shape) -> bool:
    return None not in shape


class _Program:
    """The graph as a function of ``(inputs, variables)`` that ``jax.jit`` traces."""

    def __init__(self, graph, layout):
        self.graph = graph
        leaves = argument_leaves(layout)
        self.inputs = [(i, path, leaf) for i, path, leaf in leaves if leaf.__class__ is Value]
        self.var_args = [(i, path, leaf.name) for i, path, leaf in leaves
                         if leaf.__class__ is VarRef]
        self.outputs = output_values(graph)
        ops = list(walk(graph.body))
        self.assigned = sorted({op.target.name for op, _ in ops if op.kind == "assign"})
        self.prints = [op for op, _ in ops if op.kind == "print"]
        self.print_by_callback = any(loop for op, loop in ops if op.kind == "print") or any(
            a.__class__ is Value and not _known(a.shape) for op in self.prints for a in op.args)
        self.sites, self.site_of = [], {}
        for op, _ in ops:
            self._note_sites(op)
        self.plain = not (self.sites or self.assigned or self.prints)

    # --- what may fail ----------------------------------------------------------------
    def _site(self, key, site: _Site) -> None:
        self.sites.append(site)
        self.site_of[key] = len(self.sites)

    def _note_sites(self, op) -> None:
        kind, target = op.kind, op.target
        if kind == "call" and target is raise_copy:
            shown = op.args[2] if len(op.args) == 3 else ()
            for value in shown:
                if not _known(value.shape):
                    raise refuse(OPTION, "a raise", op, f"shows {value.name}, whose shape is "
                                 f"known only at run time, in its message", "Show a scalar "
                                 "(its sum, its first item) or call it without "
                                 "jit_compile=True.")
            self._site((id(op), 0), _Site("raise", op, slots=[(v.dtype, v.shape) for v in shown]))
        elif kind == "assert":
            message = op.blocks["message"].results[0]
            staged = message.__class__ is Value and message.const is None
            if staged and not _known(message.shape):
                raise refuse(OPTION, "an assert", op, "shows a value whose shape is known only "
                             "at run time in its message", "Show a scalar, or call it "
                             "without jit_compile=True.")
            self._site((id(op), 0), _Site("assert", op, slots=[(message.dtype, message.shape)]
                                          if staged else []))
        elif kind in ("getitem", "setitem") and _staged_ints(op.args[1]) or (
                kind == "getitem" and xla_ragged.leading_unknown(op.args[0])
                and op.args[1].__class__ is int):
            self._site((id(op), 0), _Site("index", op, slots=[(np.int64, ())] * 3))
        elif kind == "setitem" and xla_ops.mask_of(op.args[1]) is not None:
            self._site((id(op), 0), _Site("count", op, slots=[(np.int64, ())] * 2))
        elif xla_ragged.reduction_name(op) in xla_ragged.NO_IDENTITY and op.args and \
                xla_ragged.leading_unknown(op.args[0]):
            name = xla_ragged.NO_IDENTITY[xla_ragged.reduction_name(op)]
            self._site((id(op), 0), _Site("fixed", op, ValueError(
                f"zero-size array to reduction operation {name} which has no identity")))
        elif kind == "call" and target in _LINALG:
            self._site((id(op), 0), _Site("fixed", op, np.linalg.LinAlgError(_LINALG[target])))
        elif kind == "call" and getattr(target, "__module__", None) == "math":
            self._site((id(op), 0), _Site("fixed", op, ValueError("math domain error")))
            self._site((id(op), 1), _Site("fixed", op, OverflowError("math range error")))
        elif kind == "for" and _staged_step(op.args[0]):
            self._site((id(op), 0), _Site("fixed", op,
                                          ValueError("range() arg 3 must not be zero")))

    # --- the traced function ----------------------------------------------------------
    def __call__(self, inputs, variables):
        env = {leaf.id: x for (_, _, leaf), x in zip(self.inputs, inputs)}
        state = {"err": jnp.int32(0), "vars": dict(variables),
                 "pay": tuple(tuple(jnp.zeros(shape, dtype) for dtype, shape in site.slots)
                              for site in self.sites),
                 "printed": tuple(self._print_payload(op) for op in self.prints)
                 if not self.print_by_callback else ()}
        state = self.block(self.graph.body, env, state)
        outs = [self.get(env, v) for v in self.outputs]
        if self.plain:
            return outs, None
        return outs, {k: state[k] for k in ("err", "pay", "printed")} | {
            "vars": {name: state["vars"][name] for name in self.assigned}}

    def _print_payload(self, op):
        return (jnp.array(False),) + tuple(jnp.zeros(a.shape, a.dtype) for a in op.args
                                           if a.__class__ is Value and a.const is None)

    def get(self, env, obj):
        if obj.__class__ is Value:
            if obj.const is not None:
                return jnp.asarray(obj.const, obj.dtype)
            return env[obj.id]
        return obj

    def resolve(self, env, structure):
        return map_values(structure, lambda v: self.get(env, v))

    def block(self, block, env, state):
        for op in block.ops:
            state = self.op(op, env, state)
        return state

    def op(self, op, env, state):
        try:
            return self._op(op, env, state)
        except StagingError:
            raise
        except Exception as error:  # a twin that refuses these arguments, a shape mismatch
            text = str(error).strip().splitlines()[0] if str(error).strip() else ""
            raise refuse(OPTION, f"the op {_describe(op)}", op, f"cannot be lowered to JAX "
                         f"({type(error).__name__}: {text})", "Call it without "
                         "jit_compile=True (its NumPy graph runs it).") from None

    def _op(self, op, env, state):
        kind = op.kind
        if kind == "call" and op.target in (errstate_enter, errstate_exit):
            return state  # only quiet regions get here (xla_ops.refusal)
        if kind == "call" and op.target is raise_copy:
            shown = self.resolve(env, op.args[2]) if len(op.args) == 3 else ()
            return self.fail(state, self.site_of[(id(op), 0)], jnp.array(True), shown)
        if kind in _SIMPLE:
            result, state = self._simple(op, env, state)
            _bind(op.out_tree, result, env)
            return state
        if kind == "setitem":
            out, state = self._setitem(op, env, state)
            env[op.outputs[0].id] = out
            return state
        if kind == "read":
            env[op.outputs[0].id] = state["vars"][op.target.name]
            return state
        if kind == "assign":
            return self._assign(op, env, state)
        if kind == "print":
            return self._print(op, env, state)
        if kind == "assert":
            return self._assert(op, env, state)
        if kind == "cond":
            return self._cond(op, env, state)
        if kind == "while":
            return self._while(op, env, state)
        if kind == "for":
            return self._for(op, env, state)
        raise ValueError(f"no XLA lowering for op kind {kind!r}")  # refusal() said it first

    # --- simple ops -------------------------------------------------------------------
    def _simple(self, op, env, state):
        args = self.resolve(env, op.args)
        kwargs = self.resolve(env, op.kwargs)
        if xla_ragged.contains(args) or xla_ragged.contains(kwargs) or _makes_ragged(op):
            return self._ragged(op, args, kwargs, state)
        return self._compute(op, args, kwargs, state)

    def _compute(self, op, args, kwargs, state):
        kind = op.kind
        if kind == "binop":
            return xla_ops.binop(op, args), state
        if kind == "unop":
            return xla_ops.unop(op, args[0]), state
        if kind == "attr":
            x = args[0]
            if op.target == "mT":
                return jnp.swapaxes(x, -1, -2), state
            return getattr(jnp.asarray(x), op.target), state
        if kind == "getitem":
            state = self._check_index(op, args[0], args[1], state)
            return jnp.asarray(args[0])[args[1]], state
        if kind == "pycast":
            return xla_ops.pycast(op, args[0]), state
        if kind == "method":
            return xla_ops.method(op, jnp.asarray(args[0]), args[1:], kwargs), state
        result = xla_ops.call(op, list(args), kwargs)
        if op.target in _LINALG:
            finite = jnp.all(jnp.array([jnp.all(jnp.isfinite(a)) for a in args]))
            bad = finite & ~jnp.all(jnp.isfinite(result))
            state = self.fail(state, self.site_of[(id(op), 0)], bad)
        for j, (bad, _) in enumerate(xla_ops.math_failure(op, args, result)):
            state = self.fail(state, self.site_of[(id(op), j)], bad)
        return result, state

    def _ragged(self, op, args, kwargs, state):
        """An op that makes or reads a value of run-time length (``xla_ragged``)."""
        kind, key, raw = op.kind, id(op), op.args
        if kind == "getitem":
            x, index = args
            if xla_ops.staged_stop(op):  # x[:n] and y[:n] have one length if x and y do
                if x.__class__ is not Ragged:
                    key = ("stop", raw[1].stop.id, jnp.shape(x)[0])
                return xla_ragged.prefix(x, index.stop, key), state
            mask = xla_ops.mask_of(raw[1])
            if x.__class__ is not Ragged and mask is not None:  # one mask, one length
                return xla_ragged.select(x, index, ("mask", mask.id) if mask.__class__ is Value
                                         else key), state
            if x.__class__ is Ragged and (raw[1].__class__ is int or raw[1].__class__ is Value
                                          and raw[1].dtype.kind in "iu" and not raw[1].shape):
                row, bad, payload = xla_ragged.item(x, index)
                return row, self.fail(state, self.site_of[(id(op), 0)], bad, payload)
            raise xla_ragged.refused(op, "is indexed with something other than one integer",
                                     "Index it with an integer, or reduce it")
        name = xla_ragged.reduction_name(op)
        if name is not None and args[0].__class__ is Ragged and not xla_ragged.contains(args[1:]):
            rest = list(args[1:]) + [None] * 3
            axis = kwargs.get("axis", rest[0])
            if name in xla_ragged.NO_IDENTITY:
                state = self.fail(state, self.site_of[(id(op), 0)], args[0].n == 0)
            return xla_ragged.reduction(op, name, args[0], axis, kwargs.get("keepdims", False),
                                        op.outputs[0].dtype), state
        if kind == "call" and op.target is len and args[0].__class__ is Ragged:
            return args[0].n, state
        if kind == "call" and op.target is np.concatenate and kwargs.get("axis", 0) == 0 \
                and len(args) == 1 and args[0].__class__ in (tuple, list):
            return xla_ragged.concatenate(args[0], key), state
        if _elementwise(op) and not xla_ragged.contains(kwargs):
            values, (n, same) = xla_ragged.operands(op, raw, args)
            result, state = self._compute(op, values, kwargs, state)
            if result.__class__ is tuple:
                return tuple(Ragged(r, n, same) for r in result), state
            return Ragged(result, n, same), state
        raise xla_ragged.refused(op, f"is read by {_describe(op)}, which needs its length "
                                     f"when compiling", "Compute elementwise, reduce it (sum, "
                                     "mean, max, min, prod, any, all) or index it with an "
                                     "integer")

    def _check_index(self, op, x, index, state):
        """An integer index out of bounds: NumPy's IndexError (XLA would clamp it)."""
        key = (id(op), 0)
        if key not in self.site_of:
            return state
        raw = op.args[1] if op.args[1].__class__ is tuple else (op.args[1],)
        items = index if index.__class__ is tuple else (index,)
        consuming = sum(1 for r in raw if r is not None and r is not Ellipsis)
        axis = 0
        for r, item in zip(raw, items):
            if r is None:
                continue
            if r is Ellipsis:
                axis += jnp.ndim(x) - consuming
                continue
            if r.__class__ is Value and r.const is None and r.dtype.kind in "iu":
                size = jnp.shape(x)[axis]
                idx = jnp.ravel(jnp.asarray(item, jnp.int64))
                out = (idx < -size) | (idx >= size)
                first = idx[jnp.argmax(out)] if idx.shape[0] else jnp.int64(0)
                state = self.fail(state, self.site_of[key], jnp.any(out),
                                  (first, jnp.int64(axis), jnp.int64(size)))
            axis += 1
        return state

    def _setitem(self, op, env, state):
        target, index, value = self.resolve(env, op.args)
        if target.__class__ is Ragged or index.__class__ is Ragged:
            raise xla_ragged.refused(op, "is written into, or indexes a write", "Write into a "
                                     "whole array, under a mask")
        x = jnp.asarray(target)
        mask = xla_ops.mask_of(op.args[1])
        if mask is not None and (value.__class__ is Ragged or not xla_ops.where_fits(op)):
            new, bad, payload = xla_ragged.scatter(x, index, value)
            return new, self.fail(state, self.site_of[(id(op), 0)], bad, payload)
        if mask is not None:
            m = jnp.asarray(index if index.__class__ is not tuple else index[0])
            m = jnp.reshape(m, m.shape + (1,) * (x.ndim - m.ndim))
            return jnp.where(m, jnp.asarray(value).astype(x.dtype), x), state
        state = self._check_index(op, x, index, state)
        return x.at[index].set(jnp.asarray(value).astype(x.dtype)), state

    # --- effects ----------------------------------------------------------------------
    def fail(self, state, k: int, bad, payload=()):
        """``state`` with failure ``k`` recorded where ``bad`` and nothing failed before."""
        first = bad & (state["err"] == 0)
        pay = list(state["pay"])
        pay[k - 1] = tuple(
            jnp.where(first, jnp.broadcast_to(jnp.asarray(p).astype(dtype), shape), old)
            for p, old, (dtype, shape) in zip(payload, pay[k - 1], self.sites[k - 1].slots))
        return dict(state, err=jnp.where(first, jnp.int32(k), state["err"]), pay=tuple(pay))

    def _assign(self, op, env, state):
        name = op.target.name
        old = state["vars"][name]
        new = jnp.asarray(self.get(env, op.args[0])).astype(old.dtype)
        if new.shape != old.shape:
            raise ValueError(f"autograph.Variable.assign: the variable has shape {old.shape}, "
                             f"the new value has shape {new.shape}.")
        variables = dict(state["vars"])
        variables[name] = jnp.where(state["err"] == 0, new, old)
        return dict(state, vars=variables)

    def _print(self, op, env, state):
        items = self.resolve(env, op.args)
        staged = [x for a, x in zip(op.args, items) if a.__class__ is Value and a.const is None]
        if not self.print_by_callback:
            k = self.prints.index(op)
            printed = list(state["printed"])
            printed[k] = (state["err"] == 0,) + tuple(staged)
            return dict(state, printed=tuple(printed))
        host = _host_print(op)
        lax.cond(state["err"] == 0, lambda: jax.debug.callback(host, *staged, ordered=True),
                 lambda: None)
        return state

    def _assert(self, op, env, state):
        condition = op.args[0]
        if condition.__class__ is not Value or condition.const is not None:
            if bool(np.asarray(self.get(env, condition))):
                return state
        k = self.site_of[(id(op), 0)]
        block = op.blocks["message"]
        staged = bool(self.sites[k - 1].slots)

        def failing(st):
            inner = dict(env)
            st = self.block(block, inner, st)
            shown = (self.get(inner, block.results[0]),) if staged else ()
            return self.fail(st, k, jnp.array(True), shown)

        ok = xla_ops.truth(self.get(env, condition))
        return lax.cond(~ok & (state["err"] == 0), failing, lambda st: st, state)

    # --- control flow -----------------------------------------------------------------
    def _run_block(self, block, env, state, outputs):
        """Run ``block`` in a scope of its own; its results fitted to ``outputs``."""
        inner = dict(env)
        state = self.block(block, inner, state)
        return [_fit(self.get(inner, r), out) for r, out in zip(block.results, outputs)], state

    def _cond(self, op, env, state):
        pred = op.args[0]
        outs = op.outputs
        if pred.__class__ is not Value or pred.const is not None:  # known while lowering
            label = "true" if bool(np.asarray(self.get(env, pred))) else "false"
            results, state = self._run_block(op.blocks[label], env, state, outs)
        else:
            def branch(label, bounds=None):
                def run(st):
                    results, st = self._run_block(op.blocks[label], env, st, outs)
                    if bounds is not None:
                        results = [r if b is None else xla_ragged.padded(r, b)
                                   for r, b in zip(results, bounds)]
                    return results, st
                return run

            bounds = None
            if self._selectable(op):
                pred = xla_ops.truth(self.get(env, pred))
                sides = [self._run_block(op.blocks[label], env, state, outs)[0]
                         for label in ("true", "false")]
                for out, t, f in zip(outs, *sides):
                    env[out.id] = jnp.where(pred, t, f)
                return state
            if any(xla_ragged.leading_unknown(o) for o in outs):
                # a value of run-time length leaves the if: both branches give it as one
                # buffer of the larger bound (a branch may give a plain array, or none)
                shapes = [jax.eval_shape(branch(label), state)[0] for label in ("true", "false")]
                bounds = [max(t.shape[0], f.shape[0]) if xla_ragged.leading_unknown(o) else None
                          for o, t, f in zip(outs, *shapes)]
            results, state = lax.cond(xla_ops.truth(self.get(env, pred)),
                                      branch("true", bounds), branch("false", bounds), state)
        for out, r in zip(outs, results):
            env[out.id] = r
        return state

    def _selectable(self, op) -> bool:
        """Whether a staged ``if`` is better as a select of both branches' values than a
        ``lax.cond`` (whose dispatch costs some 10 µs a call): each branch a few elementwise
        ops on small arrays that cannot fail, nothing else. Both then run: a value the
        branch not taken makes (a NaN, an inf) is computed and dropped, as XLA traps none."""
        ops = [o for label in ("true", "false") for o, _ in walk(op.blocks[label])]
        return len(ops) <= _SELECT_OPS and all(
            _elementwise(o) and (id(o), 0) not in self.site_of for o in ops) and all(
            _small(v) for o in ops for v in o.outputs) and all(_small(v) for v in op.outputs)

    def _while(self, op, env, state):
        (inits,) = op.args
        test, body = op.blocks["test"], op.blocks["body"]
        params = body.params
        start = [_fit(self.get(env, x), p) for x, p in zip(inits, params)]

        def check(carry, st):
            inner = dict(env)
            inner.update((p.id, c) for p, c in zip(test.params, carry))
            st = self.block(test, inner, st)
            return xla_ops.truth(self.get(inner, test.results[0])), st

        def step(loop):
            carry, _, st = loop
            inner = dict(env)
            inner.update((p.id, c) for p, c in zip(params, carry))
            results, st = self._run_block(body, inner, st, params)
            _same_shapes(op, results, start, params)
            go, st = check(results, st)
            return results, go, st

        go, state = check(start, state)
        carry, _, state = lax.while_loop(lambda loop: loop[1] & (loop[2]["err"] == 0), step,
                                         (start, go, state))
        for out, c in zip(op.outputs, carry):
            env[out.id] = c
        return state

    def _for(self, op, env, state):
        desc, inits = op.args
        body = op.blocks["body"]
        items = _count(body.pattern)
        params = body.params[items:]
        extra = op.kwargs.get("extra", False)
        results = body.results[:-1] if extra else body.results
        length, item_at, state = self._iteration(op, desc, env, state)
        start = [_fit(self.get(env, x), p) for x, p in zip(inits, params)]

        def trip(item, carry, st):
            inner = dict(env)
            _bind_pattern(body.pattern, item, inner)
            inner.update((p.id, c) for p, c in zip(params, carry))
            st = self.block(body, inner, st)
            new = [_fit(self.get(inner, r), p) for r, p in zip(results, params)]
            _same_shapes(op, new, start, params)
            go = xla_ops.truth(self.get(inner, body.results[-1])) if extra else jnp.array(True)
            return new, go, st

        def step(loop):
            i, carry, _, st = loop
            new, go, st = trip(item_at(i), carry, st)
            return i + 1, new, go, st

        if not extra and length.__class__ is int:
            # a known trip count and no break: a scan (over the array itself when the
            # loop iterates over one), which XLA runs without a test per trip
            def scan_step(loop, item):
                carry, st = loop
                if desc[0] != "iter" or not length:  # (no trip: a stand-in item)
                    item = item_at(item)
                new, _, st = trip(item, carry, st)
                return (new, st), None

            xs = jnp.asarray(self.get(env, desc[1])) if desc[0] == "iter" and length \
                else jnp.arange(length)
            (carry, state), _ = lax.scan(scan_step, (start, state), xs, length=length)
            for out, c in zip(op.outputs, carry):
                env[out.id] = c
            return state
        loop = (jnp.int64(0), start, jnp.array(True), state)
        _, carry, _, state = lax.while_loop(
            lambda lp: (lp[0] < length) & lp[2] & (lp[3]["err"] == 0), step, loop)
        for out, c in zip(op.outputs, carry):
            env[out.id] = c
        return state

    def _iteration(self, op, desc, env, state):
        """``(trip count, i -> item structure, state)`` of a loop's iteration descriptor."""
        kind = desc[0]
        if kind == "iter":
            x = jnp.asarray(self.get(env, desc[1]))
            if not x.shape[0]:  # no trip: the body is traced on a stand-in item
                return 0, lambda i: jnp.zeros(x.shape[1:], x.dtype), state
            return x.shape[0], lambda i: lax.dynamic_index_in_dim(x, i, 0, keepdims=False), state
        if kind == "range":
            start, stop, step = (jnp.asarray(self.get(env, b), jnp.int64) for b in desc[1:])
            if (id(op), 0) in self.site_of:
                state = self.fail(state, self.site_of[(id(op), 0)], step == 0)
                step = jnp.where(step == 0, 1, step)
            up = jnp.maximum(0, (stop - start + step - 1) // jnp.maximum(step, 1))
            down = jnp.maximum(0, (start - stop - step - 1) // jnp.maximum(-step, 1))
            return jnp.where(step > 0, up, down), lambda i: start + i * step, state
        if kind == "enumerate":
            n, inner, state = self._iteration(op, desc[1], env, state)
            first = jnp.asarray(self.get(env, desc[2]), jnp.int64)
            return n, lambda i: (first + i, inner(i)), state
        if kind == "zip":
            parts = []
            for d in desc[1:]:
                n, item, state = self._iteration(op, d, env, state)
                parts.append((n, item))
            length = parts[0][0]
            for n, _ in parts[1:]:
                length = jnp.minimum(length, n)
            return length, lambda i: tuple(item(i) for _, item in parts), state
        raise ValueError(f"unknown iteration {kind!r}")


def _small(value) -> bool:
    """A value of known shape with at most ``_SELECT_SIZE`` items."""
    return _known(value.shape) and int(np.prod(value.shape, dtype=np.int64)) <= _SELECT_SIZE


def _makes_ragged(op) -> bool:
    """``x[mask]`` or ``x[:n]`` (staged ``n``): a value of run-time length."""
    return op.kind == "getitem" and (xla_ops.staged_stop(op) or (
        op.args[1].__class__ is not tuple and xla_ops.mask_of(op.args[1]) is not None))


def _elementwise(op) -> bool:
    """An op that keeps the rows of its operands at their places."""
    kind, target = op.kind, op.target
    if kind in ("binop", "unop"):
        return target in xla_ops.ELEMENTWISE_BINOPS or target in ("-", "+", "~", "abs")
    if kind == "call":
        return isinstance(target, np.ufunc) or target in xla_ragged.ELEMENTWISE_CALLS
    return kind == "method" and target in xla_ragged.ELEMENTWISE_METHODS


def _staged_ints(index) -> bool:
    items = index if index.__class__ is tuple else (index,)
    return any(i.__class__ is Value and i.const is None and i.dtype.kind in "iu" for i in items)


def _staged_step(desc) -> bool:
    if desc[0] == "range":
        step = desc[3]
        return step.__class__ is Value and step.const is None
    if desc[0] in ("enumerate",):
        return _staged_step(desc[1])
    if desc[0] == "zip":
        return any(_staged_step(d) for d in desc[1:])
    return False


def _same_shapes(op, new, start, params) -> None:
    """A loop variable must keep its shape from one trip to the next under XLA."""
    for x, s, p in zip(new, start, params):
        if x.shape != s.shape:
            raise refuse(OPTION, f"the {op.kind} loop", op, f"changes the shape of a loop "
                         f"variable ({p.name}) from {s.shape} to {x.shape} in one trip, and XLA "
                         f"compiles loops whose variables keep their shapes", "Call it "
                         "without jit_compile=True (its NumPy graph runs it), or preallocate "
                         "the array at its final size and fill it in the loop.")


def _fit(x, value: Value):
    """``x`` as ``value``'s dtype (and shape, where a weak scalar stands for it)."""
    if x.__class__ is Ragged:
        return x if x.dtype == value.dtype else x.astype(value.dtype)
    x = jnp.asarray(x)
    if x.dtype != value.dtype:
        x = x.astype(value.dtype)
    if _known(value.shape) and x.shape != value.shape:
        x = jnp.broadcast_to(x, value.shape)
    return x


def _bind(tree, result, env) -> None:
    """Give each Value of an op's ``out_tree`` its part of ``result``."""
    if tree.__class__ is Value:
        env[tree.id] = _fit(result, tree)
    elif isinstance(tree, (tuple, list)):
        for t, r in zip(tree, result):
            _bind(t, r, env)


def _bind_pattern(pattern, item, env) -> None:
    if pattern.__class__ is Value:
        env[pattern.id] = _fit(item, pattern)
    else:
        for p, x in zip(pattern, item):
            _bind_pattern(p, x, env)


def _count(pattern) -> int:
    if pattern is None:
        return 0
    if pattern.__class__ is Value:
        return 1
    return sum(_count(p) for p in pattern)


def _describe(op) -> str:
    if op.kind in _SIMPLE:
        return f"`{expr(op, Namer())}`"
    return op.kind


def _on_host(value):
    return xla_ragged.host(value) if value.__class__ is Ragged else value


def _host_print(op):
    """A host function printing ``op``'s items, the staged ones given as arguments."""
    staged = [a.__class__ is Value and a.const is None for a in op.args]
    kwargs = op.kwargs

    def show(*values):
        values = iter(values)
        items = [_python(_on_host(next(values)), a.weak) if s else
                 (np.asarray(a.const) if a.__class__ is Value else a)
                 for a, s in zip(op.args, staged)]
        file = kwargs.get("file")
        print(*items, sep=kwargs.get("sep", " "), end=kwargs.get("end", "\n"),
              file=sys.stdout if file is None else file, flush=kwargs.get("flush", False))

    return show


def _x64_switch():
    """``(on, restore)``: ``on()`` turns JAX's 64-bit mode on in this thread (every program
    here is traced and called with it on: NumPy's dtypes) and returns what ``restore`` puts
    back. ``jax.enable_x64(True)`` as a context manager does the same, but a manager made and
    entered per call costs some 3 µs, a quarter of a small program's call; the mode's own
    thread-local swap costs a tenth of that. Where this JAX has no such swap (or runs hooks
    on a switch), its context manager is used."""
    try:
        from jax._src.config import enable_x64 as state

        swap, put_back = state.swap_local, state.set_local
        plain = state._update_thread_local_hook is None
    except (ImportError, AttributeError):
        plain = False
    if plain:
        return functools.partial(swap, True), put_back

    def on():
        manager = jax.enable_x64(True)
        manager.__enter__()
        return manager

    return on, lambda manager: manager.__exit__(None, None, None)


x64_on, x64_restore = _x64_switch()


def compile_graph(graph, layout):
    """The graph as a function of the canonical arguments (``codegen.compile_graph``'s
    calling convention), running one XLA program per call.

    Raises:
        StagingError: an op XLA cannot run (said before anything compiles).
    """
    error = xla_ops.refusal(graph)
    if error is not None:
        raise error
    program = _Program(graph, layout)
    captured, structure = list(graph.captured), graph.outputs
    if program.plain and not captured and not program.var_args:
        return _plain(program, structure, len(layout))
    jitted = jax.jit(program)
    hosts = [_host_print(op) for op in program.prints]
    names = [f"v{k}" for k in range(len(captured))]

    def run(*args):
        inputs = [np.asarray(fetch(args, i, path)) for i, path, _ in program.inputs]
        variables = dict(zip(names, captured))
        variables.update((name, fetch(args, i, path)) for i, path, name in program.var_args)
        previous = x64_on()
        try:
            outs, state = jitted(inputs, {name: v.value for name, v in variables.items()})
        except StagingError as error:  # raised while lowering: without JAX's notes
            raise StagingError(str(error)) from None
        finally:
            x64_restore(previous)
        if state is not None:
            # Flags are read with np.asarray, never int() or bool(): JAX's scalar
            # conversion of an array costs some 30 µs, a NumPy view of it 1-2 µs.
            for name, new in state["vars"].items():
                variables[name].value = np.array(new)
            if program.print_by_callback:
                jax.effects_barrier()
            else:
                for host, (ran, *values) in zip(hosts, state["printed"]):
                    if np.asarray(ran):
                        host(*values)
            err = np.asarray(state["err"])
            if err:
                program.sites[err - 1].throw([np.asarray(p) for p in state["pay"][err - 1]])
        return rebuild(structure, iter(outs), xla_ragged.host)

    run.__autograph_source__, run.__autograph_xla__ = None, jitted  # (its program: tests)
    return run


def _plain(program, structure, nargs: int):
    """The call of a program without effects or failures: arrays in, arrays out, with as
    little Python as possible around the XLA call (the boundary's overhead).

    Every bytecode here counts: after the XLA call's C++ the interpreter runs cold, so a
    line that costs 0.1 µs in a loop of its own costs several times that here. The
    closure is chosen once: the arguments passed through as they came when they are
    exactly the program's inputs, and one output handed back without a list around it.
    """
    single = structure.__class__ is Value and structure.const is None
    if single:
        def one(*inputs):
            return program(inputs, {})[0][0]

        jitted = jax.jit(one)
    else:
        jitted = jax.jit(lambda *inputs: program(inputs, {})[0])
    places = [(i, path) for i, path, _ in program.inputs]
    whole = places == [(i, ()) for i in range(nargs)]
    prefix = len(places) if places == [(i, ()) for i in range(len(places))] else None
    host = np.array if single and _known(structure.shape) else xla_ragged.host

    def call(args):
        if whole:
            return jitted(*args)
        if prefix is not None:
            return jitted(*args[:prefix])
        return jitted(*[fetch(args, i, p) for i, p in places])

    def run_one(*args):
        previous = x64_on()
        try:
            out = jitted(*args)
        except StagingError as error:  # raised while lowering: without JAX's notes
            raise StagingError(str(error)) from None
        finally:
            x64_restore(previous)
        return host(out)

    def run(*args):
        previous = x64_on()
        try:
            outs = call(args)
        except StagingError as error:  # raised while lowering: without JAX's notes
            raise StagingError(str(error)) from None
        finally:
            x64_restore(previous)
        if single:
            return host(outs)
        return rebuild(structure, iter(outs), xla_ragged.host)

    fn = run_one if single and whole else run
    fn.__autograph_source__, fn.__autograph_xla__ = None, jitted
    if single and whole:
        fn.__autograph_inline__ = one  # (``Dispatch``: the arguments in, one array out)
    return fn


class Miss(Exception):
    """Raised out of ``Dispatch.jitted``'s trace: the arguments are not arrays alone, or
    their program has effects or several outputs (``error`` None: the Function's general
    path from now on); or tracing the graph for them raised ``error``."""

    def __init__(self, error=None):
        super().__init__()
        self.error = error


class Dispatch:
    """One ``jax.jit`` per ``autograph.function(jit_compile=True)``: JAX's C++ dispatch
    is the cache of its signatures, with no Python lookup of ours on a call.

    ``jitted`` is called with the Function's arguments. On dtypes and shapes it has not
    seen, JAX traces ``_inline``, which inlines the program of the concrete function
    that ``resolve`` (the Function's own lookup, tracing the graph if there is none)
    gives for them: each program whose arguments are exactly arrays and whose one output
    is an array (the kind ``_plain`` runs), compiled by XLA once, here (the concrete
    function's own ``jax.jit`` is used only when it is called directly). JAX's cache keys
    by each argument's dtype, shape and weak type, as the Function's own key does for
    NumPy arrays; a Python number (weakly typed), a Variable, a list or a string is not
    an array alone, nor is a program with effects the kind inlined here: the first such
    call raises ``Miss`` and the Function looks its graphs up in Python from then on
    (JAX keeps falling back to Python for a function whose trace raised once: the
    dispatch is not used again).
    """

    __slots__ = ("jitted", "on", "programs", "resolve", "restore")

    def __init__(self, resolve):
        self.programs: dict = {}  # ((dtype, shape), ...) -> the program's function
        self.resolve = resolve  # (stand-in arrays) -> a concrete function's code
        self.jitted = jax.jit(self._inline)
        self.on, self.restore = x64_on, x64_restore

    def _inline(self, *inputs):
        try:
            key = tuple([(x.dtype, x.shape) for x in inputs if not x.weak_type])
        except AttributeError:  # a list, a dict or None among the arguments
            raise Miss() from None
        if len(key) != len(inputs):  # a Python number
            raise Miss()
        program = self.programs.get(key)
        if program is None:
            try:  # stand-ins of no memory: arrays are keyed by dtype and shape alone; a
                # 0-d one is a NumPy scalar (the Function never dispatches 0-d arrays here:
                # an in-place operator changes them, and JAX keys them as it keys scalars)
                fn = self.resolve(tuple(np.broadcast_to(np.zeros((), d), s) if s else
                                        np.zeros((), d)[()] for d, s in key))
            except BaseException as error:  # noqa: BLE001 (the trace's own, raised by the caller)
                raise Miss(error) from None
            program = self.programs[key] = getattr(fn, "__autograph_inline__", None)
        if program is None:
            raise Miss()
        out = program(*inputs)
        if out.__class__ is Ragged:  # a buffer and a count: cut on the host (``_plain``)
            raise Miss()
        return out
