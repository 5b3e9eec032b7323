"""``None`` on a failure path (issue 22.5) and a staged index into a Python list (22.6).

On the NumPy engine an output that is None on some staged paths comes back as None
exactly when eager returns it; ``is None`` on it is a staged test, anything else a
StagingError naming it. jax.jit, torch.compile/export and tf.function keep a
StagingError: a graph output cannot be None (``returns_none_at_run_time``)."""

import numpy as np
import pytest


def line_search(x):
    if x > 0:
        return None, x * 2
    return x + 1, x


def only_none(x):
    if x > 0:
        return None
    return x * 3


def retry(x):
    alpha, phi = line_search(x)
    if alpha is None:
        alpha = phi * 0 - 1
    if alpha is not None:
        alpha = alpha * 2
    return alpha, phi


def adds_to_maybe_none(x):
    r = None
    if x > 0:
        r = x
    return r + 1


def reads_maybe_none(x):
    r = None
    if x > 0:
        r = x
    return r.real


def test_none_comes_back_exactly_when_eager_returns_it(backend):
    if not backend.returns_none_at_run_time:
        text = backend.staging_error(line_search, np.float64(1.0))
        assert text.startswith("if statement at ")
        assert text.endswith(
            "(`if x > 0:`): the return value[0] is None in the true branch but a value in the "
            "other, and the condition is a staged value. A function that returns a value on "
            "some staged paths and None on others (line_search, through the true branch) "
            "cannot be one graph here: a graph's outputs are arrays. Return an array on every "
            "path (a NaN, or a success flag next to the value).")
        return
    backend.check(line_search, np.float64(1.0))
    backend.check(line_search, np.float64(-1.0))
    backend.check(only_none, np.float64(1.0))
    backend.check(only_none, np.float64(-1.0))


def test_is_none_is_a_staged_test(backend):
    if not backend.returns_none_at_run_time:
        backend.staging_error(retry, np.float64(1.0))
        return
    backend.check(retry, np.float64(1.0))
    backend.check(retry, np.float64(-3.0))


def test_arithmetic_on_a_maybe_none_value_raises_when_it_is_none(backend):
    if not backend.raises_at_run_time:
        backend.staging_error(adds_to_maybe_none, np.float64(1.0))
        return
    backend.check(adds_to_maybe_none, np.float64(1.0))
    backend.check_raises(adds_to_maybe_none, TypeError,
                         r"^unsupported operand type\(s\) for \+: 'NoneType' and 'int'$",
                         np.float64(-1.0))


def test_other_uses_of_a_maybe_none_value_are_refused(backend):
    text = backend.staging_error(reads_maybe_none, np.float64(1.0))
    if backend.engine == "numpy":
        where = backend.at(reads_maybe_none, "return r.real").rsplit("/", 1)[1]
        assert text.startswith(f"at {where}: 'r' is None on "
                               "some staged paths (of an if, a loop or a return) and an array on "
                               "others")


def adds_two_maybe_none(x, y):
    a = None
    b = None
    if x > 0:
        a = x
    if y > 0:
        b = y
    return a + b


def test_two_values_that_may_be_none_raise_as_eager_where_either_is(backend):
    """Each side None on its own paths: eager's TypeError names the side that is None
    (both, the left, the right), on the paths where it is. (Eager TensorFlow code adding
    None to a tensor raises TensorFlow's ValueError converting None; both None, Python's
    TypeError.)"""
    if not backend.raises_at_run_time:
        backend.staging_error(adds_two_maybe_none, np.float64(1.0), np.float64(2.0))
        return
    backend.check(adds_two_maybe_none, np.float64(1.0), np.float64(2.0))
    cases = [(-1.0, -2.0, "'NoneType' and 'NoneType'")]
    if backend.engine == "numpy":  # NumPy meets None elementwise: its items' Python type
        cases += [(-1.0, 2.0, "'NoneType' and 'float'"), (1.0, -2.0, "'float' and 'NoneType'")]
    for x, y, names in cases:
        backend.check_raises(adds_two_maybe_none, TypeError,
                             rf"^unsupported operand type\(s\) for \+: {names}$",
                             np.float64(x), np.float64(y))


def compares_maybe_none(x, y):
    r = None
    if x > 0:
        r = x
    return r < y


@pytest.mark.parametrize("y,text", [
    (np.arange(2.0), "'>' not supported between instances of 'float' and 'NoneType'"),
    (1.5, "'<' not supported between instances of 'NoneType' and 'float'")])
def test_an_ordering_comparison_raises_as_eager_where_it_is_none(backend, y, text):
    """``None < a`` with a NumPy array: Python asks ``a > None``, which NumPy answers item
    by item (eager's message is the reflected one); with a Python number it is Python's."""
    if not backend.raises_at_run_time:
        backend.staging_error(compares_maybe_none, np.float64(1.0), y)
        return
    backend.check(compares_maybe_none, np.float64(1.0), y)
    if backend.engine == "numpy" or not isinstance(y, np.ndarray):  # (a framework's own)
        backend.check_raises(compares_maybe_none, TypeError, f"^{text}$", np.float64(-1.0), y)


def bracket_side(fa, fx, a, b):
    ab = [a, b]
    idx = 0 if fa * fx < 0 else 1
    return ab[idx] * 2


def mixed_items(fa, a):
    ab = (a, "text")
    idx = 0 if fa < 0 else 1
    return ab[idx]


def test_staged_index_into_a_list(backend):
    backend.check(bracket_side, np.float32(1), np.float32(-1), np.float32(3), np.float32(4))
    backend.check(bracket_side, np.float32(1), np.float32(1), np.float32(3), np.float32(4))


def pick_constant(x, table):
    i = 0 if x > 0 else 2
    return [10, 20, 30][i] + table[i]


@pytest.mark.parametrize("x", [1, -1])
def test_staged_index_into_a_list_of_python_numbers(backend, x):
    backend.check(pick_constant, np.int32(x), (0.5, 1.5, 2.5))


def test_staged_index_into_a_list_of_mixed_items(backend):
    text = backend.staging_error(mixed_items, np.float32(1), np.float32(3))
    assert text.startswith("ab[...] with a staged index: a graph can pick an item of a Python "
                           "tuple only when every item is an array or number of one dtype and "
                           "shape")
