"""``ag.function(jit_compile=True)``: what the XLA lowering adds to the engine's tests.

NumPy's dtype rules checked in one compiled graph per table (one XLA compile, not one
per case); the refusals, pinned; the boundary's effects in program order around a
run-time raise; JAX missing."""

from __future__ import annotations

import itertools
import operator
import sys

import numpy as np
import pytest

import autograph as ag

from python_values import Scale

DTYPES = [np.bool_, np.int8, np.uint8, np.int32, np.int64, np.float16, np.float32, np.float64,
          np.complex64]
SCALARS = [True, 3, -2, 2.5, 1j]
OPS = [operator.add, operator.mul, operator.truediv, operator.floordiv, operator.lt,
       np.maximum, np.arctan2]


def _computes(op, a, b) -> bool:
    with np.errstate(all="ignore"):
        try:
            op(a, b)
        except Exception:  # noqa: BLE001 (refused eagerly: refused while tracing too)
            return False
    return True


def _cases():
    """(op, dtype, scalar, left) for every dtype, Python scalar and side, the ops taken in
    turn (each output of a compiled program costs XLA compile time)."""
    found = []
    for k, (dtype, scalar, left) in enumerate(itertools.product(DTYPES, SCALARS, (True, False))):
        a = np.array([1, 0, 1], dtype)
        for op in OPS[k % len(OPS):] + OPS[:k % len(OPS)]:
            if _computes(op, a, scalar) if left else _computes(op, scalar, a):
                found.append((op, dtype, scalar, left))
                break
    return found


def test_every_dtype_with_every_python_scalar_in_one_compiled_graph():
    cases = _cases()
    arrays = tuple(np.array([1, 0, 1], d) for d in DTYPES)

    def table(*xs):
        with np.errstate(all="ignore"):
            return tuple(op(xs[DTYPES.index(d)], s) if left else op(s, xs[DTYPES.index(d)])
                         for op, d, s, left in cases)

    with np.errstate(all="ignore"):
        expected = table(*arrays)
        actual = ag.function(table, autograph=False, jit_compile=True)(*arrays)
    for case, e, a in zip(cases, expected, actual):
        assert a.dtype == e.dtype, case
        np.testing.assert_allclose(a, e, rtol=1e-6, err_msg=str(case))  # float16 included


def test_numpy_scalars_and_zero_d_arrays_in_one_compiled_graph():
    cases = []
    for k, (left, right) in enumerate(itertools.product(DTYPES[1:], DTYPES[1:])):
        b = right(1) if k % 2 else np.array(1, right)
        for op in OPS[k % 4:4] + OPS[:k % 4]:
            if _computes(op, np.array([1, 2], left), b):
                cases.append((op, DTYPES.index(left), b))
                break
    arrays = [np.array([1, 2], d) for d in DTYPES]

    def table(*xs):
        return tuple(op(xs[i], b) for op, i, b in cases)

    with np.errstate(all="ignore"):
        expected = table(*arrays)
        actual = ag.function(table, autograph=False, jit_compile=True)(*arrays)
    assert [a.dtype for a in actual] == [e.dtype for e in expected]


def _line(fn, text: str) -> str:
    import inspect

    lines, first = inspect.getsourcelines(fn)
    for offset, line in enumerate(lines):
        if line.strip() == text:
            return f"{inspect.getsourcefile(fn)}:{first + offset} (`{text}`)"
    raise AssertionError(text)


def test_a_boolean_mask_selection_runs_and_what_needs_its_length_is_refused():
    """``x[m]`` is a buffer and a run-time count under XLA: elementwise work, reductions,
    writes under the mask and returning it run; an op that needs its length while
    compiling is refused before compiling, naming the line."""
    def masked(x):
        m = x > 0
        y = np.zeros_like(x)
        y[m] = np.sqrt(x[m])
        return x[m].mean(), x[m].max(), len(x[m]), y, x[m] * 2, x[: len(x[m])]

    def sorted_selection(x):
        return np.sort(x[x > 0])

    for x in (np.arange(-2.0, 4.0), np.array([1.0, -1.0, 3.0])):
        actual, expected = ag.function(masked, jit_compile=True)(x), masked(x)
        for a, e in zip(actual, expected):
            np.testing.assert_array_equal(a, e)
            assert np.asarray(a).dtype == np.asarray(e).dtype
    with pytest.raises(ValueError, match="^zero-size array to reduction operation maximum"):
        ag.function(masked, jit_compile=True)(-np.ones(3))
    with pytest.raises(ag.StagingError) as info:
        ag.function(sorted_selection, jit_compile=True)(np.arange(4.0))
    assert str(info.value) == (
        f"autograph.function(jit_compile=True): a value of run-time length (a boolean-mask "
        f"selection, a slice with a staged bound, or a list a staged loop collected) at "
        f"{_line(sorted_selection, 'return np.sort(x[x > 0])')} is read by `np.sort(t3)`, "
        f"which needs its length when compiling, and XLA compiles for fixed shapes. Compute "
        f"elementwise, reduce it (sum, mean, max, min, prod, any, all) or index it with an "
        f"integer, or call it without jit_compile=True (its NumPy graph runs it).")


def test_a_raising_errstate_is_refused_and_a_quiet_one_runs():
    def strict(x):
        with np.errstate(divide="raise"):
            return 1.0 / x

    def quiet(x):
        with np.errstate(divide="ignore"):
            return 1.0 / x

    with pytest.raises(ag.StagingError) as info:
        ag.function(strict, jit_compile=True)(np.zeros(2))
    where = _line(strict, 'with np.errstate(divide="raise"):')
    assert str(info.value).startswith(
        f"autograph.function(jit_compile=True): np.errstate at {where} sets NumPy's "
        f"floating-point error handling, which XLA does not have")
    assert np.isinf(ag.function(quiet, jit_compile=True)(np.zeros(2))).all()


def test_a_result_dtype_that_depends_on_values_is_refused():
    def eigenvalues(x):
        return np.linalg.eigvals(x)

    with pytest.raises(ag.StagingError) as info:
        ag.function(eigenvalues, jit_compile=True)(np.eye(2))
    assert str(info.value) == (
        f"autograph.function(jit_compile=True): numpy.linalg.eigvals at "
        f"{_line(eigenvalues, 'return np.linalg.eigvals(x)')} has a result dtype that depends "
        f"on the values (real when every eigenvalue is real). Call it through "
        f"autograph.function without jit_compile=True (its NumPy graph runs it), or use "
        f"np.linalg.eigh for a symmetric matrix.")


def test_a_loop_variable_that_changes_shape_is_refused_by_name():
    def doubling(x, n):
        i = 0
        while i < n:
            x = np.concatenate([x, x])
            i += 1
        return x

    compiled = ag.function(doubling, jit_compile=True, input_signature=[
        ag.TensorSpec([None]), ag.TensorSpec([], np.int64)])  # the front allows (None,)
    with pytest.raises(ag.StagingError, match=r"the while loop at .* changes the shape of a "
                       r"loop variable \(.*\) from \(1,\) to \(2,\) in one trip"):
        compiled(np.ones(1), np.int64(3))


def test_effects_before_a_raise_happen_and_later_ones_do_not(capsys):
    counter = ag.Variable(np.int64(0))

    def steps(x):
        counter.assign_add(1)
        ag.print("before", x)
        if x > 2:
            raise ValueError(f"too big: {x}")
        counter.assign_add(10)
        ag.print("after")
        return x

    compiled = ag.function(steps, jit_compile=True)
    assert compiled(np.int64(1)) == 1
    assert counter.value == 11
    with pytest.raises(ValueError, match="^too big: 3$"):
        compiled(np.int64(3))
    assert counter.value == 12
    assert capsys.readouterr().out == "before 1\nafter\nbefore 3\n"


def test_an_index_out_of_bounds_raises_numpys_index_error():
    def pick(x, i):
        return x[i]

    compiled = ag.function(pick, jit_compile=True)
    assert compiled(np.arange(3.0), np.int64(-1)) == 2.0
    with pytest.raises(IndexError, match="^index 3 is out of bounds for axis 0 with size 3$"):
        compiled(np.arange(3.0), np.int64(3))


def test_a_singular_matrix_raises_numpys_lin_alg_error():
    compiled = ag.function(np.linalg.inv, jit_compile=True)
    with pytest.raises(np.linalg.LinAlgError, match="^Singular matrix$"):
        compiled(np.zeros((2, 2)))


def test_prints_in_a_loop_come_in_order(capsys):
    def count(n):
        for i in range(n):
            ag.print("i =", i)
        return n

    ag.function(count, jit_compile=True)(np.int64(3))
    assert capsys.readouterr().out == "i = 0\ni = 1\ni = 2\n"


def test_without_jax_the_option_says_how_to_install_it(monkeypatch):
    monkeypatch.setitem(sys.modules, "jax", None)
    with pytest.raises(ImportError) as info:
        ag.function(lambda x: x, jit_compile=True)
    assert "pip install 'autograph-transpiler[jax]'" in str(info.value)


def test_a_for_over_an_array_is_one_scan_and_stops_at_a_raise(capsys):
    """A ``for`` over an array with no break is a ``lax.scan``; a raise in it still
    raises at the first failing trip, and effects after it do not happen."""
    def scaled(xs, w):
        total = np.zeros(2)
        for x in xs:
            if x.sum() < 0:
                raise ValueError(f"negative row {x}")
            total = total + x * w
            ag.print("total", total.sum())
        return total

    xs = np.arange(6.0).reshape(3, 2)
    compiled = ag.function(scaled, jit_compile=True)
    np.testing.assert_array_equal(compiled(xs, 2.0), scaled(xs, 2.0))
    np.testing.assert_array_equal(compiled(xs[:0], 2.0), np.zeros(2))  # no trip
    bad = xs.copy()
    bad[1] = -1.0
    with pytest.raises(ValueError, match=r"^negative row \[-1. -1.\]$"):
        compiled(bad, 2.0)
    assert capsys.readouterr().out == "total 2.0\ntotal 12.0\ntotal 30.0\n" * 2 + \
        "total 2.0\n"  # compiled, eager, then compiled up to the raise


def test_a_saved_function_loads_compiled_by_xla(tmp_path):
    def bounded(x, n):
        seen = [x]
        i = 0
        while i < n:
            ag.set_loop_options(maximum_iterations=5)
            x = x * 2
            seen.append(x)
            i += 1
        if n < 0:
            raise ValueError("n must not be negative")
        return np.stack(seen)

    function = ag.function(bounded)
    function(np.float32(1.5), np.int64(2))
    path = tmp_path / "bounded.npz"
    function.save(path)
    loaded = ag.load(path, jit_compile=True)
    for n in (0, 3, 7):
        out = loaded(np.float32(1.5), np.int64(n))
        np.testing.assert_array_equal(out, bounded(np.float32(1.5), n)[:6])
        assert out.dtype == np.float32
    with pytest.raises(ValueError, match="^n must not be negative$"):
        loaded(np.float32(1.5), np.int64(-1))


def test_jax_64_bit_mode_is_on_only_inside_the_call():
    """Each call switches JAX's 64-bit mode on for itself and puts back what was there,
    after a run-time raise too."""
    import jax

    @ag.function(jit_compile=True)
    def checked(x):
        if x.sum() < 0:
            raise ValueError("negative")
        return x + 1

    before = jax.config.jax_enable_x64
    assert checked(np.ones(2)).dtype == np.float64
    assert jax.config.jax_enable_x64 == before
    with pytest.raises(ValueError, match="^negative$"):
        checked(-np.ones(2))
    assert jax.config.jax_enable_x64 == before
    with jax.enable_x64(False):
        assert checked(np.ones(2, np.int64)).dtype == np.int64
        assert not jax.config.jax_enable_x64


def test_a_staged_if_of_a_few_elementwise_ops_is_a_select():
    """Both branches of a small ``if`` run and a select keeps one side's values (no
    ``lax.cond`` to dispatch); the values are the NumPy graph's, a NaN the other side
    makes included. A branch that can fail keeps its cond."""
    import jax

    def small(x, y):
        if x > 0:
            z = np.sqrt(x) + y
        else:
            z = y / x - 1
        return z, x * 2

    def failing(x, y):
        if x > 0:
            z = y[int(x)]
        else:
            z = y[0] - 1
        return z

    def program(fn, *args, effects=False):  # an effect's program takes (inputs, variables)
        jitted = ag.function(fn, jit_compile=True).get_concrete_function(*args)._fn
        with jax.enable_x64(True):
            lowered = jitted.__autograph_xla__
            return (lowered.lower(list(args), {}) if effects else lowered.lower(*args)).as_text()

    y = np.array([0.5, -1.0])
    for x in (np.float64(4.0), np.float64(-2.0), np.float64(0.0)):
        with np.errstate(all="ignore"):
            expected = ag.function(small)(x, y)
        actual = ag.function(small, jit_compile=True)(x, y)
        for a, e in zip(actual, expected):
            np.testing.assert_array_equal(a, e)
            assert a.dtype == e.dtype
    assert "stablehlo.case" not in program(small, np.float64(1.0), y)
    assert "stablehlo.case" in program(failing, np.float64(1.0), y, effects=True)


def test_calls_dispatch_through_one_jax_jit_per_function():
    """Arrays in, one array out, no effects: JAX's C++ dispatch picks the program (one
    XLA compile per signature, the concrete function's own jax.jit never compiles); each
    result is a fresh writable array. A call passing anything but NumPy arrays and
    scalars (a Python number, a Variable, an object with a dtype and a shape) takes the
    Function's own lookup, with the same values and one trace per signature as before;
    a program with effects turns the dispatch off."""

    def scale(x, y):
        return x * 2 + y

    f = ag.function(scale, jit_compile=True)
    x, y = np.arange(3.0), np.float64(1.0)
    first, again = f(x, y), f(x, y)
    for out in (first, again):
        np.testing.assert_array_equal(out, scale(x, y))
        assert out.flags.writeable and out.flags.owndata
    first[0] = 7.0
    np.testing.assert_array_equal(again, [1.0, 3.0, 5.0])  # results share nothing
    np.testing.assert_array_equal(x, [0.0, 1.0, 2.0])
    assert f(np.arange(4, dtype=np.int32), np.int32(1)).dtype == np.int32
    assert f.experimental_get_tracing_count() == 2
    assert f._xla.jitted._cache_size() == 2
    assert all(c._fn.__autograph_xla__._cache_size() == 0 for c in f._concrete)

    np.testing.assert_array_equal(f(x, 1.5), scale(x, 1.5))  # a Python number: by value
    np.testing.assert_array_equal(f(Scale(3.0), y), scale(Scale(3.0), y))
    np.testing.assert_array_equal(f(x, y), scale(x, y))
    assert f.experimental_get_tracing_count() == 4 and f._xla.jitted._cache_size() == 2

    def add(v, x):
        return v + x

    g = ag.function(add, jit_compile=True)
    np.testing.assert_array_equal(g(ag.Variable(np.ones(2)), x[:2]), [1.0, 2.0])

    def checked(x):
        if x.sum() < 0:
            raise ValueError("negative")
        return x

    h = ag.function(checked, jit_compile=True)
    np.testing.assert_array_equal(h(x), x)
    assert h._xla is None
    with pytest.raises(ValueError, match="^negative$"):
        h(-x)


def test_a_scipy_special_ufunc_and_rollaxis_compile():
    """properscoring's crps_gaussian (``special.ndtr``) and move_axis_to_end (``np.rollaxis``)."""
    from scipy import special

    def f(x):
        return special.ndtr(np.rollaxis(x, 0, x.ndim))

    x = np.arange(6.0).reshape(2, 3) - 2.5
    for jit_compile in (False, True):
        np.testing.assert_allclose(ag.function(f, jit_compile=jit_compile)(x), f(x), rtol=1e-12)
