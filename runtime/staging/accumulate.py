"""Lists a staged loop appends to: ``outs.append(h)`` collected in buffers the loop carries.

A staged loop runs as one graph op, so a Python list cannot grow inside it. When a
traced iteration leaves a carried list longer than it found it (``append``,
``extend``, ``outs = outs + [h]``), the loop (``loops.Carry``) learns what an
iteration appends (how many items, their structure and types) and traces the body
again with a ``Growing`` list in its place: the items from before the loop stay
Python items (carried like any list's), and what the loop appends is written into
one buffer per array leaf of an item, ``rows`` (``[capacity, *item shape]``), at
``count``, a carried integer. That is TensorFlow's ``TensorArray`` and what a JAX
user writes by hand with ``.at[i].set``, without writing either. A staged ``if`` in
the loop sees a ``Growing`` as an object it changes in place (``inplace``), so both
branches may append, and each of the loop's lists is a separate ``Growing``.

After the loop the list is:

- a Python list of the items before the loop and one array per appended item,
  when the trip count is static (a ``for`` over an array's known first axis, no
  ``break``) and every iteration appends the same number of items;
- otherwise, on a backend with run-time dimensions (the NumPy engine), a
  ``Collected`` list: ``np.stack(lst)`` has an unknown leading dimension and
  ``len(lst)`` is a staged integer;
- on a backend with static shapes (JAX), with ``set_loop_options(maximum_iterations=N)``,
  a ``Padded`` list: a Python list of the items before the loop and
  ``N * (items per iteration)`` arrays, those past ``len(lst)`` (a staged integer)
  zeros; without the option, a StagingError names it;
- on a backend whose loop carries keep their shapes but whose values after a loop
  may have data-dependent sizes (PyTorch: ``Backend.sizes_after_loops``), a
  ``Collected`` list too: the loop carries a buffer of its bound (the trip count of a
  ``for``, known when the loop starts; else ``maximum_iterations``, or the
  StagingError), cut to ``len(lst)`` rows after it.

Inside the loop a ``Growing`` keeps what Python lists do where the graph knows the
answer: ``len(lst)``, the items from before the loop, ``lst[-k]`` of an item this
iteration appended, ``pop()`` of one, item assignment there; reading items earlier
iterations appended, iterating, or other list methods are a StagingError naming the
list and the line.
"""

from __future__ import annotations

import copy

from . import errors
from .arg_writes import user_location
from .state import (
    Slot, carry_aval, describe, fill, is_node, is_number, items, join_avals, remake,
)


class Rows:
    """The first value of a buffer leaf of the carry: the backend makes a new one
    (``Backend.rows``), of ``capacity`` rows where that is a staged integer."""

    __slots__ = ("capacity",)

    def __init__(self, capacity=None) -> None:
        self.capacity = capacity

    def __repr__(self) -> str:
        return "<rows>"


ROWS = Rows()


# ---------------------------------------------------------------- learning what a loop appends


def grows(spec, value) -> bool:
    """True if a carried list (``spec``: its template before the loop) is longer after
    one traced iteration (``value``)."""
    return spec.__class__ is list and value.__class__ is list and len(value) > len(spec)


class Learned:
    """The seed of a carried list one iteration grew: the seeds of the items before the
    loop, and the items an iteration appends: their structure (``template``, Slots
    into ``avals``) and number (``per_iteration``, and ``peak``, the most it holds at
    once before a ``pop``)."""

    def __init__(self, label, prefix, template, avals, per_iteration, peak=None) -> None:
        self.label, self.prefix = label, prefix
        self.template, self.avals, self.per_iteration = template, avals, per_iteration
        # the most items an iteration holds at once (more than it keeps if it pops)
        self.peak = per_iteration if peak is None else max(peak, per_iteration)


def learn(label, prefix_seeds, appended, backend, construct, where_fn) -> Learned:
    """What one traced iteration appended (``appended``: the new items) to the list ``label``."""
    avals: list = []
    template = _template(appended[0], backend, avals, label, construct, where_fn)
    for item in appended[1:]:
        _join_item(template, item, avals, backend, label, construct, where_fn)
    return Learned(label, prefix_seeds, template, avals, len(appended))


def _template(item, backend, avals, label, construct, where_fn):
    if is_node(item):
        return remake(item, [_template(v, backend, avals, label, construct, where_fn)
                             for _, v in items(item)])
    aval = backend.aval(item)
    if aval is None:
        raise _not_an_array(label, item, backend, construct, where_fn)
    avals.append(aval)
    return Slot(len(avals) - 1)


def _join_item(template, item, avals, backend, label, construct, where_fn) -> None:
    if template.__class__ is Slot:
        aval = backend.aval(item)
        joined = None if aval is None else join_avals(avals[template.index], aval,
                                                     backend.unknown_dims)
        if joined is None:
            raise errors.loop_variable_changed(
                f"{label} (its appended items)", construct, where_fn,
                str(avals[template.index]), describe(item, backend))
        avals[template.index] = joined
        return
    if type(item) is not type(template) or len(items(item)) != len(items(template)):
        raise errors.loop_variable_changed(f"{label} (its appended items)", construct, where_fn,
                                           describe(template, backend), describe(item, backend))
    for (_, t), (_, v) in zip(items(template), items(item)):
        _join_item(t, v, avals, backend, label, construct, where_fn)


def _not_an_array(label, item, backend, construct, where_fn) -> errors.StagingError:
    return errors.StagingError(
        f"{construct} at {errors.where(where_fn)}: the loop appends {describe(item, backend)} "
        f"to {errors.subject(label)}; a staged loop collects arrays and numbers (one buffer "
        f"per array), not other Python objects. Append an array, or loop over a Python range "
        f"so the loop unrolls.")


# ---------------------------------------------------------------- the carry of a growing list


class Spec:
    """How a loop carries a list it appends to: ``prefix`` (templates of the items
    before the loop), one buffer Slot per leaf of an appended item (``rows``) and the
    number of rows written (``count``). ``carry`` allocates the Slots."""

    def __init__(self, learned: Learned, carry) -> None:
        self.label, self.carry = learned.label, carry
        self.backend = carry.backend
        self.template, self.avals = learned.template, list(learned.avals)
        self.per_iteration, self.peak = learned.per_iteration, learned.peak
        self.kept = carry.rows_capacity(learned.per_iteration, learned.label)  # rows kept
        # an iteration may write past what it keeps (before a pop): room for that too
        self.capacity = None if self.kept is None else self.kept + self.peak - self.per_iteration
        self.prefix = [carry.spec_of(p) for p in learned.prefix]
        static = self.capacity is None or self.capacity.__class__ is int
        first = ROWS if static else Rows(self.capacity)  # a staged capacity: None in the aval
        self.empty = self.capacity == 0 if static else False  # a loop that never runs: its
        # body is traced, never run
        self.rows = [carry.slot(a._replace(shape=(self.capacity if static else None,) + a.shape,
                                           weak=False), first)
                     for a in self.avals]
        self.count = carry.slot(self.backend.aval(0), 0)
        self.widened: dict = {}  # leaf index -> the type an append needs the buffer to have

    def enter(self, flat) -> Growing:
        """The list the body receives: the items before the loop and the loop's buffers."""
        return Growing(self, [fill(p, flat) for p in self.prefix],
                       [flat[s.index] for s in self.rows], flat[self.count.index])

    def fit(self, value, entered, dyn: list):
        """``(seed, changed)`` for one iteration's ``value`` of the list (see ``Carry._fit``)."""
        carry = self.carry
        if value.__class__ is not Growing or value.spec is not self:
            raise errors.StagingError(
                f"{carry.construct} at {errors.where(carry.where_fn)}: the loop appends to "
                f"{errors.subject(self.label)} and also assigns it another value; a staged loop "
                f"collects the items of a list it appends to. Append to the list (or build "
                f"a new one after the loop) instead of reassigning it in the loop.")
        if value.added.__class__ is not int or value.peak.__class__ is not int:
            raise self.data_dependent_count()
        changed = bool(self.widened) or value.added != self.per_iteration \
            or value.peak > self.peak
        seeds = []
        for i, (spec, item, before) in enumerate(zip(self.prefix, value.prefix, entered.prefix)):
            seed, ch = carry.fit_one(f"{self.label}[{i}]", spec, item, before, dyn)
            seeds.append(seed)
            changed = changed or ch
        for rows in value.rows:
            dyn.append(rows)
        dyn.append(self.backend.cast(value.count, carry.avals[self.count.index]))
        avals = [self.widened.get(j, a) for j, a in enumerate(self.avals)]
        # the seed even when this list did not change: another leaf of the carry may
        # have, and the next trace then lays out every buffer of the carry anew
        return Learned(self.label, seeds, self.template, avals, value.added,
                       max(value.peak, self.peak)), changed

    def data_dependent_count(self) -> errors.StagingError:
        carry = self.carry
        return errors.StagingError(
            f"{carry.construct} at {errors.where(carry.where_fn)}: {errors.subject(self.label)} "
            f"grows by a number of items that depends on staged values (an append in one "
            f"branch of a staged if only); a staged loop collects the same number of items "
            f"on every path. Append on every path (e.g. a NaN, or a value and a flag), or "
            f"collect np.where(cond, value, fill).")

    def result(self, flat, static_trips):
        """The list after the loop: a Python list when the trip count is static, else a
        ``Collected`` (run-time dimensions) or ``Padded`` (a bound) list."""
        prefix = [fill(p, flat) for p in self.prefix]
        rows = [flat[s.index] for s in self.rows]
        count = flat[self.count.index]
        backend = self.backend
        if static_trips is not None:
            n = static_trips * self.per_iteration
            return prefix + [fill(self.template, [r[i] for r in rows]) for i in range(n)]
        if backend.unknown_dims or backend.sizes_after_loops:
            return Collected(self, prefix, [backend.rows_upto(r, count) for r in rows], count)
        return Padded(prefix + [fill(self.template, [r[i] for r in rows])
                                for i in range(self.kept)], len(prefix) + count, self.label)

    def write(self, rows: list, index, leaves: list) -> list:
        """``rows`` with row ``index`` set to the item whose leaves are ``leaves``."""
        cast = [self.cast_leaf(j, leaf) for j, leaf in enumerate(leaves)]
        if self.empty:
            return rows
        return [self.backend.write_row(r, index, x) for r, x in zip(rows, cast)]

    def cast_leaf(self, j: int, leaf):
        """An appended leaf as buffer ``j`` holds it; a type the buffer must widen to is
        noted (``widened``: the loop is traced again)."""
        backend, aval = self.backend, self.avals[j]
        out = backend.aval(leaf)
        joined = None if out is None else carry_aval(aval, out)
        if joined is None and out is not None and aval.weak:
            joined = join_avals(aval, out, False)
        if joined is None:
            carry = self.carry
            raise errors.loop_variable_changed(f"{self.label} (its appended items)",
                                               carry.construct, carry.where_fn, str(aval),
                                               describe(leaf, backend))
        if joined != aval:
            self.widened[j] = joined
        return backend.cast(leaf, aval)


# ---------------------------------------------------------------- the list the body sees


class Growing:
    """A list a staged loop appends to, as its body sees it (see the module docstring).

    ``prefix``: the items from before the loop; ``rows``: one buffer per leaf of an
    appended item; ``count``: the rows written (staged); ``added``: how many items this
    iteration appended so far (a Python int on every path the trace took), ``peak`` the
    most it had appended at once.
    """

    restorable = True  # a staged if snapshots and restores its attributes (inplace)

    def __init__(self, spec: Spec, prefix: list, rows: list, count, added=0, peak=0) -> None:
        self.spec, self.prefix, self.rows, self.count = spec, prefix, rows, count
        self.added, self.peak = added, peak

    def __repr__(self) -> str:
        return f"<list {self.spec.label} growing in a staged loop>"

    # -- what works

    def append(self, item) -> None:
        spec = self.spec
        leaves: list = []
        _leaves_of(spec.template, item, leaves, self)
        self.rows = spec.write(self.rows, self.count, leaves)
        self.count = self.count + 1
        self.added = self.added + 1
        if self.added.__class__ is int and self.peak.__class__ is int:
            self.peak = max(self.peak, self.added)

    def extend(self, items_) -> None:
        if items_.__class__ not in (list, tuple):
            self._refuse(f"extend() with {describe(items_, self.spec.backend)}",
                         "extend it with a list or tuple of known length")
        for item in items_:
            self.append(item)

    def __iadd__(self, other):
        self.extend(other)
        return self

    def __add__(self, other):
        if other.__class__ not in (list, tuple):
            self._refuse(f"'+' with {describe(other, self.spec.backend)}",
                         "add a list of known length")
        new = Growing(self.spec, list(self.prefix), list(self.rows), self.count, self.added,
                      self.peak)
        new.extend(other)
        return new

    def length(self):
        """``len(lst)``: a staged integer (converted code's ``len``)."""
        return len(self.prefix) + self.count

    def pop(self, index=-1):
        if index != -1 or self.added.__class__ is not int or self.added < 1:
            self._refuse(f"pop({'' if index == -1 else index})",
                         "pop only items the same iteration appended, or collect and filter "
                         "after the loop")
        self.added -= 1
        self.count = self.count - 1
        return self._row(self.count)

    def __getitem__(self, index):
        where = self._where(index)
        return self.prefix[index] if where is None else self._row(where)

    def __setitem__(self, index, item) -> None:
        where = self._where(index)
        if where is None:
            self.prefix[index] = item
            return
        leaves: list = []
        _leaves_of(self.spec.template, item, leaves, self)
        self.rows = self.spec.write(self.rows, where, leaves)

    def _where(self, index):
        """None for an item from before the loop, else the staged row of ``index``."""
        if index.__class__ is int and 0 <= index < len(self.prefix):
            return None
        if index.__class__ is int and index < 0 and self.added.__class__ is int \
                and -index <= self.added:
            return self.count + index
        self._refuse(f"[{index!r}]", "index items from before the loop, or items this "
                     "iteration appended (lst[-1]); read the others after the loop")

    def _row(self, index):
        spec = self.spec
        if spec.empty:
            return fill(spec.template, [spec.backend.zeros(a) for a in spec.avals])
        return fill(spec.template, [spec.backend.read_row(r, index) for r in self.rows])

    # -- what does not

    def nested_in(self, construct: str, where_fn) -> errors.StagingError:
        """The error of a staged loop nested in the one that appends to this list, that
        changes it too."""
        carry, label = self.spec.carry, errors.subject(self.spec.label)
        return errors.StagingError(
            f"{construct} at {errors.where(where_fn)}: this staged loop changes {label}, which "
            f"the staged {carry.construct} around it at {errors.where(carry.where_fn)} appends "
            f"to; a list is collected by one staged loop only. Collect the inner loop's items "
            f"in a list of its own and append np.stack(inner) (or its items) after the inner "
            f"loop.")

    def __len__(self):
        self._refuse("len() outside converted code", "call len() in the converted function")

    def __iter__(self):
        self._refuse("iteration", "iterate after the loop")

    def __bool__(self):
        self._refuse("truth testing", "test len(lst) > 0")

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        self._refuse(f".{name}()", "use append, extend, pop() or item assignment inside the "
                     "loop, and the other list methods after it")

    def _refuse(self, what: str, fix: str):
        carry = self.spec.carry
        raise errors.StagingError(
            f"{errors.subject(self.spec.label)}{what if what.startswith('[') else ' ' + what} "
            f"at {user_location()}: the staged {carry.construct} at {errors.where(carry.where_fn)} "
            f"appends to {errors.subject(self.spec.label)}, so inside the loop the graph holds "
            f"its items in buffers and its length is known only at run time. Here: {fix}.")


def _leaves_of(template, item, found: list, growing: Growing) -> None:
    if template.__class__ is Slot:
        found.append(item)
        return
    if type(item) is not type(template) or len(items(item)) != len(items(template)):
        spec = growing.spec
        raise errors.loop_variable_changed(
            f"{spec.label} (its appended items)", spec.carry.construct, spec.carry.where_fn,
            describe(fill(template, spec.avals), spec.backend), describe(item, spec.backend))
    for (_, t), (_, v) in zip(items(template), items(item)):
        _leaves_of(t, v, found, growing)


# ---------------------------------------------------------------- the list after the loop


class Collected:
    """A list a staged loop appended to a number of items known only at run time, on a
    backend with run-time dimensions: ``np.stack(lst)``, ``np.array(lst)``,
    ``len(lst)`` (staged), ``lst[i]``; returned from ``ag.function`` it is a list."""

    def __init__(self, spec: Spec, prefix: list, rows: list, count) -> None:
        self.label, self.backend, self.template = spec.label, spec.backend, spec.template
        self.prefix, self.rows, self.count = prefix, rows, count
        self.where = errors.where(spec.carry.where_fn)
        # the items stacked, made while the loop's trace is open (a function's boundary
        # asks after it closed); a graph drops it if nothing reads it
        self.whole = self._stack() if self.template.__class__ is Slot else None

    def __repr__(self) -> str:
        return f"<list {self.label} collected by a staged loop>"

    def with_items(self, prefix: list, rows: list) -> "Collected":
        """The same list holding other values (a framework's tree map over its leaves)."""
        new = copy.copy(self)
        new.prefix, new.rows = prefix, rows
        new.whole = rows[0] if self.whole is not None and not prefix else None
        return new

    def length(self):
        return len(self.prefix) + self.count

    def stacked(self):
        """The items stacked on a new first axis (one array per item)."""
        if self.whole is None:
            self._refuse("np.stack() of structured items", "append one array per list")
        return self.whole

    def _stack(self):
        rows = self.rows[0]
        if not self.prefix:
            return rows
        backend = self.backend
        front = backend.numpy_call(_np().stack, (self.prefix,), {})
        if all(is_number(x) for x in self.prefix):  # Python numbers take the rows' dtype
            front = backend.cast(front, backend.aval(front)._replace(
                dtype=backend.aval(rows).dtype, weak=False))
        return backend.numpy_call(_np().concatenate, ((front, rows),), {})

    def __getitem__(self, index):
        if index.__class__ is int and 0 <= index < len(self.prefix):
            return self.prefix[index]
        return self.stacked()[index]

    def __len__(self):
        self._refuse("len() outside converted code", "call len() in the converted function")

    def __iter__(self):
        self._refuse("iteration", "iterate over np.stack(lst)")

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        self._refuse(f".{name}()", "use np.stack(lst), len(lst) or lst[i]")

    def _refuse(self, what: str, fix: str):
        raise errors.StagingError(
            f"{errors.subject(self.label)} {what} at {user_location()}: the staged loop at "
            f"{self.where} appended to {errors.subject(self.label)} a number of items known only "
            f"at run time, so the graph holds them stacked. Here: {fix}.")


class Padded(list):
    """A list a staged loop appended to, on a backend with static shapes, bounded by
    ``maximum_iterations``: the items before the loop and every buffer row; the rows
    past ``len(lst)`` (converted code's ``len``: ``count``, staged) are zeros."""

    def __init__(self, items_, count, label: str) -> None:
        super().__init__(items_)
        self.count, self.label = count, label

    def length(self):
        return self.count

    def _refuse(self, *args, **kwargs):
        raise errors.StagingError(
            f"{errors.subject(self.label)} at {user_location()}: the list holds the rows of a "
            f"staged loop bounded by maximum_iterations (those past len(lst) are zeros), so "
            f"it cannot grow or shrink after the loop. Make a new list instead.")

    append = extend = insert = pop = remove = clear = __iadd__ = _refuse


def numpy_call(fn, args, kwargs):
    """A NumPy function on a ``Collected`` list (its first argument)."""
    np = _np()
    lst = args[0]
    if fn in (np.stack, np.array, np.asarray) and len(args) == 1 and (
            not kwargs or fn is np.stack and set(kwargs) <= {"axis"} and kwargs["axis"] == 0):
        return lst.stacked()
    lst._refuse(f"in np.{getattr(fn, '__name__', fn)}()", "use np.stack(lst) first")


COLLECTED = (Growing, Collected, Padded)  # lists converted code's len() asks

# Names of frameworks' functions that take a list of arrays first (``torch.stack``,
# ``torch.cat``): converted code calls them through ``takes_list``, so that a
# ``Collected`` list reaches its backend (``Backend.collected_call``).
LIST_TAKERS = frozenset({"stack", "cat", "concat", "concatenate", "tensor", "as_tensor"})
_takers: dict = {}


def takes_list(fn):
    """What converted code calls in place of ``fn`` (a name in ``LIST_TAKERS``)."""
    try:
        return _takers[fn]
    except (KeyError, TypeError):
        pass

    def call(*args, **kwargs):
        if args and args[0].__class__ is Collected:
            return args[0].backend.collected_call(fn, args, kwargs)
        return fn(*args, **kwargs)

    call.__name__ = call.__qualname__ = getattr(fn, "__name__", "function")
    call.__wrapped__ = fn
    try:
        _takers[fn] = call
    except TypeError:
        pass
    return call


def _np():
    import numpy

    return numpy
