"""The public API on every kind of callable: ``convert``, ``to_graph``, ``to_code``,
``do_not_convert``; the conversion cache; metadata; recursive conversion;
tracebacks; and error messages.

Conversion needs real source files, so the functions under test live in a
module written to a temporary directory and imported from there. Every
behavioural check runs the converted function both on its default path and
under ``force_staged()`` (the staged body) and compares with the original.
"""

from __future__ import annotations

import asyncio
import functools
import importlib.util
import inspect
import itertools
import sys
import textwrap
import traceback

import gast
import numpy as np
import pytest

import autograph as ag
from autograph import conversion
from autograph.runtime.operators import calls
from autograph.runtime.staging.mode import force_staged
from sources import canonical

MODULE = '''\
import functools
import inspect

import numpy as np

import autograph as ag
from autograph.runtime import calls

RAN = []


def plain(x, y=2, *, z=3):
    """Plain docstring."""
    if x > 0:
        r = x + y
    else:
        r = z
    return r


def make_counter(start):
    n = start

    def inc(k):
        nonlocal n
        for _ in range(k):
            n += 1
        return n

    return inc


square = lambda v: v * v if v > 0 else 0


class Base:
    def go(self, x):
        return x + 1


class K(Base):
    def __init__(self):
        self.__secret = 10

    def method(self, x):
        while x > 0:
            x -= self.__secret
        return x

    def sup(self, x):
        if x:
            return super().go(x) + self.__secret
        return 0

    @staticmethod
    def st(x):
        return -x if x < 0 else x

    @classmethod
    def cm(cls, x):
        return cls.__name__ if x else None

    def __call__(self, x):
        return x * 2 if x else 1


def deco(f):
    @functools.wraps(f)
    def wrapper(*a, **k):
        return f(*a, **k)
    return wrapper


@deco
def decorated(x):
    """Decorated docstring."""
    return x if x else 1


def gen(n):
    for i in range(n):
        yield i * 2


async def coro(x):
    if x:
        return x + 1
    return 0


def loopy(n):
    s = 0
    for i in range(n):
        s += i
    return s


@ag.do_not_convert
def dnc(n):
    RAN.append(("dnc", inspect.currentframe().f_code in calls.converted_codes))
    s = 0
    for i in range(n):
        s += i
    return s


def caller(n):
    if n > 0:
        return loopy(n) + dnc(n) + int(np.sum(np.arange(n)))
    return 0


def apply(fn, x):
    if x is not None:
        return fn(x)
    return None


def raiser(x):
    y = x + 1
    if y > 0:
        raise KeyError(y)
    return y


def loop_raiser(xs):
    t = 0
    for x in xs:
        t += x
        if x == 2:
            t = t / 0
    return t


class StaticCall:
    @staticmethod
    def __call__(x, y=1):
        return x + y if x > 0 else -x


class ClassCall:
    @classmethod
    def __call__(cls, x):
        return cls.__name__ if x > 0 else None


def call_objects(x):
    if x > -10:
        return StaticCall()(x), StaticCall()(x, 5), ClassCall()(x)
    return None


def argmap_stub(x):
    """Replaces its own code, then calls itself again: NetworkX's argmap stubs."""
    argmap_stub.__code__ = _argmap_real.__code__
    return argmap_stub(x)


def _argmap_real(x):
    if x > 0:
        return x * 10
    return -x


def calls_argmap(x):
    if x > -10:
        return argmap_stub(x) + 1
    return 0
'''

_counter = itertools.count()


@pytest.fixture
def m(tmp_path):
    path = tmp_path / f"api_subject_{next(_counter)}.py"
    # Leading blank lines make each module's code objects distinct: code objects
    # compare equal across files (see test_identical_functions_in_two_files_*).
    path.write_text("\n" * next(_counter) + MODULE, encoding="utf-8")
    spec = importlib.util.spec_from_file_location(path.stem, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def both(fn, *args, **kwargs):
    """(default-path result, staged-path result)."""
    default = fn(*args, **kwargs)
    with force_staged():
        staged = fn(*args, **kwargs)
    return default, staged


def same(original, converted, *args, **kwargs):
    expected = original(*args, **kwargs)
    assert both(converted, *args, **kwargs) == (expected, expected)


def _line_of(module, text: str) -> int:
    return next(i for i, line in enumerate(inspect.getsource(module).splitlines(), 1) if text in line)


# --- the entry points ------------------------------------------------------------


def test_convert_bare_and_with_arguments(m):
    for converted in (ag.convert(m.plain), ag.convert(recursive=False)(m.plain), ag.to_graph(m.plain)):
        assert converted is not m.plain
        assert calls.made_by_conversion(converted.__code__)
        for args in [(1,), (-1,), (1, 5), (-1, 5)]:
            same(m.plain, converted, *args)
        same(m.plain, converted, -1, z=9)


def test_converting_a_converted_function_returns_it(m):
    """``ag.convert(ag.convert(f))``, ``ag.to_graph`` of an ``@ag.convert`` function, a
    method or partial of one, ``ag.function`` of one: the conversion is kept (it used
    to be refused as if its file had changed)."""
    converted = ag.convert(m.plain)
    assert ag.convert(converted) is converted
    assert ag.to_graph(converted) is converted
    assert ag.to_graph(converted, recursive=False) is converted
    assert ag.to_graph(functools.partial(converted, 1)).func is converted
    same(m.plain, ag.convert(ag.convert(m.plain)), 2)
    assert ag.to_code(converted) == ag.to_code(m.plain)
    assert float(ag.function(converted)(np.float64(-1.0))) == m.plain(-1.0)


def test_to_code_of_plain_function(m):
    assert canonical(ag.to_code(m.plain)) == canonical(textwrap.dedent('''\
        def plain(x, y=2, *, z=3):
            """Plain docstring."""
            r = ag__.Undefined('r')

            def if_body(r):
                r = x + y
                return (r,)

            def else_body(r):
                r = z
                return (r,)
            r, = ag__.branch(x > 0, if_body, else_body, ('r',))(r)
            return r
        '''))
    # to_code of the converted function shows the same source.
    assert ag.to_code(ag.to_graph(m.plain)) == ag.to_code(m.plain)


def test_metadata_is_kept(m):
    f = ag.to_graph(m.plain)
    assert f.__name__ == "plain"
    assert f.__qualname__ == "plain"
    assert f.__module__ == m.__name__
    assert f.__doc__ == "Plain docstring."
    assert f.__wrapped__ is m.plain
    assert f.__defaults__ == (2,)
    assert f.__kwdefaults__ == {"z": 3}
    assert f.__kwdefaults__ is not m.plain.__kwdefaults__
    assert inspect.signature(f) == inspect.signature(m.plain)


def test_closure_with_nonlocal_shares_the_variable(m):
    inc = m.make_counter(0)
    converted = ag.to_graph(inc)
    assert converted(3) == 3
    assert inc(1) == 4  # the original sees the converted function's writes
    with force_staged():
        assert converted(2) == 6
    assert inc(0) == 6
    assert canonical(ag.to_code(inc)) == canonical(textwrap.dedent("""\
        def inc(k):
            nonlocal n

            def loop_body(_):
                nonlocal n
                n += 1
                return ()

            def get_shared():
                return (ag__.ldu(lambda: n, 'n'),)

            def set_shared(ag__values):
                nonlocal n
                n = ag__values[0]
            loop = ag__.for_loop(ag__.converted(range)(k), loop_body, (), (), shared=(get_shared, set_shared, ('n',)))
            for itr in loop:
                loop.state = loop_body(itr, *loop.state)
            return n
        """))


def test_lambda(m):
    converted = ag.to_graph(m.square)
    for v in (3, -1, 0):
        same(m.square, converted, v)
    assert canonical(ag.to_code(m.square)) == canonical(textwrap.dedent("""\
        def ag__lambda(v):
            return ag__.choose(v > 0, lambda: v * v, lambda: 0)()
        """))


def test_bound_and_unbound_methods_with_private_names(m):
    k = m.K()
    bound = ag.to_graph(k.method)
    assert bound.__self__ is k
    same(k.method, bound, 25)
    same(m.K.method, ag.to_graph(m.K.method), k, 25)
    assert "self._K__secret" in ag.to_code(m.K.method)


def test_super_and_private_names(m):
    k = m.K()
    converted = ag.to_graph(k.sup)
    for x in (0, 1, 5):
        same(k.sup, converted, x)
    assert "super(__class__, self).go" in ag.to_code(k.sup)


def test_static_and_class_methods(m):
    same(m.K.st, ag.to_graph(m.K.st), -3)
    same(m.K.cm, ag.to_graph(m.K.cm), 1)
    same(m.K.cm, ag.to_graph(m.K.cm), 0)
    raw_static = ag.to_graph(m.K.__dict__["st"])
    raw_class = ag.to_graph(m.K.__dict__["cm"])
    assert type(raw_static) is staticmethod and type(raw_class) is classmethod
    assert calls.made_by_conversion(raw_static.__func__.__code__)
    assert calls.made_by_conversion(raw_class.__func__.__code__)
    assert ag.to_code(m.K.__dict__["st"]) == ag.to_code(m.K.st)


def test_callable_object(m):
    k = m.K()
    converted = ag.to_graph(k)
    same(k, converted, 3)
    same(k, converted, 0)
    assert calls.made_by_conversion(converted.__func__.__code__)
    assert ag.to_code(k).startswith("def __call__(self, x):\n")


def test_callable_object_with_static_or_class_call(m):
    """A ``staticmethod`` ``__call__`` gets the call's arguments only, a
    ``classmethod`` one the class: converted directly and through converted calls."""
    for obj, args in [(m.StaticCall(), [(3,), (-2,), (3, 5)]), (m.ClassCall(), [(3,), (-2,)])]:
        converted = ag.to_graph(obj)
        for a in args:
            same(obj, converted, *a)
    same(m.call_objects, ag.convert(m.call_objects), 3)
    same(m.call_objects, ag.convert(m.call_objects), -3)


def test_a_function_that_replaces_its_code_runs_its_new_code(m):
    """The conversion cache notices that ``f.__code__`` is not the code it
    converted (it used to run the stale conversion: endless recursion)."""
    converted = ag.convert(m.calls_argmap)
    with force_staged():
        assert converted(3) == 31
        assert converted(-3) == 4
    assert m.argmap_stub.__code__ is m._argmap_real.__code__
    assert converted(2) == m.calls_argmap(2) == 21


def test_partial(m):
    partial = functools.partial(m.plain, y=10)
    converted = ag.to_graph(partial)
    assert isinstance(converted, functools.partial)
    assert converted.keywords == {"y": 10}
    assert calls.made_by_conversion(converted.func.__code__)
    same(partial, converted, 1)
    same(partial, ag.convert(partial), -1)
    assert ag.to_code(partial) == ag.to_code(m.plain)


def test_decorated_with_functools_wraps(m):
    converted = ag.to_graph(m.decorated)
    assert converted.__name__ == "decorated"
    assert converted.__doc__ == "Decorated docstring."
    assert converted.__wrapped__ is m.decorated
    assert inspect.unwrap(converted) is m.decorated.__wrapped__
    for x in (0, 4):
        same(m.decorated, converted, x)
    # What runs is the wrapper; under a trace it converts the function it wraps.
    assert canonical(ag.to_code(m.decorated)) == canonical(textwrap.dedent("""\
        def wrapper(*a, **k):
            return ag__.converted(f)(*a, **k)
        """))


def test_generators_and_coroutines_are_returned_unchanged(m):
    assert ag.to_graph(m.gen) is m.gen
    assert ag.convert(m.gen) is m.gen
    assert list(ag.to_graph(m.gen)(3)) == [0, 2, 4]
    with force_staged():
        assert list(ag.to_graph(m.gen)(3)) == [0, 2, 4]
    assert ag.to_graph(m.coro) is m.coro
    assert asyncio.run(ag.to_graph(m.coro)(1)) == 2
    assert ag.to_code(m.gen).startswith("def gen(n):\n    for i in range(n):\n")


def test_do_not_convert_marks_and_returns_the_function(m):
    assert getattr(m.dnc, calls.DO_NOT_CONVERT) is True
    assert calls.converted(m.dnc) is m.dnc
    assert calls.converted(m.loopy) is not m.loopy


@pytest.mark.parametrize("name", ["plain", "make_counter", "square", "caller", "loop_raiser", "raiser"])
def test_to_code_output_compiles(m, name):
    compile(ag.to_code(getattr(m, name)), "<to_code>", "exec")


def test_to_code_of_methods_compiles(m):
    for fn in (m.K.method, m.K.sup, m.K.st, m.K.cm, m.K.__call__, m.decorated):
        compile(ag.to_code(fn), "<to_code>", "exec")


# --- the cache ---------------------------------------------------------------------


def test_converting_twice_reuses_the_compiled_code(m, monkeypatch):
    first = ag.to_graph(m.loopy)
    code_before = ag.to_code(m.loopy)

    def fail(*args):
        raise AssertionError("converted again")

    monkeypatch.setattr(conversion, "_convert_code", fail)
    second = ag.to_graph(m.loopy)
    # the same compiled code (the torch backend gives each entry point a copy of it)
    assert second.__code__.co_code == first.__code__.co_code
    assert ag.to_code(m.loopy) == code_before


def test_new_closure_instances_reuse_the_compiled_code(m, monkeypatch):
    first = ag.to_graph(m.make_counter(0))
    monkeypatch.setattr(conversion, "_convert_code", lambda *args: pytest.fail("converted again"))
    converted = [ag.to_graph(m.make_counter(start)) for start in range(10)]
    assert all(c.__code__.co_code == first.__code__.co_code for c in converted)
    # ... and each keeps its own cell.
    assert [c(1) for c in converted] == list(range(1, 11))


# --- recursive conversion ------------------------------------------------------------


@pytest.fixture
def conversions(monkeypatch):
    """The user functions converted code asks ``calls`` to convert, in order."""
    asked = []
    convert = calls._converter

    def recording(fn):
        result = convert(fn)
        asked.append((fn, result))
        return result

    monkeypatch.setattr(calls, "_converter", recording)
    return asked


def test_staged_call_converts_helpers_and_leaves_library_and_do_not_convert(m, conversions):
    calls.forget(m.loopy)
    converted = ag.to_graph(m.caller)
    m.RAN.clear()
    with force_staged():
        assert converted(4) == m.caller(4) == 6 + 6 + 6
    (fn, helper), = [(f, r) for f, r in conversions if f is m.loopy]
    assert helper is not m.loopy and calls.made_by_conversion(helper.__code__)
    assert all(f is not m.dnc for f, _ in conversions)
    assert m.RAN == [("dnc", False), ("dnc", False)]  # staged call, then the original's
    # int, np.sum, np.arange: their staged-aware versions (numpy's are NumPy itself unless
    # a staged argument of a backend NumPy cannot take comes); the numpy library is not converted
    code = ag.to_code(m.caller)
    assert code.count("ag__.converted(") == 5 and "ag__.converted(int)" in code
    assert "ag__.converted(np.sum)" in code and "ag__.converted(np.arange)" in code
    assert all(not getattr(f, "__module__", "").startswith("numpy") for f, _ in conversions)


def test_default_path_calls_helpers_as_they_are(m, conversions):
    calls.forget(m.loopy)
    assert ag.to_graph(m.caller)(4) == 18
    assert conversions == []


def test_recursive_false_does_not_convert_helpers(m, conversions):
    calls.forget(m.loopy)
    converted = ag.convert(recursive=False)(m.caller)
    with force_staged():
        assert converted(4) == 18
    assert conversions == []


def test_numpy_functions_are_called_as_they_are(m, conversions):
    calls.forget(m.loopy)
    converted = ag.to_graph(m.apply)
    for fn in (np.sum, np.asarray_chkfinite, np.base_repr):
        # not converted: NumPy's own function, behind a check for staged arguments that
        # NumPy cannot take (runtime.numpy_calls)
        assert calls.converted(fn).__wrapped__ is fn
    with force_staged():
        assert converted(np.sum, np.arange(4)) == 6
        assert converted(np.base_repr, 5) == "101"
        assert converted(m.loopy, 4) == 6
    assert [f for f, _ in conversions] == [m.loopy]


def test_the_cache_of_converted_helpers_is_weak_and_leaves_functions_untouched(m):
    def make(k):
        def helper(x):
            return x + k
        return helper

    fresh = make(1)
    converted = calls.converted(fresh)
    assert converted is not fresh and converted(1) == 2
    assert "__autograph_converted__" not in vars(fresh) and vars(fresh) == {}
    import gc
    import weakref

    alive = weakref.ref(fresh)
    del fresh, converted
    gc.collect()
    assert alive() is None  # the cache kept nothing alive


# --- tracebacks ----------------------------------------------------------------------


@pytest.mark.parametrize("staged", [False, True], ids=["default", "staged"])
def test_traceback_points_at_user_line(m, staged):
    converted = ag.to_graph(m.raiser)
    with pytest.raises(KeyError) as info:
        if staged:
            with force_staged():
                converted(1)
        else:
            converted(1)
    assert type(info.value) is KeyError and info.value.args == (2,)
    frames = traceback.extract_tb(info.value.__traceback__)
    line = _line_of(m, "raise KeyError(y)")
    assert (frames[-1].filename, frames[-1].lineno) == (m.__file__, line)
    assert frames[-1].line == "raise KeyError(y)"
    user = [f for f in frames if f.filename == m.__file__]
    if staged:  # the converted function, entered at its def, ran its staged body
        assert user[0].line == "def raiser(x):" and user[0].name == user[1].name == "raiser"
        user = user[1:]
    # Outer frames show the raise, or (Python < 3.11 line tables) the if that runs it.
    assert user and all(f.lineno in (line, _line_of(m, "if y > 0:")) for f in user)
    assert all(not f.filename.startswith("<") for f in frames[1:])


@pytest.mark.parametrize("staged", [False, True], ids=["default", "staged"])
def test_traceback_in_loop_points_at_user_line(m, staged):
    converted = ag.to_graph(m.loop_raiser)
    with pytest.raises(ZeroDivisionError) as info:
        if staged:
            with force_staged():
                converted([1, 2, 3])
        else:
            converted([1, 2, 3])
    frames = traceback.extract_tb(info.value.__traceback__)
    assert (frames[-1].filename, frames[-1].lineno) == (m.__file__, _line_of(m, "t = t / 0"))


def _guarded_after_break(x):
    i = 0
    while i < 10:
        i += 1
        if i > 3:
            if x > 0:
                break
            i += 2
        y = i * x  # guarded: runs only if the loop did not break
    return i


def test_a_guard_carries_the_line_of_what_it_guards():
    from autograph import conversion

    staged = conversion.staged_source_node(_guarded_after_break)
    guards = [
        n for n in gast.walk(staged)
        if isinstance(n, gast.Call) and isinstance(n.func, gast.Attribute) and n.func.attr == "not_"
        and isinstance(n.args[0], gast.Name) and n.args[0].id.startswith("break_")
    ]
    lines = inspect.getsource(_guarded_after_break).splitlines()
    first = _guarded_after_break.__code__.co_firstlineno
    guarded_line = first + next(i for i, line in enumerate(lines) if "y = i * x" in line)
    assert {g.lineno for g in guards} >= {guarded_line}


# --- errors ----------------------------------------------------------------------------


def test_builtin_is_rejected():
    with pytest.raises(ag.ConversionError) as info:
        ag.to_graph(len)
    assert str(info.value) == (
        "cannot convert <built-in function len>: autograph converts functions, methods, "
        "lambdas, functools.partial objects and callable objects"
    )
    with pytest.raises(ag.ConversionError) as info:
        ag.to_code(len)
    assert str(info.value) == "cannot convert <built-in function len>: not a Python function"


def test_source_unavailable_is_rejected():
    namespace: dict = {}
    exec("def from_exec(x):\n    return x if x else 1\n", namespace)
    expected = (
        "cannot convert from_exec: its source code is not available (could not get source code). "
        "Define it in a file, or mark it with autograph.do_not_convert."
    )
    with pytest.raises(ag.ConversionError) as info:
        ag.to_graph(namespace["from_exec"])
    assert str(info.value) == expected
    with pytest.raises(ag.ConversionError) as info:
        ag.to_code(namespace["from_exec"])
    assert str(info.value) == expected


def test_conversion_error_is_exported():
    assert issubclass(ag.ConversionError, Exception)
    assert ag.ConversionError is sys.modules["autograph.runtime.staging.errors"].ConversionError


def test_identical_functions_in_two_files_keep_their_own_file(tmp_path):
    source = "def twin(x):\n    if x:\n        raise KeyError(x)\n    return x\n"
    modules = []
    for name in ("twin_a", "twin_b"):
        (tmp_path / name).mkdir()
        path = tmp_path / name / "twin.py"
        path.write_text(source, encoding="utf-8")
        spec = importlib.util.spec_from_file_location(f"{name}_twin", path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        modules.append(module)
    for module in modules:
        with pytest.raises(KeyError) as info:
            ag.to_graph(module.twin)(1)
        assert traceback.extract_tb(info.value.__traceback__)[-1].filename == module.__file__


def _with_nested(x):
    def inner(y):
        while y > 10:
            y -= 10
        return y

    return inner(x)


def test_to_code_shows_nested_functions_in_their_staged_form():
    code = ag.to_code(_with_nested)
    assert "ag__.mode" not in code
    assert canonical(code) == canonical(textwrap.dedent("""\
        def _with_nested(x):

            def inner(y):

                def loop_test(y):
                    return y > 10

                def loop_body(y):
                    y -= 10
                    return (y,)
                loop = ag__.while_loop(loop_test, loop_body, (y,), ('y',))
                for state in loop:
                    loop.state = loop_body(*state)
                y, = loop.state
                return y
            return ag__.converted(inner)(x)
        """))
    assert ag.to_graph(_with_nested)(35) == 5  # the compiled code still runs it as Python
    with force_staged():
        assert ag.to_graph(_with_nested)(35) == 5


def test_to_code_of_a_partial_of_a_builtin_names_it():
    with pytest.raises(ag.ConversionError) as info:
        ag.to_code(functools.partial(len))
    assert str(info.value) == ("cannot convert functools.partial(<built-in function len>): "
                               "<built-in function len> is not a Python function")


def _absolute(x):
    return x if x > 0 else -x


class _Model:
    @ag.function
    def absolute(self, x):
        return x if x > 0 else -x


def test_to_code_of_an_ag_function_shows_the_users_function():
    graph_fn = ag.function(_absolute)
    assert graph_fn.python_function is _absolute
    assert ag.to_code(graph_fn) == ag.to_code(_absolute)
    expected = canonical(textwrap.dedent("""\
        def absolute(self, x):
            return ag__.choose(x > 0, lambda: x, lambda: -x)()
        """))
    assert canonical(ag.to_code(_Model.absolute)) == expected  # the class's function
    assert canonical(ag.to_code(_Model().absolute)) == expected  # one instance's
