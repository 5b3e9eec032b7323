"""Run one corpus case on one backend and compare with eager, leaf by leaf.

``numpy``: the driver traced once by ``ag.function`` and called on every input (the
inputs share shapes and dtypes, so one graph serves them all), against the driver run
eagerly on the same NumPy arrays. ``jax``: ``jax.jit(ag.convert(driver))`` on
``jax.numpy`` arrays, in 64-bit mode so that both backends take the paths the inputs
were chosen for, against the driver run eagerly on the same ``jax.numpy`` arrays.
``numpy-xla``: as ``numpy``, with ``ag.function(jit_compile=True)`` (the same graph
compiled by XLA).
"""

from __future__ import annotations

import warnings

import numpy as np

import autograph as ag

BACKENDS = ("numpy", "numpy-xla", "jax")


def run(case, backend: str) -> None:
    """Raise (AssertionError or the staging error) unless every input matches eager."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if backend in ("numpy", "numpy-xla"):
            _run_numpy(case, jit_compile=backend == "numpy-xla")
        else:
            _run_jax(case)


def _run_numpy(case, jit_compile: bool = False) -> None:
    staged = ag.function(case.driver, jit_compile=jit_compile)
    for args in case.inputs:
        eager_args, staged_args = _copy(args), _copy(args)
        _compare(lambda: case.driver(*eager_args, xp=np), lambda: staged(*staged_args, xp=np))
        # An argument the function writes into holds what the eager call left there.
        assert_same(eager_args, staged_args, "arguments after the call")


def _run_jax(case) -> None:
    import jax
    import jax.numpy as jnp

    with jax.enable_x64(True):
        converted = ag.convert(case.driver)
        staged = jax.jit(lambda *args: converted(*args, xp=jnp))
        for args in case.inputs:
            arrays = tuple(jnp.asarray(a) for a in args)
            _compare(lambda: case.driver(*arrays, xp=jnp), lambda: staged(*arrays))


class _Raised:
    """An exception as an outcome: eager and staged must raise the same, with the same text."""

    def __init__(self, error: Exception) -> None:
        self.kind, self.text = type(error), str(error)

    def __eq__(self, other) -> bool:
        return isinstance(other, _Raised) and (self.kind, self.text) == (other.kind, other.text)

    def __repr__(self) -> str:
        return f"{self.kind.__name__}({self.text!r})"


def _compare(eager, staged) -> None:
    """Same result; or, where the eager call raises, the same exception and text.
    A staged call that raises where eager does not propagates its own error."""
    try:
        expected = eager()
    except Exception as error:  # noqa: BLE001 - whatever eager raises, staged must too
        try:
            actual = staged()
        except Exception as staged_error:  # noqa: BLE001
            actual = _Raised(staged_error)
        assert_same(_Raised(error), actual)
        return
    assert_same(expected, staged())


def _copy(args):
    return tuple(a.copy() for a in args)


def assert_same(expected, actual, path: str = "result") -> None:
    """Same tree (tuples, lists, None), and leaves of the same shape that are allclose."""
    if isinstance(expected, _Raised) or isinstance(actual, _Raised):
        assert expected == actual, f"{path}: expected {expected!r}, got {actual!r}"
        return
    if expected is None or actual is None:
        assert expected is actual, f"{path}: expected {expected!r}, got {actual!r}"
        return
    if isinstance(expected, (tuple, list)):
        assert isinstance(actual, type(expected)) and len(actual) == len(expected), (
            f"{path}: expected {type(expected).__name__} of {len(expected)}, got {actual!r}")
        for i, (e, a) in enumerate(zip(expected, actual)):
            assert_same(e, a, f"{path}[{i}]")
        return
    e, a = np.asarray(expected), np.asarray(actual)
    assert e.shape == a.shape, f"{path}: shape {a.shape}, expected {e.shape}"
    np.testing.assert_allclose(a, e, rtol=1e-7, atol=1e-12, equal_nan=True, err_msg=path)
