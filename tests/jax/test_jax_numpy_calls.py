"""``np.*`` on JAX tracers in converted code: the ``jax.numpy`` function of the same name
(issue 22), and the StagingErrors where there is none or where NumPy would write in
place. The cases both backends share are in tests/conformance/test_numpy_calls.py."""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from jax_helpers import assert_matches_eager, at, staged

import autograph as ag

T = np.array([[1.0, 2.0], [0.5, -1.0]], np.float32)


def staging_error(f, *args) -> str:
    with pytest.raises(ag.StagingError) as info:
        staged(f)(*args)
    return str(info.value)


def rms_step(x):
    """What real code writes: np.* on traced values, under a staged branch."""
    n = np.linalg.norm(x) / np.sqrt(x.size)
    if n > 1:
        x = x / n
    return np.where(np.abs(x) < 0.1, np.zeros_like(x), x)


def test_numpy_calls_run_under_jit_grad_and_vmap():
    x = jnp.array([3.0, -0.05, 4.0])
    assert_matches_eager(rms_step, x)
    grad = jax.grad(lambda v: ag.convert(rms_step)(v).sum())(x)
    eager = jax.grad(lambda v: jnp.where(jnp.abs(v / (jnp.linalg.norm(v) / jnp.sqrt(3.0))) < 0.1,
                                         0.0, v / (jnp.linalg.norm(v) / jnp.sqrt(3.0))).sum())(x)
    np.testing.assert_allclose(grad, eager, rtol=1e-6)
    batch = jnp.array([[3.0, -0.05, 4.0], [0.1, 0.2, 0.3]])
    np.testing.assert_allclose(jax.vmap(ag.convert(rms_step))(batch),
                               np.stack([rms_step(np.asarray(b)) for b in batch]), rtol=1e-6)


def max_of_list(a, b):
    return np.max([np.abs(a), np.abs(b), 0.5]), np.dot(np.stack([a, b]), [1.0, 2.0])


def signs(v):
    return v * np.where(v[0] < 0, -1.0, 1.0)


def test_lists_of_tracers_and_x64_dtypes():
    """A list holding tracers (or a list of Python numbers) is an array, as NumPy takes it;
    with x64 on, JAX's dtypes are NumPy's (float64 from Python floats)."""
    with jax.enable_x64(True):
        for a, b in ((-2.0, 1.5), (0.1, 0.2)):
            eager = max_of_list(np.float64(a), np.float64(b))
            got = staged(max_of_list)(jnp.float64(a), jnp.float64(b))
            for e, g in zip(eager, got):
                assert g.dtype == np.asarray(e).dtype
                np.testing.assert_allclose(g, e)
        got = staged(signs)(jnp.array([-1.0, 2.0], jnp.float32))
        assert got.dtype == signs(np.array([-1.0, 2.0], np.float32)).dtype == np.float64


def method_of_a_numpy_array(w):
    z = T.dot(w)
    if z[0] > 0:
        z = z * 2
    return z


def test_a_numpy_arrays_method_with_a_traced_argument():
    for w in ([1.0, 1.0], [-1.0, 0.0]):
        assert_matches_eager(method_of_a_numpy_array, jnp.array(w))


def row_score(r):
    if r[0] > 0:
        return r.sum()
    return -r.sum()


def scores(x):
    return np.apply_along_axis(row_score, 1, x)


def test_a_user_function_passed_to_numpy_is_converted():
    """``np.apply_along_axis(f, ...)`` runs as ``jnp.apply_along_axis`` with ``f``
    converted, so the staged ``if`` inside ``f`` is a ``lax.cond``."""
    assert_matches_eager(scores, jnp.array([[1.0, 2.0], [-1.0, 3.0]]))


def draws(x):
    return np.random.normal(x)


def test_numpy_random_on_a_tracer_is_refused():
    assert staging_error(draws, jnp.float32(1.0)) == (
        f"np.random.normal at {at(draws, 'return np.random.normal(x)')} is called with a traced "
        f"value under jax.jit, and jax.numpy has no function of that name to run in its place "
        f"(NumPy cannot compute on a JAX tracer). Draw random numbers with jax.random and a key "
        f"passed in (e.g. loc + scale * jax.random.normal(key, shape)), or draw them outside "
        f"jax.jit.")


def fix(x):
    return np.fix(x)


def test_a_function_jax_numpy_lacks_is_refused():
    assert staging_error(fix, jnp.float32(1.5)) == (
        f"np.fix at {at(fix, 'return np.fix(x)')} is called with a traced value under jax.jit, "
        f"and jax.numpy has no function of that name to run in its place (NumPy cannot compute "
        f"on a JAX tracer). Compute it with jax.numpy or jax.lax, or call it outside jax.jit and "
        f"pass the result in.")


def out_keyword(x):
    y = x * 2
    np.add(y, 1.0, out=y)
    return y


def out_positional(x):
    return np.tanh(x, x)


def test_out_arguments_are_refused():
    assert staging_error(out_keyword, jnp.ones(2)) == (
        f"np.add(..., out=...) at {at(out_keyword, 'np.add(y, 1.0, out=y)')} writes into an "
        f"array in place, and JAX arrays are immutable, so under jax.jit it cannot. Assign the "
        f"result instead: y = np.add(...).")
    assert "np.tanh(..., out=...) at " in staging_error(out_positional, jnp.ones(2))


def copies_into(x):
    y = np.zeros(2)
    np.copyto(y, x)
    return y


def fills(x):
    y = np.zeros(2)
    y.fill(x)
    return y


def test_in_place_functions_and_methods_are_refused():
    assert staging_error(copies_into, jnp.ones(2)) == (
        f"np.copyto at {at(copies_into, 'np.copyto(y, x)')} writes into an array in place, and "
        f"JAX arrays are immutable, so under jax.jit it cannot. Build the new array and assign "
        f"it instead: x[idx] = v on a local array is a functional update, as is "
        f"x = x.at[idx].set(v).")
    assert staging_error(fills, jnp.float32(1.0)).startswith("ndarray.fill at ")


def nonzero(x):
    return np.nonzero(x > 0)


def test_a_twin_that_needs_concrete_values():
    text = staging_error(nonzero, jnp.array([1.0, -1.0]))
    assert text.startswith(f"np.nonzero at {at(nonzero, 'return np.nonzero(x > 0)')} runs as "
                           f"jnp.nonzero on the traced values, which needs values jax.jit only "
                           f"has when the compiled function runs (JAX: ")
    assert text.endswith("Compute it outside jax.jit and pass the result in, or use a jax.numpy "
                         "form with static sizes (e.g. size= of jnp.nonzero).")


def concrete_closure(x):
    return np.sqrt(np.asarray(CONSTANT)) + x


CONSTANT = jnp.array([4.0, 9.0])


def test_concrete_jax_arrays_stay_numpy():
    """Only tracers are routed: a concrete jax.Array NumPy can read stays NumPy's."""
    assert_matches_eager(concrete_closure, jnp.float32(1.0))


def test_a_scipy_special_ufunc_runs_as_jax_scipy_special():
    """properscoring's crps_gaussian: ``_normcdf = special.ndtr`` called on a tracer."""
    from scipy import special

    def cdf_gap(x):
        return special.ndtr(x) - special.erf(x) * 0.5

    assert_matches_eager(cdf_gap, jnp.array([-1.0, 0.0, 2.5]))
