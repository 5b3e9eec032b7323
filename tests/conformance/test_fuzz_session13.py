"""Cases the differential fuzzer found in session 13 (tests/fuzz, the constructs of
``programs.SESSION13``: user objects, dicts of arrays, tuple swaps, nested returns,
enumerate(zip(...)), compound while conditions, closures returning arrays, list
comprehensions, NumPy calls, dtype mixes, values None on some paths, builtins), each the
minimal program of a seed, run on every backend against the same code run eagerly."""

import re

import numpy as np

import autograph as ag


def added_in_place_where_not_none(x, v):
    acc = v[1] * 1.0
    mb = v[0] if acc < x else None
    if mb is None:
        pass
    else:
        acc += mb
    return acc


def added_in_place_if_not_none(x, v):
    acc = v[1] * 1.0
    mb = v[0] if acc < x else None
    if mb is not None:
        acc += mb
    return acc


def test_an_in_place_operator_given_a_value_none_on_some_paths(backend):
    """``acc += mb`` in the branch where ``mb is None`` is false, ``mb`` None on some
    staged paths: the value, as ``acc + mb`` (the NumPy engine's in-place operator took
    the flag and value for a sequence: TypeError 'len() of unsized object'; seed 40199)."""
    for x in (2.25, 0.0):
        for fn in (added_in_place_where_not_none, added_in_place_if_not_none):
            backend.numpy_code().check(fn, np.float64(x), np.array([1.0, 2.0]))


def added_in_place_maybe_none(x, v):
    acc = v[1] * 1.0
    mb = v[0] if acc < x else None
    acc += mb
    return acc


def python_float_added_in_place_maybe_none(x, v):
    acc = 0.0
    mb = v[0] if v[1] < x else None
    acc += mb
    return acc


def test_an_in_place_operator_on_a_number_given_a_value_none_on_some_paths(backend):
    """``acc += mb``, ``mb`` maybe None: Python's TypeError where it is None (a Python
    float names '+=', a NumPy scalar '+'), the sum where not; a StagingError where the
    framework cannot raise when the program runs."""
    for fn, shown in ((added_in_place_maybe_none, "+"),
                      (python_float_added_in_place_maybe_none, "+=")):
        if not backend.raises_at_run_time:
            assert "is None on some staged paths" in backend.staging_error(
                fn, np.float64(2.25), np.array([1.0, 2.0]))
            continue
        backend.numpy_code().check(fn, np.float64(2.25), np.array([1.0, 2.0]))
        backend.numpy_code().check_raises(
            fn, TypeError, re.escape(f"unsupported operand type(s) for {shown}: 'float' and "
                                     f"'NoneType'"), np.float64(0.0), np.array([1.0, 2.0]))


def counted_by_a_filter(x, v):  # (the items of a tuple: TensorFlow iterates no tensor)
    return len([e for e in (v[0], v[1], v[2]) if e > x])


def summed_by_a_filter(x, v):
    acc = 0.0
    if x > 0:
        acc = sum([e * 2.0 for e in (v[0], v[1], v[2]) if e > x])
    return acc


def test_a_comprehension_filtering_by_a_staged_test_is_refused(backend):
    """``[e for e in v if e > x]`` with a staged ``x``: how many items it keeps is known
    only when the graph runs: a StagingError naming the comprehension (JAX's
    TracerBoolConversionError, the NumPy engine's TypeError before; seeds 41014, 41055)."""
    for fn, line in (
            (counted_by_a_filter, "return len([e for e in (v[0], v[1], v[2]) if e > x])"),
            (summed_by_a_filter, "acc = sum([e * 2.0 for e in (v[0], v[1], v[2]) if e > x])")):
        text = backend.staging_error(fn, np.float64(0.5), np.array([1.0, -2.0, 3.0]))
        assert text == (
            f"list comprehension at {backend.at(fn, line)}: its 'if' tests a staged value, "
            f"known only when the graph runs, so how many items the list comprehension keeps "
            f"would be too. Keep every item and choose with the test instead (np.where(test, "
            f"item, fill), np.sum(test) to count them), or give the items to sum/any/all/next "
            f"as a generator expression, which autograph stages (sum(e for e in v if e > x)).")


def filtered_by_python_values(x, v, lst):
    kept = [j * x for j in lst if j > 0]
    return sum(kept) + v[0], {j: j for j in lst if j % 2}


def test_a_comprehension_filtering_by_python_values_runs_as_python(backend):
    backend.check(filtered_by_python_values, np.float64(0.5), np.array([1.0, -2.0]), [1, -2, 3])


def zero_d_where_aliased(x, v):
    acc = np.where(x > 0, x, 0.0)  # a 0-d array (np.where of scalars), not a NumPy scalar
    b = acc
    acc += 1.0
    acc *= 2.0
    return b, acc


def zero_d_where_held(x, v):
    acc = np.where(v[0] > x, v[0], 0.0)
    held = [acc]
    acc *= 2.0
    return held[0]


def zero_d_array_aliased_in_a_staged_if(x, v):
    a = np.array(x)
    b = a
    if v[0] > 0:
        a += 1.0
    return b


def zero_d_scalar_rebound(x, v):
    s = v[0] * 1.0  # a NumPy scalar: the operator rebinds 's' alone
    b = s
    s += 1.0
    t = np.asarray(v[1])  # a new 0-d array: 'v[1]' is a scalar, left as it was
    u = v[1]
    t += 1.0
    m = min(x, v[2])  # a NumPy scalar chosen (the runtime's np.where: no 0-d array)
    c = m
    m += 1.0
    return b, s, t, u, c, m


def test_an_in_place_operator_on_a_zero_d_array_the_function_made(backend):
    """``acc = np.where(x > 0, x, 0.0)`` is a 0-d array: ``acc += 1.0`` changes it for
    every name holding it (``b = acc``, a list's item), as for a 0-d argument array; a
    NumPy scalar (``v[0] * 1.0``, the 0-d array ``np.asarray`` makes of one) is rebound.
    The NumPy engine rebound both (the alias kept 0.5 where eagerly 1.5: a probe of the
    fuzzer's npcalls construct); inside a staged if, with an alias read later, the write
    is refused. JAX (immutable arrays: the alias kept the old value, seed 51028) refuses
    the operator where another name read later holds what a NumPy function made. Open on
    TensorFlow (tests/fuzz/README.md); PyTorch's in-place operator changes a 0-d tensor
    for every name, as eager PyTorch does, NumPy scalar or not."""
    if backend.engine == "jax":
        args = (np.float64(0.5), np.array([1.0, -2.0, 3.0]))
        for fn in (zero_d_where_aliased, zero_d_where_held):
            assert "holds the same array" in backend.staging_error(fn, *args)
        return
    if backend.engine != "numpy":
        return
    for x in (0.5, -1.0):
        args = (np.float64(x), np.array([1.0, -2.0, 3.0]))
        backend.check(zero_d_where_aliased, *args)
        backend.check(zero_d_where_held, *args)
        backend.check(zero_d_scalar_rebound, *args)
        assert "'b' holds the same" in backend.staging_error(
            zero_d_array_aliased_in_a_staged_if, *args)


def item_given_a_value_none_on_some_paths(n, v):
    w = np.array(v)  # (a NumPy array eagerly on every framework's arrays)
    for i, e in enumerate(v):
        mb = e if e > 0.0 and n % 2 == 1 else None
        w[i] = mb
    return w


def test_an_item_given_a_value_none_on_some_paths(backend):
    """``v[i] = mb`` with ``mb`` None on some staged paths: NumPy stores None as NaN in a
    float array (the NumPy engine's TypeError 'len() of unsized object' while tracing;
    seed 45009); a StagingError where the framework cannot choose it."""
    for n in (1, 2):
        args = (np.int64(n), np.array([1.0, -0.5, 3.0]))
        try:
            backend.numpy_code().check(item_given_a_value_none_on_some_paths, *args)
        except ag.StagingError as error:
            assert backend.engine != "numpy", error
