"""Errors and warnings raised while a compiled graph runs point at the user's line
(issue 9.13), on the first call too, with no internal exception chained."""

import traceback
import warnings

import numpy as np
import pytest

import autograph as ag


def _line_of(text: str) -> int:
    with open(__file__) as f:
        for number, line in enumerate(f, 1):
            if line.rstrip().endswith(text):
                return number
    raise AssertionError(text)


def pick(x, i):
    y = x * 2
    return y[i]  # the failing pick


def divide(x, y):
    z = x + 1
    return z / y  # the dividing line


@pytest.mark.parametrize("first_call", [True, False])
def test_an_error_while_the_graph_runs_points_at_the_users_line(first_call):
    fn = ag.function(pick)
    if not first_call:
        fn(np.ones(3), np.int64(1))
    with pytest.raises(IndexError, match="index 5 is out of bounds") as info:
        fn(np.ones(3), np.int64(5))
    last = traceback.extract_tb(info.value.__traceback__)[-1]
    assert (last.filename, last.lineno) == (__file__, _line_of("# the failing pick"))
    assert last.line == "return y[i]  # the failing pick"
    assert info.value.__context__ is None and info.value.__cause__ is None


def test_an_error_while_tracing_chains_nothing():
    def bad(x):
        return x + undefined_name  # noqa: F821

    with pytest.raises(NameError) as info:
        ag.function(bad)(np.ones(2))
    assert info.value.__context__ is None


def test_a_numpy_warning_while_the_graph_runs_points_at_the_users_line():
    fn = ag.function(divide)
    for _ in range(2):  # the first call (traced) and a cached one
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            out = fn(np.ones(2), np.zeros(2))
        assert np.isinf(out).all()
        (warning,) = caught
        assert warning.category is RuntimeWarning
        assert (warning.filename, warning.lineno) == (__file__, _line_of("# the dividing line"))
