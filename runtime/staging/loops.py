"""A staged loop: its carry settled over traced iterations.

The loop's state becomes a carry of ``Aval`` leaves (Python numbers weakly typed)
and Python values. The body is traced on placeholders of the carry; if an
iteration changes a leaf's type where no value is lost (a Python number that
becomes an array, a weak type that widens), a return value set for the first
time, or an item updated in place that was not carried yet (a NumPy array written
into among them, see ``arrays``), the carry changes and
the body is traced again, at most ``MAX_TRACES`` times. The backend then builds its
loop op from the last traces. A carried list that an iteration grows is carried as
buffers from then on (``accumulate``).
"""

from __future__ import annotations

import operator

from typing import Callable, NamedTuple

import numpy as np

from . import (accumulate, errors, holders, iterated, loop_options, raises as staged_raise,
               returns as staged_return)
from .arrays import check_carried
from .backend import Backend
from .holders import running
from .inplace import MISSING, InPlace, Side
from .uncarried import watched
from .kept import note_loop_copies, refill, same_objects
from .state import (
    ZEROS, Aval, Slot, carry_aval, describe, fill, fits_constant, is_node, is_number, items,
    key_label, label_of, predicate, remake, same,
)
from .returns import Pending
from .undefined import NO_RETURN, Undefined

MAX_TRACES = 6  # traces of a loop body while its carry types settle


def _raises_whenever_run(exc, construct: str, where_fn) -> errors.StagingError:
    """The user's code in a staged loop's body (or test) raised while it was traced, on
    no condition of its own: eagerly it raises only if the loop runs at all, which a
    graph learns only when it runs."""
    name = staged_raise.unbound_name(exc)
    if name is not None:
        return errors.StagingError(
            f"{construct} at {errors.where(where_fn)}: '{name}' is read in its body before "
            f"it is assigned, and the condition is a staged value, so the body is traced "
            f"although the loop may run zero times. Assign '{name}' before the {construct}.")
    where = staged_raise.origin(exc)
    return errors.StagingError(
        f"{construct} at {errors.where(where_fn)}: its body raises "
        f"{type(exc).__name__}({str(exc)!r}) at {errors.at_line(*where) if where else '?'} "
        f"whenever it runs, and the condition is a staged value, so the body is traced "
        f"although the loop may run zero times. Check the condition before the loop, or "
        f"raise after it.")


class _Seed(NamedTuple):
    """A carried leaf for the next trace: its type and its value before the loop."""

    aval: Aval
    first: object


class Carry:
    """The state of a staged loop, settled over traced iterations.

    ``specs`` has one template per carried value: ``Slot`` leaves index ``avals``
    (and ``firsts``, each leaf's value before the loop); other leaves are Python
    values that stay as they are. ``trace`` traces the body (and test) on
    placeholders until the types settle; ``init`` gives the op's initial carry and
    ``finish`` the state from the op's results. In-place updates the body makes to
    reachable containers join the carry on the way.
    """

    def __init__(self, backend, state, names, shared, construct, body, test=None):
        self.backend, self.construct, self.where_fn = backend, construct, body
        self.options = loop_options.current()  # set_loop_options of this loop
        loop_options.check(self.options, backend, construct, body)
        # the trip count, where the backend knows it when the loop starts: a Python int
        # (static), or a staged integer where ``Backend.sizes_after_loops``
        self.trips = None
        self.flagged = False  # a break or return may end the loop early
        self.side = Side(shared)
        self.inplace = InPlace([body] + ([test] if test is not None else []), (), (),
                               construct, body)
        self.entries: list = []
        self.n_state = len(state)
        self.before = tuple(state)
        self.last: tuple = ()
        self.kept = [True] * len(state)  # each body returned the list or dict it was given
        labels = [label_of(names, i) for i in range(len(state))]
        self.labels = labels + list(self.side.names)
        for label, value in zip(self.labels, list(state) + list(self.side.before)):
            check_carried(value, label, construct, body)
            if watched(value):  # (a set the loop's variable holds: no op can carry it)
                self.inplace.watch(value, label)
        self._respec(list(state) + list(self.side.before))

    def _respec(self, seeds) -> None:
        self.avals: list[Aval] = []
        self.firsts: list = []
        self.specs = [self._spec(x) for x in seeds]
        self._kinds_carried()

    def _kinds_carried(self) -> None:
        """A leaf that is a Python number before the loop and a NumPy value after an
        iteration is either when the loop ends (eagerly, whether it ran, and what the last
        iteration gave it): on a ``keeps_kinds`` backend a bool carried last says which
        (``kinds``: (the leaf's slot, its flag's slot)); ``finish`` hands it on."""
        self.kinds: list = []
        self._slot_values: dict = {}
        if not self.backend.keeps_kinds:
            return
        for k in range(len(self.avals)):
            first = self.firsts[k]
            kind = True if is_number(first) else False if self.avals[k].weak \
                or self.backend.aval(first) is None else self.backend.python_kind(first)
            if kind is not False and not self.avals[k].weak:  # (a Python number, or a
                self.avals.append(Aval(np.dtype(bool), ()))     # choice of one: its flag)
                self.firsts.append(kind)
                self.kinds.append((k, len(self.avals) - 1))

    def _spec(self, x):
        if x.__class__ is accumulate.Learned:
            return accumulate.Spec(x, self)
        if x.__class__ is accumulate.Growing:
            raise x.nested_in(self.construct, self.where_fn)
        if x.__class__ is _Seed:
            self.avals.append(x.aval)
            self.firsts.append(x.first)
            return Slot(len(self.avals) - 1)
        if is_node(x):
            return remake(x, [self._spec(v) for _, v in items(x)])
        aval = self.backend.aval(x)
        if aval is None:
            return x
        shape = loop_options.invariant_shape(self.options, x, self.construct, self.where_fn)
        if shape is not None:  # set_loop_options(shape_invariants=...) names it
            if len(shape) != len(aval.shape) or any(
                    d is not None and d != a for d, a in zip(shape, aval.shape)):
                raise errors.StagingError(
                    f"{self.construct} at {errors.where(self.where_fn)}: the shape invariant "
                    f"{shape} does not hold for the value {describe(x, self.backend)} before "
                    f"the loop. Give a shape with None for the dimensions that change.")
            aval = aval._replace(shape=shape)
        return self._spec(_Seed(aval, x))

    def init(self) -> list:
        """The op's initial carry: each leaf's value before the loop, cast."""
        backend = self.backend
        return [backend.zeros(a) if x is ZEROS else backend.rows(a) if x is accumulate.ROWS
                else backend.rows(a, x.capacity) if x.__class__ is accumulate.Rows
                else backend.cast(x, a) for x, a in zip(self.firsts, self.avals)]

    # -- what ``accumulate`` asks of the loop

    def spec_of(self, seed):
        return self._spec(seed)

    def slot(self, aval, first) -> Slot:
        """A new carried leaf of type ``aval``, ``first`` before the loop."""
        return self._spec(_Seed(aval, first))

    def fit_one(self, label, spec, value, entered, dyn):
        return self._fit_one(label, spec, value, entered, dyn)

    def rows_capacity(self, per_iteration: int, label: str):
        """How many rows a list this loop appends ``per_iteration`` items to may get:
        static, None where the backend has run-time dimensions, or staged (a trip count
        known when the loop starts) where ``Backend.sizes_after_loops``."""
        backend, bound, trips = self.backend, self.options.get("maximum_iterations"), self.trips
        if trips.__class__ is int:
            bound = trips if bound is None else min(bound, trips)
            if self.flagged and "maximum_iterations" not in self.options \
                    and not (backend.unknown_dims or backend.sizes_after_loops):
                bound = None  # the list's length is known at run time only: the user bounds it
        elif trips is not None and bound is None and backend.sizes_after_loops:
            bound = trips
        if bound is None:
            if backend.unknown_dims:
                return None
            raise errors.needs_maximum_iterations(label, self.construct, self.where_fn,
                                                  backend.name, backend.sizes_after_loops)
        return bound * per_iteration

    def _runs_once(self) -> bool:
        """The body runs at least once: a ``for`` over a static, nonzero length (a break
        or return ends it after the first iteration at the earliest), or one the backend
        knows to be nonzero (``Backend.runs_once``)."""
        trips = self.trips
        if trips.__class__ is int:
            return trips > 0
        return trips is not None and self.backend.runs_once(trips)

    def static_trips(self):
        """The trip count where it is static (a ``for`` over a known length, no break)."""
        return None if self.flagged or self.trips.__class__ is not int else self.trips

    def _enter(self, flat, final: bool = False) -> tuple:
        trips = self.static_trips() if final else None
        values = [(s.result(flat, trips) if final else s.enter(flat))
                  if s.__class__ is accumulate.Spec else fill(s, flat) for s in self.specs]
        self._entered = values
        n, k = self.n_state, self.n_state + len(self.side.names)
        self.side.put(values[n:k])
        self.inplace.put(self.entries, values[k:])
        return tuple(values[:n])

    def finish(self, flat) -> tuple:
        """The state after the loop op; shared and in-place state are written back, and
        a list or dict the body updated in place is that same object (``kept``)."""
        named = {spec.index: label for spec, label in zip(self.specs, self.labels)
                 if spec.__class__ is Slot}
        for k, flag in self.kinds:
            what = errors.subject(named[k]) if k in named else "a value"
            self.backend.keep_kind(flat[k], flat[flag], True, False,
                                   f"{what}, carried by the {self.construct} at "
                                   f"{errors.where(self.where_fn)},")
        values = self._enter(flat, final=True)
        result = tuple(refill(b, v) if k else v for b, v, k in zip(self.before, values, self.kept))
        if iterated.watching():  # (an array a loop around iterates: staging.iterated)
            iterated.looped(self.before + self.side.before, values, self.construct)
        note_loop_copies(result + tuple(self.side.get()), self.before + self.side.before,
                         self.last)
        return result

    def trace(self, step: Callable, item_avals=(), test: Callable = None,
              extra_test: Callable = None) -> list:
        """Trace ``step(items, state)`` (returning the next state), and ``test(*state)``
        if given, until the carry settles. Returns the backend's handles (test
        first). With ``extra_test`` the body also returns its truth last."""
        n_items = len(item_avals)
        self.flagged = extra_test is not None
        for _ in range(MAX_TRACES):
            self._next = None
            fns = []
            if test is not None:
                fns.append(self._guarded(lambda flat: [predicate(
                    self.backend, self._test(test, flat[n_items:]), self.construct,
                    self.where_fn)]))

            def run_body(flat):
                entered = self._enter(flat[n_items:])
                depth = len(holders.ENTERED)
                if type(self.backend).check_loop_writes is Backend.check_loop_writes:
                    # (a backend that follows the body's writes refuses after the trace)
                    holders.ENTERED.extend(_arrays_entered(self.before + self.side.before,
                                                           self._entered))
                try:
                    out = tuple(step(list(flat[:n_items]), entered))
                finally:
                    del holders.ENTERED[depth:]
                self.kept = [k and s for k, s in zip(self.kept, same_objects(out, entered))]
                shared_now = tuple(self.side.get())
                self.last = out + shared_now  # eagerly maybe the very objects after the loop
                changes = self.inplace.changes(shared_now)
                written = self.inplace.arrays.changed()
                self.inplace.arrays.check_unreached(written, set(self.labels), self.construct,
                                                    self.where_fn)
                if iterated.watching():  # (an array a loop around iterates: staging.iterated)
                    iterated.written_in_place(written, self.construct)
                values = list(out) + list(shared_now) + [
                    changes.get(e, MISSING) for e in self.entries]
                dyn = self._fit(values, [e for e in changes if e not in self.entries])
                for k, _ in self.kinds:  # which kind each such leaf is after this iteration
                    value = self._slot_values.get(k, ZEROS)
                    kind = False if value is ZEROS or value is MISSING else \
                        self.backend.python_kind(value)
                    dyn.append(self.backend.cast(kind, Aval(np.dtype(bool), ())))
                if extra_test is not None:
                    dyn.append(predicate(self.backend, extra_test(*out), self.construct,
                                         self.where_fn))
                return dyn

            fns.append(self._guarded(run_body))
            try:
                handles = self.backend.trace(fns, list(item_avals) + self.avals)
            except Exception as exc:
                if not staged_raise.raised_by_user(exc):
                    raise
                raise _raises_whenever_run(exc, self.construct, self.where_fn) from exc
            if self._next is None:
                self.backend.check_loop_writes(self, handles, n_items)
                return handles
            self._respec(self._next)
        raise errors.StagingError(
            f"{self.construct} at {errors.where(self.where_fn)}: the types of the loop "
            f"variables did not settle after {MAX_TRACES} traces of the body. Give the loop "
            f"variables their final dtype before the loop.")

    def _test(self, test, flat):
        """``test`` on the state ``flat`` enters with; a StagingError if it rebinds a
        shared variable (``while c < 3 and tick() >= n`` with ``tick`` counting by
        ``nonlocal``), or an item of a container (a call counter ``ncalls[0] += 1`` of a
        function it calls): the op's condition gives only its truth, so the change would
        be lost (fuzz seed 24152: 1 where eagerly 3, and a loop run 3 times eagerly run
        none)."""
        entered = self._enter(flat)
        shared = tuple(self.side.get())
        items_before = self.inplace.changes(shared)
        truth = test(*entered)
        changed = [name for name, before, now in zip(self.side.names, shared, self.side.get())
                   if now is not before]
        items_now = self.inplace.changes(tuple(self.side.get()))
        changed += [self.inplace.label(e) for e, value in items_now.items()
                    if items_before.get(e, MISSING) is not value]
        if changed:
            raise errors.StagingError(
                f"{self.construct} at {errors.where(self.where_fn)}: its condition changes "
                f"{errors.subject(changed[0])} (directly or in a function it calls), and the "
                f"condition is a staged value: a staged loop's condition gives only its "
                f"truth, so the change would be lost. Test in the body instead (while "
                f"True: ... if not (condition): break), or make the change outside the "
                f"condition.")
        return truth

    def _guarded(self, fn):
        def run(*flat):
            try:
                with running(self.inplace):
                    return fn(flat)
            finally:
                self.inplace.restore()
                self.side.restore()
        return run

    def _fit(self, values, new_entries) -> list:
        """Check one iteration's ``values`` against the carry and return the carried
        leaves cast to their types; a change of types is kept in ``_next``."""
        self.inplace.refuse_globals(new_entries, self.construct, self.where_fn)
        for e in new_entries:
            if self.inplace.before(e) is MISSING:
                raise errors.undefined_loop_variable(self.inplace.label(e), self.construct,
                                                     self.where_fn)
        dyn: list = []
        seeds, changed = [], bool(new_entries)
        labels = self.labels + [self.inplace.label(e) for e in self.entries]
        for i, (label, spec, value, entered) in enumerate(zip(labels, self.specs, values,
                                                               self._entered)):
            if spec.__class__ is accumulate.Spec:
                seed, ch = spec.fit(value, entered, dyn)
            elif accumulate.grows(spec, value):
                seed, ch = self._learn(label, spec, value, entered, dyn), True
            else:
                seed, ch = self._fit_one(label, spec, value, entered, dyn, i < self.n_state)
            seeds.append(seed)
            changed = changed or ch
        if changed:
            self.entries = self.entries + new_entries
            self._next = seeds + [self.inplace.before(e) for e in new_entries]
        return dyn

    def _fit_one(self, label, spec, value, entered, dyn, local=False):
        """(seed for the next trace, changed?) of one carried value; ``entered`` is
        what the body received for it, ``local`` whether it is a plain variable."""
        backend = self.backend
        if spec is NO_RETURN:
            if value is NO_RETURN or value is staged_return.UNREACHED:
                return spec, False
            return self._learned_return(value), True
        if spec.__class__ is Pending:
            value = staged_return.pair(entered, value, self.where_fn, backend)[1]
        if spec.__class__ is Undefined:
            if value.__class__ is Undefined or value is NO_RETURN:
                return spec, False
            paired = backend.pair_unbound(label, spec, value) if local else None
            if paired is None:
                if local and self._runs_once() and not is_node(value):
                    # assigned by the first iteration, which always runs: a trace that
                    # read it first would have failed here (no run-time unbound read)
                    return _reseeded(ZEROS, value, backend), True
                raise errors.undefined_loop_variable(label, self.construct, self.where_fn)
            return _reseeded(paired[0], paired[1], backend), True
        if spec.__class__ is Slot:
            if value is None or is_node(value):  # an array before, None (or flagged) after
                before, after = backend.pair_values(label, entered, value)
                if before is not entered:
                    first = _Seed(self.avals[spec.index], self.firsts[spec.index])
                    return _reseeded(before, after, backend, {id(entered): first}), True
            return self._fit_slot(label, spec.index, value, dyn)
        settled = backend.settle(label, fill(spec, self.firsts), value)
        if settled is not None:
            before, value, changed = settled
            if changed:
                return before, True
        if is_node(spec):
            # a flagged value (None on some paths) as the carry holds it, named as it is
            value = backend.pair_values(label, entered, value)[1]
            return self._fit_node(label, spec, value, entered, dyn)
        if same(spec, value):
            return spec, False
        if is_number(spec) and backend.aval(value) is not None:
            return _Seed(backend.aval(spec), spec), True  # a number the body makes an array
        if spec is None:  # None before the loop, a value after: a flag, where the backend can
            before, after = backend.pair_values(label, spec, value)
            if before is not spec:
                return _reseeded(before, after, backend), True
        raise errors.loop_variable_changed(label, self.construct, self.where_fn,
                                           describe(spec, backend), describe(value, backend))

    def _learn(self, label, spec, value, entered, dyn):
        """The seed of a list one iteration grew (``accumulate``)."""
        prefix = [self._fit_one(label + suffix, s, v, e, dyn)[0]
                  for (suffix, s), (_, v), (_, e) in zip(items(spec), items(value), items(entered))]
        return accumulate.learn(label, prefix, value[len(spec):], self.backend, self.construct,
                                self.where_fn)

    def _learned_return(self, value):
        """The seed of a return value the body sets for the first time: a ``Pending``
        whose flag starts set (the loop may end before any return ran)."""
        backend = self.backend
        where = staged_return.loop_where(self.construct, self.where_fn)
        flag_aval = backend.aval(value.flag) if value.__class__ is Pending else None
        inner = value.value if value.__class__ is Pending else value
        return Pending(_Seed(flag_aval or backend.aval(True), True), _learned(inner, backend),
                       where)

    def _fit_slot(self, label, k, value, dyn):
        backend, aval, first = self.backend, self.avals[k], self.firsts[k]
        self._slot_values[k] = value
        if value is ZEROS:  # the placeholder of a side a flag says holds nothing
            dyn.append(backend.zeros(aval))
            return _Seed(aval, first), False
        out = None if value is MISSING else backend.aval(value)
        joined = None if out is None else carry_aval(aval, out)
        if joined is None and out is not None and len(out.shape) == len(aval.shape) \
                and out.shape != aval.shape:
            if backend.unknown_dims:  # the dimensions that change become run-time ones
                shape = tuple(a if a == o else None for a, o in zip(aval.shape, out.shape))
                if backend.needs_shape_invariants:
                    raise errors.loop_shape_needs_invariant(
                        label, self.construct, self.where_fn, str(aval),
                        describe(value, backend), shape, backend.name)
                joined = carry_aval(aval._replace(shape=shape), out)
            elif carry_aval(aval, out._replace(shape=aval.shape)) is not None:
                raise errors.loop_shape_changed(label, self.construct, self.where_fn, str(aval),
                                                describe(value, backend), backend.name)
        if joined is not None and is_number(first) and not fits_constant(first, joined.dtype):
            joined = None
        if joined is None:
            before = describe(first) if aval.weak and is_number(first) else str(aval)
            raise errors.loop_variable_changed(label, self.construct, self.where_fn, before,
                                               describe(value, backend))
        dyn.append(backend.cast(value, joined))
        if joined != aval and not backend.weak_placeholders \
                and joined == aval._replace(weak=joined.weak):
            self.avals[k] = joined  # the same placeholder: this trace stands
            return _Seed(joined, first), False
        return _Seed(joined, first), joined != aval

    def _fit_node(self, label, spec, value, entered, dyn):
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
        for (suffix, s), (_, v), (_, e) in zip(items(spec), items(value), items(entered)):
            seed, ch = self._fit_one(label + suffix, s, v, e, dyn)
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


def _reseeded(before, after, backend, known=None):
    """The seed of a value the backend now carries with a flag (``before``, its value
    before the loop, paired with ``after``, one iteration's): a placeholder of the
    other side (``ZEROS``) takes that side's type; ``known`` maps the ids of leaves the
    body received to their seeds."""
    if known and id(before) in known:
        return known[id(before)]
    if before is ZEROS:
        return _Seed(backend.aval(after), ZEROS)
    if is_node(before) and type(before) is type(after):
        return remake(before, [_reseeded(b, a, backend, known)
                               for (_, b), (_, a) in zip(items(before), items(after))])
    return before


def stage_while(backend, test, body, state, names, shared=None):
    """``while test(*state): state = body(*state)`` as the backend's while loop."""
    carry = Carry(backend, state, names, shared, "while loop", body, test)
    test_handle, body_handle = carry.trace(lambda _, s: body(*s), test=test)
    return carry.finish(backend.while_loop(test_handle, body_handle, carry.init()))


def reversed_bounds(start, stop, step):
    """The bounds of ``reversed(range(start, stop, step))`` when a bound is staged.

    The last item is ``start + (n - 1) * step``; an empty range (``n <= 0``) gives
    bounds that are empty too, so no ``max(n, 0)`` is needed.
    """
    try:
        step = operator.index(step)
    except TypeError:
        raise TypeError("reversed() of a range with a staged step is not supported: "
                        "give the step as a Python int") from None
    n = (stop - start + step - 1) // step if step > 0 else (start - stop - step - 1) // -step
    return start + (n - 1) * step, start - step, -step


def _arrays_entered(befores, entered) -> list:
    """``(entered leaf, NumPy array)`` for the NumPy arrays (not 0-d) among ``befores``
    (the carried state, its lists and dicts) and what the body is given for them."""
    pairs = []
    for before, value in zip(befores, entered):
        if before.__class__ is np.ndarray and before.shape and value is not before:
            pairs.append((value, before))
        elif is_node(before) and is_node(value) and before.__class__ is value.__class__:
            pairs += _arrays_entered([v for _, v in items(before)], [v for _, v in items(value)])
    return pairs


class StagedEnumerate:
    """``enumerate`` of a staged value: a staged loop's iterable; iterated in Python (a
    generator expression), the plain ``enumerate``, unrolled. Each backend subclasses it
    (and ``StagedZip``): the subclass is how ``backend_of`` knows whose it is."""

    __slots__ = ("iterable", "start")

    def __init__(self, iterable, start) -> None:
        self.iterable, self.start = iterable, start

    def __iter__(self):
        return enumerate(self.iterable, self.start)


class StagedZip:
    """``zip`` of staged values (see ``StagedEnumerate``)."""

    __slots__ = ("iterables", "strict")

    def __init__(self, iterables: tuple, strict: bool) -> None:
        self.iterables, self.strict = iterables, strict

    def __iter__(self):
        return zip(*self.iterables, strict=True) if self.strict else zip(*self.iterables)
