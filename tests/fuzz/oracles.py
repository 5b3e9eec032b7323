"""Oracles of the differential tester: one program, run as the original and as what
autograph makes of it, on the same inputs; any difference the semantics forbid is a
finding.

Each oracle says how the arguments are made and what runs them:

- ``python``: ``ag.convert(f)`` against ``f`` on Python numbers (and the NumPy array
  ``v``, the list ``lst``): everything must be identical (the value's types too).
- ``concrete``: the same on NumPy 0-d arrays and scalars (``n``, ``x``): concrete
  arrays run as Python, so again identical.
- ``numpy``: ``ag.function(f)`` (the NumPy graph engine, ``n``/``x``/``v`` traced)
  against ``f`` run eagerly on the same arrays; one staged function per program, called
  on every input (a graph traced for one input must hold for the next).
- ``numpy-xla``: ``ag.function(f, jit_compile=True)``, the same way.
- ``jax``: ``jax.jit(ag.convert(f))`` on JAX arrays (``lst`` held static) against ``f``
  on the same JAX arrays, eagerly; where eager JAX cannot run the NumPy code (an item
  assignment into a JAX array), against ``f`` on NumPy arrays of JAX's dtypes (int32,
  float32), the NumPy code's meaning.
- ``torch``: ``torch.compile(ag.convert(f), fullgraph=True, backend="aot_eager")`` on
  tensors against ``f`` on NumPy arrays (PyTorch's eager tensors cannot run NumPy code).
- ``tf``: ``tf.function(ag.convert(f), autograph=False)`` on tensors against ``f`` on
  NumPy arrays, likewise; a run-time raise is TensorFlow's assertion, whose text names
  the exception (``InvalidArgumentError``: ``[ZeroDivisionError: ...]``).

An outcome is what a call returned or raised (type and message), what it printed and
what the arguments hold afterwards. A ``StagingError`` from a staged oracle is an honest
refusal (counted, not a finding); from ``python``/``concrete`` it is a finding. A staged
result may hold a 0-d array of the same kind where eager code returns a Python number
(a graph cannot return a Python number it computes at run time); everything else must
match: values (exactly on the NumPy engine, to float32 rounding under XLA), dtypes,
shapes, exception types and messages, printed lines, argument writes.
"""

from __future__ import annotations

import builtins
import contextlib
import copy
import io
import os
import sys
import tempfile
import re
import warnings

import numpy as np

import autograph as ag
from programs import load

ORACLES = ("python", "concrete", "numpy", "numpy-xla", "jax", "torch", "tf")
STAGED = ("numpy", "numpy-xla", "jax", "torch", "tf")

class Outcome:
    """What one call did: ``kind`` "return" or "raise", the value or the exception,
    the printed text, the arguments as they are after the call and the program
    module's state (``state``: what its ``_fuzz_state()`` gives, or None)."""

    def __init__(self, kind, value, printed, args, state=None):
        self.kind, self.value, self.printed, self.args = kind, value, printed, args
        self.state = state

    @property
    def refused(self) -> bool:
        """A StagingError, or the NumPy engine's "not supported on symbolic tensors"
        TypeError/AttributeError (``SymbolicValueError``: ``np.add(u, x, out=u)`` of a
        staged ``u``), which says so and what to do instead."""
        return self.kind == "raise" and (isinstance(self.value, ag.StagingError) or type(
            self.value).__name__ in ("SymbolicValueError", "SymbolicAttributeError"))

    def __repr__(self):
        if self.kind == "raise":
            return f"raise {type(self.value).__name__}({str(self.value)[:300]!r}) printed={self.printed!r}"
        return f"return {self.value!r} printed={self.printed!r} args={self.args!r} state={self.state!r}"


class Leaked:
    """A staged value (a tracer, a symbolic tensor) found where the program left it,
    in place of its snapshot."""

    def __init__(self, value):
        self.type = type(value).__name__

    def __repr__(self):
        return f"<leaked {self.type}>"

    def __eq__(self, other):
        return isinstance(other, Leaked) and other.type == self.type


def leaked(value, path="") -> str | None:
    """Where a snapshot holds a ``Leaked`` value (None: nowhere)."""
    if isinstance(value, Leaked):
        return path or "value"
    if isinstance(value, dict):
        value = {f"[{k!r}]": v for k, v in value.items()}.items()
    elif isinstance(value, (tuple, list)):
        value = ((f"[{i}]", v) for i, v in enumerate(value))
    else:
        return None
    for key, item in value:
        where = leaked(item, path + key)
        if where:
            return where
    return None


def run(call, args, flush=None, module=None) -> Outcome:
    """Call ``call(*args)``; ``module``: the program module's namespace, whose state
    (``_fuzz_reset``/``_fuzz_state``, programs.STATE_FEATURES) is reset before the call
    and recorded after it."""
    if module is not None and "_fuzz_reset" in module:
        module["_fuzz_reset"]()
    out = io.StringIO()
    with contextlib.redirect_stdout(out), warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        try:
            value = call(*args)
            kind = "return"
            if flush:
                flush()
        except Exception as error:  # noqa: BLE001 - the exception is the outcome
            kind, value = "raise", error
            if flush:
                with contextlib.suppress(Exception):
                    flush()
    state = _snapshot(module["_fuzz_state"]()) if module is not None and "_fuzz_state" in module else None
    return Outcome(kind, _snapshot(value) if kind == "return" else value, out.getvalue(),
                   _snapshot(args), state)


def _snapshot(value):
    """A copy of ``value`` that later writes into arrays or lists do not change."""
    if isinstance(value, tuple):
        return tuple(_snapshot(v) for v in value)
    if isinstance(value, list):
        return [_snapshot(v) for v in value]
    if isinstance(value, dict):
        return {k: _snapshot(v) for k, v in value.items()}
    if isinstance(value, np.ndarray):
        return value.copy()
    if isinstance(value, (bool, int, float, complex, str, np.generic)) or value is None:
        return value
    if hasattr(value, "shape") and hasattr(value, "dtype"):
        try:
            return np.asarray(value)  # a JAX array, an eager tensor
        except Exception:  # noqa: BLE001 - a tracer left behind
            return Leaked(value)
    if type(value).__module__.split(".")[0] in ("jax", "jaxlib", "torch", "tensorflow", "autograph"):
        return Leaked(value)  # a staged value without an array's attributes
    return value


# -- arguments per oracle

def arguments(oracle: str, raw, variant: int):
    """The arguments ``(n, x, v, lst)`` an oracle passes, from the Python ``raw`` ones;
    ``variant`` picks 0-d arrays (0) or NumPy scalars (1) for ``n`` and ``x``."""
    n, x, v, lst = raw
    if oracle == "python":
        return n, x, np.array(v), list(lst)
    if oracle == "jax":
        import jax.numpy as jnp

        return jnp.asarray(n), jnp.asarray(x), jnp.asarray(v), list(lst)
    if oracle == "torch":
        import torch

        return (torch.tensor(n), torch.tensor(x, dtype=torch.float64),
                torch.tensor(v, dtype=torch.float64), list(lst))
    if oracle == "tf":
        import tensorflow as tf

        return (tf.constant(n, tf.int64), tf.constant(x, tf.float64),
                tf.constant(v, tf.float64), list(lst))
    if oracle == "jax-numpy":  # NumPy arrays of JAX's default dtypes
        return np.int32(n), np.float32(x), np.array(v, np.float32), list(lst)
    if variant == 0:
        return np.array(n), np.array(x), np.array(v), list(lst)
    return np.int64(n), np.float64(x), np.array(v), list(lst)


# -- comparing outcomes

def difference(oracle: str, expected: Outcome, actual: Outcome):
    """Why ``actual`` is not what ``expected`` allows (None when it is)."""
    exact = oracle in ("python", "concrete")
    for what, value in (("args", actual.args), ("state", actual.state)):
        where = leaked(value)
        if where:  # refused or not: nothing staged may outlive the trace
            return f"leaked: a staged value left in {what}{where}: {value!r}"
    if actual.refused and not exact:
        return None
    if expected.kind != actual.kind:
        return f"kind: eager {expected!r}, got {actual!r}"
    if expected.kind == "raise":
        e, a = expected.value, _user_error(actual.value)
        if type(e) is not type(a):
            return f"exception type: eager {type(e).__name__}({e}), got {type(a).__name__}({a})"
        if str(e) != str(a):
            return f"exception message: eager {str(e)!r}, got {str(a)!r}"
    else:
        why = _leaf_difference(oracle, expected.value, actual.value, "result")
        if why:
            return why
        why = _leaf_difference(oracle, expected.args, actual.args, "args", python_args=True)
        if why:
            return why
    why = _leaf_difference(oracle, expected.state, actual.state, "state", python_args=True)
    if why:
        return why
    if expected.printed != actual.printed and not (
            oracle == "tf" and _tf_shown(expected.printed) == _tf_shown(actual.printed)):
        if expected.kind == "raise" and not exact and actual.printed == "":
            # a known bug (issue 9, tests/programs.py KNOWN_BUGS "python_print"): a trace
            # that raises on Python values never runs its graph, so the ag.print calls
            # before the raise print nothing
            return None
        return f"printed: eager {expected.printed!r}, got {actual.printed!r}"
    if expected.kind == "raise":
        why = _leaf_difference(oracle, expected.args, actual.args, "args", python_args=True)
        if why and exact:
            return why
    return None


def _tf_shown(text: str) -> str:
    """Printed text as ``tf.print`` shows numbers (documented, docs/backends.rst): a float
    with an integral value without its ``.0``."""
    return re.sub(r"(\d)\.0\b", r"\1", text)


def _user_error(error):
    """A staged ``assert`` that fails under jax.jit raises from the computation: JAX's
    ``JaxRuntimeError`` carrying the ``AssertionError`` (documented); its text as the
    AssertionError it carries. TensorFlow's run-time raise: an ``InvalidArgumentError``
    whose assertion names the exception, as the exception it names."""
    if type(error).__name__ == "InvalidArgumentError":
        found = re.search(r"assertion failed: \[(\w+): ?(.*?)\]\n", str(error), re.S)
        kind = getattr(builtins, found.group(1), None) if found else None
        if isinstance(kind, type) and issubclass(kind, Exception):
            return kind(found.group(2).replace("\\'", "'"))
    if type(error).__name__ == "JaxRuntimeError":
        found = re.search(r"\nAssertionError: ?(.*)$", str(error).rstrip(), re.S)
        if found:
            return AssertionError(found.group(1)) if found.group(1) else AssertionError()
    return error


def _leaf_difference(oracle, e, a, path, python_args=False):
    exact = oracle in ("python", "concrete")
    if isinstance(e, dict):
        if type(a) is not dict or list(e) != list(a):
            return f"{path}: eager {e!r}, got {a!r}"
        for key in e:
            why = _leaf_difference(oracle, e[key], a[key], f"{path}[{key!r}]", python_args)
            if why:
                return why
        return None
    if isinstance(e, (tuple, list)):
        if type(e) is not type(a) or len(e) != len(a):
            return f"{path}: eager {e!r}, got {a!r}"
        for i, (ei, ai) in enumerate(zip(e, a)):
            why = _leaf_difference(oracle, ei, ai, f"{path}[{i}]", python_args)
            if why:
                return why
        return None
    if e is None or isinstance(e, str):
        return None if a == e else f"{path}: eager {e!r}, got {a!r}"
    if exact:
        if type(e) is not type(a):
            return f"{path}: eager {type(e).__name__} {e!r}, got {type(a).__name__} {a!r}"
        ea, aa = np.asarray(e), np.asarray(a)
        if ea.dtype != aa.dtype or ea.shape != aa.shape or not np.array_equal(ea, aa, equal_nan=True):
            return f"{path}: eager {e!r}, got {a!r}"
        return None
    ea, aa = np.asarray(e), np.asarray(a)
    if oracle == "jax" and hasattr(e, "dtype"):  # 64-bit NumPy values are JAX's 32-bit ones
        import jax                                # (x64 off, as by default)

        ea = ea.astype(jax.dtypes.canonicalize_dtype(ea.dtype))
        aa = aa.astype(jax.dtypes.canonicalize_dtype(aa.dtype))
    if type(e) in (bool, int, float):
        kind = {bool: "b", int: "iu", float: "f"}[type(e)]
        if aa.shape != () or aa.dtype.kind not in kind:
            return f"{path}: eager {type(e).__name__} {e!r}, got {a!r}"
    elif python_args and not hasattr(e, "dtype"):
        pass
    elif ea.dtype != aa.dtype or ea.shape != aa.shape:
        return f"{path}: eager {e!r} ({ea.dtype}{list(ea.shape)}), got {a!r} ({aa.dtype}{list(aa.shape)})"
    if ea.shape != aa.shape:
        return f"{path}: eager {e!r}, got {a!r}"
    if oracle == "numpy":
        same = np.array_equal(ea, aa, equal_nan=True)
    else:
        same = ea.dtype.kind not in "fc" and np.array_equal(ea, aa) or (
            ea.dtype.kind in "fc" and np.allclose(ea, aa, rtol=1e-5, atol=1e-6, equal_nan=True))
    return None if same else f"{path}: eager {e!r}, got {a!r}"


# -- one program through the oracles

class Report:
    """Counts per oracle (runs, refusals, findings) and the findings themselves."""

    def __init__(self):
        self.runs = dict.fromkeys(ORACLES, 0)
        self.refusals = dict.fromkeys(ORACLES, 0)
        self.findings = []  # (oracle, seed, input index, why, source)

    def summary(self) -> str:
        rows = [f"{o:10} runs {self.runs[o]:5}  refused {self.refusals[o]:5}  findings "
                f"{sum(1 for f in self.findings if f[0] == o)}" for o in ORACLES if self.runs[o]]
        return "\n".join(rows)


def check_program(source: str, raw_inputs, oracles=ORACLES, report: Report | None = None,
                  seed=0, zero_d=False) -> list:
    """Run ``source``'s ``f`` through ``oracles`` on ``raw_inputs``; the findings, each
    ``(oracle, seed, input index, why, source)``; ``zero_d``: staged oracles pass 0-d
    arrays for ``n`` and ``x`` in even seeds. A staged oracle stages one function
    per program and calls it on every input, and stops at its first refusal."""
    report = report if report is not None else Report()
    found = []
    for oracle in oracles:
        # staged: 0-d arrays (even seeds, with ``zero_d``: see programs.FUZZ_KNOWN_BUGS) or
        # NumPy scalars for ``n`` and ``x``
        variants = (0, 1) if oracle == "concrete" else ((seed % 2,) if zero_d else (1,))
        for variant in variants:
            f = load(None, source)
            actual, flush = _actual(oracle, f)
            for i, raw in enumerate(raw_inputs):
                args = arguments(oracle, raw, variant)
                # the programs are NumPy code: PyTorch's and TensorFlow's eager tensors
                # cannot run it (np.sum(t, axis=None)), so their oracle is the code on
                # NumPy arrays
                eager_args = arguments("concrete", raw, 1) if oracle in ("torch", "tf") else args
                expected = run(f, copy.deepcopy(eager_args), module=f.__globals__)
                fell_back = oracle == "jax" and _immutable(expected)  # (it writes an item)
                if fell_back:
                    expected = run(f, copy.deepcopy(arguments("jax-numpy", raw, 1)), module=f.__globals__)
                outcome = run(actual, copy.deepcopy(args), flush, f.__globals__)
                if oracle in ("jax", "torch", "tf"):  # the framework's list is its own (static)
                    outcome.args = outcome.args[:3] + expected.args[3:]
                if oracle == "tf" or fell_back:  # tensors that take no writes: no changes
                    outcome.args = expected.args
                if oracle in ("numpy", "numpy-xla") and i and not leaked(outcome.state):
                    # a later call runs the graph: Python side effects (a global counted,
                    # a class attribute added to) ran once, at trace time
                    # (docs/captures.rst); the other oracles trace every call
                    outcome.state = expected.state
                report.runs[oracle] += 1
                why = difference(oracle, expected, outcome)
                if why:
                    found.append((oracle, seed, i, why, source))
                if outcome.refused:
                    report.refusals[oracle] += 1
                    break
    report.findings += found
    return found


def _immutable(outcome) -> bool:
    """Eager JAX refused an item assignment into a JAX array."""
    return outcome.kind == "raise" and isinstance(outcome.value, TypeError) and \
        "JAX arrays are immutable" in str(outcome.value)


def _actual(oracle, f):
    """What an oracle runs in place of ``f``, and what waits for its printing."""
    if oracle in ("python", "concrete"):
        return ag.convert(f), None
    if oracle == "numpy":
        return ag.function(f), None
    if oracle == "numpy-xla":
        return ag.function(f, jit_compile=True), None
    if oracle == "torch":
        return _torch_compiled(f), None
    if oracle == "tf":
        return _tf_function(f), None
    import jax

    converted = ag.convert(f)

    def call(n, x, v, lst):  # ``lst`` held static (a copy): one jit per list
        held = list(lst)
        return jax.jit(lambda n, x, v: converted(n, x, v, held))(n, x, v)

    return call, jax.effects_barrier


def _torch_compiled(f):
    """``torch.compile(ag.convert(f), fullgraph=True, backend="aot_eager")`` with ``lst``
    held static (a copy); each call compiles a fresh code object (dynamo caches per code
    object), and an error PyTorch wraps while compiling is the user's it wraps."""
    import torch

    converted = ag.convert(f)

    def call(n, x, v, lst):
        held = list(lst)

        def run(n, x, v):
            return converted(n, x, v, held)

        fresh = type(run)(run.__code__.replace(), run.__globals__, run.__name__,
                          run.__defaults__, run.__closure__)
        try:
            return torch.compile(fresh, fullgraph=True, backend="aot_eager")(n, x, v)
        except Exception as error:  # noqa: BLE001 - unwrapped below
            while type(error).__module__.startswith("torch."):
                inner = getattr(error, "inner_exception", None) or error.__cause__ or error.__context__
                if inner is None:
                    break
                error = inner
            raise error from None

    return call


def _tf_function(f):
    """``tf.function(ag.convert(f), autograph=False)`` with ``lst`` held static (a copy),
    a fresh function per call; what TensorFlow prints to file descriptor 1 (``tf.print``)
    is copied to ``sys.stdout``."""
    import tensorflow as tf

    converted = ag.convert(f)

    def call(n, x, v, lst):
        held = list(lst)
        staged = tf.function(lambda n, x, v: converted(n, x, v, held), autograph=False)
        sys.stdout.flush()
        saved = os.dup(1)
        with tempfile.TemporaryFile() as out:
            os.dup2(out.fileno(), 1)
            try:
                return staged(n, x, v)
            finally:
                os.dup2(saved, 1)
                os.close(saved)
                out.seek(0)
                sys.stdout.write(out.read().decode())

    return call
