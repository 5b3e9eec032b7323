"""Tests and indexing that choose among Python values with a staged value.

``x is None`` cannot be overloaded, so the converter routes it here: a value that is
``None`` on some staged paths (``staging.maybe_none.NoneOnSomePaths``, issue 22.5) answers
with its run-time flag, anything else with Python's own ``is``. ``seq[i]`` on a
Python list or tuple with a staged index ``i`` (issue 22.6) stacks the items — which
must be arrays or numbers of one type and shape — and indexes the stack in the graph.
"""

from __future__ import annotations

import numpy as np

from ..staging import errors, holders
from ..staging.conditionals import known_none, note_none_test, note_not_none_test
from ..staging.backend import backend_of, staged_leaf
from ..staging.indexing import basic_index


def is_none(value):
    test = getattr(value.__class__, "is_none", None)
    if test is None:
        return value is None
    known = known_none(value)
    if known is not None:  # a branch that runs only where it is (not) None
        return known
    result = test(value)
    note_none_test(result, value)  # a staged if on it knows which branch sees None
    return result


def is_not_none(value):
    test = getattr(value.__class__, "is_none", None)
    if test is None:
        return value is not None
    known = known_none(value)
    if known is not None:
        return not known
    from .expressions import not_

    result = not_(test(value))
    note_not_none_test(result, value)  # a staged if on it knows which branch sees None
    return result


def getitem(seq, index, label: str = "the sequence"):
    """``seq[index]``."""
    if index.__class__ in (int, bool, slice):
        return seq[index]
    if seq.__class__ not in (list, tuple):
        return seq[index] if isinstance(seq, dict) else read_item(seq, index)
    backend = backend_of(index)
    if backend is None:
        return seq[index]
    kinds = {_kind(item, backend) for item in seq}
    if len(kinds) != 1 or None in kinds:
        raise errors.StagingError(
            f"{label}[...] with a staged index: a graph can pick an item of a Python "
            f"{type(seq).__name__} only when every item is an array or number of one dtype and "
            f"shape (they are stacked and indexed), but the items are "
            f"{', '.join(sorted(str(k) for k in kinds))}. Use a Python index, or make the "
            f"items arrays of one dtype and shape.")
    stacked = backend.numeric("numpy.asarray", (list(seq),), {})
    if backend_of(stacked) is None:  # only Python numbers: a constant of the graph
        stacked = backend.cast(stacked, backend.aval(stacked))
    item = backend.getitem(stacked, index)
    if kinds == {"python int"} or kinds == {"python float"}:  # the item is a Python number
        return backend.cast(item, backend.aval(seq[0]))
    return item


def read_item(array, index):
    """``array[index]``; a staged ``index`` lets its backend answer (a boolean mask under
    jax.jit selects items whose count is known only at run time: ``staging.masked``)."""
    backend = staged_leaf(index) if index.__class__ is tuple else backend_of(index)
    if backend is None:
        return array[index]
    item = backend.getitem(array, index)
    if array.__class__ is np.ndarray and getattr(item, "ndim", 0) and basic_index(index):
        holders.note_numpy_view(item, array)  # NumPy's view: a write through it is refused
    return item


def _kind(item, backend):
    """``float32[2]``: the dtype (NumPy's name, whatever the framework) and shape of an
    array, ``python int`` of a Python number, None of anything else."""
    if item.__class__ in (bool, int, float, complex):
        return f"python {item.__class__.__name__}"
    if getattr(item, "dtype", None) is None or getattr(item, "shape", None) is None:
        return None
    aval = backend.aval(item)
    return None if aval is None else f"{aval.dtype.name}{list(aval.shape)}"



