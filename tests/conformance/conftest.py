"""The conformance suite's one fixture: ``backend``, parametrized over every staging
backend. A staged test is written once, from Python's and the frameworks' semantics,
and runs on each backend by what it asks of the fixture:

    def test_something(backend):
        backend.check(fn, np.int32(3), np.arange(4.0))   # staged == eager, leaf by leaf
        backend.check_raises(fn, ValueError, "message", np.int32(-1))  # same error, staged and eager
        text = backend.staging_error(fn, np.int32(1))   # the StagingError text, to pin
        backend.at(fn, "if x > 0:")   # file:line (`if x > 0:`), as messages locate a construct
        staged = backend.function(fn)   # staged once; call it on backend.split(args), often

Arguments that are NumPy arrays or NumPy scalars become the backend's arrays (and are
traced); anything else is a Python value held fixed for the trace. A case that needs
array constructors takes ``xp`` as a keyword (``backend.xp``: numpy or jax.numpy).

A new backend joins the suite by adding one entry to ``BACKENDS`` below. In CI every
backend's framework is installed; a missing framework is a test error, never a skip.
"""

from __future__ import annotations

import contextlib
import inspect
import io
import re
import sys

import numpy as np
import pytest

import autograph as ag


def _is_array_arg(value) -> bool:
    return isinstance(value, (np.ndarray, np.generic))


class Backend:
    """What a staged test asks of a backend. Subclasses say how to stage and convert."""

    name = "backend"
    xp = np
    # A Python number that depends on a staged value comes back as a 0-d array of
    # the same kind (bool, int, float) and value: a graph cannot return a Python
    # number it only knows at run time. (jax.jit returns every output as an array.)
    python_outputs_become_arrays = True

    def asarray(self, value):
        raise NotImplementedError

    def stage(self, fn, args, kwargs):
        """A callable that runs ``fn`` staged on ``args`` (the array args are traced)."""
        raise NotImplementedError

    def to_numpy(self, value):
        return np.asarray(value)

    def function(self, fn):
        """``fn`` staged once, called on this backend's arrays (all of them traced),
        traced again only for a new signature: the staged twin of ``fn``."""
        raise NotImplementedError

    def flush(self) -> None:
        """Wait for what staged calls print at run time (JAX prints asynchronously)."""

    # -- what tests call

    def split(self, args):
        return tuple(self.asarray(a) if _is_array_arg(a) else a for a in args)

    def eager(self, fn, *args, **kwargs):
        """``fn`` run as plain Python on this backend's concrete arrays."""
        return fn(*self.split(args), **kwargs)

    def staged(self, fn, *args, **kwargs):
        """``fn`` run staged (traced into this backend's graph) on the same arguments."""
        return self.stage(fn, self.split(args), kwargs)()

    def check(self, fn, *args, **kwargs):
        """Staged and eager agree: value, dtype, shape, container types, printed output."""
        eager_out, eager_printed = _capture(lambda: self.eager(fn, *args, **kwargs))
        staged_out, staged_printed = _capture(lambda: self.staged(fn, *args, **kwargs))
        self.assert_same(eager_out, staged_out)
        assert staged_printed == eager_printed
        return staged_out

    def check_raises(self, fn, exc_type, match, *args, **kwargs):
        """Eager and staged both raise ``exc_type``, with ``match`` (a regex) in the message."""
        with pytest.raises(exc_type, match=match):
            self.eager(fn, *args, **kwargs)
        with pytest.raises(exc_type, match=match):
            self.staged(fn, *args, **kwargs)

    def staging_error(self, fn, *args, **kwargs):
        """The StagingError text ``fn`` gives when staged (for pinned messages)."""
        with pytest.raises(ag.StagingError) as info:
            self.staged(fn, *args, **kwargs)
        return str(info.value)

    @staticmethod
    def at(fn, text: str) -> str:
        """``file:line (`text`)`` of the first line of ``fn`` that reads ``text``:
        where a pinned error message points."""
        lines, first = inspect.getsourcelines(fn)
        for offset, line in enumerate(lines):
            if line.strip() == text:
                return f"{inspect.getsourcefile(fn)}:{first + offset} (`{text}`)"
        raise AssertionError(f"{text!r} not in {fn.__name__}")

    def assert_same(self, expected, actual, path="result"):
        if expected is None or isinstance(expected, (str, bytes)):
            assert actual == expected, path
            return
        if isinstance(expected, (tuple, list)):
            assert type(actual) is type(expected), (path, type(actual), type(expected))
            assert len(actual) == len(expected), path
            for i, (e, a) in enumerate(zip(expected, actual)):
                self.assert_same(e, a, f"{path}[{i}]")
            return
        if isinstance(expected, dict):
            assert type(actual) is type(expected) and actual.keys() == expected.keys(), path
            for k in expected:
                self.assert_same(expected[k], actual[k], f"{path}[{k!r}]")
            return
        if type(expected) in (bool, int, float, complex):
            if self.python_outputs_become_arrays and _is_backend_array(actual):
                a = self.to_numpy(actual)
                kind = {bool: "b", int: "iu", float: "f", complex: "c"}[type(expected)]
                assert a.shape == () and a.dtype.kind in kind, (path, actual)
                assert a == expected or (a != a and expected != expected), (path, actual)
                return
            assert type(actual) is type(expected), (path, actual, expected)
            assert actual == expected or (actual != actual and expected != expected), path
            return
        e, a = self.to_numpy(expected), self.to_numpy(actual)
        assert a.shape == e.shape, (path, a.shape, e.shape)
        assert a.dtype == e.dtype, (path, a.dtype, e.dtype)
        np.testing.assert_allclose(a, e, rtol=1e-6, err_msg=path)


def _is_backend_array(value) -> bool:
    return hasattr(value, "shape") and hasattr(value, "dtype")


def _capture(run):
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        value = run()
    return value, out.getvalue()


class NumpyEngine(Backend):
    """The built-in NumPy graph engine: ``ag.function``."""

    name = "numpy"
    xp = np

    def asarray(self, value):
        return np.asarray(value) if isinstance(value, np.ndarray) else value

    def stage(self, fn, args, kwargs):
        return lambda: ag.function(fn)(*args, **kwargs)

    def function(self, fn):
        return ag.function(fn)


class Jax(Backend):
    """JAX: ``jax.jit(ag.convert(fn))``, Python arguments held static."""

    name = "jax"

    def __init__(self) -> None:
        import jax  # a missing framework is an error here, never a skip
        import jax.numpy as jnp

        self.jax, self.xp = jax, jnp

    def asarray(self, value):
        return self.xp.asarray(value)

    def stage(self, fn, args, kwargs):
        converted = ag.convert(fn)
        traced = [i for i, a in enumerate(args) if _is_backend_array(a)]

        def run(*arrays):
            full = list(args)
            for i, a in zip(traced, arrays):
                full[i] = a
            return converted(*full, **kwargs)

        return lambda: self.jax.jit(run)(*(args[i] for i in traced))

    def to_numpy(self, value):
        return np.asarray(value)

    def function(self, fn):
        return self.jax.jit(ag.convert(fn))

    def flush(self) -> None:
        self.jax.effects_barrier()


class Tensorflow(Backend):
    """TensorFlow: ``tf.function(ag.convert(fn), autograph=False)``, Python arguments
    held fixed. ``tf.print`` writes to the process's standard output (file descriptor
    1), so a staged call's run-time output is read from there and written to
    ``sys.stdout`` after it, where ``check`` compares it. A staged ``raise`` or
    ``assert`` fails at run time as TensorFlow's ``InvalidArgumentError`` whose text
    holds ``<class name>: <message>``; ``check_raises`` checks that."""

    name = "tensorflow"

    def __init__(self) -> None:
        import tensorflow as tf  # a missing framework is an error here, never a skip
        import tensorflow.experimental.numpy as tnp

        self.tf, self.xp = tf, tnp

    def asarray(self, value):
        return self.tf.constant(value)

    def stage(self, fn, args, kwargs):
        converted = ag.convert(fn)
        traced = [i for i, a in enumerate(args) if _is_backend_array(a)]

        def run(*arrays):
            full = list(args)
            for i, a in zip(traced, arrays):
                full[i] = a
            return converted(*full, **kwargs)

        staged = self.tf.function(run, autograph=False)
        return lambda: self._printing(staged, *(args[i] for i in traced))

    def function(self, fn):
        staged = self.tf.function(ag.convert(fn), autograph=False)
        return lambda *args, **kwargs: self._printing(staged, *args, **kwargs)

    def to_numpy(self, value):
        return value.numpy() if hasattr(value, "numpy") else np.asarray(value)

    @staticmethod
    def _printing(fn, *args, **kwargs):
        """``fn(*args)``, with what it writes to file descriptor 1 copied to sys.stdout."""
        import os
        import tempfile

        sys.stdout.flush()
        saved = os.dup(1)
        with tempfile.TemporaryFile() as out:
            os.dup2(out.fileno(), 1)
            try:
                return fn(*args, **kwargs)
            finally:
                sys.stdout.flush()
                os.dup2(saved, 1)
                os.close(saved)
                out.seek(0)
                sys.stdout.write(out.read().decode())

    def check_raises(self, fn, exc_type, match, *args, **kwargs):
        with pytest.raises(exc_type, match=match):
            self.eager(fn, *args, **kwargs)
        try:
            self.staged(fn, *args, **kwargs)
        except exc_type as error:  # raised while tracing
            assert re.search(match, str(error)), (match, str(error))
            return
        except self.tf.errors.InvalidArgumentError as error:  # raised by the graph
            found = re.search(r"assertion failed: \[(\w+): ?(.*?)\]\n", str(error), re.S)
            assert found and found.group(1) == exc_type.__name__, str(error)
            assert re.search(match, found.group(2)), (match, found.group(2))
            return
        raise AssertionError(f"staged call did not raise {exc_type.__name__}")


BACKENDS = {"numpy": NumpyEngine, "jax": Jax, "tensorflow": Tensorflow}

collect_ignore = ["test_match.py"] if sys.version_info < (3, 10) else []  # `match` is 3.10 syntax


@pytest.fixture(params=sorted(BACKENDS))
def backend(request) -> Backend:
    chosen = BACKENDS[request.param]()
    if request.param == "tensorflow":  # known gaps: strict xfails, each with its reason
        from tf_gaps import KNOWN_GAPS  # tests/conformance/tf_gaps.py

        gap = KNOWN_GAPS.get(request.node.nodeid.rpartition("conformance/")[2])
        if gap is not None:
            request.node.add_marker(pytest.mark.xfail(reason=gap, strict=True))
    return chosen
