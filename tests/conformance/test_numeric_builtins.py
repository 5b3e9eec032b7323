"""Python's numeric builtins, ``math`` and ``np.asarray`` on staged scalars (issues 22.2,
22.3, 9.7, and issue 9's int/float/bool refusal): the same values as eager, with NumPy's
dtype rules. Results are mixed into an array (``x - x + ...``) where eager would return a
Python scalar, since a graph returns arrays."""

import math

import numpy as np


def step_size(h0, interval, dx):
    h = min(h0, interval)
    big = max(abs(h0), abs(dx), 0.5)
    small = min(h0, 3, dx, interval)
    return h0 - h0 + h, h0 - h0 + big, h0 - h0 + small


def min_of_a_list(a, b):
    return a - a + min([a, b, 4.0]), a - a + max((b, a))


def casts(x):
    n = int(x)
    total = x - x + n * 2 + float(x)
    if bool(x > 1):
        total = total + 1
    return total


def rounding(x):
    return x - x + round(x), round(x, 2)


def quadratic_root(a, b, c):
    disc = b * b - 4 * a * c
    if disc >= 0:
        root = (-b + math.sqrt(disc)) / (2 * a)
    else:
        root = a - a + math.copysign(math.fabs(b), -1.0)
    return root


def math_functions(x, y):
    return (x - x + math.exp(x), x - x + math.log(y), x - x + math.floor(x) + math.ceil(y),
            x - x + math.hypot(x, y), x - x + math.isfinite(x) + math.isnan(y) + math.isinf(x))


def sqrt_of(x):
    return x - x + math.sqrt(x)


def test_min_max_of_several_arguments(backend):
    backend.check(step_size, np.float64(0.25), 0.5, np.float64(-2.0))
    backend.check(step_size, np.float64(0.75), 0.5, np.float64(0.1))


def test_min_max_of_one_sequence(backend):
    backend.check(min_of_a_list, np.float64(1.5), np.float64(7.0))


def test_int_float_bool_are_casts(backend):
    backend.check(casts, np.float64(2.7))
    backend.check(casts, np.float64(-0.5))


def test_round(backend):  # round of NumPy scalars (eager tensors have no __round__)
    backend.numpy_code().check(rounding, np.float64(2.567))
    backend.numpy_code().check(rounding, np.float64(-3.5))


def test_math_in_staged_branches(backend):
    backend.check(quadratic_root, np.float64(1.0), np.float64(-3.0), np.float64(2.0))
    backend.check(quadratic_root, np.float64(1.0), np.float64(1.0), np.float64(2.0))


def test_math_functions(backend):
    backend.check(math_functions, np.float64(0.5), np.float64(2.5))


def test_math_domain_error_at_run_time(backend):
    backend.check(sqrt_of, np.float64(4.0))
    if backend.engine == "numpy":
        backend.check_raises(sqrt_of, ValueError, "^math domain error$", np.float64(-1.0))


def asarray_of_tensor(x, y):
    a = np.asarray(x)
    b = np.asarray(x, dtype=np.float32)
    c = np.array(y)
    return a + 1, b, c * 2


def stacked(x, y):
    pair = np.asarray([x, y])
    table = np.array([[x, y], [y, x]])
    mixed = np.asarray((x, 2.0, y), dtype=np.float32)
    return pair, np.sum(table, axis=0), mixed


def test_asarray_of_a_staged_array_stays_in_the_graph(backend):
    backend.check(asarray_of_tensor, np.arange(3.0), np.float64(2.0))


def test_asarray_of_a_list_of_staged_values_is_a_stack(backend):
    backend.check(stacked, np.float64(1.5), np.float64(-2.0))


def test_python_values_run_as_python(backend):
    def plain(x, n):
        return x + min(n, 3) + abs(-n) + int(2.5) + math.sqrt(n) + np.asarray([n, 1]).sum()

    backend.check(plain, np.float64(1.0), 4)


def copies_then_updates(x):
    r = np.asarray(x, copy=True)
    r += 1.0
    s = np.array(x)
    s *= 2.0
    return x, r, s


def test_asarray_copy_is_a_copy(backend):
    if backend.name == "jax":
        return  # in-place operators rebind under JAX
    backend.check(copies_then_updates, np.arange(3.0))
