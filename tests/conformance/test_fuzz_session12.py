"""Cases the differential fuzzer found in session 12 (tests/fuzz, the features
``containers``, ``views``, ``after_use``, ``counters``, ``state``), each the minimal
program of a seed, run on every backend against the same NumPy code run eagerly."""

import numpy as np

import autograph as ag


def add_into_argument(v, x):
    np.add(v, x, out=v)
    return v * 2.0


def test_out_argument_writes_into_the_callers_array(backend):
    """``np.add(v, x, out=v)`` with ``v`` an argument: the caller's array holds the sum
    afterwards, as ``v += x`` leaves it (the NumPy engine's write was lost: seed 20)."""
    if backend.name == "jax":
        return  # out= needs a NumPy array to write into: eager JAX refuses it too
    v = np.array([1.0, -0.5, 2.0, 3.0])
    eager = v.copy()
    expected = add_into_argument(eager, 1.5)
    staged = backend.asarray(v)
    try:
        result = backend.stage(add_into_argument, (staged, 1.5), {})()
    except ag.StagingError as error:  # an honest refusal names out=
        assert "out=" in str(error)
        return
    backend.numpy_code().assert_same(expected, result)
    backend.numpy_code().assert_same(eager, staged, "argument v")


def counted_in_a_ternary(x):
    k = 0

    def tick():
        nonlocal k
        k += 1
        return k

    y = tick() * x if x > 0 else x
    z = x > 1 and tick() > 0
    w = x < 3 or tick() > 0
    return y, z, w, k


def test_a_counter_a_conditional_expression_calls_counts_only_the_side_taken(backend):
    """A closure counting by ``nonlocal``, called in one operand of a staged ternary,
    ``and`` or ``or``: the count is the side the run takes (both sides counted, seed 15:
    1 where eagerly 0)."""
    for x in (-1.0, 2.0, 5.0):
        backend.check(counted_in_a_ternary, np.float32(x))
