"""Views NumPy's functions make (``np.transpose(a)``, ``np.reshape(a, ...)``,
``np.squeeze(a)``, ``np.swapaxes(a, ...)``, ``np.ravel(a)``, ``np.atleast_1d(a)``) and
the other ways to get a view of an array (``a[...]``, ``a[:]``, ``a.view()``,
``np.asarray(a)``, ``a.real``, ``a.flat``): a write through the view changes the array
eagerly, and the array's writes show in the view, as for the methods
(tests/conformance/test_item_targets_not_names.py). A read-only view (``np.diagonal(a)``)
refuses the write with NumPy's own error. Eager NumPy is the oracle: a backend computes
what it computes, or refuses the write with a StagingError naming the line."""

import numpy as np
import pytest

import autograph as ag

F = np.float32
X = np.arange(6.0, dtype=F)


def transposed(x):
    a = x.reshape(2, 3) * 1.0
    b = np.transpose(a)
    b[0] = -1.0
    return a


def transposed_with_axes(x):
    a = x.reshape(1, 2, 3) * 1.0
    b = np.transpose(a, (2, 0, 1))
    b[1, 0, 1] = x[5]
    return a


def reshaped(x):
    a = x * 1.0
    b = np.reshape(a, (2, 3))
    b[1, 1] = -1.0
    return a


def squeezed(x):
    a = x.reshape(1, 6) * 1.0
    b = np.squeeze(a)
    b[1] = x[5]
    return a


def swapped(x):
    a = x.reshape(2, 3) * 1.0
    b = np.swapaxes(a, 0, 1)
    b[0] = x[5]
    return a


def raveled(x):
    a = x * 1.0
    b = np.ravel(a)
    b[2] = x[5]
    return a


def moved(x):
    a = x.reshape(2, 3) * 1.0
    b = np.moveaxis(a, 0, -1)
    b[2, 0] = x[5]
    return a


def expanded(x):
    a = x * 1.0
    b = np.expand_dims(a, 0)
    b[0, 2] = x[5]
    return a


def at_least_one_d(x):
    a = x * 1.0
    b = np.atleast_1d(a)
    b[2] = x[5]
    return a


def at_least_two_d(x):
    a = x * 1.0
    b = np.atleast_2d(a)
    b[0, 2] = x[5]
    return a


def base_written_view_read(x):
    a = x.reshape(2, 3) * 1.0
    b = np.transpose(a)
    a[0, 2] = -1.0
    return b


def base_in_place_view_read(x):
    a = x * 1.0
    b = np.reshape(a, (3, 2))
    a += x[5]
    return b


def view_in_place(x):
    a = x.reshape(2, 3) * 1.0
    b = np.swapaxes(a, 0, 1)
    b += x[5]
    return a


def whole_ellipsis(x):
    a = x * 1.0
    b = a[...]
    b[2] = x[5]
    return a


def whole_slice(x):
    a = x * 1.0
    b = a[:]
    b[2] = x[5]
    return a


def as_array(x):
    a = x * 1.0
    b = np.asarray(a)
    b[2] = x[5]
    return a


FUNCTION_VIEWS = (transposed, transposed_with_axes, reshaped, squeezed, swapped, raveled,
                  moved, expanded, at_least_one_d, at_least_two_d, base_written_view_read,
                  base_in_place_view_read, view_in_place, whole_ellipsis, whole_slice, as_array)


@pytest.mark.parametrize("fn", FUNCTION_VIEWS, ids=lambda fn: fn.__name__)
def test_a_view_a_numpy_function_made_shares_the_write(backend, fn):
    """On the NumPy engine (and PyTorch, whose tensors have views) the write reaches the
    array as eagerly; JAX's and TensorFlow's arrays are immutable: the write is refused,
    naming its line (before, ``b = np.transpose(a); b[0] = v`` left ``a`` unchanged on
    the NumPy engine: a silent wrong value)."""
    if fn is moved and getattr(backend, "mode", None) == "explained":
        return  # NumPy's moveaxis on an eager tensor (its value there) fails, as the original
    refused = backend.numpy_oracle(fn, X)
    if backend.engine in ("numpy", "torch"):
        assert refused is None
    else:
        assert refused is not None and refused.startswith(("item assignment at ",
                                                           "in-place operator at ")), refused


def real_part_written(x):
    a = x * 1.0
    b = np.real(a)
    b[2] = x[5]
    return a


def complex_parts_written(x):
    a = (x * 1.0).astype(np.complex64)
    re = a.real
    re[2] = x[5]
    im = a.imag
    im[1] = x[4]
    return a, re, im


def complex_parts_of_numpy_functions_written(x, xp):
    a = xp.asarray(x * 1.0, dtype=xp.complex64)
    re = np.real(a)
    re[2] = x[5]
    im = np.imag(a)
    im[1] = x[4]
    return a


def flat_written(x):
    a = x.reshape(2, 3) * 1.0
    a.flat[4] = x[0]
    a.flat[1:3] += x[5]
    return a


def flat_of_a_transpose_written(x):
    a = x.reshape(2, 3) * 1.0
    b = a.T
    b.flat[1] = -1.0
    return a


def viewed(x):
    a = x * 1.0
    b = a.view()
    b[2] = x[5]
    a[0] = x[4]
    return a, b


@pytest.mark.ndarray_api
@pytest.mark.parametrize("fn", (real_part_written, complex_parts_written, flat_written,
                                flat_of_a_transpose_written, viewed),
                         ids=lambda fn: fn.__name__)
def test_parts_and_flat_items_written(backend, fn):
    """``a.real`` is a view of a real array; of a complex one, of its real parts (a write
    leaves the imaginary parts); ``a.flat[i] = v`` writes ``a``'s i-th item in C order (was
    a TypeError on the NumPy engine); ``a.view()`` is ``a[...]`` (was an AttributeError
    there). JAX's arrays: refused, naming the line."""
    try:
        refused = backend.numpy_oracle(fn, X)
    except NotImplementedError as error:  # JAX's arrays have no .flat: eager JAX fails too
        assert backend.engine == "jax" and ".flat" in str(error)
        return
    if backend.engine == "numpy":
        assert refused is None
    elif refused is not None:
        assert refused.startswith(("item assignment at ", "in-place operator at ")), refused


def test_parts_of_a_complex_array_written_through_numpy_functions(backend):
    """``np.real(a)``, ``np.imag(a)`` of a complex array: views of its parts."""
    fn = complex_parts_of_numpy_functions_written
    expected = fn(X.copy(), xp=np)
    try:
        backend.assert_same(expected, backend.staged(fn, X, xp=backend.xp))
    except ag.StagingError as error:
        assert backend.engine in ("jax", "tensorflow"), error
        assert str(error).startswith("item assignment at "), error


def diagonal_written(x):
    a = x.reshape(2, 3) * 1.0
    d = np.diagonal(a)
    d[0] = x[5]
    return a


def diagonal_in_place(x):
    a = x.reshape(2, 3) * 1.0
    d = np.diagonal(a)
    d += 1.0
    return a


def imaginary_part_of_a_real_array_written(x):
    a = x * 1.0
    a.imag[0] = 1.0
    return a


def diagonal_read_after_a_write(x):
    a = x.reshape(2, 3) * 1.0
    d = np.diagonal(a)
    a[1, 1] = x[5]
    return d


def test_a_read_only_view(backend):
    """``np.diagonal(a)`` is a read-only view: NumPy's ValueError for a write through it
    (the NumPy engine wrote a copy and returned ``a`` unchanged); it shows ``a``'s writes."""
    if backend.engine == "numpy":
        backend.check_raises(diagonal_written, ValueError, "assignment destination is read-only", X)
        backend.check_raises(diagonal_in_place, ValueError, "output array is read-only", X)
        backend.check_raises(imaginary_part_of_a_real_array_written, ValueError,
                             "assignment destination is read-only", X)
    for fn in (diagonal_written, diagonal_in_place):
        try:
            refused = backend.numpy_oracle(fn, X)
        except ValueError as error:  # the framework's own: NumPy's meaning
            assert "read-only" in str(error)
            continue
        assert refused is not None, fn.__name__  # a StagingError, never a value
    assert backend.numpy_oracle(diagonal_read_after_a_write, X) in (None,) or \
        backend.engine in ("jax", "tensorflow")


def flat_of_a_numpy_array_written(x):
    a = np.zeros(6, F)
    a.flat[2] = x[0]
    return a


def test_flat_items_of_a_numpy_array_written_with_a_staged_value(backend):
    """``a.flat[i] = v`` of a NumPy array ``a`` made in the function, ``v`` staged: the
    array would become a staged value its variable cannot be given (was a TypeError or
    NumPy's "Error setting single item of array")."""
    fn = flat_of_a_numpy_array_written
    assert backend.staging_error(fn, X) == (
        f"item assignment at {backend.at(fn, 'a.flat[2] = x[0]')}: a staged value is written "
        f"through '.flat' of a NumPy array, which would become a staged value there, but the "
        f"write cannot give the array's variable the new value. Write into the array itself: "
        f"a[np.unravel_index(i, a.shape)] = v.")
