"""A staged ``for`` in TensorFlow: over a ``range`` with tensor bounds, a tensor (and
``tf.range``), ``enumerate``/``zip`` of those, and a ``tf.data.Dataset``.

Ranges and tensors become one ``While`` op (``while_op``) whose body graph computes
the item from the op's iteration counter ``k`` (``start + k * step``, or row ``k`` of
each tensor) before the loop body traced into it; the lowered ``break``/``return``
flag is carried last and joins the loop's condition. A ``tf.range(...)`` tensor is
looped over as its bounds, never built. A dataset becomes ``Dataset.reduce`` over its
elements, as TensorFlow's AutoGraph does; with ``break``/``return`` a ``scan`` that
runs the body while the flag holds and a ``take_while`` that stops reading the dataset
once it is false, then the reduce.
"""

from __future__ import annotations

import numpy as np
import tensorflow as tf

from ...staging import errors, loop_options
from ...staging import state as staging
from ...staging.loops import Carry, StagedEnumerate, StagedZip, reversed_bounds
from ...staging.state import Aval
from . import while_op
from .tensors import aval_of, invariants, is_tracing
from .weak import rewrap, strong


class Range:
    """``range(start, stop, step)`` with tensor bounds; ``for_stmt`` loops over it."""

    def __init__(self, start, stop, step):
        start, stop, step = strong(start), strong(stop), strong(step)
        for bound in (start, stop, step):
            if bound.__class__ is int:
                continue
            dtype = tf.convert_to_tensor(bound).dtype
            if not dtype.is_integer:
                raise TypeError(f"'{dtype.name}' object cannot be interpreted as an integer")
        if staging.is_number(step) and step == 0:
            raise ValueError("range() arg 3 must not be zero")
        dtype = _common_int(start, stop, step)
        # Python int bounds, kept to build fewer ops (range(n): the item is the counter)
        self.static_start = start if start.__class__ is int else None
        self.static_step = step if step.__class__ is int else None
        self.start, self.stop, self.step = (tf.cast(b, dtype) for b in (start, stop, step))

    def __len__(self):
        raise TypeError("len() of a range with tensor bounds is not a Python int")

    def __reversed__(self):
        step = tf.get_static_value(self.step)
        if step is None:
            raise TypeError("reversed() of a range with a staged step is not supported: "
                            "give the step as a Python int")
        return Range(*reversed_bounds(self.start, self.stop, int(step)))

    def length(self):
        """The trip count, as a scalar tensor."""
        start, stop, step = self.start, self.stop, self.step
        zero = tf.zeros([], start.dtype)
        if self.static_step == 1:
            return tf.maximum(stop - start if self.static_start != 0 else stop, zero)
        up = (stop - start + step - 1) // step
        down = (start - stop - step - 1) // -step
        return tf.maximum(tf.where(step > 0, up, down), zero)


def _range_item(r: Range, k):
    """Item ``k`` of ``r``: ``start + k * step``, with no op for a Python 0 or 1."""
    k = tf.cast(k, r.start.dtype)
    item = k if r.static_step == 1 else k * r.step
    return item if r.static_start == 0 else r.start + item


def _common_int(*bounds):
    dtypes = {tf.convert_to_tensor(b).dtype for b in bounds if isinstance(b, tf.Tensor)}
    return tf.int64 if tf.int64 in dtypes else (dtypes.pop() if len(dtypes) == 1 else tf.int32)


class Enumerate(StagedEnumerate):
    """``enumerate`` of a tensor (``StagedEnumerate``)."""

    __slots__ = ()


class Zip(StagedZip):
    """``zip`` of tensors (``StagedZip``)."""

    __slots__ = ()


STAGED_ITERABLES = (Range, Enumerate, Zip)


class _Sequence:
    """What a counted loop iterates: ``length`` (a scalar tensor), ``avals`` of the
    item's leaves, ``at(k)`` the leaves of item ``k``, ``make(leaves)`` the item."""

    def __init__(self, length, avals, at, make) -> None:
        self.length, self.avals, self.at, self.make = length, avals, at, make


def _sequence(iterable) -> _Sequence:
    if isinstance(iterable, tf.Tensor) and iterable.op.type == "Range":
        # tf.range(...): loop over its bounds; its items are tensors of its dtype
        r = Range(*iterable.op.inputs)
        return _Sequence(r.length(), [Aval(np.dtype(r.start.dtype.as_numpy_dtype), ())],
                         lambda k: [_range_item(r, k)], _first)
    if isinstance(iterable, range):
        iterable = Range(iterable.start, iterable.stop, iterable.step)
    if isinstance(iterable, Range):  # range(...): its items are Python ints (``Weak``)
        r = iterable
        return _Sequence(r.length(), [_PYTHON_INT],
                         lambda k: [tf.cast(_range_item(r, k), tf.int64)], _first)
    if isinstance(iterable, Enumerate):
        inner = _sequence(iterable.iterable)
        start = strong(iterable.start)
        return _Sequence(inner.length, [_PYTHON_INT] + inner.avals,
                         lambda k: [tf.cast(k, tf.int64) + tf.cast(start, tf.int64)]
                         + inner.at(k),
                         lambda leaves: (leaves[0], inner.make(leaves[1:])))
    if isinstance(iterable, Zip):
        return _zip([_sequence(it) for it in iterable.iterables], iterable.strict)
    if isinstance(iterable, tf.RaggedTensor):
        return _rows(iterable)
    x = iterable if isinstance(iterable, tf.Tensor) else tf.convert_to_tensor(iterable)
    if x.shape.rank == 0:
        raise TypeError("iteration over a 0-d tensor")
    aval = aval_of(x)
    n = x.shape[0] if x.shape[0] is not None else tf.shape(x, out_type=tf.int32)[0]
    return _Sequence(tf.convert_to_tensor(n, tf.int32), [aval._replace(shape=aval.shape[1:])],
                     lambda k: [tf.gather(x, k)], _first)


_PYTHON_INT = Aval(np.dtype(np.int64), (), True)


def _rows(ragged) -> _Sequence:
    """The rows of a ``tf.RaggedTensor``, as TensorFlow's AutoGraph loops over them:
    ``ragged[k]``, a tensor of a run-time length (or a ragged tensor of one rank less,
    carried as its component tensors)."""
    row = ragged._type_spec._unbatch()  # the spec of one row
    specs = tf.nest.flatten(row, expand_composites=True)
    avals = [Aval(np.dtype(s.dtype.as_numpy_dtype), tuple(s.shape.as_list())) for s in specs]
    return _Sequence(tf.cast(ragged.nrows(), tf.int32), avals,
                     lambda k: tf.nest.flatten(ragged[k], expand_composites=True),
                     lambda leaves: tf.nest.pack_sequence_as(row, list(leaves),
                                                             expand_composites=True))


def _first(leaves):
    return leaves[0]


def _zip(parts, strict: bool) -> _Sequence:
    lengths = [tf.get_static_value(p.length) for p in parts]
    if strict and None not in lengths and len(set(int(n) for n in lengths)) > 1:
        short = next(i for i, n in enumerate(lengths) if n != lengths[0]) + 1
        raise ValueError(f"zip() argument {short} is shorter than argument 1"
                         if lengths[short - 1] < lengths[0] else
                         f"zip() argument {short} is longer than argument 1")
    n = parts[0].length
    for p in parts[1:]:
        n = tf.minimum(tf.cast(n, tf.int64), tf.cast(p.length, tf.int64))
    sizes = [len(p.avals) for p in parts]

    def at(k):
        return [leaf for p in parts for leaf in p.at(k)]

    def make(leaves):
        out, i = [], 0
        for p, size in zip(parts, sizes):
            out.append(p.make(leaves[i:i + size]))
            i += size
        return tuple(out)

    return _Sequence(n, [a for p in parts for a in p.avals], at, make)


def for_stmt(backend, iterable, body, state, names, extra_test, shared):
    """``for item in iterable: state = body(item, *state)``, stopping once
    ``extra_test(*state)`` (the lowered ``break``/``return``) is false."""
    if isinstance(iterable, (tf.data.Dataset, tf.RaggedTensor)) and not is_tracing():
        return _python_for(iterable, body, state, extra_test)  # eager: a Python iterable
    if isinstance(iterable, tf.data.Dataset):
        return _dataset_for(backend, iterable, body, state, names, extra_test, shared)
    return _counted_for(backend, iterable, body, state, names, extra_test, shared)


def _counted_for(backend, iterable, body, state, names, extra_test, shared):
    """A ``for`` over ``iterable`` (not a dataset) as one ``While`` op on a trip counter.
    (A loop over an array its body writes into comes as a loop over its indices:
    ``control_flow``'s ``_over_indices``.)"""
    carry = Carry(backend, tuple(state), names, shared, "for loop", body)
    seq = _sequence(iterable)
    trips = tf.get_static_value(seq.length)
    carry.trips = None if trips is None else int(trips)  # a static trip count
    flagged = extra_test is not None
    n = seq.length

    def test(k, go_on):
        more = tf.cast(k, n.dtype) < n
        return tf.logical_and(more, go_on) if flagged else more

    layout = while_op.Layout(len(seq.avals), seq.at, test, flagged)
    with while_op.laid_out(layout):
        handles = carry.trace(lambda items, s: body(seq.make(items), *s), seq.avals,
                              extra_test=extra_test)
    init = [strong(x) for x in carry.init()] + ([tf.constant(True)] if flagged else [])
    test_graph, body_graph = handles
    shapes = invariants(body_graph.avals) + ([tf.TensorShape([])] if flagged else [])
    out = while_op.build(test_graph, body_graph, init, shapes, **while_options())
    return carry.finish(rewrap(out[:len(body_graph.avals)], body_graph.avals))


def while_options() -> dict:
    """The ``set_loop_options`` this loop passes on to ``tf.while_loop`` as they are."""
    options = loop_options.current()
    return {k: options[k] for k in ("parallel_iterations", "swap_memory") if k in options}


def _python_for(iterable, body, state, extra_test):
    for item in iterable:
        state = body(item, *state)
        if extra_test is not None and not extra_test(*state):
            break
    return state


def _dataset_for(backend, ds, body, state, names, extra_test, shared):
    structure = ds.element_spec
    specs = tf.nest.flatten(structure)
    if not all(isinstance(s, tf.TensorSpec) for s in specs):
        raise errors.StagingError(
            f"for loop at {errors.where(body)}: the dataset's elements ({structure}) are not "
            f"all dense tensors, which a staged loop carries. Map them to tensors first.")
    avals = [Aval(np.dtype(s.dtype.as_numpy_dtype), tuple(s.shape.as_list())) for s in specs]
    carry = Carry(backend, tuple(state), names, shared, "for loop", body)
    with while_op.laid_out(while_op.FUNCTIONS):
        (handle,) = carry.trace(
            lambda items, s: body(tf.nest.pack_sequence_as(structure, list(items)), *s),
            avals, extra_test=extra_test)
    init = tuple(strong(x) for x in carry.init())
    width = len(init)
    if extra_test is None:
        out = ds.reduce(init, lambda c, elem: tuple(handle(*tf.nest.flatten(elem), *c)))
        return carry.finish(rewrap(out, carry.avals))

    def scan_step(scanned, elem):
        c, go_on = scanned[:width], scanned[width]
        ran = tf.cond(go_on, lambda: tuple(handle(*tf.nest.flatten(elem), *c)),
                      lambda: (*c, tf.constant(False)))
        return ran, (ran[:width], go_on)  # the state after this element, and whether it ran

    ran = ds.scan(init + (tf.constant(True),), scan_step).take_while(lambda c, ran: ran)
    out = ran.reduce(init, lambda last, item: item[0])
    return carry.finish(rewrap(out, carry.avals))
