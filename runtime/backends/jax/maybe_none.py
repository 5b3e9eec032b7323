"""None on some staged paths under ``jax.jit``: the ``s = None`` sentinel (issue 32.2).

``s = None`` before a loop whose staged branch assigns ``s = 0`` leaves ``s`` None on
some run-time paths and a value on others. A branch of a staged ``if`` where it is
None on one side is carried as a ``NoneOnSomePaths``: a run-time flag (true where it
is None) beside the value (zeros where it is None). ``s is None`` / ``s is not
None`` answer with the flag, and the ``if`` they test narrows ``s`` in each branch
(``conditionals.narrowed``): None in the branch that runs when it is None, the
value in the other, as eager Python knows there (``if s is None: s = 3``), and so
do its uses in that branch read by a closure. Any other use is a StagingError: eager Python would raise a TypeError on the paths
where it is None, and compiled JAX code cannot raise.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import jax

import operator

from ...staging import errors
from ...staging.conditionals import known_not_none
from ...staging.state import filler


class NoneOnSomePaths(NamedTuple):
    """``None`` when ``flag`` is true at run time, else ``value``."""

    flag: Any
    value: Any
    name: str

    def is_none(self):
        return self.flag


def _use(name: str):
    """The value's own ``name`` where the branch traced knows it is not None, else a
    StagingError."""
    def op(self, *args):
        if known_not_none(self):
            value = self.value
            if name == "__jax_array__":
                return jax.numpy.asarray(value)
            method = getattr(value, name, None)
            if method is not None:
                return method(*args)
            return getattr(operator, name.strip("_"))(value, *args)
        return _refuse(self)
    return op


def _getattr(self, name: str):
    if known_not_none(self):
        return getattr(self.value, name)
    return _refuse(self)


def _refuse(self, *args, **kwargs):
    raise errors.StagingError(
        f"{errors.subject(self.name)} is None on some staged paths and a value on others, "
        f"and is used here as a value; under jax.jit it can only be tested with 'is None' "
        f"or 'is not None' (compiled JAX code cannot raise the TypeError eager Python "
        f"raises where it is None). Test it first and use it only where it is not None, or "
        f"give it an array value (e.g. np.nan) instead of None.")


for _name in ("add", "radd", "sub", "rsub", "mul", "rmul", "truediv", "rtruediv", "floordiv",
              "rfloordiv", "mod", "rmod", "pow", "rpow", "matmul", "rmatmul", "neg", "pos",
              "abs", "lt", "le", "gt", "ge", "eq", "ne", "and", "or", "xor", "invert", "bool",
              "float", "int", "index", "iter", "getitem", "len", "array", "jax_array"):
    setattr(NoneOnSomePaths, f"__{_name}__", _use(f"__{_name}__"))
NoneOnSomePaths.__getattr__ = _getattr


def _equality(equal: bool):
    """``maybe == other`` (``!=``): eager Python compares None with a number or a 0-d array
    as unequal (no TypeError), so a scalar that may be None compares as its flag says.
    One that may be an array is refused (``None == a`` is elementwise, in ``a``'s shape)."""
    use = _use("__eq__" if equal else "__ne__")

    def op(self, other):
        both = other.__class__ is NoneOnSomePaths
        other_value = other.value if both else other
        if known_not_none(self) or jax.numpy.ndim(self.value) or other_value is None or (
                jax.numpy.ndim(other_value)) or (both and known_not_none(other)):
            return use(self, other)
        none = jax.numpy.asarray(self.flag)
        other_none = jax.numpy.asarray(other.flag if both else False)
        same = (none & other_none) | (~none & ~other_none & (self.value == other_value))
        return same if equal else ~same
    return op


NoneOnSomePaths.__eq__ = _equality(True)
NoneOnSomePaths.__ne__ = _equality(False)
NoneOnSomePaths.__hash__ = object.__hash__
def _returned(self, *args):
    raise errors.StagingError(
        f"{errors.subject(self.name)} is None on some staged paths and a value on others, "
        f"and is returned from the compiled function (or given to a JAX function): a "
        f"graph's outputs are arrays. Return an array on every path (a NaN, or a success "
        f"flag next to the value).")


jax.tree_util.register_pytree_node(NoneOnSomePaths, _returned, _returned)


def _valued(obj, backend) -> bool:
    return obj.__class__ is NoneOnSomePaths or (obj is not None and backend.aval(obj) is not None)


def pair(name: str, t, f, backend):
    """``t`` and ``f`` with every leaf that is None on one side and an array or number
    on the other (or a NoneOnSomePaths on either) as NoneOnSomePaths on both sides."""
    maybe = NoneOnSomePaths
    if (t is None and _valued(f, backend)) or (f is None and _valued(t, backend)) or (
            t.__class__ is maybe and (f is None or _valued(f, backend))) or (
            f.__class__ is maybe and (t is None or _valued(t, backend))):
        return _as_maybe(t, f, name, backend), _as_maybe(f, t, name, backend)
    if t.__class__ is f.__class__ and t.__class__ in (tuple, list) and len(t) == len(f):
        pairs = [pair(f"{name}[{i}]", a, b, backend) for i, (a, b) in enumerate(zip(t, f))]
        return t.__class__(p[0] for p in pairs), f.__class__(p[1] for p in pairs)
    if t.__class__ is dict and f.__class__ is dict and t.keys() == f.keys():
        pairs = {k: pair(f"{name}[{k!r}]", t[k], f[k], backend) for k in t}
        return {k: p[0] for k, p in pairs.items()}, {k: p[1] for k, p in pairs.items()}
    return t, f


def _as_maybe(side, other, name, backend) -> NoneOnSomePaths:
    if side.__class__ is NoneOnSomePaths:
        return NoneOnSomePaths(side.flag, side.value, name)
    if side is None:
        model = other.value if other.__class__ is NoneOnSomePaths else other
        return NoneOnSomePaths(True, filler(model, backend), name)
    return NoneOnSomePaths(False, side, name)
