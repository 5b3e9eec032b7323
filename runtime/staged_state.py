"""Staging that is the same on every backend: the state of a staged if or loop.

A staged ``if`` traces both branches and a staged loop traces its body; what goes in
and comes out is the state of Python variables: nested lists, tuples, named tuples
and dicts whose leaves are the backend's arrays, NumPy arrays, Python numbers or
other Python objects. This module turns that state into the flat list of array
leaves a graph op carries and back, and decides for every leaf, named by its path
(``'x["a"][1]'``), whether the two sides agree:

- branches (``join_branches``): equal Python objects stay Python; arrays and Python
  numbers meet in one abstract value (``Aval``: dtype, shape, weak or strong); a
  value assigned in one branch only, a key one branch adds, or a different
  structure is a ``StagingError`` (texts in ``errors``);
- loops (``Carry``): Python numbers start weakly typed and take the body's dtype
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
from typing import Callable, NamedTuple, Optional

import numpy as np

from . import errors
from .inplace import MISSING, InPlace, Side
from .undefined import NO_RETURN, Undefined

PY_NUMBERS = (bool, int, float, complex)
_KIND_NAMES = {"b": "bool", "i": "int", "u": "int", "f": "float", "c": "complex"}
_KIND_RANK = {"b": 0, "u": 1, "i": 1, "f": 2, "c": 3}
MAX_TRACES = 6  # traces of a loop body while its carry types settle


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


class _Slot:
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
        return [(f".{f}", v) for f, v in zip(x._fields, x)]
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
    """``template`` with each ``_Slot`` replaced by its output; nodes are rebuilt."""
    if template.__class__ is _Slot:
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


def keeps_value(kind: str, dtype: np.dtype) -> bool:
    """A Python number of ``kind`` may become ``dtype`` without changing its value
    on any path (bool into any number, int into int or float, float into float)."""
    target = dtype.kind
    if kind == "b":
        return target in "biufc"
    if kind in "iu":
        return target in "iufc"
    return target in "fc" if kind == "f" else target == "c"


def _fits_constant(value, dtype: np.dtype) -> bool:
    try:
        return bool(np.asarray(value).astype(dtype) == value)
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


# ---------------------------------------------------------------- branches


class _Zeros:
    """The value a side that has not returned holds for an array (its return flag
    guards it): zeros of that array's type."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "<zeros>"


ZEROS = _Zeros()


def _filler(x, backend):
    """``x`` with its arrays replaced by ``ZEROS``: a NO_RETURN side's value."""
    if is_node(x):
        return remake(x, [_filler(v, backend) for _, v in items(x)])
    return x if is_number(x) or backend.aval(x) is None else ZEROS


class BranchJoin:
    """How both branches of a staged ``if`` give the same outputs.

    ``values`` are the two sides' values (one per label), recorded in each branch's
    trace; ``leaves`` the array leaves each branch returned to its trace. ``avals``
    are the op's outputs; ``outputs(side, leaves)`` builds them inside a branch;
    ``rebuild(outs)`` gives the joined values.
    """

    def __init__(self, backend, labels, where_fn, values, leaves):
        self.backend, self.where_fn = backend, where_fn
        self.avals: list[Aval] = []
        self.sources: tuple[list, list] = ([], [])
        self._index = [{id(x): k for k, x in enumerate(side)} for side in leaves]
        self.template = [self._join(label, t, f) for label, t, f in zip(labels, *values)]

    def _join(self, label, t, f):
        t_absent = t.__class__ is Undefined or t is MISSING
        f_absent = f.__class__ is Undefined or f is MISSING
        if t_absent or f_absent:
            if t_absent and f_absent:
                return t
            raise errors.defined_in_one_branch(label, "false" if t_absent else "true",
                                               self.where_fn)
        if (t is NO_RETURN) != (f is NO_RETURN):
            t, f = (_filler(f, self.backend), f) if t is NO_RETURN else (t, _filler(t, self.backend))
        if is_node(t) or is_node(f):
            return self._join_nodes(label, t, f)
        return self._join_leaf(label, t, f)

    def _join_nodes(self, label, t, f):
        if type(t) is not type(f) or (t.__class__ is not dict and len(items(t)) != len(items(f))):
            raise errors.branch_mismatch(label, self.where_fn, describe(t, self.backend),
                                         describe(f, self.backend))
        if t.__class__ is dict:
            for side, a, b in (("true", t, f), ("false", f, t)):
                for k in a:
                    if k not in b:
                        raise errors.defined_in_one_branch(label + key_label(k), side,
                                                           self.where_fn)
            return {k: self._join(label + key_label(k), t[k], f[k]) for k in t}
        return remake(t, [self._join(label + suffix, a, b)
                          for (suffix, a), (_, b) in zip(items(t), items(f))])

    def _join_leaf(self, label, t, f):
        backend = self.backend
        if t is f or same(t, f):
            return t
        ta = None if t is ZEROS else backend.aval(t)
        fa = None if f is ZEROS else backend.aval(f)
        ta, fa = ta or (fa if t is ZEROS else None), fa or (ta if f is ZEROS else None)
        if ta is None and fa is None and type(t) is type(f):
            raise errors.python_values_differ(label, self.where_fn, t)
        joined = None if ta is None or fa is None else join_avals(ta, fa, backend.unknown_dims)
        if joined is not None and not all(_fits_constant(x, joined.dtype)
                                          for x in (t, f) if is_number(x)):
            joined = None
        if joined is None:
            raise errors.branch_mismatch(label, self.where_fn, describe(t, backend),
                                         describe(f, backend))
        self.avals.append(joined)
        for side, x in ((0, t), (1, f)):
            k = self._index[side].get(id(x))
            self.sources[side].append(("zeros", None) if x is ZEROS else
                                      ("value", x) if k is None else ("leaf", k))
        return _Slot(len(self.avals) - 1)

    def outputs(self, side: int, leaves) -> list:
        """The op's outputs as branch ``side`` gives them (call in that branch)."""
        backend, out = self.backend, []
        for (kind, x), aval in zip(self.sources[side], self.avals):
            if kind == "zeros":
                out.append(backend.zeros(aval))
            else:
                out.append(backend.cast(leaves[x] if kind == "leaf" else x, aval))
        return out

    def rebuild(self, outs) -> list:
        return [fill(t, outs) for t in self.template]


def _label(names, i: int) -> str:
    return names[i] if i < len(names) else "the value"


def stage_if(backend, cond, body, orelse, state, names, shared=None,
             construct: str = "if statement"):
    """``body(*state) if cond else orelse(*state)`` as the backend's cond op.

    Both branches are traced on the same inputs; what one changes in place is
    undone before the other runs, and joined like the returned state after both.
    """
    side = Side(shared)
    inplace = InPlace([body, orelse], state, names)
    pred = predicate(backend, cond, construct, body)
    handles, records, failures = [], [], []
    for fn in (body, orelse):
        record: dict = {}

        def run(fn=fn, record=record):
            out = tuple(fn(*state))
            shared_now = tuple(side.get())
            record["n"] = len(out)
            record["values"] = [copy_tree(v) for v in out + shared_now]
            record["changes"] = {e: copy_tree(v) for e, v in inplace.changes(shared_now).items()}
            record["leaves"] = array_leaves([record["values"], list(record["changes"].values())],
                                            backend, [])
            return record["leaves"]

        try:
            handles.extend(backend.trace([run], []))
        except KeyError as e:
            failures.append(e)
            handles.append(None)
        finally:
            inplace.restore()
            side.restore()
        records.append(record)
    if failures:
        path = _defining_path(failures[0], records, names, inplace)
        raise errors.key_read_in_one_branch(path, body) from failures[0]
    t, f = records
    entries = sorted(t["changes"].keys() | f["changes"].keys(), key=str)
    labels = ([_label(names, i) for i in range(t["n"])] + list(side.names)
              + [inplace.label(e) for e in entries])
    values = [r["values"] + [r["changes"].get(e, inplace.before(e)) for e in entries]
              for r in records]
    join = BranchJoin(backend, labels, body, values, [t["leaves"], f["leaves"]])
    outs = backend.cond(pred, handles, [lambda lv: join.outputs(0, lv),
                                        lambda lv: join.outputs(1, lv)], join.avals)
    result = join.rebuild(outs)
    n, k = t["n"], t["n"] + len(side.names)
    side.put(result[n:k])
    inplace.put(entries, result[k:])
    return tuple(result[:n])


def _defining_path(error, records, names, inplace) -> str:
    """The path of the dict key a branch read (``error``) that the other branch defines."""
    key = error.args[0] if len(error.args) == 1 else MISSING
    for record in records:
        for label, value in zip(names, record.get("values", ())):
            found = _find_key(value, key, label)
            if found:
                return found
        for entry in record.get("changes", ()):
            if entry[1] == key and inplace.before(entry) is MISSING:
                return inplace.label(entry)
    raise error


def _find_key(value, key, label):
    if value.__class__ is dict and key in value:
        return label + key_label(key)
    for suffix, v in items(value) if is_node(value) else ():
        found = _find_key(v, key, label + suffix)
        if found:
            return found
    return None


def predicate(backend, cond, construct: str, where_fn):
    """A staged condition as the backend's scalar bool, with Python's truth rules."""
    aval = backend.aval(cond)
    if aval is not None and None not in aval.shape and int(np.prod(aval.shape)) != 1:
        raise errors.non_scalar_condition(construct, where_fn, str(aval))
    return backend.predicate(cond)


# ---------------------------------------------------------------- loops


class _Seed(NamedTuple):
    """A carried leaf for the next trace: its type and its value before the loop."""

    aval: Aval
    first: object


class Carry:
    """The state of a staged loop, settled over traced iterations.

    ``specs`` has one template per carried value: ``_Slot`` leaves index ``avals``
    (and ``firsts``, each leaf's value before the loop); other leaves are Python
    values that stay as they are. ``trace`` traces the body (and test) on
    placeholders until the types settle; ``init`` gives the op's initial carry and
    ``finish`` the state from the op's results. In-place updates the body makes to
    reachable containers join the carry on the way.
    """

    def __init__(self, backend, state, names, shared, construct, body, test=None):
        self.backend, self.construct, self.where_fn = backend, construct, body
        self.side = Side(shared)
        self.inplace = InPlace([body] + ([test] if test is not None else []), (), ())
        self.entries: list = []
        self.n_state = len(state)
        labels = [_label(names, i) for i in range(len(state))]
        self.labels = labels + list(self.side.names)
        self._respec(list(state) + list(self.side.before))

    def _respec(self, seeds) -> None:
        self.avals: list[Aval] = []
        self.firsts: list = []
        self.specs = [self._spec(x) for x in seeds]

    def _spec(self, x):
        if x.__class__ is _Seed:
            self.avals.append(x.aval)
            self.firsts.append(x.first)
            return _Slot(len(self.avals) - 1)
        if is_node(x):
            return remake(x, [self._spec(v) for _, v in items(x)])
        aval = self.backend.aval(x)
        return x if aval is None else self._spec(_Seed(aval, x))

    def init(self) -> list:
        """The op's initial carry: each leaf's value before the loop, cast."""
        return [self.backend.zeros(a) if x is ZEROS else self.backend.cast(x, a)
                for x, a in zip(self.firsts, self.avals)]

    def _enter(self, flat) -> tuple:
        values = [fill(s, flat) for s in self.specs]
        n, k = self.n_state, self.n_state + len(self.side.names)
        self.side.put(values[n:k])
        self.inplace.put(self.entries, values[k:])
        return tuple(values[:n])

    def finish(self, flat) -> tuple:
        """The state after the loop op; shared and in-place state are written back."""
        return self._enter(flat)

    def trace(self, step: Callable, item_avals=(), test: Callable = None,
              extra_test: Callable = None) -> list:
        """Trace ``step(items, state)`` (returning the next state), and ``test(*state)``
        if given, until the carry settles. Returns the backend's handles (test
        first). With ``extra_test`` the body also returns its truth last."""
        n_items = len(item_avals)
        for _ in range(MAX_TRACES):
            self._next = None
            fns = []
            if test is not None:
                fns.append(self._guarded(lambda flat: [predicate(
                    self.backend, test(*self._enter(flat[n_items:])), self.construct,
                    self.where_fn)]))

            def run_body(flat):
                out = tuple(step(list(flat[:n_items]), self._enter(flat[n_items:])))
                shared_now = tuple(self.side.get())
                changes = self.inplace.changes(shared_now)
                values = list(out) + list(shared_now) + [
                    changes.get(e, MISSING) for e in self.entries]
                dyn = self._fit(values, [e for e in changes if e not in self.entries])
                if extra_test is not None:
                    dyn.append(predicate(self.backend, extra_test(*out), self.construct,
                                         self.where_fn))
                return dyn

            fns.append(self._guarded(run_body))
            handles = self.backend.trace(fns, list(item_avals) + self.avals)
            if self._next is None:
                return handles
            self._respec(self._next)
        raise errors.StagingError(
            f"{self.construct} at {errors.where(self.where_fn)}: the types of the loop "
            f"variables did not settle after {MAX_TRACES} traces of the body. Give the loop "
            f"variables their final dtype before the loop.")

    def _guarded(self, fn):
        def run(*flat):
            try:
                return fn(flat)
            finally:
                self.inplace.restore()
                self.side.restore()
        return run

    def _fit(self, values, new_entries) -> list:
        """Check one iteration's ``values`` against the carry and return the carried
        leaves cast to their types; a change of types is kept in ``_next``."""
        for e in new_entries:
            if self.inplace.before(e) is MISSING:
                raise errors.undefined_loop_variable(self.inplace.label(e), self.construct,
                                                     self.where_fn)
        dyn: list = []
        seeds, changed = [], bool(new_entries)
        labels = self.labels + [self.inplace.label(e) for e in self.entries]
        for label, spec, value in zip(labels, self.specs, values):
            seed, ch = self._fit_one(label, spec, value, dyn)
            seeds.append(seed)
            changed = changed or ch
        if changed:
            self.entries = self.entries + new_entries
            self._next = seeds + [self.inplace.before(e) for e in new_entries]
        return dyn

    def _fit_one(self, label, spec, value, dyn):
        """(seed for the next trace, changed?) of one carried value."""
        backend = self.backend
        if spec.__class__ is Undefined:
            if value.__class__ is not Undefined and value is not NO_RETURN:
                raise errors.undefined_loop_variable(label, self.construct, self.where_fn)
            return spec, False
        if spec is NO_RETURN:
            if value is NO_RETURN:
                return spec, False
            return _learned(value, backend), True
        if spec.__class__ is _Slot:
            return self._fit_slot(label, spec.index, value, dyn)
        if is_node(spec):
            return self._fit_node(label, spec, value, dyn)
        if same(spec, value):
            return spec, False
        if is_number(spec) and backend.aval(value) is not None:
            return _Seed(backend.aval(spec), spec), True  # a number the body makes an array
        raise errors.loop_variable_changed(label, self.construct, self.where_fn,
                                           describe(spec, backend), describe(value, backend))

    def _fit_slot(self, label, k, value, dyn):
        backend, aval, first = self.backend, self.avals[k], self.firsts[k]
        out = None if value is MISSING else backend.aval(value)
        joined = None if out is None else carry_aval(aval, out)
        if joined is not None and is_number(first) and not _fits_constant(first, joined.dtype):
            joined = None
        if joined is None:
            before = describe(first) if aval.weak and is_number(first) else str(aval)
            raise errors.loop_variable_changed(label, self.construct, self.where_fn, before,
                                               describe(value, backend))
        dyn.append(backend.cast(value, joined))
        return _Seed(joined, first), joined != aval

    def _fit_node(self, label, spec, value, dyn):
        backend = self.backend
        if type(spec) is not type(value) or len(items(spec)) != len(items(value)) or (
                spec.__class__ is dict and spec.keys() != value.keys()):
            if spec.__class__ is list and value.__class__ is list:
                raise errors.list_length_changed(label, self.construct, self.where_fn,
                                                 len(spec), len(value))
            if spec.__class__ is dict and value.__class__ is dict and set(value) - set(spec):
                key = next(iter(set(value) - set(spec)))
                raise errors.undefined_loop_variable(label + key_label(key), self.construct,
                                                     self.where_fn)
            raise errors.loop_variable_changed(
                label, self.construct, self.where_fn, describe(fill(spec, self.avals), backend),
                describe(value, backend))
        seeds, changed = [], False
        for (suffix, s), (_, v) in zip(items(spec), items(value)):
            seed, ch = self._fit_one(label + suffix, s, v, dyn)
            seeds.append(seed)
            changed = changed or ch
        return remake(spec, seeds), changed


def _learned(value, backend):
    """The seed of a return value set for the first time in a loop: its arrays are
    carried, starting from zeros (the return flag guards them)."""
    if is_node(value):
        return remake(value, [_learned(v, backend) for _, v in items(value)])
    aval = None if is_number(value) else backend.aval(value)
    return value if aval is None else _Seed(aval, ZEROS)


def stage_while(backend, test, body, state, names, shared=None):
    """``while test(*state): state = body(*state)`` as the backend's while loop."""
    carry = Carry(backend, state, names, shared, "while loop", body, test)
    test_handle, body_handle = carry.trace(lambda _, s: body(*s), test=test)
    return carry.finish(backend.while_loop(test_handle, body_handle, carry.init()))
