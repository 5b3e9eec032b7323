"""The buffers a staged loop collects a list's appended items in, on the NumPy engine.

``staging.accumulate`` carries one buffer per array leaf of an appended item and
writes row ``count`` at each append. Here a buffer is an array the graph makes
before the loop (``np.zeros``, an op with an effect so that it is made anew on every
run and never merged with another list's buffer) and that ``write_row`` updates in
place: each append costs one row copy, not a copy of the buffer. Where the trip count
is known only at run time the buffer's first dimension is unknown and ``write_row``
doubles it when it is full. Reads inside the loop copy the row (a later write must
not change what was read); after the loop ``rows[:count]`` is the list's items.
"""

from __future__ import annotations

import numpy as np

from ...staging.state import Aval
from . import trace
from .ir import Op, Value
from .tensor import Tensor


def write_row(rows, index, value):
    """``rows[index] = value`` in place, growing ``rows`` (doubling) when ``index`` is
    past its end; returns the buffer (a new one if it grew)."""
    if index >= rows.shape[0]:
        grown = np.zeros((max(2 * rows.shape[0], index + 1, 8),) + rows.shape[1:], rows.dtype)
        grown[:rows.shape[0]] = rows
        rows = grown
    rows[index] = value
    return rows


def _op(kind, target, args, kwargs, like, effect=False) -> Tensor:
    """Record an op whose one output has the type of ``like`` (dtype, shape)."""
    st = trace.current()
    out = st.graph.new_value(like.dtype, like.shape)
    st.append(Op(kind, target, trace.to_value(tuple(args), st), kwargs, [out], out,
                 source=trace.user_source(), effect=effect))
    return Tensor(out, st.graph)


def new_rows(aval) -> Tensor:
    """A zero buffer of ``aval``; an unknown first dimension starts with no rows."""
    shape = tuple(0 if d is None else d for d in aval.shape)
    return _op("call", np.zeros, (shape,), {"dtype": aval.dtype}, aval, effect=True)


def write(rows, index, value) -> Tensor:
    value = trace.to_value(value, trace.current())
    return _op("call", write_row, (rows, index, value), {}, trace.to_value(rows, trace.current()))


def read(rows, index):
    return rows[index].copy()


def upto(rows, count) -> Tensor:
    value = trace.to_value(rows, trace.current())
    like = Aval(value.dtype, (None,) + value.shape[1:])
    return _op("getitem", None, (rows, slice(None, count, None)), {}, like)


def stacked_rows(items):
    """``np.stack(items)`` when ``items`` are every row of one buffer, in order (a list a
    staged loop collected, unchanged): a copy of the buffer, not a row per item; else None."""
    if items.__class__ is not list or not items:
        return None
    source = None
    for i, item in enumerate(items):
        op = item._value.op if item.__class__ is Tensor else None
        if op is None or op.kind != "getitem" or op.args[1] != i or op.args[1].__class__ is not int:
            return None
        if source is None:
            source = op.args[0]
        elif op.args[0] is not source:
            return None
    if source.__class__ is not Value or source.shape[:1] != (len(items),) or source.op is None \
            or source.op.kind not in ("for", "while"):
        return None
    return Tensor(source, trace.current().graph).copy()
