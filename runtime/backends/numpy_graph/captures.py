"""Warnings about values a trace fixes into the graph, shown at the user's line.

A trace runs the Python function once; whatever it computes from Python values
becomes a constant of the graph. For most values that is the point (Python
arguments, shapes, configuration), but ``np.random`` (and Python's ``random``) draws
numbers too: called inside an ``autograph.function`` it runs while tracing, and every
call of the graph returns the same numbers. ``watch_random`` reports each such call
once per trace, naming the call and the user's line, with the fix.

While a trace runs, the drawing functions of ``np.random`` and ``random`` are
wrapped by ones that report a call made by the tracing thread; other threads see no
difference. The Generators, RandomStates and ``random.Random`` objects the function
reads from its globals or closure are compared before and after the trace, and named
if they drew. A name imported before (``from numpy.random import normal``) and a
generator reached through an attribute or an argument are not seen: the README lists
them among the trace-time captures.

``warn_outside_library`` issues a warning attributed to the first frame outside
autograph, so a warning points at the user's call, not into the library.
"""

from __future__ import annotations

import contextlib
import functools
import linecache
import os
import random as python_random
import sys
from sys import _getframe  # the runtime's own: a user may take it off sys
import threading
import warnings
from typing import Any, Iterator

import numpy as np

from . import trace

_PACKAGE_DIR = os.path.dirname(os.path.abspath(sys.modules[__name__.split(".")[0]].__file__ or ""))
LIBRARY_DIRS = tuple(sorted({_PACKAGE_DIR + os.sep, trace._RUNTIME_DIR + os.sep}))


class TraceTimeWarning(UserWarning):
    """A value was fixed into a graph while tracing: ``np.random`` (or ``random``) drawn from.

    The numbers drawn while tracing become constants of the graph, so every
    call returns the same ones. The warning names the call and its line. To get
    new numbers per call, draw them outside and pass them as an argument.

    Example:
        >>> import warnings
        >>> import numpy as np
        >>> import autograph as ag
        >>> @ag.function
        ... def noisy(x):
        ...     return x + np.random.normal(size=x.shape)
        >>> with warnings.catch_warnings(record=True) as caught:
        ...     warnings.simplefilter("always")
        ...     first = noisy(np.zeros(2))
        >>> [w.category.__name__ for w in caught]
        ['TraceTimeWarning']
        >>> bool(np.all(noisy(np.zeros(2)) == first))  # the same numbers again
        True
    """


def warn_outside_library(message: str, category: type[Warning]) -> None:
    """``warnings.warn`` attributed to the innermost frame outside autograph."""
    if sys.version_info >= (3, 12):
        warnings.warn(message, category, skip_file_prefixes=LIBRARY_DIRS)
        return
    frame, level = _getframe(0), 1
    while frame is not None and frame.f_code.co_filename.startswith(LIBRARY_DIRS):
        frame, level = frame.f_back, level + 1
    warnings.warn(message, category, stacklevel=level)


# np.random's functions that draw from its global generator (and ``default_rng``,
# which draws fresh entropy when called without a seed).
_DRAWS = (
    "beta", "binomial", "bytes", "chisquare", "choice", "default_rng", "dirichlet",
    "exponential", "f", "gamma", "geometric", "gumbel", "hypergeometric", "laplace",
    "logistic", "lognormal", "logseries", "multinomial", "multivariate_normal",
    "negative_binomial", "noncentral_chisquare", "noncentral_f", "normal", "pareto",
    "permutation", "poisson", "power", "rand", "randint", "randn", "random",
    "random_integers", "random_sample", "ranf", "rayleigh", "sample", "shuffle",
    "standard_cauchy", "standard_exponential", "standard_gamma", "standard_normal",
    "standard_t", "triangular", "uniform", "vonmises", "wald", "weibull", "zipf",
)
# Python's ``random`` module: the functions that draw from its hidden ``Random``.
_PYTHON_DRAWS = (
    "betavariate", "binomialvariate", "choice", "choices", "expovariate", "gammavariate",
    "gauss", "getrandbits", "lognormvariate", "normalvariate", "paretovariate", "randbytes",
    "randint", "random", "randrange", "sample", "shuffle", "triangular", "uniform",
    "vonmisesvariate", "weibullvariate",
)
# (module, how the message names it, its drawing functions)
_SOURCES = (("numpy.random", "np.random", _DRAWS), ("random", "random", _PYTHON_DRAWS))
_lock = threading.Lock()
_watching: dict = {}  # thread id -> (traced function's name, call sites already reported)
_originals: dict = {}  # (module, name) -> its own function, while the watch is installed
_wrappers: dict = {}  # (module, name) -> the watching wrapper of it, made once


def _watched(call: str, original):
    seeding = call == "np.random.default_rng"

    @functools.wraps(original)
    def draw(*args, **kwargs):
        watch = _watching.get(threading.get_ident())
        seeded = seeding and (args[0] if args else kwargs.get("seed")) is not None
        if watch is not None and not seeded:
            _report(watch, call, _getframe(1))
        return original(*args, **kwargs)

    if not getattr(original, "__module__", None):  # ``random``'s bound methods name none,
        draw.__module__ = __name__  # and converted code would convert a function of none

    return draw


def _report(watch, call: str, frame) -> None:
    while frame is not None and frame.f_code.co_filename.startswith(LIBRARY_DIRS):
        frame = frame.f_back
    if frame is None:
        return
    function_name, seen = watch
    where = (frame.f_code.co_filename, frame.f_lineno)
    if where in seen:
        return
    seen.add(where)
    warnings.warn_explicit(_random_message(function_name, call, where), TraceTimeWarning,
                           where[0], where[1])


@contextlib.contextmanager
def watch_random(function_name: str, fn: Any = None) -> Iterator[None]:
    """Warn once per call site about ``np.random`` draws made by this thread while
    the block runs. ``np.random``'s drawing functions are wrapped while any thread
    watches, and restored when the last watch ends. Generators that ``fn`` reads
    from its globals or closure are checked too: by their state, after the block."""
    generators = [(name, g, _state(g)) for name, g in _generators_of(fn)]
    with _watching_np_random(function_name):
        yield
    for name, generator, before in generators:
        if not _same(before, _state(generator)):
            code = fn.__code__
            warnings.warn_explicit(
                f"autograph.function '{function_name}': the {type(generator).__name__} '{name}' "
                f"drew numbers while tracing, so they are constants of the graph and every call "
                f"returns the same ones. For new numbers on each call, draw them outside the "
                f"function and pass them as an argument (f(x, {name}.{_draw_example(generator)})).",
                TraceTimeWarning, code.co_filename, code.co_firstlineno)


@contextlib.contextmanager
def _watching_np_random(function_name: str) -> Iterator[None]:
    import random  # noqa: F401  (imported here so that sys.modules holds both)
    import numpy.random  # noqa: F401  NumPy imports it on first use of np.random

    me = threading.get_ident()
    with _lock:
        if not _watching:
            for module_name, label, draws in _SOURCES:
                module = sys.modules[module_name]
                for name in draws:
                    original = getattr(module, name, None)
                    if original is not None:
                        key = (module, name)
                        _originals[key] = original
                        wrapper = _wrappers.get(key)
                        if wrapper is None or wrapper.__wrapped__ is not original:
                            wrapper = _wrappers[key] = _watched(f"{label}.{name}", original)
                        setattr(module, name, wrapper)
        outer = _watching.get(me)  # a trace started while this thread traces another
        _watching[me] = (function_name, set())
    try:
        yield
    finally:
        with _lock:
            if outer is None:
                del _watching[me]
            else:
                _watching[me] = outer
            if not _watching:
                for (module, name), original in _originals.items():
                    setattr(module, name, original)
                _originals.clear()


def _generators_of(fn) -> list:
    """(name, object) of the np.random Generators and RandomStates that ``fn``'s code
    (nested functions included) reads from its globals or closure."""
    import numpy.random as random

    code = getattr(fn, "__code__", None)
    if code is None:
        return []
    names: set = set()
    stack = [code]
    while stack:
        c = stack.pop()
        names.update(c.co_names)
        names.update(c.co_freevars)
        stack.extend(k for k in c.co_consts if hasattr(k, "co_names"))
    values = {n: fn.__globals__[n] for n in names if n in getattr(fn, "__globals__", {})}
    for name, cell in zip(code.co_freevars, fn.__closure__ or ()):
        try:
            values[name] = cell.cell_contents
        except ValueError:  # an empty cell
            pass
    kinds = (random.Generator, random.RandomState, python_random.Random)
    return [(n, v) for n, v in sorted(values.items()) if isinstance(v, kinds)]


def _state(generator):
    import numpy.random as random

    if isinstance(generator, random.Generator):
        return generator.bit_generator.state
    if isinstance(generator, python_random.Random):
        return generator.getstate()
    return generator.get_state(legacy=False)


def _draw_example(generator) -> str:
    return "random()" if isinstance(generator, python_random.Random) else "normal(size=n)"


def _same(a, b) -> bool:
    if isinstance(a, dict):
        return isinstance(b, dict) and a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    if hasattr(a, "shape"):
        return bool(np.array_equal(a, b))
    return a == b


def _random_message(function_name: str, call: str, where: tuple) -> str:
    text = linecache.getline(where[0], where[1]).strip()
    location = f"{where[0]}:{where[1]}" + (f" (`{text}`)" if text else "")
    return (f"autograph.function '{function_name}': {call} at {location} runs while tracing, "
            f"so its numbers become constants of the graph and every call returns the same "
            f"ones. For new numbers on each call, draw them outside the function and pass them "
            f"as an argument (rng = np.random.default_rng(); f(x, rng.normal(size=n))).")
