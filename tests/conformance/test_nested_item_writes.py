"""An item of an item written (``a[i][j] = v``, ``a[i][j] += v``, ``grid[r][c] = v``):
Python writes into what ``a[i]`` gives — a view of the array for an integer or a slice,
the list itself for a list item, a copy for a mask or an integer array (the write is
then lost) — so the staged write reaches ``a`` exactly where eager code's does. A staged
``a[i]`` is a new value: before the converter rewrote these targets, a loop counting
into ``a[i % 3][0]`` returned zeros (a silent wrong value), and a write into a view of a
NumPy array with a staged value was refused."""

import numpy as np
import pytest


def count_rows(x):
    a = np.zeros((3, 2), np.float32)
    i = 0
    while a.sum() < x.sum():
        a[i % 3][0] += 1.0
        i += 1
    return a


def write_row_item(x):
    a = np.zeros((2, 2), np.float32)
    if x.sum() > 0:
        a[1][0] = x.sum()
    a[0][1] = x[0]
    return a


def through_a_slice(x):
    y = np.zeros(4, np.float32)
    if x.sum() > 0:
        y[1:3][0] = 5.0
    return y


def into_copies(x):
    """Eagerly both writes go into copies (an integer-array index, a mask): lost."""
    a = np.ones((3, 2), np.float32)
    if x.sum() > 0:
        a[[0, 1]][0] = 5.0
        a[a > 0][0] = 7.0
    return a + x.sum()


def mask_under_a_row(x):
    a = np.ones((2, 3), np.float32)
    if x.sum() > 0:
        a[1][x > 0] = 0.0
    return a


def staged_row_index(x):
    a = np.zeros((3, 2), np.float32)
    i = np.argmax(x) % 2
    a[i][0] += 2.0
    a[i + 1][1] = x[0]
    return a


def list_of_lists(x):
    grid = [[0.0, 0.0], [0.0, 0.0]]
    if x.sum() > 0:
        grid[1][0] = x.sum()
    for k in range(2):
        grid[0][k] += x[k]
    return grid[1][0] + grid[0][0] + grid[0][1]


def dict_of_arrays(x):
    d = {"w": np.zeros(3, np.float32)}
    if x.sum() > 0:
        d["w"][1] = x.sum()
    return d["w"]


POSITIVE = np.array([1.0, 2.0, 0.5], np.float32)
NEGATIVE = np.array([-1.0, -2.0, 0.5], np.float32)


@pytest.mark.parametrize("x", [POSITIVE, NEGATIVE])
@pytest.mark.parametrize("fn", [count_rows, write_row_item, through_a_slice, into_copies,
                                mask_under_a_row, staged_row_index, list_of_lists,
                                dict_of_arrays])
def test_an_item_of_an_item(backend, fn, x):
    backend.numpy_code().check(fn, x)


def row_alias_in_a_loop(x):
    a = np.zeros((3, 2), np.float32)
    i = 0
    while a.sum() < x.sum() and i < 5:
        row = a[i % 3]
        row += 1.0
        i += 1
    return a + x.sum()


def row_alias_staged_index(x):
    a = np.zeros((3, 2), np.float32)
    row = a[np.argmax(x) % 2]
    row += x[0]
    return a + x.sum()


@pytest.mark.parametrize("fn", [row_alias_in_a_loop, row_alias_staged_index])
def test_a_view_taken_with_a_staged_index_is_written_or_refused(backend, fn):
    """``row = a[i]; row += v`` with a staged ``i``: NumPy writes into ``a``. A backend
    that cannot give ``a`` the write refuses with a StagingError; none may return ``a``
    unchanged."""
    import autograph as ag

    try:
        backend.numpy_code().check(fn, POSITIVE)
    except ag.StagingError as error:
        assert "row += " in str(error)


def row_by_an_array_index(x, i):
    """``i`` is a 0-d integer array: eagerly ``a[i]`` is then a copy (an integer array
    index), so the write leaves ``a`` as it was."""
    a = x * np.ones((3, 1), np.float32)
    row = a[i]
    row += 5.0
    return a, row


def test_a_row_taken_with_a_zero_d_array_index_is_a_copy(backend):
    import autograph as ag

    try:
        backend.numpy_code().check(row_by_an_array_index, POSITIVE, np.array(1))
    except ag.StagingError as error:
        assert "row += " in str(error)
