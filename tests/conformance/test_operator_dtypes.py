"""NumPy code's operators on staged arrays give NumPy's result dtype and values, where a
framework's own operator would compute in another kind of dtype: TensorFlow's ``*``
with a bool operand is a bool (``mask * 1``, ``x * mask``), and TensorFlow converts a
NumPy array an operator meets into the tensor's dtype (a float array met by an int
tensor is truncated); a NumPy array made in the function keeps its dtype under ``+=``
(NumPy's in-place operator casts back, or raises NumPy's casting error). Found as silent
wrong values under ``tf.function`` (numpy-financial's ``mirr``: ``values*pos``)."""

import numpy as np


def masks_times_numbers(x):
    pos = x > 0
    return pos * 1, 2 * pos, pos * np.float64(0.5), pos * True, pos * x[0]


def test_a_bool_mask_times_a_python_number(backend):
    backend.numpy_code().check(masks_times_numbers, np.array([1.5, -2.0, 0.0, 3.0]))


def masked_values(values):
    pos = values > 0
    neg = values < 0
    return values * pos, neg * values, pos * neg


def test_an_array_times_a_bool_mask(backend):
    backend.numpy_code().check(masked_values, np.array([-4500.0, 800.0, -600.0, 3000.0]))
    backend.numpy_code().check(masked_values, np.array([3, -1, 0, 7], np.int32))


def modified_rate(values, rate):
    """numpy-financial's ``mirr``, cut down: a masked array's sum to the power
    ``1/(n - 1)``, under a staged ``if``."""
    values = np.asarray(values)
    n = len(values)
    pos = values > 0
    if np.sum(pos) == 0:
        numer = np.abs(np.sum(values))
    else:
        numer = np.abs(np.sum(values * pos) * (1 + rate))
    return numer ** (1 / (n - 1)) - 1


def test_a_masked_sum_to_a_fractional_power(backend):
    backend.numpy_code().check(modified_rate, np.array([-100.0, 39.0, 30.0, 21.0]),
                               np.float64(0.1))
    backend.numpy_code().check(modified_rate, np.array([-100.0, -39.0]), np.float64(0.1))


def counts_plus_array(n):
    half = np.array([0.5, 1.5, -2.5])
    return half + n, n * half, n / np.array([4.0, 3.0]), n < np.array([2.5, 3.5])


def test_a_float_numpy_array_met_by_an_int_array(backend):
    backend.numpy_code().check(counts_plus_array, np.int64(3))
    backend.numpy_code().check(counts_plus_array, np.int32(-2))


def grown_in_place(n):
    v = np.zeros(3, dtype=np.float32)
    v += n
    w = np.zeros(3, dtype=np.float32)
    w = w + n
    k = np.ones(2, dtype=np.int64)
    k *= n
    return v, w, k


def test_a_numpy_array_keeps_its_dtype_in_place(backend):
    backend.numpy_code().check(grown_in_place, np.int64(2))


def int_array_plus_float(x):
    counts = np.zeros(3, dtype=np.int64)
    counts += x * 0.5
    return counts


def test_an_int_array_refuses_a_float_in_place(backend):
    code = backend.numpy_code()
    if backend.name == "jax":  # eager JAX's operator: the name gets its float array
        code.check(int_array_plus_float, np.int64(3))
        return
    code.check_raises(
        int_array_plus_float, TypeError,
        r"Cannot cast ufunc 'add' output from dtype\('float64'\) to dtype\('int64'\) "
        r"with casting rule 'same_kind'", np.int64(3))
