"""``try``/``except ArithmeticError`` around ops that raise when the graph runs
(issue 22 leftovers, 2: SciPy's ``_cubicmin``/``_quadmin`` under ``np.errstate``).

Under ``np.errstate(divide='raise')`` NumPy raises ``FloatingPointError`` from the op
that divides by zero. Staged, that op runs when the graph runs, long after the
``try`` was traced: the NumPy engine catches the error there and runs the handler,
exactly when eager code would. JAX, PyTorch and TensorFlow never raise floating-point
errors: while one traces, an ``np.errstate`` that asks to raise is refused (a
StagingError naming its line), as under XLA: NumPy code run eagerly takes the handler's
path, which the trace would silently never take (numpy-financial's ``nper``).
"""

import numpy as np


def refused_by_framework(backend, fn, line, *args, **kwargs) -> bool:
    """On a framework's trace: check that ``fn`` is refused at its np.errstate ``line``."""
    if backend.engine == "numpy":
        return False
    text = backend.staging_error(fn, *args, **kwargs)
    assert text.startswith(f"np.errstate at {backend.at(fn, line)} asks for floating-point "
                           f"errors to raise ("), text
    assert text.endswith(
        "is tracing: its operations never raise or call anything on floating-point errors, "
        "so a path that relies on them (a handler of FloatingPointError) would silently not "
        "be taken. Test the values instead (np.isfinite, a comparison with 0), or stage the "
        "function with autograph.function, whose NumPy graph honours np.errstate."), text
    return True


def quadmin(a, fa, fpa, b, fb, xp):
    with np.errstate(divide="raise", over="raise", invalid="raise"):
        try:
            D = fa
            C = fpa
            db = b - a * 1.0
            B = (fb - D - C * db) / (db * db)
            xmin = a - C / (2.0 * B)
        except ArithmeticError:
            return None
    if not xp.isfinite(xmin):
        return None
    return xmin


def fallback(x, xp):
    try:
        with np.errstate(invalid="raise"):
            r = xp.sqrt(x)
    except FloatingPointError:
        r = -x
    return r * 2


def several_handlers(x, y):
    with np.errstate(all="raise"):
        try:
            r = x / y
        except ZeroDivisionError:
            r = x * 0 + 1
        except ArithmeticError:
            r = x * 0 + 2
        else:
            r = r + 10
    return r


def named_handler(x, y):
    with np.errstate(divide="raise"):
        try:
            r = x / y
        except ArithmeticError as e:  # noqa: F841 - the name is the point
            r = x
    return r


def staged_raise_caught(x):
    try:
        if x < 0:
            raise ValueError("negative")
        r = x
    except Exception:
        r = -x
    return r


def test_handler_runs_when_the_graph_raises(backend):
    if refused_by_framework(backend, quadmin,
                            'with np.errstate(divide="raise", over="raise", invalid="raise"):',
                            *map(np.float64, (0, 1, -1, 1, 0.5)), xp=backend.xp):
        return
    if not backend.returns_none_at_run_time:  # None on a staged path: a boundary of ours
        text = backend.staging_error(quadmin, *map(np.float64, (0, 1, -1, 1, 0.5)),
                                     xp=backend.xp)
        assert "returns a value on some staged paths and None on others" in text
        return
    # a valid minimum; B == 0 (FloatingPointError: handler returns None); a maximum (NaN)
    for args in ((0.0, 1.0, -1.0, 1.0, 0.5), (0.0, 1.0, -1.0, 1.0, 0.0),
                 (0.0, 0.0, 1.0, 1.0, -1.0)):
        backend.check(quadmin, *map(np.float64, args), xp=backend.xp)


def test_handler_assigns_a_fallback(backend):
    if refused_by_framework(backend, fallback, 'with np.errstate(invalid="raise"):',
                            np.array([1.0, 4.0]), xp=backend.xp):
        return
    backend.check(fallback, np.array([1.0, 4.0]), xp=backend.xp)
    backend.check(fallback, np.array([1.0, -4.0]), xp=backend.xp)


def test_first_matching_handler_and_else(backend):
    if refused_by_framework(backend, several_handlers, 'with np.errstate(all="raise"):',
                            np.float64(3.0), np.float64(2.0)):
        return
    backend.check(several_handlers, np.float64(3.0), np.float64(2.0))
    backend.check(several_handlers, np.float64(3.0), np.float64(0.0))


def test_named_handler_is_refused(backend):
    if refused_by_framework(backend, named_handler, 'with np.errstate(divide="raise"):',
                            np.float64(3.0), np.float64(2.0)):
        return
    text = backend.staging_error(named_handler, np.float64(3.0), np.float64(2.0))
    assert text == (
        f"try statement at {backend.at(named_handler, 'try:')}: its 'except ArithmeticError "
        f"as ...' catches the FloatingPointError that the graph's operations raise when it "
        f"runs, and a graph can run the handler then but cannot give it the exception "
        f"object. Drop the 'as' name, or check the values before the operation.")


def test_staged_raise_caught_by_its_own_try_runs_the_handler(backend):
    # a raise that ends the try's body through staged ifs: the handler runs staged
    # (tests/conformance/test_handled_raise.py has the rest)
    backend.check(staged_raise_caught, np.float64(1.0))
    backend.check(staged_raise_caught, np.float64(-1.0))


def staged_raise_caught_by_name(x):
    try:
        if x > 0:
            raise ValueError("pos")
        y = x
    except ValueError:
        y = -x
    return y


def test_staged_raise_caught_by_a_handler_of_its_type(backend):
    # any handler of the raised type runs, as in eager Python, not only those that may
    # catch NumPy's floating-point errors
    backend.check(staged_raise_caught_by_name, np.float64(2.0))
    backend.check(staged_raise_caught_by_name, np.float64(-2.0))
