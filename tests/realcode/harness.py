"""Run one corpus case on one backend and compare with eager, leaf by leaf.

``numpy``: the driver traced once by ``ag.function`` and called on every input (the
inputs share shapes and dtypes, so one graph serves them all), against the driver run
eagerly on the same NumPy arrays. ``jax``: ``jax.jit(ag.convert(driver))`` on
``jax.numpy`` arrays, in 64-bit mode so that both backends take the paths the inputs
were chosen for, against the driver run eagerly on the same ``jax.numpy`` arrays.
``numpy-xla``: as ``numpy``, with ``ag.function(jit_compile=True)`` (the same graph
compiled by XLA). ``torch``: ``torch.compile(ag.convert(driver), fullgraph=True,
backend="aot_eager")`` on ``torch.tensor`` copies of the inputs (compiled once, run on
every input), ``tf``: ``tf.function(ag.convert(driver), autograph=False)`` on
``tf.constant``s; both against the driver run eagerly on the NumPy arrays (the original),
and their array calls stay ``np.*`` (the converted code runs them on the framework's
tensors). A raise compiled into TensorFlow's graph fails as its InvalidArgumentError,
whose text holds ``<class name>: <message>``: compared as that exception.
"""

from __future__ import annotations

import builtins
import re
import warnings

import numpy as np

import autograph as ag

BACKENDS = ("numpy", "numpy-xla", "jax", "torch", "tf")


def run(case, backend: str) -> None:
    """Raise (AssertionError or the staging error) unless every input matches eager."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if backend in ("numpy", "numpy-xla"):
            _run_numpy(case, jit_compile=backend == "numpy-xla")
        elif backend == "jax":
            _run_jax(case)
        elif backend == "torch":
            _run_torch(case)
        else:
            _run_tf(case)


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


def _run_torch(case) -> None:
    import torch

    # dynamo keys what it learned (sizes that changed: dynamic from then on) by code
    # object, and every case's driver runs through ``_on_numpy``'s: start each case afresh
    torch._dynamo.reset()
    staged = torch.compile(ag.convert(_on_numpy(case.driver)), fullgraph=True,
                           backend="aot_eager")
    for args in case.inputs:
        tensors = tuple(torch.tensor(a) for a in _copy(args))
        _compare(lambda: case.driver(*_copy(args), xp=np),
                 lambda: _unwrapped(staged, tensors, torch))


def _on_numpy(driver):
    """``driver`` with ``xp=np`` bound inside the converted code: the compiled function's
    arguments are the tensors only (a module is no argument PyTorch can trace)."""
    def call(*args):
        return driver(*args, xp=np)
    call.__name__ = call.__qualname__ = driver.__name__
    return call


def _unwrapped(staged, tensors, torch):
    """The compiled call's outputs as NumPy; a user's exception PyTorch wrapped, unwrapped."""
    try:
        out = staged(*tensors)
    except Exception as error:  # noqa: BLE001 - dynamo wraps what the program raised
        while type(error).__module__.startswith("torch."):
            inner = getattr(error, "inner_exception", None) or error.__cause__
            if inner is None:
                break
            error = inner
        raise error from None
    return _to_numpy(out, lambda t: t.detach().numpy() if isinstance(t, torch.Tensor) else t)


def _run_tf(case) -> None:
    import tensorflow as tf

    staged = tf.function(ag.convert(_on_numpy(case.driver)), autograph=False)
    for args in case.inputs:
        tensors = tuple(tf.constant(a) for a in args)
        _compare(lambda: case.driver(*_copy(args), xp=np), lambda: _tf_call(staged, tensors, tf))


def _tf_call(staged, tensors, tf):
    try:
        out = staged(*tensors)
    except tf.errors.InvalidArgumentError as error:  # a raise the graph ran: Python's again
        found = re.search(r"assertion failed: \[(\w+): ?(.*?)\]\n", str(error), re.S)
        if found is None:
            raise
        kind = getattr(builtins, found.group(1), None) or type(found.group(1), (Exception,), {})
        raise kind(found.group(2).replace("\\'", "'")) from None
    return _to_numpy(out, lambda t: t.numpy() if hasattr(t, "numpy") else t)


def _to_numpy(tree, leaf):
    if isinstance(tree, (tuple, list)):
        return type(tree)(_to_numpy(t, leaf) for t in tree)
    return leaf(tree)


class _Raised:
    """An exception as an outcome: eager and staged must raise the same, with the same text."""

    def __init__(self, error: Exception) -> None:
        self.kind, self.text = type(error).__name__, str(error)  # (by name: TensorFlow's text)

    def __eq__(self, other) -> bool:
        return isinstance(other, _Raised) and (self.kind, self.text) == (other.kind, other.text)

    def __repr__(self) -> str:
        return f"{self.kind}({self.text!r})"


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
