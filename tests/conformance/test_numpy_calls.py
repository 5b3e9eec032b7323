"""NumPy's functions called on staged values, in staged control flow (issue 22): the
NumPy engine's tensors take them through NumPy's dispatch protocols; under ``jax.jit``
each call with a tracer among its arguments runs as the ``jax.numpy`` function of the
same name (``np.linalg.norm`` -> ``jnp.linalg.norm``). The same values as eager, on
every backend; dtypes are the backend's (JAX: 32-bit unless x64 is on, so these cases
stay in float32 with Python scalars, whose dtype NumPy and JAX both take from the array)."""

import numpy as np
from numpy import sqrt as numpy_sqrt


def power_iteration(A, v):
    """Helpers full of np.*: norm, dot, abs, where, zeros_like, in a staged loop."""
    v = v / np.linalg.norm(v)
    lam = np.zeros_like(v[0])
    change = np.abs(lam) + 1.0
    steps = 0
    while change > 1e-5 and steps < 50:
        w = np.dot(A, v)
        new = np.dot(v, w)
        change = np.abs(new - lam)
        lam = new
        v = w / np.linalg.norm(w)
        steps += 1
    v = np.where(v[0] < 0, -v, v)
    return lam, v, steps


def test_helpers_full_of_numpy_in_a_staged_loop(backend):
    A = np.array([[2.0, 1.0], [1.0, 3.0]], np.float32)
    backend.check(power_iteration, A, np.array([1.0, 0.0], np.float32))
    backend.check(power_iteration, A, np.array([0.0, -1.0], np.float32))


def newton_sqrt(a):
    """np.sqrt / np.maximum / np.isfinite on staged scalars, and through a bare name."""
    x = np.maximum(a, 1.0)
    while np.abs(x * x - a) > 1e-6 * a:
        x = 0.5 * (x + a / x)
    ok = np.isfinite(x) and np.sign(x) > 0
    return x, numpy_sqrt(a) - x, ok


def test_numpy_functions_on_staged_scalars(backend):
    for a in (2.0, 0.25, 30.0):
        backend.check(newton_sqrt, np.float32(a))


def lists_of_staged_values(a, b, x):
    """NumPy takes lists and tuples as arrays: a list of staged values, a list of Python
    numbers next to a staged array."""
    both = np.stack([a, b])
    picked = np.take(x, [2, 0])
    near = np.isclose(x, [1.0, 2.0, 3.5])
    return both, picked, near


def test_lists_are_arrays_as_numpy_takes_them(backend):
    backend.check(lists_of_staged_values, np.float32(-2.0), np.float32(1.5),
                  np.array([1.0, 2.0, 3.0], np.float32))


def ufunc_methods(x):
    total = np.add.reduce(x)
    running = np.maximum.accumulate(x)
    table = np.multiply.outer(x, x)
    if total > 0:
        total = total + np.minimum.reduce(x)
    return total, running, table


def test_ufunc_methods(backend):
    backend.check(ufunc_methods, np.array([1.0, -3.0, 2.0], np.float32))
    backend.check(ufunc_methods, np.array([1.0, 3.0, 2.0], np.float32))


def clipped_norms(v, lo):
    """NumPy 2's keywords (np.clip's a_min/a_max) and functions of submodules."""
    c = np.clip(v, a_min=lo, a_max=None)
    d = np.linalg.norm(c, ord=1) + np.fft.fft(c).real.sum()
    return c, d


def test_keywords_and_submodules(backend):
    backend.check(clipped_norms, np.array([-1.0, 0.5, 2.0], np.float32), np.float32(0.0))


def constants_stay_numpy(x):
    """Calls without a staged argument are NumPy's own (a constant of the trace), and
    combine with staged values as eager code combines them."""
    grid = np.linspace(0.0, 1.0, 3).astype(np.float32)
    out = np.zeros(3, np.float32)
    for i in range(3):
        if x > grid[i]:
            out[i] = x * grid[i]
    return out + np.ones(3, np.float32)


def test_calls_without_staged_arguments_stay_numpy(backend):
    backend.check(constants_stay_numpy, np.float32(0.7))


def is_scalar(x):
    return np.isscalar(x), np.ndim(x), np.shape(x)


def test_numpy_predicates_keep_numpy_answers(backend):
    """``np.isscalar`` of an array is False (``jnp.isscalar`` says True for 0-d arrays:
    NumPy's answer is kept), ``np.shape`` a tuple (of a PyTorch tensor eagerly its
    ``torch.Size``, which no compiled program returns: NumPy code, NumPy's answers)."""
    backend.numpy_code().check(is_scalar, np.array(2.0, np.float32))
