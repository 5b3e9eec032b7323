"""Saving and loading graphs that use what numerical code needs (issue 22): a loaded
function raises what eager code raises, calls ``math``, runs under ``np.errstate``,
writes into its argument arrays and lists, and returns ``None`` and chosen strings
exactly when eager code does. Anything that cannot be saved is refused when saving,
naming the op, its line and what to do.

PYTEST_DONT_REWRITE: ``asserts`` must raise what plain Python's ``assert`` raises.
"""

from __future__ import annotations

import contextlib
import copy
import io
import json
import math
import os
import subprocess
import sys
import warnings
from collections import namedtuple

import numpy as np
import pytest

import autograph as ag
from autograph.runtime.backends.numpy_graph import saved_names, serialize


# --- one function per feature a graph can hold ------------------------------------------

class ModuleError(Exception):
    """An exception class importable by its path."""


class CodedError(Exception):
    """Its constructor takes other arguments than its ``args``: rebuilt without calling
    it (its ``args`` and attributes), as the graph raises its copies."""

    def __init__(self, code):
        super().__init__(f"failed with code {code}")
        self.code = code


class LossyError(Exception):
    """Its ``__reduce__`` gives its message where its constructor takes a code: it
    cannot be rebuilt."""

    def __init__(self, code):
        super().__init__(f"failed with code {code}")

    def __reduce__(self):
        return type(self), self.args


Pair = namedtuple("Pair", "low high")


def validate(xa, xb, xc):
    if not (xa < xb < xc):
        raise ValueError("xa < xb < xc must hold")
    return xb - xa


def newton(x, fx, fder):
    n = 0
    while n < 3:
        if fder == 0:
            raise RuntimeError("derivative was zero")
        x = x - fx / fder
        n += 1
    return x


def unbound(x):
    if x > 0:
        y = x * 2
    return y


def asserts(x):
    assert x > 0, "x must be positive"
    return x + 1


def module_error(x):
    if x < 0:
        raise ModuleError(f"negative: {-1}")
    return x


def numpy_args(x):
    if x > 2:
        raise ValueError("too large", np.float32(2.5), np.int8(-3), np.str_("x"), np.inf)
    return x


def coded_error(x):
    if x < 0:
        raise CodedError(3)  # its args and .code, without calling its __init__ again
    return x


def json_error(x):
    if x < 0:
        raise json.JSONDecodeError("no value", "doc", 0)  # rebuilt by its __reduce__
    return x


def key_error(x):
    if x < 0:
        raise KeyError("missing")
    return x


def math_ops(x):
    return math.sqrt(x) + math.floor(x) + math.hypot(x, 1.0) + math.copysign(1.0, x)


def math_flags(x):
    return math.isnan(x), math.isfinite(x), math.exp(x)


def builtins_ops(x, y):
    return int(x), float(y), bool(x), round(y), abs(x - y), min(x, y), max(x, y, 2.5)


def errstate_ignore(x):
    with np.errstate(divide="ignore", invalid="ignore"):
        y = np.ones(2) / x
    return y


def errstate_raise(x):
    with np.errstate(invalid="raise"):
        y = np.sqrt(x)
    return y


def write_stage(K, s, dy):
    if np.sum(dy) > 0:
        K[s] = dy
    else:
        K[s] = -dy
    return None


def write_loop(out, n):
    i = 0
    while i < n:
        out[i] = i * 2.0
        i += 1
    return out.sum()


def write_list_item(ab, c, fa):
    idx = 0 if fa < 0 else 1
    ab[idx] = c
    return ab[0] + ab[1]


def replace_list_item(ab, x):
    ab[0] = x * 2  # the caller's list holds a scalar after the call
    return x


def line_search(phi0, derphi0):
    if derphi0 > 0:
        return None, phi0
    return phi0 * 0.5, phi0


def none_arithmetic(x):
    if x > 0:
        r = None
    else:
        r = x
    return r * 2


def message(x):
    flag = "converged" if x < 1e-3 else "maxiter"
    return x, flag


def keyed(x):
    r = None if x > 0 else x
    return {0: r, (1, "x"): x}


def named(x):
    return Pair(np.minimum(x, 0), np.maximum(x, 0))


def printing(x):
    if x > 0:
        ag.print("positive", x)
    else:
        ag.print("not positive", x)
    return x


def reductions(x):
    return np.add.reduce(x), np.maximum.accumulate(x), np.multiply.outer(x, x)


def loop_methods(x):
    total = x.sum()
    for v in x:
        if v > 0:
            total = total + v.T
    return total.astype(np.float32), len(x), x[::2]


COUNTER = ag.Variable(np.int64(0))


def counting(x):
    COUNTER.assign_add(1)
    if x < 0:
        raise ValueError("negative input")
    return x * COUNTER.read_value()


def formatted_raise(x, n):
    if x < 0:
        raise ValueError("x=%.3f is negative after %d steps" % (x, n), f"{x!r}")
    return x


def caught_arithmetic(a, b):
    with np.errstate(all="raise"):
        try:
            r = a / b
        except ArithmeticError:
            return -1.0
    return r


def collected(x, n):
    seen = [x]
    i = 0
    while i < n:  # a list of run-time length: buffers written in place (issue 29)
        x = x * 2
        seen.append(x)
        i += 1
    return seen, np.stack(seen)


f64 = np.float64
CASES = {
    "collected": (collected, [(f64(1.5), np.int64(3)), (f64(1.5), np.int64(0))]),
    "validate": (validate, [(f64(1), f64(2), f64(3)), (f64(3), f64(2), f64(1))]),
    "newton": (newton, [(f64(1), f64(2), f64(4)), (f64(1), f64(2), f64(0))]),
    "unbound": (unbound, [(f64(1),), (f64(-1),)]),
    "asserts": (asserts, [(f64(1),), (f64(-1),)]),
    "module_error": (module_error, [(f64(1),), (f64(-1),)]),
    "numpy_args": (numpy_args, [(f64(1),), (f64(3),)]),
    "json_error": (json_error, [(f64(1),), (f64(-1),)]),
    "coded_error": (coded_error, [(f64(1),), (f64(-1),)]),
    "key_error": (key_error, [(f64(1),), (f64(-1),)]),
    "math_ops": (math_ops, [(f64(2.5),), (f64(-1),)]),
    "math_flags": (math_flags, [(f64(0.5),), (f64(np.nan),)]),
    "builtins_ops": (builtins_ops, [(f64(1.5), f64(-2.5)), (f64(0), f64(3.5))]),
    "errstate_ignore": (errstate_ignore, [(np.array([0.0, 2.0]),)]),
    "errstate_raise": (errstate_raise, [(np.array([4.0, 1.0]),), (np.array([-1.0, 1.0]),)]),
    "write_stage": (write_stage, [(np.zeros((3, 2)), 1, np.ones(2)),
                                  (np.zeros((3, 2)), 1, -np.ones(2))]),
    "write_loop": (write_loop, [(np.zeros(4), np.int64(3))]),
    "write_list_item": (write_list_item, [([np.zeros(2), np.ones(2)], np.full(2, 5.0), f64(-1)),
                                          ([np.zeros(2), np.ones(2)], np.full(2, 5.0), f64(1))]),
    "replace_list_item": (replace_list_item, [([np.zeros(2), np.ones(2)], f64(3))]),
    "line_search": (line_search, [(f64(2), f64(1)), (f64(2), f64(-1))]),
    "none_arithmetic": (none_arithmetic, [(f64(1),), (f64(-1),)]),
    "message": (message, [(f64(1e-4),), (f64(1),)]),
    "keyed": (keyed, [(f64(1),), (f64(-1),)]),
    "named": (named, [(np.array([-1.0, 2.0]),)]),
    "printing": (printing, [(f64(1),), (f64(-1),)]),
    "reductions": (reductions, [(np.array([1.0, -2.0, 3.0]),)]),
    "loop_methods": (loop_methods, [(np.array([1.0, -2.0, 3.0]),)]),
    "formatted_raise": (formatted_raise, [(f64(1), np.int64(3)), (f64(-0.5), np.int64(7))]),
    "caught_arithmetic": (caught_arithmetic, [(f64(1), f64(2)), (f64(1), f64(0))]),
}


def outcome(fn, args):
    """What a call does: its result or exception, the arguments after it, what it printed."""
    args = copy.deepcopy(args)
    out = io.StringIO()
    with contextlib.redirect_stdout(out), warnings.catch_warnings():
        warnings.simplefilter("error")  # np.errstate must hold in the loaded graph too
        try:
            result = ("returned", fn(*args))
        except Exception as exc:
            result = ("raised", type(exc), str(exc))
    return result, args, out.getvalue()


def assert_same(eager, actual, path="result"):
    if eager is None or eager.__class__ is str:
        assert actual == eager and actual.__class__ is eager.__class__, path
    elif isinstance(eager, tuple) and hasattr(eager, "_fields"):
        assert type(actual) is type(eager), path
        for name, e, a in zip(eager._fields, eager, actual):
            assert_same(e, a, f"{path}.{name}")
    elif eager.__class__ is dict:
        assert actual.__class__ is dict and list(actual) == list(eager), path
        for k in eager:
            assert_same(eager[k], actual[k], f"{path}[{k!r}]")
    elif eager.__class__ in (tuple, list):
        assert actual.__class__ is eager.__class__ and len(actual) == len(eager), path
        for i, (e, a) in enumerate(zip(eager, actual)):
            assert_same(e, a, f"{path}[{i}]")
    else:
        e, a = np.asarray(eager), np.asarray(actual)
        assert (a.dtype, a.shape) == (e.dtype, e.shape), f"{path}: {a!r} != {e!r}"
        np.testing.assert_array_equal(a, e, err_msg=path)


def assert_same_outcome(eager, actual):
    (e_result, e_args, e_out), (a_result, a_args, a_out) = eager, actual
    assert e_result[0] == a_result[0], (e_result, a_result)
    if e_result[0] == "raised":
        assert a_result[1:] == e_result[1:]  # the same type, the same message
    else:
        assert_same(e_result[1], a_result[1])
    assert_same(e_args, a_args, "arguments after the call")
    assert a_out == e_out


@pytest.mark.parametrize("name", CASES)
def test_saved_function_loads_and_matches_eager(name, tmp_path):
    fn, calls = CASES[name]
    graph_fn = ag.function(fn)
    for args in calls:  # traces each signature; each call takes another path
        assert_same_outcome(outcome(fn, args), outcome(graph_fn, args))
    graph_fn.save(tmp_path / "function.npz")
    loaded = ag.load(tmp_path / "function.npz")
    for args in calls:
        assert_same_outcome(outcome(fn, args), outcome(loaded, args))


@pytest.mark.parametrize("name", CASES)
def test_saved_concrete_function_loads_and_matches_eager(name, tmp_path):
    fn, calls = CASES[name]
    concrete = ag.function(fn).get_concrete_function(*calls[0])
    concrete.save(tmp_path / "concrete.npz")
    loaded = ag.load(tmp_path / "concrete.npz")
    assert str(loaded.graph) == str(concrete.graph)
    for args in calls:
        if ag.function(fn).get_concrete_function(*args).pretty_signature() == \
                concrete.pretty_signature():
            assert_same_outcome(outcome(fn, args), outcome(loaded, args))


def test_the_cases_hold_every_op_kind_a_graph_can_hold():
    from autograph.runtime.backends.numpy_graph.numeric import catch_enter, errstate_enter
    from autograph.runtime.backends.numpy_graph.raising import raise_copy
    from autograph.runtime.backends.numpy_graph.rows import write_row

    kinds, targets = set(), set()

    def visit(block):
        for op in block.ops:
            kinds.add(op.kind)
            targets.add(op.target if op.kind == "call" else None)
            for inner in op.blocks.values():
                visit(inner)

    for fn, calls in [*CASES.values(), (counting, [(f64(1),)])]:
        graph_fn = ag.function(fn)
        for args in calls:
            outcome(graph_fn, args)
        for concrete in graph_fn.concrete_functions:
            visit(concrete.graph.body)
    every_kind = set(saved_names.TARGETS) | saved_names.NO_TARGET | {"method", "attr", "call",
                                                                  "read", "assign"}
    assert kinds == every_kind, (every_kind - kinds, kinds - every_kind)
    assert {raise_copy, errstate_enter, catch_enter, math.sqrt, math.isnan, np.minimum,
            write_row} <= targets


@pytest.mark.parametrize("name", ["write_list_item", "line_search", "message", "validate",
                                  "errstate_raise"])
def test_a_loaded_function_saves_again(name, tmp_path):
    fn, calls = CASES[name]
    graph_fn = ag.function(fn)
    for args in calls:
        outcome(graph_fn, args)
    graph_fn.save(tmp_path / "first.npz")
    ag.load(tmp_path / "first.npz").save(tmp_path / "second.npz")
    again = ag.load(tmp_path / "second.npz")
    for args in calls:
        assert_same_outcome(outcome(fn, args), outcome(again, args))


def test_loaded_variables_count_calls_that_raise(tmp_path):
    COUNTER.assign(np.int64(0))
    graph_fn = ag.function(counting)
    graph_fn(f64(2.0))
    graph_fn.save(tmp_path / "counting.npz")
    loaded = ag.load(tmp_path / "counting.npz")
    (counter,) = loaded.variables
    assert counter.numpy() == 1
    with pytest.raises(ValueError, match="^negative input$"):
        loaded(f64(-1.0))
    assert loaded(f64(2.0)) == 6.0  # the raising run counted too, as eagerly
    assert counter.numpy() == 3


def test_errstate_is_restored_when_a_loaded_graph_raises_inside_it(tmp_path):
    graph_fn = ag.function(errstate_raise)
    graph_fn(np.ones(2))
    graph_fn.save(tmp_path / "errstate.npz")
    loaded = ag.load(tmp_path / "errstate.npz")
    before = np.geterr()
    with pytest.raises(FloatingPointError, match="invalid value encountered in sqrt"):
        loaded(np.array([-1.0, 1.0]))
    assert np.geterr() == before


# --- a fresh process, without the functions' source ----------------------------------

FUNCTIONS = '''
import math
import numpy as np
from numeric_errors import BracketError

def bracket(xa, xb, out):
    if not xa < xb:
        raise BracketError(f"bad bracket")
    with np.errstate(divide="ignore"):
        out[0] = math.sqrt(xb - xa) / (xb - xa - 1.0)
    if out[0] > 1:
        return None, "wide"
    return out[0], "narrow"
'''

CALLS = [(2.0, 3.0), (0.0, 4.0), (1.0, 1.25), (3.0, 1.0)]

RUN_LOADED = '''
import importlib, json, sys
import numpy as np
import autograph as ag
for module in sys.argv[3:]:  # loading imports nothing a file names: the caller does
    importlib.import_module(module)
loaded = ag.load(sys.argv[1])
found = []
for xa, xb in json.loads(sys.argv[2]):
    out = np.zeros(1)
    try:
        value, flag = loaded(np.float64(xa), np.float64(xb), out)
        found.append(["returned", None if value is None else float(value), flag, out.tolist()])
    except Exception as exc:
        found.append(["raised", type(exc).__module__ + "." + type(exc).__qualname__, str(exc),
                      out.tolist()])
print(json.dumps(found))
'''


def _eager_outcomes(fn):
    found = []
    for xa, xb in CALLS:
        out = np.zeros(1)
        try:
            value, flag = fn(np.float64(xa), np.float64(xb), out)
            found.append(["returned", None if value is None else float(value), flag, out.tolist()])
        except Exception as exc:
            found.append(["raised", f"{type(exc).__module__}.{type(exc).__qualname__}", str(exc),
                          out.tolist()])
    return found


def _run_python(code, *args, path=()):
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([*path, *sys.path]))
    return subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True,
                          env=env, timeout=120)


def test_a_fresh_process_loads_the_function_without_its_source(tmp_path):
    (tmp_path / "numeric_errors.py").write_text("class BracketError(ValueError):\n    pass\n")
    (tmp_path / "numeric_fns.py").write_text(FUNCTIONS)
    sys.path.insert(0, str(tmp_path))
    try:
        import numeric_fns

        graph_fn = ag.function(numeric_fns.bracket)
        expected = _eager_outcomes(numeric_fns.bracket)
        assert _eager_outcomes(graph_fn) == expected
        graph_fn.save(tmp_path / "bracket.npz")
    finally:
        sys.path.remove(str(tmp_path))
        for name in ("numeric_fns", "numeric_errors"):
            sys.modules.pop(name, None)
    os.remove(tmp_path / "numeric_fns.py")  # the source is gone; the exception's module stays
    assert [e[0] for e in expected] == ["returned", "returned", "returned", "raised"]
    assert {e[2] for e in expected if e[0] == "returned"} == {"wide", "narrow"}
    assert any(e[1] is None for e in expected)

    run = _run_python(RUN_LOADED, str(tmp_path / "bracket.npz"), json.dumps(CALLS),
                      "numeric_errors", path=[str(tmp_path)])
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout) == expected

    refused = _run_python(RUN_LOADED, str(tmp_path / "bracket.npz"), json.dumps(CALLS),
                          path=[str(tmp_path)])  # importable, but not imported
    assert refused.returncode != 0
    assert refused.stderr.strip().splitlines()[-1] == (
        "ValueError: autograph.load: the graph uses the exception class "
        "numeric_errors.BracketError, which is not found here (numeric_errors is not imported; "
        "loading imports nothing a file names). Import numeric_errors before loading.")


# --- what cannot be saved is refused, naming the op, its line and the fix --------------

def _line_of(fn, text):
    import inspect

    lines, start = inspect.getsourcelines(fn)
    return start + next(i for i, line in enumerate(lines) if text in line)


def test_a_local_exception_class_is_refused(tmp_path):
    class LocalError(Exception):
        pass

    def check(x):
        if x < 0:
            raise LocalError("negative")
        return x

    concrete = ag.function(check).get_concrete_function(f64(1))
    with pytest.raises(ValueError) as caught:
        concrete.save(tmp_path / "check.npz")
    line = _line_of(check, "raise LocalError")
    assert str(caught.value) == (
        f"autograph.function 'check': cannot save the graph: the raise at "
        f"test_graph_saving.py:{line} (`raise LocalError(\"negative\")`) uses the exception class "
        f"test_graph_saving.test_a_local_exception_class_is_refused.<locals>.LocalError, which "
        f"cannot be found by its import path, so a loaded graph could not make it. Define "
        f"LocalError at the top level of a module (not inside a function), or use a built-in "
        f"exception.")
    assert not (tmp_path / "check.npz").exists()


def lossy(x):
    if x < 0:
        raise LossyError(3)
    return x


def test_an_exception_its_class_cannot_rebuild_is_refused(tmp_path):
    concrete = ag.function(lossy).get_concrete_function(f64(1))
    with pytest.raises(ValueError) as caught:
        concrete.save(tmp_path / "lossy.npz")
    line = _line_of(lossy, "raise LossyError")
    assert str(caught.value) == (
        f"autograph.function 'lossy': cannot save the graph: the raise at "
        f"test_graph_saving.py:{line} (`raise LossyError(3)`) raises LossyError('failed with "
        f"code 3'), which its class cannot rebuild from its arguments ('failed with code 3',). "
        f"Pass LossyError's constructor arguments on to Exception.__init__ (or define "
        f"__reduce__), or raise a built-in exception.")


def test_a_local_named_tuple_result_is_refused(tmp_path):
    Local = namedtuple("Local", "a b")

    def pair(x):
        return Local(x, x + 1)

    concrete = ag.function(pair).get_concrete_function(f64(1))
    with pytest.raises(ValueError, match=r"^autograph.function 'pair': cannot save the graph: "
                                         r"the function's result uses the named tuple class "
                                         r"test_graph_saving\.Local, which cannot be found by its "
                                         r"import path, so a loaded graph could not make it\. "
                                         r"Define Local at the top level of a module \(not inside "
                                         r"a function\), or return a tuple or a dict\.$"):
        concrete.save(tmp_path / "pair.npz")


PLUS_ONE = np.frompyfunc(lambda a: a + 1.0, 1, 1)


def python_ufunc(x):
    return PLUS_ONE(x)


def test_a_function_that_is_not_numpys_is_refused(tmp_path):
    concrete = ag.function(python_ufunc).get_concrete_function(np.ones(2))
    with pytest.raises(ValueError) as caught:
        concrete.save(tmp_path / "ufunc.npz")
    line = _line_of(python_ufunc, "return PLUS_ONE")
    assert str(caught.value) == (
        f"autograph.function 'python_ufunc': cannot save the graph: the call of the ufunc "
        f"'<lambda> (vectorized)' at test_graph_saving.py:{line} (`return PLUS_ONE(x)`) is not "
        f"NumPy's, math's or a builtin, the only functions a saved graph can call. Compute it "
        f"with NumPy functions, or outside the function and pass the result in as an argument.")


def test_every_function_a_graph_may_call_has_a_saved_name():
    from autograph.runtime.backends.numpy_graph import numpy_api
    from autograph.runtime.backends.numpy_graph.render import qualname
    from autograph.runtime.operators.numeric_builtins import MATH

    for fn in [*numpy_api.SUPPORTED, *MATH, np.add.reduce, np.maximum.accumulate, round, len]:
        assert saved_names.same_function(saved_names.resolve(qualname(fn)), fn), qualname(fn)


# --- the format's versions -------------------------------------------------------------

def _rewrite(path, change):
    with np.load(path, allow_pickle=False) as archive:
        arrays = {k: archive[k] for k in archive.files}
    document = json.loads(str(arrays["__graph__"]))
    change(document)
    arrays["__graph__"] = np.array(json.dumps(document))
    with open(path, "wb") as f:
        np.savez(f, **arrays)


def _as_format_1(document):
    """What the previous version wrote: no boundary, formats numbered 1."""
    document["format"] = document["format"][:-1] + "1"
    for graph in document.get("functions", [document]):
        graph["format"] = "autograph-graph-1"
        graph.pop("boundary", None)


def test_files_of_format_1_still_load(tmp_path):
    graph_fn = ag.function(lambda x: x * 2 if np.sum(x) > 0 else -x)
    graph_fn(np.ones(2))
    graph_fn.save(tmp_path / "old.npz")
    _rewrite(tmp_path / "old.npz", _as_format_1)
    np.testing.assert_array_equal(ag.load(tmp_path / "old.npz")(np.ones(2)), [2.0, 2.0])
    assert serialize.FORMAT == "autograph-graph-2"


def test_files_of_format_1_that_lost_argument_writes_are_refused(tmp_path):
    graph_fn = ag.function(write_loop)
    graph_fn(np.zeros(4), np.int64(3))
    graph_fn.save(tmp_path / "old.npz")
    _rewrite(tmp_path / "old.npz", _as_format_1)
    with pytest.raises(ValueError) as caught:
        ag.load(tmp_path / "old.npz")
    assert str(caught.value) == (
        f"autograph.load: {tmp_path / 'old.npz'} was saved in format 1, which did not keep the "
        f"writes of 'write_loop' into its argument arrays ('out'); loaded, the function would "
        f"leave them unchanged. Save the function again with this version of autograph.")


def test_files_of_a_newer_format_are_refused(tmp_path):
    graph_fn = ag.function(lambda x: x + 1)
    graph_fn(np.ones(2))
    graph_fn.save(tmp_path / "new.npz")
    _rewrite(tmp_path / "new.npz", lambda d: d.update(format="autograph-function-9"))
    with pytest.raises(ValueError) as caught:
        ag.load(tmp_path / "new.npz")
    assert str(caught.value) == (
        f"autograph.load: {tmp_path / 'new.npz'} was saved in format 'autograph-function-9', by "
        f"a newer autograph; this one reads 'autograph-graph-2', 'autograph-function-2' and "
        f"their earlier versions. Load it with a newer autograph, or save the function again "
        f"with this one.")


def test_a_file_cannot_put_code_into_the_compiled_graph(tmp_path):
    graph_fn = ag.function(lambda x: x.copy())
    graph_fn(np.ones(2))
    graph_fn.save(tmp_path / "f.npz")

    def inject(document):
        (op,) = document["functions"][0]["body"]["ops"]
        op["target"] = "copy(); __import__('os').system('echo hacked'); x.copy"

    _rewrite(tmp_path / "f.npz", inject)
    with pytest.raises(ValueError, match="is not one autograph writes"):
        ag.load(tmp_path / "f.npz")

    def bad_access(document):
        document["functions"][0]["layout"][0][0][0] = "; print('hacked')"

    graph_fn.save(tmp_path / "g.npz")
    _rewrite(tmp_path / "g.npz", bad_access)
    with pytest.raises(ValueError, match="not an argument accessor"):
        ag.load(tmp_path / "g.npz")


def warn_stderr(x):
    ag.print("warning:", x, file=sys.stderr)
    return x


def test_prints_to_stderr_save_and_load(tmp_path, capsys):
    graph_fn = ag.function(warn_stderr)
    graph_fn(f64(1))
    graph_fn.save(tmp_path / "warn.npz")
    capsys.readouterr()
    ag.load(tmp_path / "warn.npz")(f64(2))
    assert capsys.readouterr().err == "warning: 2.0\n"


def test_exception_classes_in_op_arguments_are_saved_by_import_path():
    from autograph.runtime.backends.numpy_graph.ir import Graph

    writer = serialize._Writer(Graph("g"))
    saved = json.loads(json.dumps(writer.enc((ValueError, json.JSONDecodeError, ModuleError))))
    loaded = serialize._Reader({"values": []}, {}).dec(saved)
    assert loaded == (ValueError, json.JSONDecodeError, ModuleError)


def tensor_in_exception(x):
    if x < 0:
        raise ValueError("negative", x)
    return x


def test_an_exception_holding_a_run_time_value_is_refused(tmp_path):
    concrete = ag.function(tensor_in_exception).get_concrete_function(f64(1))
    with pytest.raises(ValueError) as caught:
        concrete.save(tmp_path / "t.npz")
    line = _line_of(tensor_in_exception, "raise ValueError")
    assert str(caught.value) == (
        f"autograph.function 'tensor_in_exception': cannot save the graph: the raise at "
        f"test_graph_saving.py:{line} (`raise ValueError(\"negative\", x)`) raises a ValueError "
        f"whose argument 1 holds the symbolic tensor x (float64[]), which has a value only "
        f"while the graph runs. Keep run-time values out of the exception's arguments and "
        f"attributes (the graph raises the exception made while tracing), or raise it outside "
        f"the function.")
