"""The JAX backend: Python control flow on traced values inside ``jax.jit``, ``vmap``, ``grad``.

A converted function runs its staged body while JAX traces (``is_tracing``); there
a condition or iterable that is a JAX tracer reaches this backend. Staging itself
(joining branches, settling loop carries, errors) is ``staging``'s; this module
answers its questions in JAX: the ``Aval`` of a leaf (``jax.typeof``, with JAX's
weak types), casts, and ops: ``lax.cond`` for ``if``/ternaries/``and``/``or``,
``lax.while_loop`` for ``while`` and ``for`` over a traced ``range``, ``lax.scan``
for ``for`` over traced arrays (so reverse-mode ``grad`` works: the trip count is
the static array length). Concrete values, including concrete ``jax.Array``
constants, are not ours and run as Python.

Each body is traced once per settling step into a jaxpr (``jax.make_jaxpr``) and
replayed inside the op (``jaxpr_as_fun``): nested control flow costs no new Python
trace per level.
"""

from __future__ import annotations

import sys

import weakref

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax
from jax._src import core as _core
from jax._src.lax.lax import _convert_element_type
from jax.extend.core import jaxpr_as_fun

from . import captures
from . import maybe_none as _jax_maybe_none  # noqa: F401  (its pytree: refused as an output)
from ...staging import accumulate, backend as backends, errors, loop_options, masked, maybe_none
from ...staging import raises as staged_raise
from ...staging import state as staging
from ...staging.loops import Carry, StagedEnumerate, StagedZip, reversed_bounds
from ...staging.state import Aval

_trace_ref = _core.trace_state_strong_ref
_eval_trace = _core.eval_trace


def is_tracing() -> bool:
    """True while JAX traces (jit, vmap, grad, scan bodies...), False at top level.

    Called on every entry of a converted function once jax is imported, so it is a
    single read of JAX's current-trace slot: at top level that is the eager trace.
    """
    return _trace_ref.value is not _eval_trace


def _is_array(x) -> bool:
    return isinstance(x, (jax.Array, np.ndarray, np.generic))


def _aval(x):
    if not (_is_array(x) or staging.is_number(x)):
        return None
    t = jax.typeof(x)
    axes = getattr(t, "manual_axis_type", None)
    varying = frozenset(axes.varying) if axes is not None else frozenset()
    if varying:
        _meshes[varying] = t.sharding.mesh
    return Aval(np.dtype(t.dtype), tuple(t.shape), bool(t.weak_type), varying)


_meshes: dict = {}  # varying axes -> the (abstract) mesh they were last seen on


def _struct(aval: Aval) -> jax.ShapeDtypeStruct:
    """A placeholder of ``aval``; inside ``shard_map`` it varies over the same axes."""
    if not aval.varying:
        return jax.ShapeDtypeStruct(aval.shape, aval.dtype, weak_type=aval.weak)
    axes = _core.ManualAxisType(varying=aval.varying, unreduced=frozenset(), reduced=frozenset())
    mesh = _meshes.get(aval.varying) or next(
        m for m in _meshes.values() if aval.varying <= set(m.axis_names))
    sharding = jax.sharding.NamedSharding(mesh, jax.sharding.PartitionSpec())
    return jax.ShapeDtypeStruct(aval.shape, aval.dtype, weak_type=aval.weak, sharding=sharding,
                                manual_axis_type=axes)


def _replay(handle, *args) -> list:
    return list(jaxpr_as_fun(handle)(*args))


class _Range:
    """``range(start, stop, step)`` with traced bounds; ``for_stmt`` loops over it."""

    def __init__(self, start, stop, step):
        for bound in (start, stop, step):
            if not jnp.issubdtype(jnp.result_type(bound), jnp.integer):
                raise TypeError(
                    f"'{jnp.result_type(bound).name}' object cannot be interpreted as an integer")
        if staging.is_number(step) and step == 0:
            raise ValueError("range() arg 3 must not be zero")
        self.start, self.stop, self.step = start, stop, step

    def __len__(self):
        raise TypeError("len() of a range with traced bounds is not a Python int")

    def __reversed__(self):
        return _Range(*reversed_bounds(self.start, self.stop, self.step))

    def length(self):
        """The trip count, as a traced integer."""
        start, stop, step = self.start, self.stop, self.step
        up = (stop - start + step - 1) // step
        down = (start - stop - step - 1) // -step
        if staging.is_number(step):
            n = up if step > 0 else down
        else:
            n = jnp.where(step > 0, up, down)
        return jnp.maximum(n, 0)


class _Enumerate(StagedEnumerate):
    """``enumerate`` of a tracer (``StagedEnumerate``)."""

    __slots__ = ()


class _Zip(StagedZip):
    """``zip`` of tracers (``StagedZip``)."""

    __slots__ = ()


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


# ---------------------------------------------------------------- the backend


class JaxBackend(backends.Backend):
    """Builds ``lax`` control flow for JAX tracers (see the module docstring)."""

    name = "jax"
    compiler, framework = "jax.jit", "JAX"
    isinstance_as_concrete = True  # a tracer is a jax.Array, as the arrays it stands for

    def owns_type(self, cls: type) -> bool:
        return issubclass(cls, (_core.Tracer, *_STAGED_ITERABLES))

    def is_tracing(self) -> bool:
        return is_tracing()

    def leaked(self, value) -> bool:
        return isinstance(value, _core.Tracer)

    def trace_failure(self, error) -> bool:
        # ConcretizationTypeError (bool/int/float of a tracer), TracerArrayConversionError
        # (np.asarray of one), NonConcreteBooleanIndexError and the like.
        return isinstance(error, (jax.errors.JAXTypeError, jax.errors.JAXIndexError)) or (
            isinstance(error, AttributeError)
            and isinstance(getattr(error, "obj", None), _core.Tracer))

    # -- primitives

    def aval(self, value):
        return _aval(value)

    def cast(self, x, aval: Aval):
        """``x`` (an array or Python number) as an array of exactly ``aval``'s type."""
        if isinstance(x, jax.Array) and _aval(x) == aval:
            return x
        x = _convert_element_type(x, aval.dtype, weak_type=aval.weak)
        missing = aval.varying - _aval(x).varying  # a value the same on every device
        return lax.pcast(x, tuple(sorted(missing)), to="varying") if missing else x

    def pair_values(self, label, t, f):
        return maybe_none.pair_values(label, t, f, self)  # None on one side: a flag

    def zeros(self, aval: Aval):
        return self.cast(lax.full(aval.shape, 0, aval.dtype), aval)

    def predicate(self, cond):
        if not _is_array(cond):
            return jnp.asarray(bool(cond))
        if jnp.shape(cond) != ():
            cond = jnp.reshape(cond, ())
        return cond if jnp.result_type(cond) == jnp.bool_ else cond != 0

    def trace(self, fns, avals) -> list:
        structs = [_struct(a) for a in avals]
        return [jax.make_jaxpr(fn)(*structs) for fn in fns]

    def cond(self, pred, handles, finish, avals) -> list:
        t, f = handles
        return lax.cond(pred, lambda: finish[0](_replay(t)), lambda: finish[1](_replay(f)))

    def while_loop(self, test, body, init) -> list:
        """``lax.while_loop``; with ``maximum_iterations`` (``set_loop_options``) a scan of
        that many steps, each running the body under a ``lax.cond`` while the test holds
        (reverse-mode ``grad`` can reverse a scan, not a while loop)."""
        bound = loop_options.current().get("maximum_iterations")
        if bound is None:
            return lax.while_loop(lambda c: _replay(test, *c)[0], lambda c: _replay(body, *c),
                                  init)

        def step(c, _):
            state, go_on = c
            go_on = jnp.logical_and(go_on, _replay(test, *state)[0])
            state = lax.cond(go_on, lambda: _replay(body, *state), lambda: list(state))
            return (state, go_on), None

        (final, _), _ = lax.scan(step, (list(init), jnp.asarray(True)), None, length=bound)
        return final

    # -- what staging leaves to the framework

    def not_(self, value):
        staging.predicate(self, value, "'not' expression", None)
        return jnp.logical_not(self.predicate(value))

    def assert_stmt(self, cond, message):
        """Checked when the compiled function runs: a failure raises from the
        computation (``JaxRuntimeError`` carrying the ``AssertionError`` text).
        The message is evaluated at trace time; traced values in it are filled in."""
        pred = staging.predicate(self, cond, "assert statement", message)
        text = message() if message is not None else None
        traced = [text] if _is_array(text) else []

        def check(ok, *values):
            if not ok:
                detail = values[0] if values else text
                raise AssertionError() if detail is None else AssertionError(str(detail))

        jax.debug.callback(check, pred, *traced, ordered=True)

    def for_stmt(self, iterable, body, state, names, extra_test, shared=None):
        """``for item in iterable: state = body(item, *state)``, stopping once
        ``extra_test(*state)`` (the lowered ``break``/``return``) is false.

        A traced ``range`` becomes a ``lax.while_loop`` on a counter. Arrays (and
        ``enumerate``/``zip`` of arrays) become a ``lax.scan`` over the leading axis,
        which ``grad`` can reverse; with ``extra_test`` each step runs under a
        ``lax.cond`` on the flag the previous step left, so the scan keeps its length.
        """
        carry = Carry(self, tuple(state), names, shared, "for loop", body)
        rng = iterable.iterable if isinstance(iterable, _Enumerate) else iterable
        if isinstance(rng, _Range):
            first = iterable.start if rng is not iterable else None
            start, step_size, n = rng.start, rng.step, rng.length()

            def step(items, s):
                value = start + items[0] * step_size
                return body(value if first is None else (first + items[0], value), *s)

            (handle,) = carry.trace(step, [Aval(np.dtype(jnp.result_type(n)), (), False)],
                                    extra_test=extra_test)
            return carry.finish(self._counted(handle, n, carry.init(), extra_test is not None,
                                              carry.options.get("maximum_iterations")))
        xs, carry.trips, make_item = _sequence(iterable)
        x_leaves, x_tree = jax.tree_util.tree_flatten(xs)
        slices = [a._replace(shape=a.shape[1:]) for a in map(_aval, x_leaves)]
        (handle,) = carry.trace(
            lambda items, s: body(make_item(jax.tree_util.tree_unflatten(x_tree, items)), *s),
            slices, extra_test=extra_test)
        return carry.finish(self._scan(handle, x_leaves, carry.init(), extra_test is not None))

    @staticmethod
    def _counted(handle, n, init, flagged: bool, bound=None) -> list:
        """A while loop on the trip counter ``k`` (and the body's go-on flag); with a
        ``bound`` (``maximum_iterations``) a scan of that many steps instead, which
        ``grad`` can reverse."""
        def cond_fun(c):
            return jnp.logical_and(c[0] < n, c[2])

        def body_fun(c):
            outs = _replay(handle, c[0], *c[1])
            return c[0] + 1, outs[:len(init)], outs[-1] if flagged else c[2]

        zero = jnp.zeros((), jnp.result_type(n))
        start = (zero, list(init), jnp.asarray(True))
        if bound is None:
            return lax.while_loop(cond_fun, body_fun, start)[1]

        def step(c, _):
            go = cond_fun(c)
            return lax.cond(go, lambda: body_fun(c), lambda: (c[0], list(c[1]), go)), None

        return lax.scan(step, start, None, length=bound)[0][1]

    @staticmethod
    def _scan(handle, x_leaves, init, flagged: bool) -> list:
        def scan_body(c, x):
            dyn, go_on = c
            run = lambda: _split(_replay(handle, *x, *dyn), flagged, go_on)
            if not flagged:
                return run(), None
            return lax.cond(go_on, run, lambda: (list(dyn), jnp.asarray(False))), None

        (final, _), _ = lax.scan(scan_body, (list(init), jnp.asarray(True)), x_leaves)
        return final

    # -- lists a staged loop appends to (``accumulate``)

    def write_row(self, rows, index, value):
        """A ``dynamic_update_slice`` (XLA updates a loop's buffer in place)."""
        return lax.dynamic_update_index_in_dim(rows, value, index, 0)

    def read_row(self, rows, index):
        return lax.dynamic_index_in_dim(rows, index, 0, keepdims=False)

    # -- builtins

    def range_(self, start, stop, step):
        return _Range(start, stop, step)

    def enumerate_(self, iterable, start):
        return _Enumerate(iterable, start)

    def zip_(self, iterables, strict):
        return _Zip(tuple(iterables), strict)

    def getitem(self, target, index):
        """``target[index]`` (a NumPy array made while tracing is a constant); with a
        traced boolean mask, the selected items kept in place (``staging.masked``:
        jax.jit needs every shape while tracing)."""
        from . import numeric as jax_numeric

        if _is_array(target):
            target = jnp.asarray(target)  # a NumPy array made while tracing: a constant
            if jax_numeric.traced_mask(index):
                return masked.MaskedItems(self, target, index)
        return target[index]

    def same_value(self, a, b) -> bool:
        return a is b or _same_computation(a, b, 12)

    def setitem(self, target, index, value):
        """``target[index] = value``: a JAX array (traced, or concrete with a traced
        index or value) gets ``target.at[index].set(value)``; any other container
        is updated in place, as Python does."""
        if isinstance(target, (jax.Array, np.ndarray)):
            from . import numeric as jax_numeric

            return jax_numeric.setitem(target, index, value)
        target[index] = value
        return target

    def check_in_place(self, value) -> None:
        """``inner += 1`` gives ``inner`` alone a new array: refused where another name
        that is read later shares the array in NumPy (a view's base, an alias)."""
        if isinstance(value, jax.Array):  # (NumPy's operator refuses a tracer itself)
            from . import numeric as jax_numeric

            jax_numeric.check_in_place(value)

    def print_(self, args, sep, end, file, flush):
        """Print each time the computation runs, in program order (an ordered
        ``jax.debug.callback``), with ``print``'s own formatting."""
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

        jax.debug.callback(emit, *[leaves[i] for i in traced], ordered=True)

    # -- numerical code (issue 22)

    def raise_(self, exc, branch):
        """A compiled JAX function cannot raise: a branch that raises is refused."""
        raise staged_raise.cannot_raise("jax.jit", exc, branch) from None

    def numeric(self, name, args, kwargs):
        from . import numeric as jax_numeric

        return jax_numeric.numeric(name, args, kwargs)

    def numpy_call(self, fn, args, kwargs):
        from . import numpy_twins as jax_numpy

        return jax_numpy.call(fn, args, kwargs)

    def users_numpy_call(self, fn, args, kwargs):
        """The user's ``np.f(...)``: eagerly a NumPy array (NumPy's function converts
        JAX's arrays), which an in-place operator changes for every name holding it;
        noted (``numeric.NUMPY_MADE``) so that ``check_in_place`` refuses where the
        operator would give one name alone JAX's new array (fuzz seed 51028)."""
        from . import numeric as jax_numeric

        result = self.numpy_call(fn, args, kwargs)
        if isinstance(result, jax.core.Tracer) and (result.ndim or _zero_d_array(fn, args, kwargs)):
            made = jax_numeric.NUMPY_MADE
            if len(made) > 4096:  # (the dead ones out)
                for key in [k for k, ref in made.items() if ref() is None]:
                    del made[key]
            made[id(result)] = weakref.ref(result)
        return result


def _zero_d_array(fn, args, kwargs) -> bool:
    """Whether NumPy's ``fn`` gives a 0-d array (``np.where`` of scalars), not a NumPy
    scalar (``np.sum``), on stand-ins of the tracers (0-d ones as NumPy scalars)."""
    def stand_in(x):
        if isinstance(x, jax.core.Tracer):
            dtype = np.dtype(x.dtype)
            return np.zeros(x.shape, dtype) if x.ndim else dtype.type(0)
        if x.__class__ in (list, tuple):
            return x.__class__(stand_in(i) for i in x)
        return x

    try:
        with np.errstate(all="ignore"):
            out = fn(*[stand_in(a) for a in args], **{k: stand_in(v) for k, v in kwargs.items()})
    except Exception:  # noqa: BLE001 - the stand-ins' own failure: not known to be one
        return False
    return out.__class__ is np.ndarray and not out.ndim


def _same_computation(a, b, depth: int) -> bool:
    """Two tracers of one jit trace made by the same pure equations from the same inputs
    (read from the trace's recorded equations; anything unrecognised is "may differ")."""
    if a is b:
        return True
    va, vb = getattr(a, "val", None), getattr(b, "val", None)
    if isinstance(va, _core.Literal) and isinstance(vb, _core.Literal):
        return a.aval == b.aval and type(va.val) is type(vb.val) and bool(
            np.array_equal(va.val, vb.val))
    pa, pb = getattr(a, "parent", None), getattr(b, "parent", None)
    if depth == 0 or pa is None or pb is None or pa.primitive is not pb.primitive \
            or pa.effects or pb.effects or len(pa.in_tracers) != len(pb.in_tracers):
        return False
    try:
        if not (pa.params == pb.params and pa.outvars.index(va) == pb.outvars.index(vb)):
            return False
    except Exception:  # noqa: BLE001 - params that do not compare: may differ
        return False
    return all(_same_computation(x, y, depth - 1) for x, y in zip(pa.in_tracers, pb.in_tracers))


def _split(outs, flagged, go_on):
    return (outs[:-1], outs[-1]) if flagged else (outs, go_on)


def _while_transpose_error(original):
    """JAX's refusal to reverse a ``lax.while_loop``, followed by what works here."""
    def refuse(*args, **kwargs):
        try:
            return original(*args, **kwargs)
        except ValueError as e:
            raise ValueError(
                f"{e}\nautograph: a staged while loop (or a for loop over a range with traced "
                f"bounds) becomes a lax.while_loop; write ag.set_loop_options("
                f"maximum_iterations=N) as the first statement of the loop to make it a "
                f"bounded loop that jax.grad can reverse.") from None
    return refuse


def _explain_while_transpose() -> None:
    from jax._src.interpreters import ad
    from jax._src.lax.control_flow.loops import while_p

    rule = ad.primitive_transposes.get(while_p)
    if rule is not None and not getattr(rule, "autograph", False):
        wrapped = _while_transpose_error(rule)
        wrapped.autograph = True
        ad.primitive_transposes[while_p] = wrapped


_explain_while_transpose()
captures.install()
jax.tree_util.register_pytree_node(
    accumulate.Padded, lambda p: ((list(p), p.count), p.label),
    lambda label, children: accumulate.Padded(children[0], children[1], label))

backend = JaxBackend()
backends.register(backend)
