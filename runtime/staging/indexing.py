"""NumPy's basic indexing, told apart the same way by the operators and every backend."""

from __future__ import annotations

import numpy as np

from .backend import backend_of
from .state import kind_of


def basic_index(index) -> bool:
    """Whether ``array[index]`` is NumPy's basic indexing: integers, slices, ``None``,
    ``...``, where what it gives is a view of the array (or one element). A staged
    integer scalar stands for a NumPy integer (a loop counter, ``np.argmax``'s result),
    as a key and as a slice bound. A list, a boolean, an array index (even a 0-d one)
    is advanced indexing: a copy. (Eager NumPy copies for a 0-d integer *array* index,
    which a graph does not tell from a NumPy integer; the NumPy engine tells its
    arguments' apart: ``tensor.is_view``.)"""
    for key in index if index.__class__ is tuple else (index,):
        if key is None or key is Ellipsis or key.__class__ in (int, slice) or isinstance(key, np.integer):
            continue
        backend = backend_of(key)
        if backend is None:
            return False
        aval = backend.aval(key)
        if aval is None or aval.shape != () or kind_of(aval.dtype) not in "iu":
            return False
    return True
