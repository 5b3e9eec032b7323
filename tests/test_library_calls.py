"""Converted code calls the standard library as it is, however its modules were
loaded: from files, frozen into the interpreter (``<frozen posixpath>``), built in
or zipped; and a user module that shadows a standard name is still user code."""

from __future__ import annotations

import codecs
import collections.abc
import io
import logging
import os.path
import sys
import types
import warnings

import pytest

import autograph as ag
from autograph.runtime.operators import calls
from autograph.runtime.staging.mode import force_staged


def _uses_stdlib(parts, mapping, data):
    if parts:
        path = os.path.join(*parts)
    else:
        path = ""
    keys = sorted(collections.abc.Mapping.keys(mapping)) if mapping else []
    reader = codecs.getreader("utf-8")(io.BytesIO(data))
    return path, keys, reader.read()


FROZEN = [os.path.join, collections.abc.Mapping.keys, codecs.StreamReader.read, codecs.getreader("utf-8").read]


@pytest.mark.parametrize("fn", FROZEN, ids=lambda f: f.__qualname__)
def test_standard_library_is_library(fn):
    assert calls.is_library(fn)
    assert calls.converted(fn) is fn


@pytest.mark.parametrize("staged", [False, True], ids=["python", "staged"])
def test_converted_code_calls_frozen_modules_without_warning(staged):
    converted = ag.to_graph(_uses_stdlib)
    args = (["a", "b"], {"k": 1, "j": 2}, "é".encode())
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        if staged:
            with force_staged():
                got = converted(*args)
        else:
            got = converted(*args)
    assert got == _uses_stdlib(*args)


def test_user_module_shadowing_a_standard_name_is_converted(tmp_path, monkeypatch):
    (tmp_path / "calendar.py").write_text("def f(x):\n    return x if x else 0\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "calendar", raising=False)
    calls._origins.pop("calendar", None)
    import calendar

    try:
        assert not calls.is_library(calendar.f)
    finally:
        calls._origins.pop("calendar", None)
        sys.modules.pop("calendar", None)


def test_module_that_is_not_loaded_is_not_taken_for_the_standard_library():
    fn = types.FunctionType((lambda x: x).__code__, {"__name__": "fractions_not_loaded"})
    fn.__module__ = "tabnanny"
    sys.modules.pop("tabnanny", None)
    calls._origins.pop("tabnanny", None)
    assert not calls.is_library(fn)


def test_calls_keep_no_object_alive():
    """What ``converted`` caches holds no object a call was bound to: a bound
    builtin method (``d.get``) of an object that is then dropped is collected."""
    import gc
    import weakref

    class Box(dict):
        pass

    box = Box(a=1)
    assert calls.converted(box.get)("a") == 1
    assert calls.converted(box.keys) is not None
    ref = weakref.ref(box)
    del box
    gc.collect()
    assert ref() is None


def test_numpy_methods_keep_no_object_alive():
    """A NumPy method (``rng.normal``, ``a.dot``) goes through ``numpy_calls`` without
    being cached: its object is collected once the program drops it."""
    import gc
    import weakref

    import numpy as np

    class Array(np.ndarray):
        pass

    from autograph.runtime.operators import numpy_calls

    a = np.ones(2).view(Array)
    assert calls.converted(a.dot)(np.ones(2)) == 2.0
    ref = weakref.ref(a)
    del a
    gc.collect()
    assert ref() is None
    rng = np.random.RandomState(0)  # (no weak references to it)
    assert calls.converted(rng.uniform)(size=2).shape == (2,)
    assert not any(getattr(f, "__self__", None) is rng
                   for f in [*calls._cache, *numpy_calls._routed])


def test_code_an_installed_package_generates_is_library(monkeypatch):
    """A function an installed package made with ``exec`` (six's ``raise_from``) has
    no source to convert: it is called as is, with no warning."""
    namespace = {"__name__": "installed_pkg"}
    exec(compile("def raise_from(value, cause):\n    raise value from cause\n", "<string>", "exec"), namespace)
    package = types.ModuleType("installed_pkg")
    package.__spec__ = types.SimpleNamespace(origin="/usr/lib/python3/site-packages/installed_pkg/__init__.py")
    monkeypatch.setitem(sys.modules, "installed_pkg", package)
    calls._origins.pop("installed_pkg", None)
    try:
        assert calls.is_library(namespace["raise_from"])
    finally:
        calls._origins.pop("installed_pkg", None)


def test_a_user_function_without_source_is_called_unconverted_with_a_log_record(caplog):
    """Converted code calling a function made by ``exec`` in the user's code (toolz's
    tests make them) calls it as is and says so on the ``autograph`` logger, not as a
    Python warning: under ``-W error`` a warning would raise inside the caller."""
    namespace: dict = {"__name__": __name__}
    exec(compile("def made(x):\n    return x + 1\n", "<made-by-exec>", "exec"), namespace)
    made = namespace["made"]

    def caller(x):
        return made(x) * 2

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with force_staged(), caplog.at_level(logging.WARNING, logger="autograph"):
            assert ag.convert(caller)(1) == 4
    assert [r.getMessage() for r in caplog.records if r.name == "autograph"] == [
        "autograph: calling made unconverted: cannot convert made: its source code is not "
        "available (could not get source code). Define it in a file, or mark it with "
        "autograph.do_not_convert."]


class _Stepper:
    def __init__(self, scale):
        self.scale = scale

    def step(self, x):
        if x > 0:
            return x * self.scale
        return -x


def _steps(obj, x):
    total = 0.0
    for _ in range(3):
        total = total + obj.step(x)
    return total


def test_methods_resolved_once_follow_a_replaced_code_and_keep_no_object_alive():
    """``obj.step(x)`` from a staged body (a new bound method at every call) runs the
    converted method, as the original does; after the method's function replaces its
    ``__code__`` the new code runs; and what is cached for it keeps no object alive."""
    import gc
    import weakref

    import numpy as np

    converted = ag.convert(_steps)
    original_code = _Stepper.step.__code__
    try:
        for x in (np.float64(2.0), np.float64(-2.0)):
            with force_staged():
                assert converted(_Stepper(3.0), x) == _steps(_Stepper(3.0), x)
        _Stepper.step.__code__ = (lambda self, x: x + self.scale).__code__
        with force_staged():
            assert converted(_Stepper(3.0), np.float64(2.0)) == _steps(_Stepper(3.0), np.float64(2.0)) == 15.0
    finally:
        _Stepper.step.__code__ = original_code
    obj = _Stepper(1.0)
    with force_staged():
        converted(obj, np.float64(1.0))
    ref = weakref.ref(obj)
    del obj
    gc.collect()
    assert ref() is None
