"""Writing into arrays (issues 9.10, 22.4): item and slice assignment is a functional
update in the graph, in straight-line code, branches and loops; writing into an
argument keeps NumPy's semantics on the NumPy engine (the caller's array holds what
eager would have left there) and is a StagingError under jax.jit."""

import numpy as np


def fill(x, n):
    out = np.zeros(3, np.float32)  # float32: JAX's default float, so both backends agree
    out[0] = x
    d1 = np.empty((2, 2), np.float32)
    d1[0, 0] = x * 2
    d1[1] = -x
    d1[0, 1] = 0.0
    for i in range(n):
        out[i % 3] = out[i % 3] + i
    if x > 1:
        out[2] = x
    out[out > 2] = 0
    return out, d1


def columns(a, k):
    out = np.ones((3, 4), np.float32)
    out[:, k] = a
    out[1, :] = a[0]
    return out


def test_writes_into_arrays_made_in_the_function(backend):
    backend.check(fill, np.float32(1.5), np.int32(5))
    backend.check(fill, np.float32(0.5), np.int32(2))


def test_slice_writes(backend):
    backend.check(columns, np.arange(3.0, dtype=np.float32), 2)


def rk_step(y, h, K):
    for s in range(1, 3):
        dy = K[s - 1] * h
        K[s] = dy + y
    if h > 0.5:
        K[0] = 7.0
    return K.sum()


def _writes_back(fn, *args):
    """Run eagerly and under ag.function on copies of ``args``: results and arguments agree."""
    import autograph as ag

    eager_args = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
    staged_args = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
    expected = fn(*eager_args)
    got = ag.function(fn)(*staged_args)
    np.testing.assert_allclose(got, expected)
    for e, s in zip(eager_args, staged_args):
        if isinstance(e, np.ndarray):
            np.testing.assert_array_equal(s, e)


def test_writing_into_an_argument(backend):
    if backend.name == "jax":
        text = backend.staging_error(rk_step, np.ones(2), np.float64(0.7), np.ones((3, 2)))
        assert text.startswith("item assignment at ")
        assert "(`K[s] = dy + y`): 'K' is an argument of rk_step(), and JAX arrays are " \
               "immutable, so under jax.jit the write cannot reach the caller's array. Return " \
               "the updated array instead (and assign it in the caller)." in text
        return
    _writes_back(rk_step, np.ones(2), np.float64(0.7), np.ones((3, 2)))
    _writes_back(rk_step, np.ones(2), np.float64(0.2), np.ones((3, 2)))


def scale_into(out, v):
    out[:] = out * v


def caller(x, v):
    buf = x * 1.0
    scale_into(buf, v)
    return buf


def test_helper_writes_into_its_callers_array(backend):
    if backend.name == "jax":
        text = backend.staging_error(caller, np.arange(3.0), np.float64(2.0))
        assert "'out' is an argument of scale_into()" in text
        return
    backend.check(caller, np.arange(3.0, dtype=np.float32), np.float32(2.0))


def branch_caller(x, v):
    buf = x * 1.0
    if v > 0:
        scale_into(buf, v)
    return buf


def test_helper_writes_into_an_array_from_outside_its_branch(backend):
    text = backend.staging_error(branch_caller, np.arange(3.0), np.float64(2.0))
    assert "'out' is an argument of scale_into()" in text
    assert "Return the updated array instead" in text
