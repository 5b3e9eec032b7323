"""Variables a nested function assigns (``nonlocal``), changed by calling it inside a
staged loop or branch: each trip and each branch sees and leaves the value Python
would, although the construct's own statements never assign the variable."""

import functools

import numpy as np
import pytest


def count_halvings(x):
    n = 0

    def bump():
        nonlocal n
        n += 1

    while x > 1:
        x = x / 2
        bump()
    return n, x


def count_in_branch(x):
    hits = 0

    def hit(k):
        nonlocal hits
        hits = hits + k

    if x > 0:
        hit(2)
    else:
        hit(-1)
    return hits


def total_through_two_levels(xs):
    total = 0.0

    def outer(v):
        def inner():
            nonlocal total
            total = total + v
        inner()

    for v in xs:
        if v > 0:
            outer(v)
    return total


@pytest.mark.parametrize("x", [0.5, 10.0, 1000.0])
def test_closure_assigns_in_a_staged_loop(backend, x):
    backend.check(count_halvings, np.float64(x))


@pytest.mark.parametrize("x", [3, -3])
def test_closure_assigns_in_a_staged_branch(backend, x):
    backend.check(count_in_branch, np.int32(x))


def test_closure_of_a_closure_assigns_in_a_staged_loop(backend):
    backend.check(total_through_two_levels, np.array([1.0, -2.0, 3.0]))


def shifted(fn):
    @functools.wraps(fn)
    def wrapper(v):
        return fn(v) + 100
    return wrapper


def decorated_helper(x):
    @shifted
    def doubled(v):
        """Twice v."""
        return v * 2

    if x > 0:
        y = doubled(x)
    else:
        y = -x
    return y + len(doubled.__doc__) + (doubled.__name__ == "doubled")


@pytest.mark.parametrize("x", [3, -2])
def test_a_nested_function_keeps_its_decorators(backend, x):
    """The staged body applied no decorator of a function defined in it (found on funcy:
    ``@wraps(func)`` on a nested ``autocurried`` lost its docstring, a nested memoizing
    decorator did not memoize): a silent change of what the function computes."""
    backend.check(decorated_helper, np.int64(x))
