"""Boolean-mask writes with a staged mask (issue 32.1): ``y[x < 0] += 0.2`` and
``y[m] = f(x[m])``, as t-SNE's gains, SciPy's make_strictly_feasible and PCHIP write them.

The NumPy engine runs NumPy, so it does what NumPy does (a count that does not match is
NumPy's ValueError, at run time, on the user's line). Under jax.jit the count of a staged
mask is unknown while tracing: elementwise work on ``x[m]`` written back under the same
mask ``m`` is a select (``staging.masked``); anything that needs the count is a
StagingError naming the line."""

import numpy as np
import pytest


def gains_update(update, grad):
    gains = np.ones_like(update)
    inc = update * grad < 0.0
    dec = np.invert(inc)
    gains[inc] += 0.2
    gains[dec] *= 0.8
    gains[update < -1.0] -= 0.05  # the mask written inline
    return gains


def test_scalar_updates_under_a_staged_mask(backend):
    u = np.array([1.0, -2.0, 0.5, -0.25], np.float32)
    g = np.array([-1.0, -1.0, 2.0, 3.0], np.float32)
    backend.numpy_code().check(gains_update, u, g)


def strictly_feasible(x, lb, ub, rstep):
    x_new = np.array(x)  # (x.copy() in SciPy: a JAX array cannot be written eagerly)
    lower_mask = x <= lb
    upper_mask = x >= ub
    x_new[lower_mask] = lb[lower_mask] + rstep * np.maximum(1, np.abs(lb[lower_mask]))
    x_new[upper_mask] = ub[upper_mask] - rstep * np.maximum(1, np.abs(ub[upper_mask]))
    tight_bounds = (x_new < lb) | (x_new > ub)
    x_new[tight_bounds] = 0.5 * (lb[tight_bounds] + ub[tight_bounds])
    return x_new


def test_elementwise_values_of_the_same_selection(backend):
    x = np.array([-1.0, 0.5, 3.0, 2.0], np.float32)
    lb = np.array([0.0, 0.0, 0.0, 1.0], np.float32)
    ub = np.array([1.0, 1.0, 2.0, 1.5], np.float32)
    backend.numpy_code().check(strictly_feasible, x, lb, ub, np.float32(0.1))
    backend.numpy_code().check(strictly_feasible, x, lb, ub, np.float32(1.0))


def ufuncs_and_methods(x, w):
    y = np.zeros_like(x)
    m = x > 0
    y[m] = np.sqrt(x[m])
    y[m] += w * np.clip(x[m], 0.5, 1.5).astype(np.float32)
    y[~m] = -x[~m] ** 2  # a mask made twice is two masks: named once here
    return y


def test_ufuncs_clip_and_astype_on_a_selection(backend):
    args = np.array([-1.0, 2.0, 0.25, 4.0], np.float32), np.float32(2.0)
    if backend.engine == "torch":  # np.clip gives a tensor, which has no ndarray methods
        line = "y[m] += w * np.clip(x[m], 0.5, 1.5).astype(np.float32)"
        assert backend.staging_error(ufuncs_and_methods, *args).startswith(
            f"PyTorch could not trace the line at {backend.at(ufuncs_and_methods, line)}: "
            f"AttributeError: 'FakeTensor' object has no attribute 'astype'. ")
        return
    backend.numpy_code().check(ufuncs_and_methods, *args)


def selected_rows(a, shift):
    out = np.zeros_like(a)
    m = a[:, 0] > 0
    out[m] = a[m] * 2 + shift
    out[np.invert(m)] = np.array([5.0, 6.0], np.float32)
    return out


def test_a_mask_over_rows(backend):
    backend.numpy_code().check(selected_rows, np.arange(8.0, dtype=np.float32).reshape(4, 2) - 3,
                  np.array([1.0, 2.0], np.float32))


def into_ints(x):
    counts = np.zeros(x.shape, np.int32)
    counts[x > 1] += 2
    counts[x > 2] = counts[x > 2] + 1.7  # cast back to int32
    return counts


def add_floats_into_ints(x):
    counts = np.zeros(x.shape, np.int32)
    counts[x > 1] += 1.7  # in place on the selected items: NumPy refuses the cast
    return counts


def test_the_target_keeps_its_dtype(backend):
    backend.check(into_ints, np.array([0.0, 2.0, 3.0], np.float32))
    backend.check_raises(add_floats_into_ints, TypeError, "^Cannot cast ufunc 'add' output from "
                         "dtype\\('float(32|64)'\\) to dtype\\('int32'\\) with casting rule "
                         "'same_kind'", np.array([0.0, 2.0, 3.0], np.float32))


def count_mismatch(x):
    y = np.zeros_like(x)
    y[x > 0] = x[x > 1]
    return y


def test_a_count_that_does_not_match(backend):
    x = np.array([-1.0, 2.0, 0.5, 4.0], np.float32)
    if backend.name == "jax":
        text = backend.staging_error(count_mismatch, x)
        assert text == (
            f"y[m] = x[m2] on a boolean-mask selection at "
            f"{backend.at(count_mismatch, 'y[x > 0] = x[x > 1]')}: the mask is staged, so how "
            f"many items it selects is known only at run time, and the written items and the "
            f"value are selected by different masks (two staged values, even if computed alike, "
            f"may differ). A masked selection can only be computed elementwise and written back "
            f"under the same mask (y[m] = f(x[m]), y[m] += c). Compute the mask once, name it "
            f"(m = ...), and use that name for both.")
        return
    if backend.engine == "torch":  # checked when the program runs, by PyTorch's indexing,
        with pytest.raises(RuntimeError, match="^shape mismatch: value tensor of shape \\[2\\] "
                           "cannot be broadcast to indexing result of shape \\[3\\]"):
            backend.staged(count_mismatch, x)  # whose errors carry no NumPy exception type
        return
    backend.numpy_code().check_raises(count_mismatch, ValueError, "cannot assign 2 input values to the 3 "
                         "output values where the mask is true", x)


def masked_sum(x):
    m = x > 0
    return x[m].sum() + len(x[m])


def whole_value(x):
    y = np.zeros_like(x)
    m = x > 0
    y[m] = x
    return y


def test_what_needs_the_count(backend):
    x = np.array([-1.0, 2.0, 0.5, 4.0], np.float32)
    if backend.name != "jax":
        backend.numpy_code().check(masked_sum, x)
        backend.numpy_code().check(whole_value, np.array([1.0, 2.0, 0.5, 4.0], np.float32))
        return
    tail = ("the mask is staged, so how many items it selects is known only at run time, and "
            "{}. A masked selection can only be computed elementwise and written back under "
            "the same mask (y[m] = f(x[m]), y[m] += c). {}.")
    assert backend.staging_error(masked_sum, x) == (
        f".sum on a boolean-mask selection at {backend.at(masked_sum, 'return x[m].sum() + len(x[m])')}: "
        + tail.format("it needs the selected items' count",
                      "Write it with where on whole arrays (np.where(m, x, 0).sum() for "
                      "x[m].sum())"))
    assert backend.staging_error(whole_value, x) == (
        f"y[m] = v on a boolean-mask selection at {backend.at(whole_value, 'y[m] = x')}: "
        + tail.format("v has shape (4,), which pairs with the selected items only by their "
                      "run-time count",
                      "Write it with where on whole arrays: y = np.where(m, v_full, y)"))
