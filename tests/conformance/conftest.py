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
array constructors takes ``xp`` as a keyword (``backend.xp``: numpy, jax.numpy, torch,
tf.experimental.numpy), and is written with what every framework's arrays take
(``xp.sum(x)``, not ``x.sum()``) where NumPy's API is not its question.

A case written as NumPy code (divmod of NumPy scalars, NumPy arrays made in the function
and written, a NumPy array's method) checks through ``backend.numpy_code()``: where the
backend's eager tensors cannot run NumPy code (``eager_runs_numpy``: PyTorch,
TensorFlow) its oracle is the same code on NumPy arrays, whose semantics converted code
promises for NumPy code on traced tensors. A case about NumPy's ndarray API itself
(``.flat``, ndarray methods on staged arrays) is marked ``@pytest.mark.ndarray_api`` and
collected only where the backend's arrays take that API (``ndarray_api``).

A new backend joins the suite by adding one entry to ``BACKENDS`` below. In CI every
backend's framework is installed; a missing framework is a test error, never a skip.
"""

from __future__ import annotations

import contextlib
import copy
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
    # A list a staged loop appends to a run-time number of items: True where it comes back
    # padded to set_loop_options(maximum_iterations=N) (static shapes: JAX), False where
    # np.stack(lst) has a dimension known at run time (the NumPy engine).
    pads_lists = True
    # A value None on some staged paths (or a str a staged condition chose) returned from
    # the staged function comes back as eager's: a boundary of ours rebuilds it after the
    # run (``ag.function``). jax.jit, torch.compile/export and tf.function return the
    # framework's arrays on every run, with no boundary of ours: a StagingError there.
    returns_none_at_run_time = False
    # Likewise a str or bytes a staged condition chose (carried as an index into the texts).
    returns_strings_at_run_time = False
    # Does the staged program raise Python's exception when it runs (a TypeError where a
    # value None on some paths is used, an UnboundLocalError), or is it a StagingError?
    raises_at_run_time = False
    # Does a raise's message made at run time show an array as NumPy's str() does? Under
    # tf.function TensorFlow's string ops make it, which lay arrays out otherwise ("[0 1]"
    # for NumPy's "[0. 1.]"): a StagingError there (docs/backends.rst).
    shows_arrays_in_messages = True
    # How StagingError texts name the framework's compiler and its compiled code.
    compiler, framework = "", ""
    # ag.print in a staged program prints at every execution; False where the backend
    # refuses it while it traces with a StagingError naming the line (PyTorch 2.13: its
    # print operator prints nothing inside cond/while_loop; docs/backends.rst).
    prints = True
    # Eager code that uses NumPy's array API on this backend's arrays (.astype, .copy, .flat,
    # .searchsorted; divmod and round of a scalar; a NumPy array op one of them) runs as
    # NumPy runs it: NumPy's arrays do, JAX's arrays have NumPy's methods. PyTorch's and
    # TensorFlow's eager tensors do not (False): there a case written as NumPy code checks
    # the staged call against the same code run on NumPy arrays (``numpy_code``), since
    # NumPy code keeps NumPy's meaning in converted code (NumPy calls on traced tensors run
    # as torch._numpy's or tf.experimental.numpy's functions, divmod as NumPy's divmod;
    # where those differ from NumPy, that is a gap of the backend, in its gaps file).
    eager_runs_numpy = True
    # Do this backend's staged arrays take NumPy's ndarray API itself (its methods, .flat,
    # .T)? The NumPy engine's and JAX's do. PyTorch's and TensorFlow's tensors have their
    # own methods, and autograph promises NumPy's semantics for NumPy's functions on them
    # (np.f(t)), not ndarray's methods: a case about the ndarray API (marked
    # ``@pytest.mark.ndarray_api``) means nothing there and is not collected.
    ndarray_api = True

    @property
    def engine(self) -> str:
        """The staging engine: backends that share one's semantics share its name here
        (``numpy-xla`` compiles the ``numpy`` engine's graphs)."""
        return self.name

    def unbounded_list(self, fn, append: str, loop: str):
        """The refusal of a list a staged loop appends to an unbounded number of times,
        where the backend collects lists in buffers of a bound known when the loop starts
        (None where it pads them, or collects them with a run-time length)."""
        return None

    def returned_list(self, fn, name: str, loop: str):
        """The refusal of the list ``name`` a staged loop (at ``loop``) appended to a
        run-time number of items, returned from the staged function, where the framework's
        function returns only arrays (None where the list comes back)."""
        return None

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

    def numpy_code(self) -> Backend:
        """This backend, for a case written as NumPy code: its eager oracle is ``fn`` run on
        NumPy arrays (copies: NumPy code writes into them) where this backend's eager arrays
        cannot run NumPy code (``eager_runs_numpy``); the staged call is unchanged."""
        if self.eager_runs_numpy:
            return self
        twin = copy.copy(self)
        twin.eager = lambda fn, *args, **kwargs: fn(
            *[a.copy() if isinstance(a, np.ndarray) else a for a in args], **kwargs)
        return twin

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


def _over_arrays(fn, args, kwargs):
    """``ag.convert(fn)`` as a function of the backend arrays among ``args`` only (the
    other arguments held as given, static for the framework), and those arrays."""
    converted = ag.convert(fn)
    traced = [i for i, a in enumerate(args) if _is_backend_array(a)]

    def run(*arrays):
        full = list(args)
        for i, a in zip(traced, arrays):
            full[i] = a
        return converted(*full, **kwargs)

    return run, [args[i] for i in traced]


def _capture(run):
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        value = run()
    return value, out.getvalue()


class NumpyEngine(Backend):
    """The built-in NumPy graph engine: ``ag.function``."""

    name = "numpy"
    xp = np
    returns_none_at_run_time = returns_strings_at_run_time = raises_at_run_time = True
    pads_lists = False

    def asarray(self, value):
        return np.asarray(value) if isinstance(value, np.ndarray) else value

    def stage(self, fn, args, kwargs):
        return lambda: ag.function(fn)(*args, **kwargs)

    def function(self, fn):
        return ag.function(fn)


class NumpyXla(NumpyEngine):
    """The NumPy engine's graphs compiled by XLA: ``ag.function(fn, jit_compile=True)``.
    Same boundary and semantics as ``numpy``: tests that ask ``backend.engine == "numpy"``
    hold for both."""

    name = "numpy-xla"
    engine = "numpy"

    def __init__(self) -> None:
        import jax  # noqa: F401  (a missing framework is an error here, never a skip)

    def stage(self, fn, args, kwargs):
        return lambda: ag.function(fn, jit_compile=True)(*args, **kwargs)

    def function(self, fn):
        return ag.function(fn, jit_compile=True)

    def unbounded_list(self, fn, append: str, loop: str) -> str:
        """The refusal of a list a staged loop appends to an unbounded number of times."""
        return (f"autograph.function(jit_compile=True): the list appended to at "
                f"{self.at(fn, append)} grows in the staged {loop.split()[0]} loop at "
                f"{self.at(fn, loop)}, which runs a number of times known only at run time, "
                f"and XLA compiles for fixed shapes. Write ag.set_loop_options("
                f"maximum_iterations=N) as the first statement of the loop (the list then "
                f"holds at most N items per append), or call it without jit_compile=True "
                f"(its NumPy graph runs it).")


class Jax(Backend):
    """JAX: ``jax.jit(ag.convert(fn))``, Python arguments held static."""

    name = "jax"
    compiler, framework = "jax.jit", "JAX"

    def __init__(self) -> None:
        import jax  # a missing framework is an error here, never a skip
        import jax.numpy as jnp

        self.jax, self.xp = jax, jnp

    def asarray(self, value):
        return self.xp.asarray(value)

    def stage(self, fn, args, kwargs):
        run, arrays = _over_arrays(fn, args, kwargs)
        return lambda: self.jax.jit(run)(*arrays)

    def to_numpy(self, value):
        return np.asarray(value)

    def function(self, fn):
        return self.jax.jit(ag.convert(fn))

    def flush(self) -> None:
        self.jax.effects_barrier()


class Torch(Backend):
    """PyTorch, ``ag.convert(fn)`` called with the tensors traced, Python arguments fixed.

    ``mode`` says how it is staged: "traced" (the whole suite) runs it under ``make_fx``
    in a compile session, the tracer that AOTAutograd (``torch.compile``) and non-strict
    ``torch.export`` run a converted function under, and runs the graph; "compiled" is
    ``torch.compile(fullgraph=True, backend="aot_eager")``, "exported" and
    "exported-strict" are ``torch.export.export`` run through ``ep.module()`` (tests/torch
    run representative cases of this suite in those modes: each costs seconds a case).
    An error raised while PyTorch compiles reaches the test as the user's exception,
    unwrapped from PyTorch's."""

    name = "torch"
    mode = "traced"
    compiler, framework = "torch.compile", "PyTorch"
    pads_lists = False  # a list of a run-time length is cut to it (data-dependent sizes)
    prints = False
    eager_runs_numpy = False
    ndarray_api = False

    def __init__(self) -> None:
        import torch  # a missing framework is an error here, never a skip

        self.torch = self.xp = torch

    def unbounded_list(self, fn, append: str, loop: str) -> str:
        name = append.split(".")[0]
        return (f"{loop.split()[0]} loop at {self.at(fn, loop)}: the loop appends to '{name}', "
                f"and how many times it runs is known only while it runs; torch carries what a loop "
                f"collects in a buffer of a size known when the loop starts. Write "
                f"ag.set_loop_options(maximum_iterations=N) as the first statement of the "
                f"loop (it then stops after N iterations): '{name}' then holds at most N items "
                f"per append.")

    def asarray(self, value):  # a copy: eager PyTorch writes into its tensors in place
        return self.torch.tensor(np.asarray(value))

    def to_numpy(self, value):
        if isinstance(value, self.torch.Tensor):
            return value.detach().numpy()
        return np.asarray(value)

    def stage(self, fn, args, kwargs):
        converted = ag.convert(fn)
        traced = [i for i, a in enumerate(args) if isinstance(a, self.torch.Tensor)]

        def call(*arrays):
            full = list(args)
            for i, a in zip(traced, arrays):
                full[i] = a
            return converted(*full, **kwargs)

        tensors = [args[i] for i in traced]
        if self.mode == "traced":
            staged = self._staged(call)
        else:  # a test's later inputs run the program the first one made: every branch
            key = (self.mode, fn, repr([a for i, a in enumerate(args) if i not in traced]),
                   repr(kwargs), tuple((tuple(t.shape), t.dtype) for t in tensors))
            staged = _TORCH_PROGRAMS.get(key)
            if staged is None:
                staged = _TORCH_PROGRAMS[key] = self._staged(call)
        return lambda: staged(*tensors)

    def function(self, fn):
        converted = ag.convert(fn)
        return self._staged(lambda *args: converted(*args))

    def check_in_default_float(self, fn, *args):
        """NumPy code whose integers meet a Python float (``r / scale``), staged on the
        tensors that stand for its NumPy integers: PyTorch's operator, whose result has
        PyTorch's default float dtype (float32) where NumPy's integer scalars give float64,
        as eager PyTorch computes it (which cannot run the code: it has no ``divmod`` of
        tensors). The NumPy oracle's values, in float32."""
        def in_float32(value):
            if isinstance(value, (list, tuple)):
                return type(value)(in_float32(v) for v in value)
            if isinstance(value, (np.floating, np.ndarray)) and value.dtype == np.float64:
                return value.astype(np.float32)
            return value

        expected = fn(*[a.copy() if isinstance(a, np.ndarray) else a for a in args])
        self.assert_same(in_float32(expected), self.staged(fn, *args))

    def _staged(self, call):
        torch = self.torch
        if self.mode == "traced":
            from torch.fx.experimental.proxy_tensor import make_fx

            from torch.utils import _pytree

            def run(*tensors):  # outputs flattened and rebuilt, as torch.export does
                spec = []

                def flat(*tensors):
                    leaves, tree = _pytree.tree_flatten(call(*tensors))
                    spec.append(tree)
                    return leaves

                with torch.compiler._compile_session_context():
                    graph = make_fx(flat, tracing_mode="fake")(*tensors)
                return _pytree.tree_unflatten(graph(*tensors), spec[0])
            return run
        if self.mode == "compiled":  # on its own code object: dynamo caches per code object
            fresh = type(call)(call.__code__.replace(), call.__globals__, call.__name__,
                               call.__defaults__, call.__closure__)
            staged = torch.compile(fresh, fullgraph=True, backend="aot_eager")
        else:
            class Program(torch.nn.Module):
                def forward(self, *tensors):
                    return call(*tensors)

            strict = self.mode == "exported-strict"

            program = []

            def staged(*tensors):
                if not program:
                    program.append(torch.export.export(Program(), tensors, strict=strict).module())
                return program[0](*tensors)

        def run(*tensors):
            try:
                return staged(*tensors)
            except Exception as error:
                raise _user_error(error) from None
        return run


# One compiled or exported program per mode, function and signature, for the session:
# the cases of a parametrized test (one input each) run the program the first one made.
_TORCH_PROGRAMS: dict = {}


class TorchCompiled(Torch):
    """``torch.compile(fullgraph=True, backend="aot_eager")`` of the converted function,
    compiled once per function and signature (``TORCH_MODE_CASES``)."""

    mode = "compiled"


class TorchExported(Torch):
    """Non-strict ``torch.export.export`` of the converted function, exported once per
    function and signature and run on each input the cases give (``TORCH_MODE_CASES``)."""

    mode = "exported"


class TorchExportedStrict(Torch):
    """Strict ``torch.export.export`` (dynamo reads the converted code)."""

    mode = "exported-strict"


class TorchExplained(Torch):
    """The issue's acceptance for code whose conditions are Python values: the case's
    function, its NumPy scalars given as Python numbers (its conditions then Python values;
    its arrays stay tensors), converted and read by ``torch._dynamo.explain`` between two
    tensor operations of the caller's: one graph, no break; or, where the converted
    function breaks the graph, the original (unconverted) function read the same way
    breaks it at least as often (or fails there): dynamo's own limit, no worse converted
    (``_Explained.accept``). Explained once per function and argument types (dynamo costs ~1 s
    a function); the value is the converted call's, run eagerly on the same arguments,
    against the original's. A construct PyTorch cannot stage is a graph break whose
    reason is the ``StagingError`` (``fullgraph=False``: the call then runs eagerly),
    raised here as the traced mode raises it."""

    mode = "explained"

    def split(self, args):
        return tuple(a.item() if _is_array_arg(a) and np.ndim(a) == 0 else
                     self.asarray(a) if _is_array_arg(a) else a for a in args)

    def stage(self, fn, args, kwargs):
        converted = ag.convert(fn)
        explained = _explained(fn, converted, args, kwargs)
        if explained.refusals:  # staged, it is refused: what the case pins
            raise ag.StagingError(explained.refusals[0])
        explained.accept(fn, args, kwargs)
        return lambda: converted(*args, **kwargs)

    def check_raises(self, fn, exc_type, match, *args, **kwargs):
        """A function that raises: so it does under ``torch.compile(fullgraph=True)``
        (its raise ends the trace: there is no graph for explain to count)."""
        import torch

        with pytest.raises(exc_type, match=match):
            self.eager(fn, *args, **kwargs)
        converted = ag.convert(fn)
        compiled = torch.compile(lambda *a, **k: converted(*a, **k), fullgraph=True,
                                 backend="eager")
        with pytest.raises(exc_type, match=match):
            compiled(*self.split(args), **kwargs)


class _Explained:
    """What ``torch._dynamo.explain`` said of a converted function: its graphs, the
    reasons of its breaks and the ``StagingError`` texts among them; or the exception
    it raised (``error``)."""

    _REFUSED = "autograph: a construct PyTorch cannot stage\n  Explanation: "

    def __init__(self, explained=None, error=None) -> None:
        self.error, self.accepted = error, False
        self.graphs = explained.graph_count if explained is not None else 0
        if explained is None:  # the breaks before the error: kept by dynamo until a reset
            from torch._dynamo.utils import graph_break_reasons as reasons
        else:
            reasons = explained.break_reasons
        self.breaks = [str(r.reason) for r in reasons]
        self.refusals = [self._text(r) for r in self.breaks if r.startswith(self._REFUSED)]

    @classmethod
    def _text(cls, reason: str) -> str:
        """The StagingError's text: dynamo's explanation (lines indented), up to its
        developer context."""
        text = reason[len(cls._REFUSED):].split("\n\n  Developer debug context:")[0]
        return text.rstrip("\n").replace("\n    ", "\n")

    def accept(self, fn, args, kwargs) -> None:
        """The acceptance: one graph and no break; or the original ``fn`` read the same
        way (only then: another second) fails (an exception, or no graph: dynamo gave up
        on the caller), the converted one failing no other way, or gives at least as
        many graphs and breaks."""
        if self.accepted or (self.error is None and (self.graphs, self.breaks) == (1, [])):
            return
        original = _explain_original(fn, args, kwargs)
        if self.error is not None:
            if not isinstance(original.error, type(self.error)):
                raise self.error
        elif original.error is None and original.graphs > 0:
            assert 0 < self.graphs <= original.graphs and \
                len(self.breaks) <= len(original.breaks), (
                    (self.graphs, self.breaks), (original.graphs, original.breaks))
        self.accepted = True


_EXPLAINED: dict = {}


def _explained(fn, converted, args, kwargs) -> _Explained:
    """``converted`` explained, once per function and argument types, on copies of the
    arguments (explain runs it: a write into an argument would reach the call whose
    value the case compares)."""
    key = (fn, tuple(type(a) for a in args), tuple(sorted(kwargs)))
    if key not in _EXPLAINED:
        try:
            _EXPLAINED[key] = _Explained(_explain(converted, *_copies(args, kwargs)))
        except Exception as error:  # noqa: BLE001 - raised where it is accepted (or not)
            _EXPLAINED[key] = _Explained(error=error)
    return _EXPLAINED[key]


def _copies(args, kwargs):
    """``(args, kwargs)`` copied (an alias among them stays one), or themselves where
    an argument does not copy."""
    try:
        return copy.deepcopy((args, kwargs))
    except Exception:  # noqa: BLE001 - an argument that does not copy: the arguments
        return args, kwargs


def _explain_original(fn, args, kwargs) -> _Explained:
    """``_Explained`` of the unconverted ``fn`` on copies of the arguments (it may write
    into them), what it prints dropped."""
    args, kwargs = _copies(args, kwargs)
    try:
        with contextlib.redirect_stdout(io.StringIO()):
            return _Explained(_explain(fn, args, kwargs))
    except Exception as error:  # noqa: BLE001 - the original fails under dynamo
        return _Explained(error=error)


def _explain(converted, args, kwargs):
    """``torch._dynamo.explain`` of ``converted(*args, **kwargs)`` called between two
    tensor operations of the caller's (a graph break inside it then splits the caller's
    graph in two, whatever ``converted`` computes)."""
    import torch

    def caller(t, *args, **kwargs):
        t = t + 1
        out = converted(*args, **kwargs)
        return t * 2, out

    return torch._dynamo.explain(caller)(torch.ones(2), *args, **kwargs)


def _user_error(error: BaseException) -> BaseException:
    """The user's exception inside the ones PyTorch wraps it in while compiling."""
    while type(error).__module__.startswith("torch."):
        # dynamo reports an error of a non-strict region (the converted function) as
        # its own "Unsupported output type", raised while handling the user's
        inner = getattr(error, "inner_exception", None) or error.__cause__ or error.__context__
        if inner is None:
            break
        error = inner
    return error


class Tensorflow(Backend):
    """TensorFlow: ``tf.function(ag.convert(fn), autograph=False)``, Python arguments
    held fixed. ``tf.print`` writes to the process's standard output (file descriptor
    1), so a staged call's run-time output is read from there and written to
    ``sys.stdout`` after it, where ``check`` compares it. A staged ``raise`` or
    ``assert`` fails at run time as TensorFlow's ``InvalidArgumentError`` whose text
    holds ``<class name>: <message>``; ``check_raises`` checks that."""

    name = "tensorflow"
    compiler, framework = "tf.function", "TensorFlow"
    raises_at_run_time = True  # an assertion: InvalidArgumentError (``check_raises``)
    shows_arrays_in_messages = False
    pads_lists = False  # np.stack(lst) of a run-time count has a run-time first dimension
    eager_runs_numpy = False
    ndarray_api = False

    def __init__(self) -> None:
        import tensorflow as tf  # a missing framework is an error here, never a skip
        import tensorflow.experimental.numpy as tnp

        self.tf, self.xp = tf, tnp

    def asarray(self, value):
        return self.tf.constant(value)

    def returned_list(self, fn, name: str, loop: str) -> str:
        # a tf.function's outputs are tensors in a structure fixed when it traces: a list
        # whose length the run decides has none (stacking it would turn eager's list into
        # a tensor, whose == and + are elementwise): a documented refusal (docs/backends.rst)
        return (f"'{name}', a list the staged loop at {self.at(fn, loop)} appended to a number "
                f"of items known only at run time, is returned from the tf.function, which "
                f"returns tensors, not a list of a run-time length. Return np.stack(lst) (its "
                f"items as one tensor) instead.")

    def stage(self, fn, args, kwargs):
        run, arrays = _over_arrays(fn, args, kwargs)
        staged = self.tf.function(run, autograph=False)
        return lambda: self._printing(staged, *arrays)

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
            text = found.group(2).replace("\\'", "'")  # TensorFlow shows ' as \'
            assert re.search(match, text), (match, text)
            return
        raise AssertionError(f"staged call did not raise {exc_type.__name__}")


BACKENDS = {"numpy": NumpyEngine, "numpy-xla": NumpyXla, "jax": Jax, "torch": Torch,
            "torch-compile": TorchCompiled, "torch-export": TorchExported,
            "torch-export-strict": TorchExportedStrict, "torch-explain": TorchExplained,
            "tensorflow": Tensorflow}

# The torch backend runs the whole suite but these files, and what it cannot do is an
# expected failure (strict: a case that starts passing fails the suite), with the reason.
# Its other modes (compile, export) cost seconds a program: they run a few cases, each
# compiled or exported program run on every input the cases give (every branch).
TORCH_SKIP_FILES = {
    "test_random_programs.py": "65 random programs traced at ~1 s each would double the "
                               "torch share of the suite; tests/torch runs PyTorch's modes",
}
_CONSTRUCTS = ("test_constructs.py::test_conditionals[sign-", "test_constructs.py::test_and_or_not[",
               "test_constructs.py::test_while_loops[while_break-",
               "test_constructs.py::test_for_loops[for_break-",
               "test_constructs.py::test_for_loops[traced_range-")
_LISTS = ("test_loop_accumulation.py::test_a_while_with_a_data_dependent_stop",
          "test_loop_accumulation.py::test_an_rnn_collects_its_states")
_MASKS = ("test_mask_writes.py::test_a_mask_over_rows",  # sizes only the region uses
          "test_mask_writes.py::test_a_count_that_does_not_match")
TORCH_MODE_CASES = {  # prefixes of "file::test[params]" (the params without the backend)
    "torch-compile": ("test_conformance_smoke.py::",) + _CONSTRUCTS + _LISTS + _MASKS,
    "torch-export": ("test_conformance_smoke.py::test_collatz",
                     "test_conformance_smoke.py::test_assert_message") + _CONSTRUCTS + _LISTS,
    "torch-export-strict": ("test_conformance_smoke.py::test_collatz", _LISTS[0]),
    # every case, called with Python values (TorchExplained), but torch_gaps.EXPLAIN_EXCLUDED
    "torch-explain": ("",),
}
from torch_gaps import EXPLAIN_EXCLUDED, TORCH_XFAIL, TORCH_MODE_XFAIL  # noqa: E402  tests/conformance/torch_gaps.py


collect_ignore = ["test_match.py"] if sys.version_info < (3, 10) else []  # `match` is 3.10 syntax


# What ``jit_compile=True`` refuses, each with a StagingError said before compiling (XLA
# has no floating-point error modes); strict: a refusal that goes away fails the suite.
XLA_REFUSES = dict.fromkeys([
    "test_numeric_context.py::test_errstate_applies_when_the_graph_runs",
    "test_try_arithmetic.py::test_handler_runs_when_the_graph_raises",
    "test_try_arithmetic.py::test_handler_assigns_a_fallback",
    "test_try_arithmetic.py::test_first_matching_handler_and_else",
], "np.errstate regions (and a try catching FloatingPointError) are refused under XLA")
XLA_REFUSES.update(dict.fromkeys([
    "test_number_and_string_joins.py::test_warn_with_a_message_a_staged_if_chose",
    "test_library_glue.py::test_np_require",
], "landed beside the XLA lowering and not lowered yet (a StagingError before compiling)"))
XLA_REFUSES.update(dict.fromkeys([
    "test_staging_errors.py::test_a_loop_variable_that_changes_shape_or_structure",
    "test_loop_accumulation.py::test_a_growing_concatenate_accumulator",
], "a loop variable that changes shape is refused under XLA (a StagingError before compiling)"))


# Files of the suite not run on TensorFlow (its known gaps are in tf_gaps, by case): none.
TF_NOT_YET: set = set()


def pytest_configure(config):
    config.addinivalue_line("markers", "ndarray_api: a case about NumPy's ndarray API itself, "
                            "collected only for backends whose arrays take it (ndarray_api)")


def pytest_collection_modifyitems(config, items):
    """Each backend's share of the suite and its known gaps: a case about NumPy's
    ndarray API only where the backend's arrays take it (``ndarray_api``); torch runs all but
    ``TORCH_SKIP_FILES``, its other modes ``TORCH_MODE_CASES`` (with ``torch_gaps``), TensorFlow all but ``TF_NOT_YET`` (its gaps are marked by the
    fixture, from ``tf_gaps``), ``numpy-xla`` everything (with ``XLA_REFUSES``)."""
    kept, dropped = [], []
    for item in items:
        callspec = getattr(item, "callspec", None)
        chosen = callspec.params.get("backend") if callspec is not None else None
        if chosen not in BACKENDS:  # another suite's "backend" parameter (tests/realcode's)
            chosen = None
        path = item.nodeid.split("::")[0].rsplit("/", 1)[-1]
        if chosen is not None and not BACKENDS[chosen].ndarray_api and \
                item.get_closest_marker("ndarray_api"):
            dropped.append(item)
            continue
        if chosen is not None and chosen.startswith("torch"):
            case = f"{path}::{item.name}".replace(f"[{chosen}-", "[").replace(f"[{chosen}]", "")
            if path in TORCH_SKIP_FILES or (
                    chosen != "torch" and not case.startswith(TORCH_MODE_CASES[chosen])) or (
                    chosen == "torch-explain" and (case.split("[")[0] in EXPLAIN_EXCLUDED
                                                   or case in EXPLAIN_EXCLUDED)):
                dropped.append(item)
                continue
            name = item.name.replace(f"[{chosen}", "[torch")  # the traced mode's id
            reason = TORCH_MODE_XFAIL.get(chosen, {}).get(f"{path}::{item.originalname}") or \
                TORCH_XFAIL.get(f"{path}::{name}") or TORCH_XFAIL.get(f"{path}::{item.originalname}")
            if reason is not None:
                item.add_marker(pytest.mark.xfail(strict=True, reason=reason))
        elif chosen == "tensorflow" and path in TF_NOT_YET:
            dropped.append(item)
            continue
        elif chosen == "numpy-xla":
            reason = XLA_REFUSES.get(item.nodeid.partition("[")[0].rpartition("/")[2])
            if reason:
                item.add_marker(pytest.mark.xfail(raises=ag.StagingError, strict=True, reason=reason))
        kept.append(item)
    if dropped:
        config.hook.pytest_deselected(items=dropped)
        items[:] = kept


@pytest.fixture(params=sorted(BACKENDS))
def backend(request) -> Backend:
    chosen = BACKENDS[request.param]()
    if request.param == "tensorflow":  # known gaps: strict xfails, each with its reason
        from tf_gaps import KNOWN_GAPS  # tests/conformance/tf_gaps.py

        gap = KNOWN_GAPS.get(request.node.nodeid.rpartition("conformance/")[2])
        if gap is not None:
            request.node.add_marker(pytest.mark.xfail(reason=gap, strict=True))
    return chosen
