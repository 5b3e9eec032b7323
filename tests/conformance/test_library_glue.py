"""Library glue that converts or inspects its argument (issue 32.4): each call works on a
staged value, or is a StagingError naming the call and the user's line."""

import numpy as np
import pytest


def required(x):
    a = np.require(x, dtype=np.float32, requirements=["C", "W"])  # (statsmodels)
    b = np.asfortranarray(x * 2)
    return a + b


def test_np_require(backend):
    backend.check(required, np.arange(6, dtype=np.float32).reshape(2, 3))


def array_copies(x):
    a = np.array(x, copy=False)
    b = np.array(x, copy=True)
    c = np.array(x, ndmin=3)
    return a + b, c


def test_np_array_copy_and_ndmin(backend):
    backend.numpy_code().check(array_copies, np.arange(3.0, dtype=np.float32))


def copy_false_cast(x):
    return np.array(x, dtype=np.int32, copy=False)


def test_np_array_copy_false_that_must_copy(backend):
    if backend.name == "jax":  # jax.numpy copies where it must
        return
    backend.numpy_code().check_raises(copy_false_cast, ValueError, "Unable to avoid copy", np.ones(2))


def flat_items(x):
    total = 0.0
    for v in x.flat:
        total = total + v
    return total, x.flat[2]


@pytest.mark.ndarray_api
def test_ndarray_flat(backend):
    if backend.name == "jax":  # a tracer's .flat is JAX's own NotImplementedError
        return
    backend.check(flat_items, np.arange(6.0).reshape(2, 3))


def draws(x, n):
    return x + np.random.random(n)


def test_np_random_with_a_staged_size(backend):
    text = backend.staging_error(draws, np.ones(3), np.int32(3))
    if backend.name == "jax":
        assert text.startswith(f"np.random.random at {backend.at(draws, 'return x + np.random.random(n)')} "
                               f"is called with a traced value under jax.jit")
        return
    if backend.name == "torch":  # PyTorch's generator draws other numbers than NumPy's
        assert text.startswith(f"np.random.random at {backend.at(draws, 'return x + np.random.random(n)')} "
                               f"is called with a tensor PyTorch traces")
        assert "Draw random numbers with torch" in text
        return
    if backend.name == "tensorflow":
        assert text == (f"np.random.random at {backend.at(draws, 'return x + np.random.random(n)')} "
                        f"is called with a graph tensor under tf.function, and a graph draws "
                        f"np.random's numbers while it is traced (constants of the graph), when "
                        f"the tensor's value is not known yet. Draw random numbers with tf.random "
                        f"(a tf.random.Generator), or draw them outside the tf.function and pass "
                        f"them in.")
        return
    at = backend.at(draws, "return x + np.random.random(n)").split("/")[-1]
    assert text == (f"np.random.random at {at} is given a staged value, and a graph draws "
                    f"np.random's numbers while tracing (constants of the graph), when that value "
                    f"is not known yet. Draw the numbers outside the function and pass them in "
                    f"(rng = np.random.default_rng(); f(x, rng.random(n))).")


def as_operator(A):
    """Like SciPy's aslinearoperator: a type check that a symbolic array fails."""
    if isinstance(A, np.ndarray) or hasattr(A, "matvec"):
        return A
    raise TypeError("type not understood")


as_operator.__module__ = "scipy.sparse.linalg._interface"  # library code, called as it is


def uses_operator(x):
    op = as_operator(x)
    return op @ np.ones(2)


def test_library_code_that_inspects_its_argument(backend):
    np.testing.assert_array_equal(uses_operator(np.eye(2)), np.ones(2))  # eagerly: works
    text = backend.staging_error(uses_operator, np.eye(2, dtype=np.float32))
    assert text == (f"scipy.sparse.linalg._interface.as_operator at "
                    f"{backend.at(uses_operator, 'op = as_operator(x)')} raised "
                    f"TypeError('type not understood') given a staged value: library code is "
                    f"called as it is, and this function inspects or converts its argument, "
                    f"which is a symbolic array while tracing, not a NumPy array. Call it outside "
                    f"the staged function and pass the result in, or compute it with NumPy "
                    f"functions.")
