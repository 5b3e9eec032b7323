"""Staging that is the same on every backend: the state of a staged if or loop.

A staged ``if`` traces both branches and a staged loop traces its body; what goes in
and comes out is the state of Python variables: nested lists, tuples, named tuples
and dicts whose leaves are the backend's arrays, NumPy arrays, Python numbers or
other Python objects. This module turns that state into the flat list of array
leaves a graph op carries and back, and decides for every leaf, named by its path
(``'x["a"][1]'``), whether the two sides agree:

- branches (``conditionals``): equal Python objects stay Python; arrays and Python
  numbers meet in one abstract value (``Aval``: dtype, shape, weak or strong); a
  value assigned in one branch only, a key one branch adds, or a different
  structure is a ``StagingError`` (texts in ``errors``);
- loops (``loops``): Python numbers start weakly typed and take the body's dtype
  only where no value is lost (an int into an int or float array, a float into a
  float array), like NumPy's promotion on every trip count; the body is traced
  again until the types settle.

State a body changes in place is carried too: the ``shared`` variables the
converter names (closures, ``nonlocal``, attributes), and containers and objects
reachable from the bodies (``inplace``). A backend only answers framework
questions (``backends.Backend``): the ``Aval`` of a leaf, cast and zeros, tracing a
function on placeholders, and its ``cond`` and loop ops.
"""

from __future__ import annotations

import copy
from typing import NamedTuple, Optional

import numpy as np

from . import errors
from .undefined import NO_RETURN, Undefined

PY_NUMBERS = (bool, int, float, complex)
_KIND_NAMES = {"b": "bool", "i": "int", "u": "int", "f": "float", "c": "complex"}
_KIND_RANK = {"b": 0, "u": 1, "i": 1, "f": 2, "c": 3}


class Aval(NamedTuple):
    """What a graph knows of an array leaf. ``shape`` may hold None (unknown)
    where the backend allows it; ``weak`` marks a Python number's type;
    ``varying`` names the mesh axes over which the value differs between devices
    (inside JAX's ``shard_map``), joined by union."""

    dtype: np.dtype
    shape: tuple
    weak: bool = False
    varying: frozenset = frozenset()

    def __str__(self) -> str:
        if self.weak:
            return f"a Python {_KIND_NAMES[self.dtype.kind]}"
        dims = ",".join("?" if d is None else str(d) for d in self.shape)
        return f"{self.dtype.name}[{dims}]"


class Slot:
    """Where an output of the graph op goes in a rebuilt state."""

    __slots__ = ("index",)

    def __init__(self, index: int) -> None:
        self.index = index


def is_number(x) -> bool:
    return x.__class__ in PY_NUMBERS


def _is_namedtuple(x) -> bool:
    return isinstance(x, tuple) and hasattr(x, "_fields")


def _is_dataclass(x) -> bool:
    return hasattr(x.__class__, "__dataclass_fields__") and not isinstance(x, type)


def is_node(x) -> bool:
    """A container whose items are state: list, tuple, named tuple, dict, dataclass."""
    cls = x.__class__
    return cls is list or cls is tuple or cls is dict or _is_namedtuple(x) or _is_dataclass(x)


def items(x) -> list:
    """(path suffix, item) pairs of a node."""
    if x.__class__ is dict:
        return [(key_label(k), v) for k, v in x.items()]
    if _is_namedtuple(x):
        suffixes = getattr(x.__class__, "label_suffixes", None) or [f".{f}" for f in x._fields]
        return [(s, getattr(x, f)) for s, f in zip(suffixes, x._fields)]
    if _is_dataclass(x):
        return [(f".{f}", getattr(x, f)) for f in x.__class__.__dataclass_fields__]
    return [(f"[{i}]", v) for i, v in enumerate(x)]


def key_label(key) -> str:
    return f'["{key}"]' if isinstance(key, str) and '"' not in key else f"[{key!r}]"


def remake(x, values):
    """A new node of ``x``'s type holding ``values`` (in ``items`` order)."""
    if x.__class__ is dict:
        return dict(zip(x.keys(), values))
    if _is_namedtuple(x):
        return x.__class__(*values)
    if _is_dataclass(x):
        new = copy.copy(x)
        for f, v in zip(x.__class__.__dataclass_fields__, values):
            object.__setattr__(new, f, v)
        return new
    return x.__class__(values)


def fill(template, outs):
    """``template`` with each ``Slot`` replaced by its output; nodes are rebuilt."""
    if template.__class__ is Slot:
        return outs[template.index]
    if is_node(template):
        return remake(template, [fill(v, outs) for _, v in items(template)])
    return template


def copy_tree(x):
    """New nodes, same leaves: a record of a state that later in-place updates keep."""
    return remake(x, [copy_tree(v) for _, v in items(x)]) if is_node(x) else x


def array_leaves(x, backend, found: list) -> list:
    """The leaves of ``x`` a graph carries as arrays (not Python numbers), in order."""
    if is_node(x):
        for _, v in items(x):
            array_leaves(v, backend, found)
    elif not is_number(x) and backend.aval(x) is not None:
        found.append(x)
    return found


def same(a, b) -> bool:
    """Two Python leaves that a graph may treat as one (never arrays)."""
    if a is b:
        return True
    if type(a) is not type(b) or hasattr(a, "__array__"):
        return False
    try:
        return bool(a == b)
    except Exception:  # an __eq__ that is not a plain comparison
        return False


def describe(x, backend=None) -> str:
    """A short phrase for messages: what ``x`` is."""
    if isinstance(x, Aval):
        return str(x)
    if x.__class__ is Undefined:
        return "not defined"
    if x is NO_RETURN:
        return "not yet returned"
    if x is None:
        return "None"
    if is_number(x):
        return f"a Python {type(x).__name__} ({x!r})"
    aval = backend.aval(x) if backend is not None else None
    if aval is not None:
        return str(aval)
    if x.__class__ is dict:
        return f"a dict with keys {list(x)}" if x else "an empty dict"
    if x.__class__ in (list, tuple):
        return f"a {type(x).__name__} of {len(x)} item{'' if len(x) == 1 else 's'}"
    text = repr(x)
    return f"{type(x).__name__} {text if len(text) <= 40 else text[:37] + '...'}"


# ---------------------------------------------------------------- abstract values


def kind_of(dtype: np.dtype) -> str:
    """NumPy's kind letter of ``dtype``; ml_dtypes' numbers (``bfloat16``, the float8s,
    ``int4``: JAX's and, through ml_dtypes, PyTorch's), kind ``'V'`` to NumPy, get the
    kind of number they are."""
    kind = dtype.kind
    if kind != "V" or dtype.type.__module__ != "ml_dtypes":
        return kind
    name = dtype.name
    return "u" if name.startswith("uint") else "i" if name.startswith("int") else "f"


def keeps_value(kind: str, dtype: np.dtype) -> bool:
    """A Python number of ``kind`` may become ``dtype`` without changing its value
    on any path (bool into any number, int into int or float, float into float)."""
    target = kind_of(dtype)
    if kind == "b":
        return target in "biufc"
    if kind in "iu":
        return target in "iufc"
    return target in "fc" if kind == "f" else target == "c"


def fits_constant(value, dtype: np.dtype) -> bool:
    """True if the Python number ``value`` keeps its value as a ``dtype`` array
    (NaN keeps NaN: a float into a float array)."""
    try:
        cast = np.asarray(value).astype(dtype)
        return bool(cast == value) or bool(np.isnan(cast) & (value != value))
    except (OverflowError, ValueError, TypeError):
        return False


def join_shapes(a: tuple, b: tuple, unknown_dims: bool):
    if len(a) != len(b):
        return None
    if a == b:
        return a
    return tuple(x if x == y else None for x, y in zip(a, b)) if unknown_dims else None


def join_avals(a: Aval, b: Aval, unknown_dims: bool) -> Optional[Aval]:
    """The one type both sides of a branch take, or None."""
    shape = join_shapes(a.shape, b.shape, unknown_dims)
    if shape is None:
        return None
    varying = a.varying | b.varying
    if a.dtype == b.dtype:
        return Aval(a.dtype, shape, a.weak and b.weak, varying)
    if a.weak and b.weak:
        ka, kb = _KIND_RANK[a.dtype.kind], _KIND_RANK[b.dtype.kind]
        dtype = a.dtype if ka > kb else b.dtype if kb > ka else np.promote_types(a.dtype, b.dtype)
        return Aval(dtype, shape, True, varying)
    weak, strong = (a, b) if a.weak else (b, a)
    if weak.weak and keeps_value(weak.dtype.kind, strong.dtype):
        return Aval(strong.dtype, shape, False, varying)
    return None


def carry_aval(carry: Aval, out: Aval) -> Optional[Aval]:
    """The carry's type once an iteration gave ``out`` for it, or None (refused)."""
    if len(carry.shape) != len(out.shape) or any(
            c is not None and c != o for c, o in zip(carry.shape, out.shape)):
        return None
    varying = carry.varying | out.varying
    if carry.dtype == out.dtype:
        return Aval(carry.dtype, carry.shape, carry.weak and out.weak, varying)
    if carry.weak:
        return join_avals(carry, out, False)
    if out.weak and keeps_value(out.dtype.kind, carry.dtype):
        return carry._replace(varying=varying)
    return None


class Zeros:
    """The value a side that has not returned holds for an array (its return flag
    guards it): zeros of that array's type."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "<zeros>"


ZEROS = Zeros()


def filler(x, backend):
    """``x`` with its arrays replaced by ``ZEROS``: a NO_RETURN side's value."""
    if is_node(x):
        return remake(x, [filler(v, backend) for _, v in items(x)])
    return x if is_number(x) or backend.aval(x) is None else ZEROS


def label_of(names, i: int) -> str:
    return names[i] if i < len(names) else "the value"


def predicate(backend, cond, construct: str, where_fn):
    """A staged condition as the backend's scalar bool, with Python's truth rules."""
    aval = backend.aval(cond)
    if aval is not None and None not in aval.shape and int(np.prod(aval.shape)) != 1:
        raise errors.non_scalar_condition(construct, where_fn, str(aval))
    return backend.predicate(cond)
