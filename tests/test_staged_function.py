"""The staged body compiled as a function of its own (``conversion._staged_function``).

The converted function's code has the original's locals: no closure cell for what only
the staged body's generated functions and lambdas read, so its Python path reads fast
locals. The staged body's function takes the user's parameters as the user's function
does; converted code calls it directly. Checked here on what a separate function could
get wrong: ``nonlocal``/``global`` declarations, the user's closures (their cells are
shared by both bodies and by the original), ``super()``, positional-only, keyword-only
and variadic parameters, ``del``, a variable unbound on some path, recursion.
"""

from __future__ import annotations

import importlib.util
import sys

import pytest

import autograph as ag
from autograph.runtime.operators import calls
from autograph.runtime.staging.mode import force_staged

MODULE = '''\
import sys

COUNT = 0


def parse(self, instring, loc, do_actions=True):
    tokens_start = loc
    if self and (do_actions or instring):
        loc = loc + 1
    ret = [instring[tokens_start:loc]]
    for fn in (len, str):
        if ret is not None and fn is not str:
            ret = [fn(instring)] + ret
    return loc, ret


def make_counter():
    total = 0

    def add(k, *more, scale=1, **named):
        nonlocal total
        for v in (k,) + more:
            if v > 0:
                total += v * scale
            else:
                total -= 1
        return total, sorted(named)

    return add


def bump(n):
    global COUNT
    for i in range(n):
        if i % 2:
            COUNT += i
    return COUNT


class Base:
    def value(self, x):
        return x + 1


class Child(Base):
    def value(self, x):
        if x > 0:
            return super().value(x) * 2
        return super().value(-x)


def positional(a, b=2, /, c=3, *, d=4):
    if a > b:
        return a + c
    return b + d


def deletes(x):
    y = x * 2
    if y > 3:
        del y
        y = 1
    return y


def maybe_unbound(x):
    if x > 0:
        z = 1
    return z


def shared_closure(n):
    seen = []

    def note(v):
        seen.append(v)
        return len(seen)

    count = 0
    for i in range(n):
        if i % 2 == 0:
            count = note(i)
    return count, seen


def rec(n):
    if n <= 0:
        return sys._getframe(1).f_code.co_name
    return rec(n - 1)
'''


@pytest.fixture(scope="module")
def m(tmp_path_factory):
    path = tmp_path_factory.mktemp("staged_function") / "staged_function_subject.py"
    path.write_text(MODULE, encoding="utf-8")
    spec = importlib.util.spec_from_file_location("staged_function_subject", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules["staged_function_subject"] = module
    spec.loader.exec_module(module)
    yield module
    sys.modules.pop("staged_function_subject", None)


def outcome(fn, *args, **kwargs):
    try:
        return fn(*args, **kwargs)
    except Exception as error:  # noqa: BLE001 - the exception is the outcome compared
        return type(error), str(error)


def on_both_paths(fn, *args, **kwargs) -> list:
    """What the converted ``fn`` gives on its Python path, forced staged, and called
    from converted code (the staged body's own function), then the original's."""
    converted = ag.to_graph(fn)
    out = [outcome(converted, *args, **kwargs)]
    with force_staged():
        out.append(outcome(converted, *args, **kwargs))
        out.append(outcome(calls.converted(fn), *args, **kwargs))
    return out + [outcome(fn, *args, **kwargs)]


def test_python_path_has_the_originals_locals(m):
    """The staged body's lambdas (``and``/``or`` operands) and generated functions read
    ``self``, ``instring``, ``ret`` ...: none of them is a cell of the converted code."""
    converted = ag.to_graph(m.parse)
    code, original = converted.__code__, m.parse.__code__
    assert code.co_cellvars == original.co_cellvars == ()
    assert code.co_freevars == original.co_freevars
    assert set(code.co_varnames) - set(original.co_varnames) == {"ag__<staged>"}
    assert on_both_paths(m.parse, "obj", "abc", 0) == [(1, [3, "a"])] * 4


def test_converted_code_calls_the_staged_body(m):
    with force_staged():
        callee = calls.converted(m.rec)
    assert callee.__code__ is calls.staged_codes[ag.to_graph(m.rec).__code__]
    assert callee.__code__.co_name == "rec" and callee.__qualname__ == "rec"
    assert on_both_paths(m.rec, 3) == ["rec"] * 4  # one frame per level on every path


def test_nonlocal_and_the_users_closure_cells(m):
    original = m.make_counter()
    converted = ag.to_graph(original)
    assert converted(1, 2, -1, scale=2, q=1) == (5, ["q"])  # 2 + 4 - 1
    assert original(3) == (8, [])  # the same cell
    with force_staged():
        assert converted(1, scale=3) == (11, [])
        assert calls.converted(original)(-5) == (10, [])  # its staged body, on the same cell
    assert original(0) == (9, [])


def test_global(m):
    m.COUNT = 0
    assert on_both_paths(m.bump, 4) == [4, 8, 12, 16]
    assert m.COUNT == 16


@pytest.mark.parametrize("x", [2, -2])
def test_super_without_arguments(m, x):
    child = m.Child()
    assert len(set(map(repr, on_both_paths(child.value, x)))) == 1


@pytest.mark.parametrize("args, kwargs", [((5,), {}), ((1, 0), {"c": 7, "d": 1}), ((1,), {"d": 9})])
def test_positional_only_keyword_only_and_defaults(m, args, kwargs):
    assert len(set(map(repr, on_both_paths(m.positional, *args, **kwargs)))) == 1


@pytest.mark.parametrize("x", [1, 3])
def test_del_and_unbound(m, x):
    assert len(set(map(repr, on_both_paths(m.deletes, x)))) == 1
    assert len(set(map(repr, on_both_paths(m.maybe_unbound, x - 2)))) == 1


def test_closure_defined_inside_reads_the_same_cells(m):
    assert on_both_paths(m.shared_closure, 5) == [(3, [0, 2, 4])] * 4
