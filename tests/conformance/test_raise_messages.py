"""A raise's message that shows staged values is made at run time (issue 22 leftovers, 1).

Eager Python formats the message from the values it has; under ``ag.function`` the
message shows the run-time values in the same way (``str``, ``repr``, format specs,
``%`` formatting with ``%s``, ``%d``, ``%.3f``..., values passed as the exception's
arguments), never the symbolic
tensor's text. JAX's compiled code cannot raise, so there the raise stays a
StagingError (issue 9.12).
"""

import re

import numpy as np


def f_string(x, y):
    if x > 1:
        raise ValueError(f"x={x} is too big (y={y:.3f}, sum {x + y!r})")
    return x + y


def percent(x, y):
    if x < 0:
        raise ValueError("negative: %s and %s" % (x, str(y)))
    return x


def as_argument(x):
    if x < 0:
        raise ValueError("negative", x)
    return x


def counted(x):
    n = 0
    while x > 1:
        x = x / 2
        n += 1
    if n > 3:
        raise RuntimeError(f"Failed to converge after {n + 1} iterations, value is {x}.")
    return x, n


def format_method(x):
    if x > 1:
        raise ValueError("x={:.2e} and {}".format(x, repr(x * 2)))
    return x


def _exactly(text):
    return "^" + re.escape(text) + "$"


def _numpy_only(backend, fn, good, bad, text, exc=ValueError):
    if not backend.raises_at_run_time:
        error = backend.staging_error(fn, *good)
        assert error.startswith("raise in a staged branch at "), error
        return
    backend = backend.numpy_code()  # NumPy code: its messages show NumPy's texts
    backend.check(fn, *good)
    backend.check_raises(fn, exc, _exactly(text), *bad)


def test_f_string_with_format_specs_and_repr(backend):
    _numpy_only(backend, f_string, (np.float64(0.5), np.float64(2.0)),
                (np.float64(3.0), np.float64(2.0)),
                "x=3.0 is too big (y=2.000, sum np.float64(5.0))")


def test_percent_formatting_and_str(backend):
    if backend.raises_at_run_time and not backend.shows_arrays_in_messages:
        where = backend.at(percent, 'raise ValueError("negative: %s and %s" % (x, str(y)))')
        assert backend.staging_error(percent, np.float64(0.5), np.arange(2.0)) == (
            f"raise in a staged branch at {where}: "
            f"its message shows a tensor of shape (2,) with str(), and under "
            f"{backend.compiler} the message is made when the graph runs, with "
            f"{backend.framework}'s string ops, which show only single numbers (str, repr, and "
            f"the formats d, f, e, g with a width and precision) as Python does. Show single "
            f"items (x[0]) or a summary (x.max()) in the message, or check the condition "
            f"outside {backend.compiler}.")
        return
    _numpy_only(backend, percent, (np.float64(0.5), np.arange(2.0)),
                (np.float64(-3.0), np.arange(2.0)), "negative: -3.0 and [0. 1.]")


def test_value_as_the_exception_argument(backend):
    _numpy_only(backend, as_argument, (np.int32(2),), (np.int32(-7),),
                "('negative', np.int32(-7))")


def test_python_int_counter_shown_as_python_shows_it(backend):
    _numpy_only(backend, counted, (np.float64(5.0),), (np.float64(40.0),),
                "Failed to converge after 7 iterations, value is 0.625.", RuntimeError)


def test_str_format_method(backend):
    _numpy_only(backend, format_method, (np.float64(0.5),), (np.float64(1234.5),),
                "x=1.23e+03 and np.float64(2469.0)")


def test_the_graph_keeps_the_raise(backend):
    if backend.engine == "numpy":
        import autograph as ag

        staged = ag.function(f_string)
        assert staged(np.float64(0.5), np.float64(1.0)) == 1.5
        assert "raise ValueError" in str(staged.get_concrete_function(
            np.float64(0.5), np.float64(1.0)).graph)


def percent_numbers(x, n):
    it = 0
    while x > 1:
        x = x / 2
        it += 1
    if it > 3:
        raise RuntimeError("%s: %d iterations, value %.4f (%5.1e%%)" % (n, it, x, x))
    return x


def percent_mapping(x):
    if x > 1:
        raise ValueError("x=%(x).2f is above %(limit)d" % {"x": x, "limit": 1})
    return x


def test_percent_conversions_of_numbers(backend):
    _numpy_only(backend, percent_numbers, (np.float64(3.0), "f"), (np.float64(100.0), "f"),
                "f: 7 iterations, value 0.7812 (7.8e-01%)", RuntimeError)
    _numpy_only(backend, percent_mapping, (np.float64(0.5),), (np.float64(2.5),),
                "x=2.50 is above 1")


def format_specs(x, k):
    if x > 1:
        raise ValueError(f"{x} {x:+09.3f} {x:<10.2e}|{x:^9.1f}|{x:g} {k:5d} {k} {x * 1e20} "
                         f"{-x / 1e7} {x:.0f}")
    return x


def test_format_specs_of_numbers(backend):
    _numpy_only(backend, format_specs, (np.float64(0.5), np.int64(3)),
                (np.float64(1234.5678), np.int64(-42)),
                "1234.5678 +1234.568 1.23e+03  |" + " 1234.6  |" + "1234.57   -42 -42 "
                "1.2345678e+23 -0.00012345678 1235")
