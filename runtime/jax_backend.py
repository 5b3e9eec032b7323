"""The JAX backend: Python control flow on traced values inside ``jax.jit``, ``vmap``, ``grad``.

A converted function runs its staged body while JAX traces (``is_tracing``); there
a condition or iterable that is a JAX tracer reaches this backend, which builds
``lax.cond`` for ``if``/ternaries/``and``/``or``, ``lax.while_loop`` for ``while``
and for ``for`` over a traced ``range``, and ``lax.scan`` for ``for`` over traced
arrays (so reverse-mode ``grad`` works: the trip count is the static array length).
Concrete values, including concrete ``jax.Array`` constants, are not ours and run
as Python.

State is a tuple of pytrees. Each branch or loop body is traced once into a jaxpr
(``jax.make_jaxpr``) while we record what it returned: the traced leaves become the
jaxpr's outputs, every other leaf (a Python number, ``None``, a string, an
``Undefined``, ``NO_RETURN``) is kept aside as a Python value. Comparing those
records before building the JAX op is what lets us reconcile the two sides the way
a JAX user expects (Python numbers promoted like weak types, a ``NO_RETURN`` filled
with zeros of the other side's value) or report which variable differs, with its
construct and line (``errors``). Replaying a jaxpr inside ``lax.cond`` or a loop
costs no new Python trace, so nested control flow is traced once per level.

A Python number in a loop's state (the converter carries only what the body
assigns) is carried as a weakly typed array, and a weakly typed carry is widened to
what the body makes of it (``0`` becomes float32 when the body adds a float32), as
JAX does for its own loops; that costs one more trace of the body. A strongly typed
carry must keep its dtype and shape.
"""

from __future__ import annotations

import dataclasses
import sys
from typing import Any, Callable, NamedTuple

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax
from jax._src import core as _core
from jax._src.lax.lax import _convert_element_type
from jax.extend.core import jaxpr_as_fun

from . import backends, choices, errors, staged_raise
from .undefined import NO_RETURN, Undefined

_trace_ref = _core.trace_state_strong_ref
_eval_trace = _core.eval_trace


def is_tracing() -> bool:
    """True while JAX traces (jit, vmap, grad, scan bodies...), False at top level.

    Called on every entry of a converted function once jax is imported, so it is a
    single read of JAX's current-trace slot: at top level that is the eager trace.
    """
    return _trace_ref.value is not _eval_trace


_SCALARS = (bool, int, float, complex)
_MAX_LOOP_TRACES = 4  # traces of a loop body while its carry types settle


def _is_array(x) -> bool:
    return isinstance(x, (jax.Array, np.ndarray, np.generic))


def _is_number(x) -> bool:
    return x.__class__ in _SCALARS


@dataclasses.dataclass(frozen=True)
class _Aval:
    """A traced leaf's type: what must agree between branches and iterations."""

    shape: tuple
    dtype: Any
    weak: bool

    @staticmethod
    def of(x) -> _Aval:
        t = jax.typeof(x)
        return _Aval(tuple(t.shape), t.dtype, bool(t.weak_type))

    def struct(self) -> jax.ShapeDtypeStruct:
        return jax.ShapeDtypeStruct(self.shape, self.dtype, weak_type=self.weak)

    def __str__(self) -> str:
        return f"{'weakly typed ' if self.weak else ''}{self.dtype.name}{list(self.shape)}"


class _Static:
    """A leaf kept as a Python value (not traced). Not a pytree node, so a
    structure of these flattens to the same treedef as the value it describes."""

    __slots__ = ("value",)

    def __init__(self, value) -> None:
        self.value = value

    def __eq__(self, other) -> bool:
        return isinstance(other, _Static) and _same(self.value, other.value)

    __hash__ = None


def _same(a, b) -> bool:
    if a is b:
        return True
    if type(a) is not type(b) or _is_array(a):
        return False
    try:
        return bool(a == b)
    except (TypeError, ValueError):  # an __eq__ that is not a plain comparison
        return False


def _cast(x, aval: _Aval):
    """``x`` (an array or Python number) as an array of exactly ``aval``'s type."""
    if _is_array(x) and not isinstance(x, np.generic):
        t = jax.typeof(x)
        if t.dtype == aval.dtype and bool(t.weak_type) == aval.weak:
            return x
    return _convert_element_type(x, aval.dtype, weak_type=aval.weak)


def _zeros(aval: _Aval):
    return _cast(lax.full(aval.shape, 0, aval.dtype), aval)


def _kind(aval: _Aval):
    """What ``jnp.result_type`` should see for ``aval``: a Python number if weak."""
    if not aval.weak:
        return aval.dtype
    for py, kind in ((complex, jnp.complexfloating), (float, jnp.floating), (int, jnp.integer)):
        if jnp.issubdtype(aval.dtype, kind):
            return py(0)
    return aval.dtype


def _widen(a: _Aval, b: _Aval) -> _Aval | None:
    """The common type of two sides of a branch, or None if they cannot meet."""
    if a.shape != b.shape:
        return None
    if a.dtype == b.dtype:
        return _Aval(a.shape, a.dtype, a.weak and b.weak)
    if not (a.weak or b.weak):
        return None
    return _Aval(a.shape, jnp.result_type(_kind(a), _kind(b)), a.weak and b.weak)


def _carry_type(carry: _Aval, out: _Aval) -> _Aval | None:
    """The carry type once the body returned ``out`` for ``carry``, or None."""
    if carry.shape != out.shape:
        return None
    if carry.weak:
        return _widen(carry, out)
    if carry.dtype == out.dtype or (out.weak and _widen(carry, out).dtype == carry.dtype):
        return carry
    return None


def _describe(value) -> str:
    """A short phrase for an error message: what ``value`` is."""
    if value.__class__ is Undefined:
        return "not defined"
    if value is NO_RETURN:
        return "not yet returned"
    if isinstance(value, _Static):
        return _describe(value.value)
    if isinstance(value, (_Aval, _Out)):
        return str(value)
    if _is_array(value):
        return str(_Aval.of(value))
    if _is_number(value):
        return f"a Python {type(value).__name__} ({value!r})"
    leaves, tree = jax.tree_util.tree_flatten(value)
    if not leaves:
        return "None" if value is None else f"an empty {type(value).__name__}"
    if tree.num_nodes == 1 and tree.num_leaves == 1:
        text = repr(value)
        return f"{type(value).__name__} {text if len(text) <= 40 else text[:37] + '...'}"
    return f"a {type(value).__name__} with structure {tree}"


def _describe_spec(spec) -> str:
    tree, leaves = spec
    return _describe(jax.tree_util.tree_unflatten(tree, leaves))


# ---------------------------------------------------------------- tracing helpers


def _spec_of(value, numbers_traced: bool = False):
    """(treedef, leaves) of a value: arrays (and, if asked, Python numbers) become
    _Aval, the rest _Static."""
    leaves, tree = jax.tree_util.tree_flatten(value)
    return tree, tuple(_Aval.of(x) if _is_array(x) or (numbers_traced and _is_number(x))
                       else _Static(x) for x in leaves)


def _lone_static(tree, leaves):
    """The Python value of a variable that is a single static leaf (an ``Undefined``,
    ``NO_RETURN``, a number...), else None."""
    if tree.num_nodes == 1 and tree.num_leaves == 1 and isinstance(leaves[0], _Static):
        return leaves[0].value
    return None


def _label(name: str, path) -> str:
    return name + jax.tree_util.keystr(tuple(path)) if path else name


def _name(names, i: int) -> str:
    return names[i] if i < len(names) else "the value"


def _trace_branch(fn: Callable, state: tuple):
    """Trace ``fn(*state)`` into a jaxpr. Returns the jaxpr and, per state variable,
    (treedef, leaves, paths) where a traced leaf is its output index in the jaxpr."""
    record = []

    def run():
        out = fn(*state)
        dyn = []
        record.clear()
        for value in out:
            pairs, tree = jax.tree_util.tree_flatten_with_path(value)
            leaves = []
            for _, x in pairs:
                if _is_array(x):
                    leaves.append(_Out(len(dyn), _Aval.of(x)))
                    dyn.append(x)
                else:
                    leaves.append(_Static(x))
            record.append((tree, leaves, [p for p, _ in pairs]))
        return dyn

    closed = jax.make_jaxpr(run)()
    return closed, list(record)


class _BranchPlan:
    """How to make both branch outputs the same type, and rebuild the state after."""

    def __init__(self, names, where_fn, true_rec, false_rec):
        self.sources = ([], [])  # per branch: how to produce each cond output
        self.specs = []  # per variable: (treedef, joined leaves)
        if len(true_rec) != len(false_rec):
            raise errors.StagingError(
                f"if statement at {errors.where(where_fn)}: the branches return "
                f"{len(true_rec)} and {len(false_rec)} values")
        for i, (t, f) in enumerate(zip(true_rec, false_rec)):
            self.specs.append(self._join_var(_name(names, i), where_fn, t, f))

    def _join_var(self, name, where_fn, t, f):
        t_tree, t_leaves, paths = t
        f_tree, f_leaves, _ = f
        t_val = _lone_static(t_tree, t_leaves)
        f_val = _lone_static(f_tree, f_leaves)
        t_undef, f_undef = t_val.__class__ is Undefined, f_val.__class__ is Undefined
        if t_undef and f_undef:
            return t_tree, list(t_leaves)
        if t_undef or f_undef:
            raise errors.defined_in_one_branch(name, "false" if t_undef else "true", where_fn)
        if (t_val is NO_RETURN) != (f_val is NO_RETURN):
            # The do_return flag guards the value: the side that did not return
            # takes zeros (or equal Python values) of the other side's structure.
            if t_val is NO_RETURN:
                t_tree, t_leaves, paths = f_tree, [_filler(x) for x in f_leaves], f[2]
            else:
                f_tree, f_leaves = t_tree, [_filler(x) for x in t_leaves]
        if t_tree != f_tree:
            none_error = choices.none_on_one_side(
                name, where_fn, jax.tree_util.tree_unflatten(t_tree, t_leaves),
                jax.tree_util.tree_unflatten(f_tree, f_leaves))
            if none_error is not None:
                raise none_error
            raise errors.branch_mismatch(name, where_fn, _describe_spec((t_tree, t_leaves)),
                                         _describe_spec((f_tree, f_leaves)))
        joined = []
        for path, a, b in zip(paths, t_leaves, f_leaves):
            label = _label(name, path)
            if isinstance(a, _Static) and isinstance(b, _Static):
                if _same(a.value, b.value):
                    joined.append(a)
                    continue
                if not (_is_number(a.value) and _is_number(b.value)):
                    if a.value.__class__ is b.value.__class__:
                        raise errors.python_values_differ(label, where_fn, a.value)
                    raise errors.branch_mismatch(label, where_fn, _describe(a), _describe(b))
            aval = self._leaf_type(a, b, label, where_fn)
            joined.append(aval)
            self.sources[0].append((a, aval))
            self.sources[1].append((b, aval))
        return t_tree, joined

    @staticmethod
    def _leaf_type(a, b, label, where_fn) -> _Aval:
        types = []
        for side in (a, b):
            if isinstance(side, _Static):
                if not _is_number(side.value):
                    raise errors.branch_mismatch(label, where_fn, _describe(a), _describe(b))
                types.append(_Aval.of(side.value))
            else:
                types.append(side.aval)
        joined = _widen(*types)
        if joined is None:
            raise errors.branch_mismatch(label, where_fn, _describe(types[0]), _describe(types[1]))
        return joined

    def emit(self, branch: int, closed):
        outs = jaxpr_as_fun(closed)()
        result = []
        for source, aval in self.sources[branch]:
            if isinstance(source, _Static):
                result.append(_cast(source.value, aval))
            elif isinstance(source, _Zero):
                result.append(_zeros(aval))
            else:
                result.append(_cast(outs[source.index], aval))
        return result


class _Out:
    """A traced leaf of a branch's output: its index among the jaxpr's outputs."""

    __slots__ = ("aval", "index")

    def __init__(self, index: int, aval: _Aval) -> None:
        self.index, self.aval = index, aval

    def __str__(self) -> str:
        return str(self.aval)


class _Zero(_Out):
    """The value of a side that has not returned yet: zeros of the other side's type."""

    def __init__(self, aval: _Aval) -> None:
        super().__init__(-1, aval)


def _filler(leaf):
    """What the side without a return value holds in place of the other's ``leaf``
    (the ``do_return`` flag guards it): the same Python value, or zeros."""
    return leaf if isinstance(leaf, _Static) else _Zero(leaf.aval)


def _rebuild(specs, dyn) -> tuple:
    """The state tuple from per-variable specs and the traced leaves, in order."""
    it = iter(dyn)
    return tuple(
        jax.tree_util.tree_unflatten(tree, [next(it) if isinstance(x, _Aval) else x.value
                                            for x in leaves])
        for tree, leaves in specs)


def _predicate(cond, construct: str, where_fn):
    """A traced condition as a scalar bool array, with Python's truthiness."""
    if _is_number(cond):
        return jnp.asarray(bool(cond))
    if not _is_array(cond):
        return jnp.asarray(bool(cond))
    shape = jnp.shape(cond)
    if shape != ():
        if int(np.prod(shape)) != 1:
            raise errors.non_scalar_condition(construct, where_fn, str(_Aval.of(cond)))
        cond = jnp.reshape(cond, ())
    if jnp.result_type(cond) != jnp.bool_:
        cond = cond != 0
    return cond


# ---------------------------------------------------------------- loops


class _Carry:
    """The loop state split into a traced carry and Python values, learned by tracing
    the body until the carry types settle; ``closed`` is the body's final jaxpr
    (extra inputs first, then the carry)."""

    def __init__(self, step, state, names, construct, where_fn, extra=()):
        self.names, self.construct, self.where_fn = names, construct, where_fn
        self.specs = [_spec_of(v, numbers_traced=True) for v in state]
        n_extra = len(extra)
        extra = [a.struct() for a in extra]

        def run(*flat):
            out = step(list(flat[:n_extra]), self.rebuild(flat[n_extra:]))
            self.next_specs, dyn = self._fit(out)
            return dyn

        for _ in range(_MAX_LOOP_TRACES):
            self.closed = jax.make_jaxpr(run)(*extra, *self.avals())
            if self.next_specs == self.specs:
                break
            self.specs = self.next_specs
        else:
            raise errors.StagingError(
                f"{construct} at {errors.where(where_fn)}: the types of the loop variables "
                f"did not settle after {_MAX_LOOP_TRACES} traces of the body. Give the loop "
                f"variables their final dtype before the loop.")
        self.init = self._initial(state)

    def avals(self) -> list:
        return [x.struct() for _, leaves in self.specs for x in leaves if isinstance(x, _Aval)]

    def rebuild(self, dyn) -> tuple:
        return _rebuild(self.specs, dyn)

    def run_body(self, extra, dyn) -> list:
        return jaxpr_as_fun(self.closed)(*extra, *dyn)

    def _initial(self, state) -> list:
        dyn = []
        for value, (tree, leaves) in zip(state, self.specs):
            if value is NO_RETURN:
                dyn.extend(_zeros(x) for x in leaves if isinstance(x, _Aval))
                continue
            for x, spec in zip(jax.tree_util.tree_leaves(value), leaves):
                if isinstance(spec, _Aval):
                    dyn.append(_cast(x, spec))
        return dyn

    def _fit(self, out):
        """The carry specs after one iteration returned ``out``, and the carry
        values as the body's outputs (meaningful when the specs did not change)."""
        new_specs, dyn = [], []
        for i, (value, spec) in enumerate(zip(out, self.specs)):
            name = _name(self.names, i)
            tree, leaves = spec
            first = _lone_static(tree, leaves)
            if first.__class__ is Undefined:
                if value.__class__ is not Undefined:
                    raise errors.undefined_loop_variable(name, self.construct, self.where_fn)
                new_specs.append(spec)
                continue
            if first is NO_RETURN and value is not NO_RETURN:
                new_specs.append(_spec_of(value))  # learned: carried from now on
                continue
            pairs, out_tree = jax.tree_util.tree_flatten_with_path(value)
            if out_tree != tree:
                before = jax.tree_util.tree_unflatten(tree, leaves)
                if before.__class__ is list and value.__class__ is list:
                    raise errors.list_length_changed(name, self.construct, self.where_fn,
                                                     len(before), len(value))
                raise self._changed(name, _describe_spec(spec), _describe(value))
            new_leaves = []
            for (path, x), s in zip(pairs, leaves):
                label = _label(name, path)
                if isinstance(s, _Static):
                    if _same(s.value, x):
                        new_leaves.append(s)
                        continue
                    if not (_is_number(s.value) and (_is_number(x) or _is_array(x))):
                        raise self._changed(label, _describe(s), _describe(x))
                    s = _Aval.of(s.value)
                elif not (_is_number(x) or _is_array(x)):
                    raise self._changed(label, _describe(s), _describe(x))
                joined = _carry_type(s, _Aval.of(x))
                if joined is None:
                    raise self._changed(label, _describe(s), _describe(x))
                new_leaves.append(joined)
                dyn.append(_cast(x, joined))
            new_specs.append((tree, tuple(new_leaves)))
        return new_specs, dyn

    def _changed(self, label, before, after):
        return errors.loop_variable_changed(label, self.construct, self.where_fn, before, after)


class _Range:
    """``range(start, stop, step)`` with traced bounds; ``for_stmt`` loops over it."""

    def __init__(self, start, stop, step):
        for bound in (start, stop, step):
            if not jnp.issubdtype(jnp.result_type(bound), jnp.integer):
                raise TypeError(
                    f"'{jnp.result_type(bound).name}' object cannot be interpreted as an integer")
        if _is_number(step) and step == 0:
            raise ValueError("range() arg 3 must not be zero")
        self.start, self.stop, self.step = start, stop, step

    def __len__(self):
        raise TypeError("len() of a range with traced bounds is not a Python int")

    def length(self):
        """The trip count, as a traced integer."""
        start, stop, step = self.start, self.stop, self.step
        up = (stop - start + step - 1) // step
        down = (start - stop - step - 1) // -step
        if _is_number(step):
            n = up if step > 0 else down
        else:
            n = jnp.where(step > 0, up, down)
        return jnp.maximum(n, 0)


class _Enumerate(NamedTuple):
    iterable: Any
    start: Any


class _Zip(NamedTuple):
    iterables: tuple
    strict: bool


_STAGED_ITERABLES = (_Range, _Enumerate, _Zip)


def _sequence(iterable):
    """(xs, length, make_item): a pytree of arrays to scan over, its static length,
    and how to turn one slice of ``xs`` into the item the loop body receives."""
    if isinstance(iterable, _Enumerate):
        xs, n, make = _sequence(iterable.iterable)
        start = iterable.start
        return (jnp.arange(n), xs), n, lambda s: (start + s[0], make(s[1]))
    if isinstance(iterable, _Zip):
        parts = [_sequence(it) for it in iterable.iterables]
        lengths = [n for _, n, _ in parts]
        n = min(lengths)
        if iterable.strict and max(lengths) != n:
            short = lengths.index(n) + 1
            raise ValueError(f"zip() argument {short} is shorter than argument 1"
                             if short > 1 else "zip() argument 2 is longer than argument 1")
        xs = tuple(jax.tree_util.tree_map(lambda a: a[:n], p[0]) for p in parts)
        makes = [p[2] for p in parts]
        return xs, n, lambda s: tuple(m(x) for m, x in zip(makes, s))
    if isinstance(iterable, _Range):
        raise errors.StagingError(
            "zip()/enumerate() over a range with traced bounds is not supported inside a "
            "staged loop; loop over the range and index the other sequences instead.")
    if isinstance(iterable, range):
        return jnp.arange(iterable.start, iterable.stop, iterable.step), len(iterable), _identity
    if not _is_array(iterable):
        iterable = jnp.asarray(iterable)
    if jnp.ndim(iterable) == 0:
        raise TypeError("iteration over a 0-d array")
    return iterable, jnp.shape(iterable)[0], _identity


def _identity(x):
    return x


def _second(_, x):
    return x


# ---------------------------------------------------------------- the backend


class JaxBackend(backends.Backend):
    """Builds ``lax`` control flow for JAX tracers (see the module docstring)."""

    name = "jax"

    def owns_type(self, cls: type) -> bool:
        return issubclass(cls, (_core.Tracer, *_STAGED_ITERABLES))

    def is_tracing(self) -> bool:
        return is_tracing()

    # -- conditionals

    def if_stmt(self, cond, body, orelse, state, names):
        """``body(*state) if cond else orelse(*state)`` as one ``lax.cond``.

        Both branches are traced; each variable in ``names`` must come out of both
        with the same structure, shape and dtype (Python numbers and weak types are
        widened as JAX would). A function return value set in one branch only is
        filled with zeros on the other side (its ``do_return`` flag guards it).
        """
        return self._cond(cond, body, orelse, tuple(state), names, body, "if statement")

    def _cond(self, cond, true_fn, false_fn, state, names, where_fn, construct):
        pred = _predicate(cond, construct, where_fn)
        true_jaxpr, true_rec = _trace_branch(true_fn, state)
        false_jaxpr, false_rec = _trace_branch(false_fn, state)
        plan = _BranchPlan(names, where_fn, true_rec, false_rec)
        outs = lax.cond(pred, lambda: plan.emit(0, true_jaxpr), lambda: plan.emit(1, false_jaxpr))
        return _rebuild(plan.specs, outs)

    def if_exp(self, cond, if_true, if_false):
        (value,) = self._cond(cond, lambda: (if_true(),), lambda: (if_false(),), (),
                              ("the conditional expression",), if_true, "conditional expression")
        return value

    def and_(self, value, rest):
        """``value and rest()``: ``rest`` runs only in the cond branch that needs it."""
        (out,) = self._cond(value, lambda: (rest(),), lambda: (value,), (),
                            ("the 'and' expression",), rest, "'and' expression")
        return out

    def or_(self, value, rest):
        """``value or rest()``: ``rest`` runs only in the cond branch that needs it."""
        (out,) = self._cond(value, lambda: (value,), lambda: (rest(),), (),
                            ("the 'or' expression",), rest, "'or' expression")
        return out

    def not_(self, value):
        return jnp.logical_not(_predicate(value, "'not' expression", None))

    def assert_stmt(self, cond, message):
        """Checked when the compiled function runs: a failure raises from the
        computation (``JaxRuntimeError`` carrying the ``AssertionError`` text).
        The message is evaluated at trace time; traced values in it are filled in."""
        pred = _predicate(cond, "assert statement", message)
        text = message() if message is not None else None
        traced = [text] if _is_array(text) else []

        def check(ok, *values):
            if not ok:
                detail = values[0] if values else text
                raise AssertionError() if detail is None else AssertionError(str(detail))

        jax.debug.callback(check, pred, *traced)

    # -- loops

    def while_stmt(self, test, body, state, names, cond):
        """``while test(*state): state = body(*state)`` as one ``lax.while_loop``.

        The state's types are fixed by the first iteration (see the module
        docstring). ``while_loop`` supports forward-mode differentiation only; use a
        ``for`` over an array or a static ``range`` where ``grad`` must flow.
        """
        carry = _Carry(lambda _, s: body(*s), tuple(state), names, "while loop", body)

        def cond_fun(dyn):
            return _predicate(test(*carry.rebuild(dyn)), "while loop", body)

        final = lax.while_loop(cond_fun, lambda dyn: carry.run_body((), dyn), carry.init)
        return carry.rebuild(final)

    def for_stmt(self, iterable, body, state, names, extra_test):
        """``for item in iterable: state = body(item, *state)``, stopping once
        ``extra_test(*state)`` (the lowered ``break``/``return``) is false.

        A traced ``range`` becomes a ``lax.while_loop`` on a counter. Arrays (and
        ``enumerate``/``zip`` of arrays) become a ``lax.scan`` over the leading axis,
        which ``grad`` can reverse; with ``extra_test`` each step runs under a
        ``lax.cond`` on it, so the scan keeps its static length.
        """
        state = tuple(state)
        if isinstance(iterable, _Range):
            return self._range_loop(iterable, _second, body, state, names, extra_test)
        if isinstance(iterable, _Enumerate) and isinstance(iterable.iterable, _Range):
            first = iterable.start
            return self._range_loop(iterable.iterable, lambda k, i: (first + k, i), body, state,
                                    names, extra_test)
        xs, _, make_item = _sequence(iterable)
        x_leaves, x_tree = jax.tree_util.tree_flatten(xs)
        slices = [_Aval(a.shape[1:], a.dtype, a.weak) for a in map(_Aval.of, x_leaves)]

        def step(extra, s):
            return body(make_item(jax.tree_util.tree_unflatten(x_tree, extra)), *s)

        carry = _Carry(step, state, names, "for loop", body, slices)

        def scan_body(dyn, x):
            run = lambda: carry.run_body(x, dyn)
            if extra_test is None:
                return run(), None
            go_on = _predicate(extra_test(*carry.rebuild(dyn)), "for loop", body)
            return lax.cond(go_on, run, lambda: list(dyn)), None

        final, _ = lax.scan(scan_body, carry.init, x_leaves)
        return carry.rebuild(final)

    def _range_loop(self, rng, make_item, body, state, names, extra_test):
        """A traced ``range`` as a while loop on the trip counter ``k``; the body
        gets ``make_item(k, start + k * step)``."""
        start, step_size = rng.start, rng.step
        n = rng.length()
        k_aval = _Aval((), jnp.result_type(n), False)

        def step(extra, s):
            k = extra[0]
            return body(make_item(k, start + k * step_size), *s)

        carry = _Carry(step, state, names, "for loop", body, [k_aval])

        def cond_fun(kdyn):
            k, dyn = kdyn
            more = k < n
            if extra_test is None:
                return more
            go_on = _predicate(extra_test(*carry.rebuild(dyn)), "for loop", body)
            return jnp.logical_and(more, go_on)

        def body_fun(kdyn):
            k, dyn = kdyn
            return k + 1, carry.run_body([k], dyn)

        _, final = lax.while_loop(cond_fun, body_fun, (jnp.zeros((), k_aval.dtype), carry.init))
        return carry.rebuild(final)

    # -- builtins

    def range_(self, start, stop, step):
        return _Range(start, stop, step)

    def enumerate_(self, iterable, start):
        return _Enumerate(iterable, start)

    def zip_(self, iterables, strict):
        return _Zip(tuple(iterables), strict)

    def setitem(self, target, index, value):
        """``target[index] = value``: a JAX array (traced, or concrete with a traced
        index or value) gets ``target.at[index].set(value)``; any other container
        is updated in place, as Python does."""
        if isinstance(target, (jax.Array, np.ndarray)):
            return _functional_setitem(target, index, value)
        target[index] = value
        return target

    def print_(self, args, sep, end, file, flush):
        """Print each time the computation runs (``jax.debug.callback``, the
        mechanism of ``jax.debug.print``), with ``print``'s own formatting."""
        leaves, tree = jax.tree_util.tree_flatten(list(args))
        traced = [i for i, x in enumerate(leaves) if _is_array(x)]
        fixed = [None if i in traced else x for i, x in enumerate(leaves)]

        def emit(*values):
            shown = list(fixed)
            for i, v in zip(traced, values):
                shown[i] = v
            out = file if file is not None else sys.stdout
            print(*jax.tree_util.tree_unflatten(tree, shown), sep=sep, end=end, file=out,
                  flush=flush)

        jax.debug.callback(emit, *[leaves[i] for i in traced])

    # -- numerical code (issue 22)

    def raise_(self, exc, branch):
        """A compiled JAX function cannot raise: a branch that raises is refused."""
        raise staged_raise.cannot_raise("jax.jit", exc, branch) from None

    def numeric(self, name, args, kwargs):
        from . import jax_numeric

        return jax_numeric.numeric(name, args, kwargs)


def _functional_setitem(target, index, value):
    """``target.at[index].set(value)``, refused for an argument of a converted
    function: its caller would never see the write (issue 22.4)."""
    from .arg_writes import cannot_write, written_argument

    written = written_argument(target)
    if written is not None:
        raise cannot_write("jax.jit", written, "JAX arrays are immutable")
    target = jnp.asarray(target)
    if _is_array(index) and jnp.result_type(index) == jnp.bool_ and jnp.ndim(value) == 0 \
            and jnp.shape(index) == jnp.shape(target):
        return jnp.where(index, value, target).astype(target.dtype)  # a mask: no gather needed
    return target.at[index].set(value)


backend = JaxBackend()
backends.register(backend)
