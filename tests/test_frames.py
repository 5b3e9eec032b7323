"""What code running in a converted function sees of the stack.

On Python values the stack is the original's, frame for frame, on the default path
(the user's own statements). On the staged path (under ``force_staged``, what runs
under a trace) the staged body is a function of its own: the converted function a
caller outside converted code calls (the outermost: under a trace, the one the tracer
calls) adds one frame, its own, which calls its staged body; converted code calls the
staged bodies of the functions it calls directly. So inside every staged body but the
outermost the stack is the original's: its branch and loop bodies run inline in its
frame when their condition or iterable is a Python value, code inside a body that
looks at its caller (``sys._getframe(1)``, ``inspect.currentframe().f_back``,
``inspect.stack()``, ``warnings.warn(stacklevel=2)``, ``logging`` with
``stacklevel``) sees the user's function's caller, a function it calls sees the user's
function, and a recursive function spends one frame per level. The outermost staged
body's caller is the converted function itself (its name, file and module, at its
``def``), except through ``sys._getframe``, which converted code calls as the runtime's
``getframe_``: it counts the frames eager code has (the user's caller; found on boltons,
whose ``namedtuple`` and ``make_sentinel`` name their caller's module).
``inspect.currentframe().f_back``, ``inspect.stack()`` and a ``stacklevel`` still see
that frame. (The operands of ``and``/``or`` and of conditional expressions are lambdas
the generated code calls: one frame of the user's file each.)
"""

from __future__ import annotations

import contextlib
import importlib.util
import inspect
import logging
import pickle
import sys
import warnings

import pytest

import autograph as ag
from autograph.runtime.staging.mode import force_staged

MODULE = '''\
import inspect
import logging
import sys
import warnings

CALLS = [0]


def caller_in_branch(x):
    if x:
        frame = sys._getframe(1)
        return frame.f_globals["__name__"], frame.f_code.co_filename, frame.f_code.co_name
    return None


def caller_in_loop(n):
    seen = []
    while n > 0:
        for i in range(1):
            frame = sys._getframe(1)
            seen.append((frame.f_globals["__name__"], frame.f_code.co_filename))
        n -= 1
    return seen


def callers_in_branches(x):
    if x > 0:
        if x > 1:
            back = inspect.currentframe().f_back
            names = [info.function for info in inspect.stack()[1:3]]
            return back.f_code.co_name, names
    return None


def caller_in_while_test(n):
    tests = []

    def test(k):
        tests.append(sys._getframe(1).f_code.co_name)
        return k

    seen = []
    while test(n) > 0:
        seen.append(sys._getframe(1).f_code.co_name)
        n -= 1
    return tests, seen


SEEN = []


def who():
    frame = sys._getframe(1)
    return frame.f_globals["__name__"], frame.f_code.co_filename


class Seen:
    def __init__(self, v):
        self.v = v

    def __lt__(self, other):
        SEEN.append(sys._getframe(1).f_globals["__name__"])
        return self.v < other


def in_operands(x):
    a = x and who()
    b = (not x) or who()
    c = Seen(0) < x < len([x, x, x])
    d = Seen(0) < abs(x) < 10
    e = None
    if x > 0 and who():
        e = who() if x else None
    try:
        assert x < 0, who()
    except AssertionError as error:
        return a, b, c, d, e, error.args
    return None


def module_of_caller():
    return sys._getframe(1).f_globals["__name__"]


def calls_from_branch(x):
    if x:
        return module_of_caller()
    return module_of_caller()


def warns_in_branch(x):
    if x:
        warnings.warn("careful", UserWarning, stacklevel=2)
    return x


def logs_in_loop(logger, n):
    for i in range(n):
        if i == n - 1:
            logger.warning("last %d", i, stacklevel=2)
    return n


class Token:
    """Pickled by reference, like boltons' sentinels: by its module and name."""

    def __init__(self, name, module):
        self.name, self.module = name, module

    def __reduce__(self):
        return self.name


TOKEN = None


def make_token(name):
    if name:
        module = sys._getframe(1).f_globals["__name__"]
        return Token(name, module)
    return None


def make_module_token():
    global TOKEN
    TOKEN = make_token("TOKEN")
    return TOKEN


def local_names(n, ag__=None):
    k = n
    if n:
        return sorted(locals()), sorted(vars()), sorted(sys._getframe().f_locals)
    return k


def recurse_ternary(n):
    CALLS[0] += 1
    return recurse_ternary(n - 1) + 1 if n > 0 else 0


class Recorder(dict):
    """A mapping whose item writes record the function writing (pyparsing's
    ``explain_exception`` walks such frames)."""

    def __setitem__(self, key, value):
        self.writers = getattr(self, "writers", []) + [sys._getframe(1).f_code.co_name]
        super().__setitem__(key, value)


def item_writes(n):
    record = Recorder()
    record["first"] = n
    items = [0, 0]
    items[0] += n
    for i in range(n):
        record[i] = items[0]
    return record.writers, dict(record), items


def failing_item_write(record):
    record[1] = 2


def recurse(n):
    CALLS[0] += 1
    total = 0
    for i in range(1):
        if n > 0:
            total = recurse(n - 1) + 1
    return total
'''


@pytest.fixture(scope="module")
def m(tmp_path_factory):
    path = tmp_path_factory.mktemp("frames") / "frames_subject.py"
    path.write_text(MODULE, encoding="utf-8")
    spec = importlib.util.spec_from_file_location("frames_subject", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules["frames_subject"] = module
    spec.loader.exec_module(module)
    yield module
    sys.modules.pop("frames_subject", None)


PATHS = ["python", "staged"]


def call(path, fn, *args):
    if path == "staged":
        with force_staged():
            return fn(*args)
    return fn(*args)


def def_line(fn) -> int:
    """The line of ``fn``'s ``def``: where the outermost staged body's caller is."""
    return fn.__code__.co_firstlineno


@pytest.mark.parametrize("path", PATHS)
def test_caller_of_a_branch_is_the_users_function(m, path):
    seen = call(path, ag.to_graph(m.caller_in_branch), 1)
    assert call(path, m.caller_in_branch, 1) == (__name__, __file__, "call")
    assert seen == (__name__, __file__, "call")  # sys._getframe: the frames eager code has


@pytest.mark.parametrize("path", PATHS)
def test_inspect_sees_the_original_stack(m, path):
    seen = call(path, ag.to_graph(m.callers_in_branches), 2)
    if path == "staged":
        assert seen == ("callers_in_branches", ["callers_in_branches", "call"])
    else:
        assert seen == ("call", ["call", "test_inspect_sees_the_original_stack"])


@pytest.mark.parametrize("path", PATHS)
def test_while_test_and_body_run_in_the_users_frame(m, path):
    seen = call(path, ag.to_graph(m.caller_in_while_test), 2)
    assert call(path, m.caller_in_while_test, 2) == (["caller_in_while_test"] * 3, ["call"] * 2)
    assert seen == (["caller_in_while_test"] * 3, ["call"] * 2)


@pytest.mark.parametrize("path", PATHS)
def test_caller_in_nested_loops_is_in_the_users_module(m, path):
    seen = call(path, ag.to_graph(m.caller_in_loop), 2)
    assert m.caller_in_loop(2) == [(__name__, __file__)] * 2
    assert seen == [(__name__, __file__)] * 2


@pytest.mark.parametrize("path", PATHS)
def test_operands_are_evaluated_by_the_users_code(m, path):
    """Operands of ``and``/``or``, chained comparisons, conditional expressions and
    assert messages are evaluated by the user's function (in a lambda of its own
    file), never by the runtime: what they call sees the user's module."""
    here = ("frames_subject", m.__file__)
    del m.SEEN[:]
    assert call(path, ag.to_graph(m.in_operands), 2) == (here, here, True, True, here, (here,))
    assert m.SEEN == ["frames_subject"] * 2
    assert call(path, m.in_operands, 2) == (here, here, True, True, here, (here,))


@pytest.mark.parametrize("path", PATHS)
def test_callee_sees_the_callers_module(m, path):
    converted = ag.to_graph(m.calls_from_branch)
    assert call(path, converted, 1) == call(path, converted, 0) == "frames_subject"


@pytest.mark.parametrize("path", PATHS)
def test_warning_with_stacklevel_points_at_the_users_file(m, path):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        call(path, ag.to_graph(m.warns_in_branch), 1)
        call(path, m.warns_in_branch, 1)
    converted, original = caught
    assert original.filename == __file__
    if path == "staged":
        assert (converted.filename, converted.lineno) == (m.__file__, def_line(m.warns_in_branch))
    else:
        assert (converted.filename, converted.lineno) == (original.filename, original.lineno)


@pytest.mark.parametrize("path", PATHS)
def test_logging_stacklevel_points_at_the_users_file(m, path, caplog):
    logger = logging.getLogger("frames_subject_test")
    with caplog.at_level(logging.WARNING, logger="frames_subject_test"):
        call(path, ag.to_graph(m.logs_in_loop), logger, 3)
    (record,) = caplog.records
    assert record.getMessage() == "last 2"
    assert record.pathname == (m.__file__ if path == "staged" else __file__)


@pytest.mark.parametrize("path", PATHS)
def test_object_pickled_by_its_callers_module(m, path):
    """A converted helper that names its caller's module (boltons' make_sentinel)
    gets the module of the converted function that calls it, so pickling works."""
    converted = ag.to_graph(m.make_module_token)
    token = call(path, converted)
    assert token.module == "frames_subject"
    assert pickle.loads(pickle.dumps(token)) is m.TOKEN


@pytest.mark.parametrize("path", PATHS)
def test_helper_names_the_module_that_calls_it(m, path):
    """boltons' make_sentinel itself converted: ``sys._getframe(1)`` inside its
    ``if`` is its caller (here, this module), not its own generated code nor, called
    from here as the outermost staged body, its converted function."""
    token = call(path, ag.to_graph(m.make_token), "X")
    assert m.make_token("X").module == __name__
    assert token.module == __name__


def test_locals_on_the_python_path_are_the_originals(m):
    """No generated local or free variable (the runtime is a constant in the code)."""
    converted = ag.to_graph(m.local_names)
    assert converted(1) == m.local_names(1) == (["ag__", "k", "n"],) * 3
    assert converted.__code__.co_freevars == m.local_names.__code__.co_freevars == ()


def test_recursion_depth_through_a_ternary(m):
    """Two frames per level in the staged body: the function and the operand."""
    original = _levels(m.recurse_ternary, m, 1500)
    with force_staged():
        staged = _levels(ag.to_graph(m.recurse_ternary), m, 1500)
    assert staged >= original / 2 - 5, (staged, original)


def _levels(fn, m, limit):
    """How many levels deep ``fn`` (``recurse``) gets before RecursionError."""
    m.CALLS[0] = 0
    depth = len(_stack())
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(depth + limit)
    try:
        with pytest.raises(RecursionError):
            fn(10**9)
    finally:
        sys.setrecursionlimit(old)
    return m.CALLS[0]


def _stack():
    frame, out = sys._getframe(), []
    while frame is not None:
        out.append(frame)
        frame = frame.f_back
    return out


def test_recursion_depth(m):
    """One frame per level on both paths, as the original: the staged body of a
    function with an ``if`` inside a ``for`` runs both bodies in its own frame."""
    limit = 1500
    original = _levels(m.recurse, m, limit)
    converted = ag.to_graph(m.recurse)
    assert abs(_levels(converted, m, limit) - original) <= 2
    with force_staged():
        staged = _levels(converted, m, limit)
    assert abs(staged - original) <= 5, (staged, original)


@pytest.mark.parametrize("path", PATHS)
def test_item_writes_are_made_by_the_users_function(m, path):
    """``x[k] = v`` and ``x[k] += v`` on Python values are Python's own item writes:
    ``__setitem__``'s caller is the user's function, not the runtime's ``setitem``."""
    assert call(path, ag.to_graph(m.item_writes), 2) == call(path, m.item_writes, 2)
    assert call(path, ag.to_graph(m.item_writes), 2)[0] == ["item_writes"] * 3


@pytest.mark.parametrize("path", PATHS)
def test_a_failing_item_write_shows_no_runtime_frame(m, path):
    with pytest.raises(TypeError) as info:
        call(path, ag.to_graph(m.failing_item_write), ())
    names = [entry.name for entry in info.traceback]
    assert names[-1] == "failing_item_write" and "setitem" not in names


def caller_module_or_main(n):
    """As attrs's ``make_class``: the caller's module where ``sys._getframe`` exists."""
    if n > 0:
        n = n + 1
    try:
        name = sys._getframe(1).f_globals.get("__name__", "__main__")
    except (AttributeError, ValueError):
        name = "no frames"
    return n, name


@pytest.mark.parametrize("path", ["python", "staged"])
def test_a_program_that_takes_getframe_off_sys(monkeypatch, path):
    """The runtime keeps its own ``sys._getframe``: a program (attrs's test suite) may
    delete the attribute, and converted code then finds it missing where eager code
    does, while the staged machinery goes on looking at frames."""
    converted = ag.convert(caller_module_or_main)
    monkeypatch.delattr(sys, "_getframe")
    with force_staged() if path == "staged" else contextlib.nullcontext():
        assert converted(2) == caller_module_or_main(2) == (3, "no frames")
