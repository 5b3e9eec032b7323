"""The JAX backend's side of ``numeric_builtins``: builtins, ``math`` and ``asarray``
on tracers, as ``jax.numpy`` ops, and writes into arrays (``setitem``). A compiled JAX
function cannot raise, so a ``math`` function outside its domain gives what
``jax.numpy`` gives (NaN, inf)."""

from __future__ import annotations

import jax
import numpy as np
import jax.numpy as jnp
from jax._src.lax.lax import _convert_element_type

from ...staging import masked, numeric as numeric_builtins

_TWINS = {"fabs": jnp.abs, "floor": jnp.floor, "ceil": jnp.ceil, "trunc": jnp.trunc,
          "asin": jnp.arcsin, "acos": jnp.arccos, "atan": jnp.arctan, "atan2": jnp.arctan2,
          "pow": jnp.power, "erf": jax.scipy.special.erf, "erfc": jax.scipy.special.erfc}
_PY_TYPES = {float: float, int: int, bool: bool}


def _python_scalar(x, kind):
    """``x`` as the weakly typed array JAX uses for a Python ``kind`` scalar."""
    if kind is bool:
        return jnp.asarray(x) != 0 if jnp.result_type(x) != jnp.bool_ else x
    if kind is int and jnp.issubdtype(jnp.result_type(x), jnp.floating):
        x = jnp.trunc(x)
    dtype = jax.dtypes.canonicalize_dtype(jnp.int64 if kind is int else jnp.float64)
    return _convert_element_type(x, dtype, weak_type=True)


def _scalar(x):
    if jnp.size(x) != 1 or jnp.ndim(x) != 0:
        raise TypeError("only 0-dimensional arrays can be converted to Python scalars")
    return x


def numeric(name: str, args, kwargs):
    if name in ("min", "max"):
        items = numeric_builtins.python_min_max(name, args, kwargs)
        if items is None:
            return (jnp.min if name == "min" else jnp.max)(args[0])
        pair = jnp.minimum if name == "min" else jnp.maximum
        best = items[0]
        for item in items[1:]:
            best = pair(best, item)
        return best
    if name == "abs":
        return jnp.abs(args[0])
    if name in ("where", "logical_or"):
        return getattr(jnp, name)(*args)
    if name == "round":
        x, ndigits = args[0], (args[1:] or (kwargs.get("ndigits"),))[0]
        if ndigits is not None:
            return jnp.round(x, ndigits)
        if jnp.issubdtype(jnp.result_type(x), jnp.integer):
            return x
        return _python_scalar(jnp.round(_scalar(x)), int)
    if name in ("int", "float", "bool"):
        return _python_scalar(_scalar(args[0]), {"int": int, "float": float, "bool": bool}[name])
    if name.startswith("math."):
        short = name[5:]
        fn = _TWINS.get(short) or getattr(jnp, short)
        result = fn(*(_scalar(jnp.asarray(a)) for a in args))
        kind = numeric_builtins.result_kind(short)
        if kind is tuple:  # math.modf: two floats
            return tuple(_python_scalar(r, float) for r in result)
        return _python_scalar(result, kind)
    if name in ("numpy.asarray", "numpy.array"):
        obj, *rest = args
        return (jnp.asarray if name == "numpy.asarray" else jnp.array)(obj, *rest, **kwargs)
    raise TypeError(f"jax: {name}() of a traced value is not supported")


def setitem(target, index, value):
    """``target.at[index].set(value)``, refused for an argument of a converted
    function: its caller would never see the write (issue 22.4)."""
    from ...staging.arg_writes import cannot_write, written_argument

    written = written_argument(target)
    if written is not None:
        raise cannot_write("jax.jit", written, "JAX arrays are immutable")
    if isinstance(target, jax.Array):
        _check_sharing(target)
    target = jnp.asarray(target)
    if traced_mask(index) or value.__class__ is masked.MaskedItems:
        from .backend import backend

        return masked.write(backend, target, index, value)  # a select: no gather needed
    return target.at[index].set(value)


# The ops jax.numpy's basic indexing and NumPy's view methods record (``d[1:]``,
# ``d[::-1]``, ``d[i]`` of a 2-d ``d``, ``d[None]``, ``.T``, ``.reshape``): their result
# is a view of their first operand in NumPy, so writes through either reach the other.
_VIEWS = frozenset({"slice", "squeeze", "reshape", "transpose", "rev", "broadcast_in_dim",
                    "dynamic_slice", "expand_dims", "real", "imag"})
# jax.numpy's jitted functions whose result NumPy gives as a view of their first argument
# by ops that are no view in JAX (``diagonal``: a gather)
_JITTED_VIEWS = frozenset({"diagonal"})


def _viewed(x):
    """The array whose memory ``x`` would share in NumPy: ``x`` itself unless basic
    indexing or a view method made it (a 0-d result of integer indexing is a copy), or
    a jitted function of jax.numpy's made it of view ops alone (``jnp.atleast_2d``)."""
    while getattr(x, "ndim", 0):
        eqn = getattr(x, "parent", None)
        if eqn is None or not eqn.in_tracers:
            break
        if str(eqn.primitive) in _VIEWS:
            x = eqn.in_tracers[0]
            continue
        i = _jitted_view(eqn, x) if str(eqn.primitive) in ("jit", "pjit") else None
        if i is None:
            break
        x = eqn.in_tracers[i]
    return x


def _jitted_view(eqn, x):
    """The index of the input of the jitted call ``eqn`` whose view its output ``x`` is in
    NumPy (the call's jaxpr makes it by view ops alone, or gives the input back), or None."""
    if eqn.params.get("name") in _JITTED_VIEWS:
        return 0
    jaxpr = getattr(eqn.params.get("jaxpr"), "jaxpr", None)
    var = getattr(x, "val", None)
    outs = [i for i, v in enumerate(getattr(eqn, "outvars", ())) if v is var]
    if jaxpr is None or var is None or len(outs) != 1:
        return None
    inner = jaxpr.outvars[outs[0]]
    made_by = {id(v): q for q in jaxpr.eqns for v in q.outvars}
    while True:
        found = [i for i, v in enumerate(jaxpr.invars) if v is inner]
        if found:
            return found[0]
        q = made_by.get(id(inner))
        if q is None or str(q.primitive) not in _VIEWS or not q.invars:
            return None
        inner = q.invars[0]


def _check_sharing(target) -> None:
    """A write into ``target`` gives only the name written a new array: a
    ``StagingError`` if another name that is read later holds ``target`` or an array
    sharing its memory in NumPy (``holders``)."""
    from ...staging import holders

    base = _viewed(target)
    holders.refuse_shared_write(
        lambda v: v is target or (isinstance(v, jax.Array) and v.ndim > 0 and _viewed(v) is base),
        "jax.jit", "array (JAX arrays are immutable)")


# Tracers the user's NumPy calls made ({id: weak reference}): NumPy arrays eagerly
# (``JaxBackend.users_numpy_call``), which another name may hold as the same array.
NUMPY_MADE: dict = {}


def _numpy_made(x) -> bool:
    ref = NUMPY_MADE.get(id(x))
    return ref is not None and ref() is x


def check_in_place(target) -> None:
    """``target op= value`` gives the name a new array: a ``StagingError`` if another
    name that is read later shares ``target``'s memory in NumPy (``holders``): a view,
    or (where a NumPy function made it: eagerly a NumPy array) the same array."""
    from ...staging import holders

    base = _viewed(target)
    made = _numpy_made(target)
    holders.refuse_shared_in_place(
        lambda v: (v is target and made) or (
            v is not target and isinstance(v, jax.Array) and v.ndim > 0
            and _viewed(v) is base), "jax.jit", "the operator gives it a new array (JAX "
        "arrays are immutable)")


def traced_mask(index) -> bool:
    """A boolean array known only at run time (the count of its True items is too)."""
    return isinstance(index, jax.core.Tracer) and jnp.ndim(index) > 0 and \
        jnp.result_type(index) == jnp.bool_
