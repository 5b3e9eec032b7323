"""What code running in a converted function sees of the stack.

On Python values no frame of autograph's runtime sits between the user's
function and the bodies its staged form runs: code inside a branch or loop body
that looks at its caller (``sys._getframe(1)``, ``warnings.warn(stacklevel=2)``,
``logging`` with ``stacklevel``) sees the user's function (its module globals, its
file and lines), a function it calls sees its caller's module, and a recursive
function spends at most one frame per construct body on each level. The Python
path (the user's own statements) is the original, frame for frame. Each check
runs on both paths: the default one, and the staged body under ``force_staged``.
"""

from __future__ import annotations

import importlib.util
import logging
import pickle
import sys
import warnings

import pytest

import autograph as ag
from autograph.runtime.mode import force_staged

MODULE = '''\
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


@pytest.mark.parametrize("path", PATHS)
def test_caller_of_a_branch_is_the_users_function(m, path):
    name, filename, function = call(path, ag.to_graph(m.caller_in_branch), 1)
    if path == "python":
        assert (name, filename, function) == call(path, m.caller_in_branch, 1)  # the original's caller
    else:
        assert (name, filename, function) == ("frames_subject", m.__file__, "caller_in_branch")


@pytest.mark.parametrize("path", PATHS)
def test_caller_in_nested_loops_is_in_the_users_module(m, path):
    seen = call(path, ag.to_graph(m.caller_in_loop), 2)
    expected = m.caller_in_loop(2) if path == "python" else [("frames_subject", m.__file__)] * 2
    assert seen == expected


@pytest.mark.parametrize("path", PATHS)
def test_callee_sees_the_callers_module(m, path):
    converted = ag.to_graph(m.calls_from_branch)
    assert call(path, converted, 1) == call(path, converted, 0) == "frames_subject"


@pytest.mark.parametrize("path", PATHS)
def test_warning_with_stacklevel_points_at_the_users_file(m, path):
    converted = ag.to_graph(m.warns_in_branch)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        call(path, converted, 1)
    (warning,) = caught
    if path == "python":
        assert warning.filename == __file__
    else:
        lines = MODULE.splitlines()
        if_line = lines.index("def warns_in_branch(x):") + 2  # the user's `if x:`
        assert lines[if_line - 1] == "    if x:"
        assert (warning.filename, warning.lineno) == (m.__file__, if_line)


@pytest.mark.parametrize("path", PATHS)
def test_logging_stacklevel_points_at_the_users_file(m, path, caplog):
    logger = logging.getLogger("frames_subject_test")
    with caplog.at_level(logging.WARNING, logger="frames_subject_test"):
        call(path, ag.to_graph(m.logs_in_loop), logger, 3)
    (record,) = caplog.records
    assert record.getMessage() == "last 2"
    assert record.pathname == (__file__ if path == "python" else m.__file__)


@pytest.mark.parametrize("path", PATHS)
def test_object_pickled_by_its_callers_module(m, path):
    """A converted helper that names its caller's module (boltons' make_sentinel)
    gets the module of the converted function that calls it, so pickling works."""
    converted = ag.to_graph(m.make_module_token)
    token = call(path, converted)
    assert token.module == "frames_subject"
    assert pickle.loads(pickle.dumps(token)) is m.TOKEN


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
    """One frame per level on the Python path (as the original); in the staged
    body of a function with an ``if`` inside a ``for``, at most three: the
    function, the loop body and the branch."""
    limit = 1500
    original = _levels(m.recurse, m, limit)
    converted = ag.to_graph(m.recurse)
    assert abs(_levels(converted, m, limit) - original) <= 2
    with force_staged():
        staged = _levels(converted, m, limit)
    assert staged >= original / 3 - 5, (staged, original)
