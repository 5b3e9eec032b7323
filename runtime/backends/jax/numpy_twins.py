"""``np.<f>`` on JAX tracers: the ``jax.numpy`` function of the same name.

Converted code under ``jax.jit`` that calls a NumPy function with a tracer among its
arguments (``numpy_calls``) gets the function ``jax.numpy`` defines under the same
module path and name: ``np.sqrt`` -> ``jnp.sqrt``, ``np.linalg.norm`` ->
``jnp.linalg.norm``, ``np.abs`` (NumPy's ``absolute``) -> ``jnp.absolute``,
``np.add.reduce`` -> ``jnp.add.reduce``, ``np.float64(x)`` -> ``jnp.float64(x)``; a
NumPy array's method (``T.dot(W)``) is the method of ``jnp.asarray(T)``.
``jax.numpy`` follows NumPy's API; where it differs, JAX's rules hold: results are
immutable arrays, and their dtype is 32-bit unless ``jax_enable_x64`` is on. Results are
strongly typed, as NumPy's are (``np.where(c, -1.0, 1.0)`` is an array of the default
float type, not a weak Python-scalar type). A list or tuple that NumPy takes as an array
(``np.max([a, b])``, ``np.dot(x, [1.0, 2.0])``) becomes one where ``jax.numpy`` refuses
it; ``np.clip``'s ``a_min``/``a_max`` are ``jnp.clip``'s ``min``/``max``; a user function
passed along (``np.apply_along_axis(f, 0, x)``) is converted, so its control flow stages
too. ``np.require`` and ``np.asfortranarray`` are ``jnp.asarray`` (layout and ownership
mean nothing to an immutable array). ``np.isscalar`` stays NumPy's (a tracer is no NumPy
scalar; ``jnp.isscalar`` says True for 0-d arrays). ``np.zeros_like(x)`` (``ones_like``,
``empty_like``, ``full_like`` with a Python fill) reads only ``x``'s dtype and shape, which
a trace knows: it gives the NumPy array eager code gets, mutable, whose views share its memory.

Refused with a ``StagingError`` that names the NumPy function and the user's line: an
output argument (``out=``, or a ufunc's positional one: ``np.tanh(x, x)``) and the
functions that write into an argument (``np.copyto``, ``np.put``, ``np.place``,
``np.putmask``, ``np.fill_diagonal``, ``np.put_along_axis``, ``np.add.at``, an array's
``fill``/``sort``/``put`` ...): JAX arrays are immutable; functions ``jax.numpy`` lacks
(``np.random.*``, ``np.fix`` ...); and a twin that needs values a trace does not have
(``np.nonzero``, ``np.unique``: their result's shape depends on the values).
"""

from __future__ import annotations

import re
import types

import jax
import jax.numpy as jnp
import sys

import numpy as np
from jax._src.lax.lax import _convert_element_type

from ...staging.arg_writes import user_location
from ...staging.converted import convert as converted
from ...staging.errors import StagingError
from ...staging.numeric import name_of

_IN_PLACE = frozenset({"copyto", "put", "place", "putmask", "fill_diagonal", "put_along_axis"})
_IN_PLACE_METHODS = frozenset({"fill", "sort", "partition", "put", "itemset", "resize",
                               "setfield"})
_AS_IS = frozenset({"isscalar"})
_LIKE = frozenset({"zeros_like", "ones_like", "empty_like", "full_like"})  # a NumPy array
_KEYWORDS = {"clip": {"a_min": "min", "a_max": "max"}}  # NumPy's keyword -> jax.numpy's
_NEEDS_VALUES = (jax.errors.ConcretizationTypeError, jax.errors.TracerArrayConversionError,
                 jax.errors.TracerIntegerConversionError, jax.errors.NonConcreteBooleanIndexError)
_NOT_AN_ARRAY = re.compile(r"requires ndarray or scalar arguments, got <class '(?:list|tuple)'> "
                           r"at position (\d+)")
_twins: dict = {}


def call(fn, args, kwargs):
    """``fn(*args, **kwargs)`` for a NumPy callable ``fn`` and a tracer among the arguments."""
    positional_out = isinstance(fn, np.ufunc) and len(args) > fn.nin  # np.tanh(x, x)
    if positional_out or kwargs.get("out") is not None:
        name = name_of(fn)
        raise StagingError(
            f"{name}(..., out=...) at {user_location()} writes into an array in place, and JAX "
            f"arrays are immutable, so under jax.jit it cannot. Assign the result instead: "
            f"y = {name}(...).")
    short = getattr(fn, "__name__", "")
    owner = getattr(fn, "__self__", None)
    if short in _AS_IS:
        return fn(*args, **kwargs)
    if short in _LIKE and owner is None and args and _shape_only(args, kwargs):
        # a NumPy array the user makes, as eagerly: mutable, with views that share it
        prototype = np.broadcast_to(np.zeros((), args[0].dtype), args[0].shape)
        return fn(prototype, *args[1:], **kwargs)
    if (short in _IN_PLACE_METHODS if isinstance(owner, np.ndarray) else short in _IN_PLACE) \
            or (short == "at" and isinstance(owner, np.ufunc)):
        raise StagingError(
            f"{name_of(fn)} at {user_location()} writes into an array in place, and JAX arrays "
            f"are immutable, so under jax.jit it cannot. Build the new array and assign it instead: "
            f"x[idx] = v on a local array is a functional update, as is x = x.at[idx].set(v).")
    fn_twin = getattr(jnp.asarray(owner), short, None) if isinstance(owner, np.ndarray) \
        else twin(fn)
    if fn_twin is None:
        raise _no_twin(fn)
    renamed = _KEYWORDS.get(short)
    if renamed and kwargs:
        kwargs = {renamed.get(k, k): v for k, v in kwargs.items()}
    args = [converted(a) if a.__class__ is types.FunctionType else a for a in args]
    try:
        result = _call_array_like(fn_twin, args, kwargs)
    except _NEEDS_VALUES as error:
        first = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
        raise StagingError(
            f"{name_of(fn)} at {user_location()} runs as j{name_of(fn)} on the traced values, "
            f"which needs values jax.jit only has when the compiled function runs (JAX: {first}). "
            f"Compute it outside jax.jit and pass the result in, or use a jax.numpy form with "
            f"static sizes (e.g. size= of jnp.nonzero).") from error
    return jax.tree_util.tree_map(_strong, result)


def _shape_only(args, kwargs) -> bool:
    """Only the first argument is traced, and only its dtype and shape are read."""
    rest = list(args[1:]) + list(kwargs.values())
    return isinstance(args[0], jax.core.Tracer) and not any(
        isinstance(leaf, jax.core.Tracer) for leaf in jax.tree_util.tree_leaves(rest))


def _strong(x):
    """``x`` with a strong dtype: NumPy's functions return arrays, never Python scalars
    (``np.where(c, -1.0, 1.0)`` is float64 and promotes a float32 array it multiplies)."""
    if isinstance(x, jax.Array) and jax.typeof(x).weak_type:
        return _convert_element_type(x, x.dtype, weak_type=False)
    return x


def _require(a, dtype=None, requirements=None, *, like=None):
    """``np.require``: memory layout and ownership mean nothing to an immutable array."""
    return jnp.asarray(a, dtype=dtype)


def _asfortranarray(a, dtype=None, *, like=None):
    return jnp.asarray(a, dtype=dtype)


def twin(fn):
    """``jax.numpy``'s function of ``fn``'s module path and name, or None."""
    try:
        return _twins[fn]
    except KeyError:
        pass
    if fn is np.require or fn is np.asfortranarray:  # not in jax.numpy: a cast is all they do
        _twins[fn] = _require if fn is np.require else _asfortranarray
        return _twins[fn]
    found = _find_twin(fn)
    _twins[fn] = found
    return found


def _find_twin(fn):
    owner = getattr(fn, "__self__", None)
    if isinstance(owner, np.ufunc):  # np.add.reduce: a method of jnp.add
        base = twin(owner)
        return getattr(base, fn.__name__, None) if isinstance(base, jnp.ufunc) else None
    path = (getattr(fn, "__module__", None) or "").split(".")
    name = getattr(fn, "__name__", None)
    if isinstance(fn, np.ufunc) and getattr(np, name, None) is not fn:
        return _special_twin(fn, name)
    if path[0] != "numpy" or not isinstance(name, str):
        return None
    target = jnp
    for part in path[1:] + [name]:
        target = getattr(target, part, None)
        if target is None:
            return None
    return None if target is fn or not callable(target) else target


def _special_twin(fn, name: str):
    """``jax.scipy.special``'s function of a ``scipy.special`` ufunc (``ndtr``, ``erf``,
    ``expit``): a ufunc has no module to look it up by."""
    special = sys.modules.get("scipy.special")
    if special is None or getattr(special, name, None) is not fn:
        return None
    import jax.scipy.special

    return getattr(jax.scipy.special, name, None)


def _call_array_like(fn, args: list, kwargs):
    """``fn(*args, **kwargs)``; a list or tuple argument ``jax.numpy`` refuses as an array
    (NumPy takes it as one) is made an array, and the call tried again."""
    while True:
        try:
            return fn(*args, **kwargs)
        except TypeError as error:
            found = _NOT_AN_ARRAY.search(str(error))
            position = int(found.group(1)) if found else len(args)
            if position >= len(args) or args[position].__class__ not in (list, tuple):
                raise
            args[position] = jnp.asarray(args[position])


def _no_twin(fn) -> StagingError:
    name = name_of(fn)
    if name.startswith("np.random."):
        fix = ("Draw random numbers with jax.random and a key passed in (e.g. "
               "loc + scale * jax.random.normal(key, shape)), or draw them outside jax.jit.")
    else:
        fix = ("Compute it with jax.numpy or jax.lax, or call it outside jax.jit and pass the "
               "result in.")
    return StagingError(
        f"{name} at {user_location()} is called with a traced value under jax.jit, and "
        f"jax.numpy has no function of that name to run in its place (NumPy cannot compute on a "
        f"JAX tracer). {fix}")
