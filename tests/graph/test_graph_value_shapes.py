"""Results whose shapes follow values, and staged values as set items or dict keys.

Tracing infers a result's shape by running NumPy on stand-in arrays. A shape that an
integer input sets (a slice bound, a count of repeats, a split index, a pad width) or
that the values set (``np.unique``, ``np.bincount``) must come out unknown, never the
stand-ins' shape: Python code reading it (``len()``, iteration) got the stand-ins'
length, a silent wrong value (properscoring's ``set(np.unique(valid_obs))``)."""

import numpy as np
import pytest

import autograph as ag
from autograph.runtime.backends.numpy_graph.messages import SymbolicValueError

X = np.array([3, 1, 1, 0, 2])

LENGTHS = {
    "prefix": lambda x, n: x[:n],
    "repeat": lambda x, n: np.repeat(x, n),
    "repeat_each": lambda x, n: np.repeat(x, x),
    "bincount": lambda x, n: np.bincount(x),
    "tile": lambda x, n: np.tile(x, n),
    "pad": lambda x, n: np.pad(x, n),
    "split": lambda x, n: np.array_split(x, [n])[0],
    "unique": lambda x, n: np.unique(x),
    "unique_of_mask": lambda x, n: np.unique(x[x > 0]),
    "where_of_floats": lambda x, n: np.where(x * 0.5)[0],
    "diag": lambda x, n: np.diag(x, n),
    "nonzero_method": lambda x, n: (x * 0.5).nonzero()[0],
}


@pytest.mark.parametrize("name", sorted(LENGTHS))
def test_a_length_set_by_values_is_not_the_stand_ins(name):
    make = LENGTHS[name]

    def length(x, n):
        return len(make(x, n))

    staged = ag.function(length)
    for n in (2, 3):
        assert int(staged(X, np.array(n))) == length(X, np.array(n)), n


def test_a_loop_over_a_prefix_runs_its_run_time_length():
    def total(x, n):
        s = 0
        for v in x[:n]:
            s += v
        return s

    assert int(ag.function(total)(X, np.array(3))) == total(X, np.array(3)) == 5


def test_a_staged_scalar_is_no_dict_key():
    def keyed(x):
        return {x[0]: 1, x[1]: 2}

    with pytest.raises(SymbolicValueError, match=r"cannot be hashed \(a set item or a dict key\) "
                       r"while tracing at test_graph_value_shapes.py:\d+ \(`return \{x\[0\]: 1, x\[1\]: 2\}`\)"):
        ag.function(keyed)(np.array([0.0, 0.0]))


def test_a_staged_array_is_unhashable_as_eagerly():
    def keyed(x):
        return {x: 1}

    with pytest.raises(TypeError, match=r"^unhashable type: 'numpy.ndarray'$"):
        keyed(np.zeros(2))
    with pytest.raises(TypeError, match=r"^unhashable type: 'numpy.ndarray'$"):
        ag.function(keyed)(np.zeros(2))
