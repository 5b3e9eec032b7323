"""A ``for`` over a Python ``range`` whose ``break`` turns staged (``for i in
range(maxiter): ... if converged: break``, SciPy's golden-section search): the rest
of the loop runs as the backend's loop over the remaining items, so the program does
not grow with ``maxiter``; values, the loop variable after the loop, and an early
``return`` from it are eager Python's."""

import itertools

import numpy as np
import pytest

import autograph as ag

_bodies = itertools.count()


@ag.do_not_convert
def _traced_once():
    next(_bodies)


def accumulate_until(x, limit):
    total = x * 0.0
    for i in range(40):
        _traced_once()
        total = total + x
        if total > limit:
            break
    return total, i


@pytest.mark.parametrize("x,limit", [(1.0, 3.5), (0.5, 0.1), (0.01, 5.0), (1.0, 1e9)])
def test_the_rest_of_the_range_is_one_loop(backend, x, limit):
    backend.check(accumulate_until, np.float64(x), np.float64(limit))


def test_its_body_is_traced_a_few_times_not_once_an_item(backend):
    before = next(_bodies)
    backend.staged(accumulate_until, np.float64(1.0), np.float64(3.5))
    traced = next(_bodies) - before
    if backend.name.startswith("torch"):  # one staged if per item (stages_range_rest)
        assert traced >= 39
        return
    assert traced < 20


def returns_from_it(x):
    for i in range(1, 50):
        x = x * 0.5
        if x < 1.0:
            return x, i
    return x, -1


@pytest.mark.parametrize("x", [10.0, 0.25, 1e30])
def test_a_return_from_it(backend, x):
    backend.check(returns_from_it, np.float64(x))
