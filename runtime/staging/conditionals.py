"""A staged ``if``: both branches traced, their state joined leaf by leaf.

Each branch runs in a trace of its own on the same inputs; what it changed in place
(``inplace``, NumPy arrays it wrote into among them: ``arrays``) is recorded and undone
before the other branch runs. The two records
are then joined (``BranchJoin``): equal Python objects stay Python, arrays and
Python numbers meet in one ``Aval``, and anything else is a ``StagingError`` naming
the leaf. The backend builds one cond op whose branches give the joined outputs.

A branch that raised (``raises``: the backend made the raise a run-time check)
takes the other branch's values. Values a graph cannot hold as arrays may still be
carried where the backend can (``Backend.pair_values``/``pair_unbound``, the NumPy
engine: ``None`` on one side, strings, a variable assigned in one branch only, each
with a run-time flag); elsewhere they are a ``StagingError``.
"""

from __future__ import annotations

import collections
import weakref
from typing import Optional

import numpy as np

from . import errors, iterated, raises as staged_raise, returns as staged_return
from .arg_writes import function_name
from .holders import running
from .inplace import MISSING, InPlace, Side
from .kept import note_copies, refill, same_objects
from .state import (
    ZEROS, Aval, Slot, array_leaves, copy_tree, describe, filler, fill, fits_constant, is_node,
    is_number, items, join_avals, key_label, label_of, predicate, remake, same,
)
from .undefined import MissingOnSomePaths, Undefined, pair_missing


class BranchJoin:
    """How both branches of a staged ``if`` give the same outputs.

    ``values`` are the two sides' values (one per label), recorded in each branch's
    trace; ``leaves`` the array leaves each branch returned to its trace. ``avals``
    are the op's outputs; ``outputs(side, leaves)`` builds them inside a branch;
    ``rebuild(outs)`` gives the joined values.
    """

    def __init__(self, backend, labels, where_fn, values, leaves, construct="if statement"):
        self.backend, self.where_fn, self.construct = backend, where_fn, construct
        self.avals: list[Aval] = []
        self.sources: tuple[list, list] = ([], [])
        # (output, kind where true, kind where false, label): outputs a Python number on
        # one side's paths and a NumPy value on the other's (``Backend.keeps_kinds``)
        self.kinds: list = []
        self._index = [{id(x): k for k, x in enumerate(side)} for side in leaves]
        self.template = [self._join(label, t, f) for label, t, f in zip(labels, *values)]

    def _join(self, label, t, f):
        t_absent = t.__class__ is Undefined or t is MISSING
        f_absent = f.__class__ is Undefined or f is MISSING
        if t_absent or f_absent:
            if t_absent and f_absent:
                return t
            if label in staged_raise.dead_names():  # never read after the if: stays unbound
                return Undefined(label)
            if t is not MISSING and f is not MISSING and label in staged_raise.filled_names(
                    0 if t_absent else 1):  # a raise's side, its handler assigns it first
                t, f = (filler(f, self.backend), f) if t_absent else (t, filler(t, self.backend))
                return self._join(label, t, f)
            paired = None
            if t is not MISSING and f is not MISSING and label in staged_raise.local_names():
                paired = self.backend.pair_unbound(label, t, f)  # a run-time flag, or None
            elif "." in label and "[" not in label:  # an attribute (a missing key: KeyError)
                paired = _pair_missing(self.backend, label, t, f, t_absent)
            if paired is None:
                raise errors.defined_in_one_branch(label, "false" if t_absent else "true",
                                                   self.where_fn)
            t, f = paired
        if staged_return.involved(t, f):  # a side that has not returned: a run-time flag
            t, f = staged_return.pair(t, f, self.where_fn, self.backend)
        t, f = self.backend.pair_values(label, t, f)
        if is_node(t) or is_node(f):
            return self._join_nodes(label, t, f)
        return self._join_leaf(label, t, f)

    def _join_nodes(self, label, t, f):
        if type(t) is not type(f) or (t.__class__ is not dict and len(items(t)) != len(items(f))):
            self._none_on_one_side(label, t, f)
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
        joined = None if ta is None or fa is None else join_avals(
            ta, fa, backend.unknown_dims or backend.branch_sizes_differ)
        if joined is None and ta is not None and fa is not None:
            joined = _number_and_array(t, ta, f, fa)
        if joined is not None and not all(fits_constant(x, joined.dtype)
                                          for x in (t, f) if is_number(x)):
            joined = None
        if joined is None:
            self._none_on_one_side(label, t, f)
            raise errors.branch_mismatch(label, self.where_fn, describe(t, backend),
                                         describe(f, backend))
        self.avals.append(joined)
        for side, x in ((0, t), (1, f)):
            k = self._index[side].get(id(x))
            self.sources[side].append(("zeros", None) if x is ZEROS else
                                      ("value", x) if k is None else ("leaf", k))
        slot = Slot(len(self.avals) - 1)
        if backend.keeps_kinds and not joined.weak:
            self._note_kinds(label, slot, t, f)
        return slot

    def _note_kinds(self, label, slot, t, f) -> None:
        """``label`` is a Python number on one side and a NumPy value on the other (or
        either, as a side's staged flag says): which, on each path, is an output too."""
        kt, kf = (None if x is ZEROS else self.backend.python_kind(x) for x in (t, f))
        # a side that has not returned (ZEROS, never read): the other's kind where that is
        # the same on every path (a flag of the other branch is not seen in this one)
        kt = kt if kt is not None else kf if kf.__class__ is bool else False
        kf = kf if kf is not None else kt if kt.__class__ is bool else False
        if kt is kf and kt.__class__ is bool:
            return
        if kt.__class__ is bool and kf.__class__ is bool:
            self.kinds.append((slot, kt, kf, label))
            return
        self.avals.append(Aval(np.dtype(bool), ()))  # a side's kind is a flag of its own
        for side, kind in ((0, kt), (1, kf)):
            self.sources[side].append(("value", kind))
        self.kinds.append((slot, Slot(len(self.avals) - 1), None, label))

    def keep_kinds(self, pred, outs) -> None:
        """After the cond op: the outputs that are a Python number on some paths say so
        to the backend (``Backend.keep_kind``)."""
        for slot, kt, kf, label in self.kinds:
            where = errors.where(self.where_fn)
            origin = f"the value of the {self.construct} at {where}" if label.startswith("the ") \
                else f"{errors.subject(label)}, chosen by the {self.construct} at {where},"
            if kf is None:  # the flag the cond op gave
                self.backend.keep_kind(outs[slot.index], outs[kt.index], True, False, origin)
            else:
                self.backend.keep_kind(outs[slot.index], pred, kt, kf, origin)

    def _none_on_one_side(self, label, t, f) -> None:

        error = none_on_one_side(label, self.where_fn, t, f)
        if error is not None:
            raise error

    def outputs(self, side: int, leaves) -> list:
        """The op's outputs as branch ``side`` gives them (call in that branch)."""
        backend, out = self.backend, []
        for (kind, x), aval in zip(self.sources[side], self.avals):
            if kind == "zeros":
                out.append(backend.zeros(aval))
            elif kind == "value" and is_number(x) and aval.shape:  # d = 0 against d = dy
                out.append(backend.cast(backend.zeros(aval) + x, aval))
            else:
                out.append(backend.cast(leaves[x] if kind == "leaf" else x, aval))
        return out

    def rebuild(self, outs) -> list:
        return [fill(t, outs) for t in self.template]


def _pair_missing(backend, label, t, f, t_absent: bool):
    """An attribute (or item) one branch assigns and the other leaves absent: with the
    backend's run-time flag (uses raise where it is absent), or refused wherever it is
    used (``MissingOnSomePaths``); None for a value neither can carry."""
    absent, other = (t, f) if t_absent else (f, t)
    if other.__class__ is not MissingOnSomePaths and backend.aval(other) is None:
        return None
    if other.__class__ is not MissingOnSomePaths:
        paired = backend.pair_unbound(label, Undefined(label) if t_absent else t,
                                      f if t_absent else Undefined(label))
        if paired is not None:
            return paired
    return pair_missing(label, t, f, absent)


def _number_and_array(t, ta, f, fa):
    """A Python number on one side and an array of known shape on the other (``d = 0`` /
    ``d = dy``): the array's type, as NumPy promotes a Python number with an array; the
    number's side holds it broadcast to that shape."""
    for x, xa, other in ((t, ta, fa), (f, fa, ta)):
        if is_number(x) and other.shape and None not in other.shape:
            return join_avals(xa._replace(shape=other.shape), other, False)
    return None


# id(test) -> (weak reference to the test, maybe): found by identity, never by ``==``
# (a PyTorch tensor's ``==`` is elementwise, and data-dependent while tracing)
_NOT_NONE_TESTS: dict = {}
_RECENT_TESTS: collections.deque = collections.deque(maxlen=8)  # tests no weakref reaches


def note_not_none_test(test, maybe) -> None:
    """``test`` is ``maybe is not None`` (a staged flag): see ``narrowed``."""
    key = id(test)

    def forget(ref) -> None:  # (only its own entry: the id may be another test's by now)
        if _NOT_NONE_TESTS.get(key, (None,))[0] is ref:
            del _NOT_NONE_TESTS[key]
    try:
        _NOT_NONE_TESTS[key] = (weakref.ref(test, forget), maybe)
    except TypeError:  # no weak reference to it: the last few, found by identity
        _RECENT_TESTS.append((test, maybe))


def _not_none_test(cond):
    """The maybe-None value ``cond`` tests with ``is not None``, or None."""
    entry = _NOT_NONE_TESTS.get(id(cond))
    if entry is not None and entry[0]() is cond:
        return entry[1]
    return next((maybe for test, maybe in _RECENT_TESTS if test is cond), None)


_KNOWN_NOW: list = []  # (maybe-None value, is None) the branches being traced know


def known_none(value):
    """True (False) if the branch being traced runs only where ``value`` (None on some
    staged paths) is None (is not None): a branch of ``if value is None`` or ``if value
    is not None``, so its uses there (a closure's too) see None or the value; else None."""
    return next((none for known, none in reversed(_KNOWN_NOW) if known is value), None)


def known_not_none(value) -> bool:
    return known_none(value) is False


def _tested(cond, branch: int):
    """``(value, is None)`` for the maybe-None value ``if cond`` tests, in branch
    ``branch``; or None."""
    tested = _not_none_test(cond)
    if tested is not None:
        return tested, branch == 1
    found = next((maybe for test, maybe in _RECENT_NONE_TESTS if test is cond), None)
    return None if found is None else (found, branch == 0)


_RECENT_NONE_TESTS: collections.deque = collections.deque(maxlen=8)


def note_none_test(test, maybe) -> None:
    """``test`` is ``maybe is None`` (a staged flag of a backend that narrows uses)."""
    _RECENT_NONE_TESTS.append((test, maybe))


def _narrow(values: tuple, known) -> tuple:
    """``values`` with the maybe-None value ``known[0]`` as the branch knows it: None
    where it is None there (``known[1]``), else its value."""
    maybe, none = known

    def visit(x):
        if x is maybe:
            return None if none else x.value
        if x.__class__ in (tuple, list):
            return remake(x, [visit(v) for _, v in items(x)])
        return x
    return tuple(visit(v) for v in values)


def narrowed(cond, state: tuple, branch: int) -> tuple:
    """``state`` as branch ``branch`` (0: true, 1: false) of ``if cond`` sees it: where
    ``cond`` is ``s is None`` (or ``s is not None``) for a value ``s`` that is None on
    some staged paths, ``s`` is None in the branch that runs when it is None and its
    value in the other, as eager Python knows there (``if s is None: s = 3``)."""
    tested = _not_none_test(cond)
    none_branch = 1 if tested is not None else 0
    out = list(state)
    for i, value in enumerate(state):
        test = getattr(value.__class__, "is_none", None)
        if test is None or not (value is tested or test(value) is cond):
            continue
        out[i] = None if branch == none_branch else value.value
    return tuple(out)


def stage_if(backend, cond, body, orelse, state, names, shared=None,
             construct: str = "if statement"):
    """``body(*state) if cond else orelse(*state)`` as the backend's cond op.

    Both branches are traced on the same inputs; what one changes in place is
    undone before the other runs, and joined like the returned state after both.
    """
    side = Side(shared)
    inplace = InPlace([body, orelse], state, names, construct, body)
    pred = predicate(backend, cond, construct, body)
    handles, records, failures = [], [], []
    for branch, fn in enumerate((body, orelse)):
        record: dict = {}
        inputs = narrowed(cond, state, branch)

        def run(fn=fn, record=record, inputs=inputs, branch=branch):
            try:
                return _run_branch(fn, record, inputs, branch)
            finally:  # a backend may run a branch again while it builds its op
                inplace.restore()
                side.restore()

        def _run_branch(fn, record, inputs, branch):
            known = _tested(cond, branch)
            if known is not None:
                _KNOWN_NOW.append(known)
            try:
                with running(inplace):
                    out = fn(*inputs)
            finally:
                if known is not None:
                    _KNOWN_NOW.pop()
            record["raised"] = out if out.__class__ is staged_raise.RaisedState else None
            out = tuple(out)
            shared_now = tuple(side.get())
            if known is not None:  # what the branch passes on of the tested value: narrowed
                out, shared_now = _narrow(out, known), _narrow(shared_now, known)
            record["n"] = len(out)
            record["kept"] = same_objects(out, state)
            record["kept_shared"] = same_objects(shared_now, side.before)
            record["written"] = written = inplace.arrays.changed()  # arrays written into
            record["values"] = [copy_tree(inplace.arrays.now(v, written))
                                for v in out + shared_now]
            record["given"] = out  # as the branch gave them (a NumPy array itself)
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
        if path is None:
            raise failures[0]
        raise errors.key_read_in_one_branch(path, body) from failures[0]
    for r in records:  # a KeyError of a key the other branch defines is an error now
        exc = r["raised"].exc if r["raised"] is not None else None
        path = _defining_path(exc, records, names, inplace) if isinstance(exc, KeyError) else None
        if path is not None:
            raise errors.key_read_in_one_branch(path, body) from exc
        if r["raised"] is not None and r["raised"].refused is not None:
            raise r["raised"].refused
    written = set().union(*(r.get("written", ()) for r in records))
    inplace.arrays.check_unreached(written, set(names) | set(side.names), construct, body)
    _take_other_side(records, backend)
    t, f = records
    entries = sorted(t["changes"].keys() | f["changes"].keys(), key=str)
    inplace.refuse_globals(entries, construct, body)
    labels = ([label_of(names, i) for i in range(t["n"])] + list(side.names)
              + [inplace.label(e) for e in entries])
    values = [r["values"] + [r["changes"].get(e, inplace.before(e)) for e in entries]
              for r in records]
    join = BranchJoin(backend, labels, body, values, [t["leaves"], f["leaves"]], construct)
    outs = backend.cond(pred, handles, [lambda lv: join.outputs(0, lv),
                                        lambda lv: join.outputs(1, lv)], join.avals)
    join.keep_kinds(pred, outs)
    result = join.rebuild(outs)
    n, k = t["n"], t["n"] + len(side.names)
    note_copies(result[:k], [r["values"] for r in records if r["raised"] is None],
                [r.get("given", ()) for r in records if r["raised"] is None])
    # a list or dict every branch changed in place (or left alone) is that same object,
    # as for the state below: the caller's list an argument name holds, say
    kept_shared = [r["kept_shared"] for r in records if r["raised"] is None and "kept_shared" in r]
    side.put(tuple(refill(side.before[i], v) if kept_shared and all(k[i] for k in kept_shared)
                   else v for i, v in enumerate(result[n:k])))
    if iterated.watching():  # (the array a loop iterates, written: staging.iterated)
        iterated.joined([r["given"] for r in records if r["raised"] is None], result[:n],
                        written)
    inplace.put(entries, result[k:])
    kept = [r["kept"] for r in records if r["raised"] is None and "kept" in r]
    return tuple(refill(state[i], v) if kept and all(i < len(k) and k[i] for k in kept) else v
                 for i, v in enumerate(result[:n]))


def _take_other_side(records, backend) -> None:
    """A branch that raised gives the other branch's values (zeros for its arrays:
    never read, the raise guards them); when both raised, neither changes anything."""
    t, f = records
    if t["raised"] is not None and f["raised"] is not None:
        t["changes"] = f["changes"] = {}
        return
    for raised, other in ((t, f), (f, t)):
        if raised["raised"] is not None:
            raised["values"] = [filler(v, backend) for v in other["values"]]
            raised["changes"] = {e: filler(v, backend) for e, v in other["changes"].items()}
            raised["leaves"] = []


def _defining_path(error, records, names, inplace) -> Optional[str]:
    """The path of the dict key a branch read (``error``) that the other branch
    defines, or None."""
    key = error.args[0] if len(error.args) == 1 else MISSING
    for record in records:
        for label, value in zip(names, record.get("values", ())):
            found = _find_key(value, key, label)
            if found:
                return found
        for entry in record.get("changes", ()):
            if entry[1] == key and inplace.before(entry) is MISSING:
                return inplace.label(entry)
    return None


def _find_key(value, key, label):
    if value.__class__ is dict and key in value:
        return label + key_label(key)
    for suffix, v in items(value) if is_node(value) else ():
        found = _find_key(v, key, label + suffix)
        if found:
            return found
    return None


def none_on_one_side(name: str, branch, t, f):
    """The StagingError of a backend whose graph cannot carry None, when ``name`` (or an
    item of it) is None in one branch of a staged if and a value in the other; else None."""
    path = _none_path(t, f, name)
    if path is None:
        return None
    label, side = path
    function = function_name()
    return errors.StagingError(
        f"if statement at {errors.where(branch)}: {errors.subject(label)} is None in the {side} "
        f"branch but a value in the other, and the condition is a staged value. A function "
        f"that returns a value on some staged paths and None on others ({function}, through "
        f"the {side} branch) cannot be one graph here: a graph's outputs are arrays. Return an "
        f"array on every path (a NaN, or a success flag next to the value).")


def _none_path(t, f, label):
    if (t is None) != (f is None):
        return label, "true" if t is None else "false"
    if t.__class__ is f.__class__ and t.__class__ in (tuple, list) and len(t) == len(f):
        for i, (a, b) in enumerate(zip(t, f)):
            found = _none_path(a, b, f"{label}[{i}]")
            if found is not None:
                return found
    if t.__class__ is dict and f.__class__ is dict:
        for k in t.keys() & f.keys():
            found = _none_path(t[k], f[k], f"{label}[{k!r}]")
            if found is not None:
                return found
    return None

