"""``divmod`` and ``math.modf`` of staged scalars, and NumPy arrays' methods given
staged arguments (issue 22 leftovers, 3: statsmodels' ``van_der_corput``, SciPy
Radau's ``T.dot(W)``), with NumPy's values and dtypes: NumPy code, whose oracle on
PyTorch and TensorFlow (whose eager tensors run no divmod) is the same code on NumPy
arrays (``backend.numpy_code()``)."""

import math

import numpy as np
import pytest

TABLE = np.array([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], np.float32)  # JAX runs in 32 bits here


def digits(n, base):
    out, scale = 0.0, 1.0
    while n > 0:
        n, r = divmod(n, base)
        scale *= base
        out += r / scale
    return out


def divmod_mixed(x, y):
    return divmod(x, y), divmod(x, 3), divmod(7, y)


def modf(x):
    frac, whole = math.modf(x)
    return frac, whole, frac + whole


def array_methods(w):
    return (TABLE.dot(w), TABLE.T.dot(TABLE.dot(w)), TABLE.clip(w[0], w[1]),
            TABLE.sum(axis=1) * w[0])


def test_divmod_in_a_staged_loop(backend):
    for n in (11, 0):
        if backend.engine == "torch":  # r / scale: PyTorch's int-by-float division
            backend.check_in_default_float(digits, np.int64(n), 3)
        else:
            backend.numpy_code().check(digits, np.int64(n), 3)


def test_divmod_values_and_dtypes(backend):
    backend.numpy_code().check(divmod_mixed, np.int64(-7), np.int64(2))
    backend.numpy_code().check(divmod_mixed, np.float64(7.5), np.float64(-2.0))
    backend.numpy_code().check(divmod_mixed, np.int32(9), np.int32(4))


def test_math_modf(backend):
    backend.check(modf, np.float64(3.25))
    backend.check(modf, np.float64(-2.5))


def test_numpy_array_method_with_a_staged_argument(backend):
    backend.numpy_code().check(array_methods, np.array([0.5, 2.0], np.float32))


def tensor_methods(x, y):
    order = x.argsort()
    return (x.searchsorted(np.float32(0.5)), x.argpartition(1)[:1], x[order].cumsum(),
            x.clip(0, 1).max(), x.reshape(2, 2).T.copy(), y.astype(np.float32).sum(),
            x.dot(x), x.any(), x.mean())


def in_place_methods(x):
    y = x * 2
    y.sort()
    z = x.copy()
    z.fill(3.0)
    return y, z


@pytest.mark.ndarray_api
def test_array_methods_on_staged_arrays(backend):
    x = np.array([0.25, 0.75, 1.5, 2.0], np.float32)  # sorted: searchsorted's input
    backend.check(tensor_methods, x, np.array([1, 2, 3], np.int32))


def test_in_place_sort_and_fill(backend):
    if backend.engine == "numpy":  # JAX arrays are immutable: their .sort() returns a copy
        backend.check(in_place_methods, np.array([3.0, -1.0, 2.0]))


def takes_along_an_axis(data, locs):
    main = data.take(locs, axis=1, mode="clip")
    plus = data.take(locs + 1, axis=1, mode="wrap")
    return main * 2.0 - plus, data.take(locs)


def test_take_along_an_axis(backend):
    """``ndarray.take`` with an axis and a mode, as SciPy's ``_boolrelextrema`` calls it: a
    PyTorch tensor's ``take`` takes neither (NumPy's ``take`` runs, as torch._numpy's with
    the mode's indices)."""
    backend.numpy_code().check(takes_along_an_axis, np.arange(12.0).reshape(3, 4),
                               np.array([3, 0, 1]))
