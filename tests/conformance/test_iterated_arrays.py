"""``for e in v`` over a NumPy array the loop body writes into: eagerly each iteration
reads its item from the array as the iterations before it left it (NumPy iterates an
array by index), while rebinding the name (``v = v * 2``) changes nothing the loop reads.
Under staging a write may give the name a new value instead of changing memory (a NumPy
array written under a staged condition, a staged value written into it); the loop must
read the items from that value, or refuse (``staging.iterated``). Found by the
differential fuzzer: the NumPy engine read the old items (14.0 eagerly, 6.0 staged)."""

from __future__ import annotations

import numpy as np


def written_under_staged_if(n):
    v = np.arange(4.0, dtype=np.float32)  # a NumPy array of the function's own: a Python loop over it
    acc = 0.0
    for e in v:
        if n > 0:
            v[2] = 10.0
        acc += e
    return acc


def staged_value_written(n):
    v = np.arange(4.0, dtype=np.float32)
    acc = 0.0
    for e in v:
        v[2] = n * 1.0
        acc += e
    return acc


def enumerated_and_written(n):
    v = np.arange(4.0, dtype=np.float32)
    acc = 0.0
    for i, e in enumerate(v):
        if n > 0:
            v[(i + 1) % 4] = e * 2.0
        acc += e
    return acc


def written_then_rebound(n):
    v = np.arange(4.0, dtype=np.float32)
    acc = 0.0
    for e in v:
        if n > 0:
            v[2] = 10.0
        v = v * 2.0  # the loop goes on reading the array written above
        acc += e
    return acc


def written_in_place(n):
    v = np.arange(4.0, dtype=np.float32)
    acc = 0.0
    for e in v:
        if n > 0:
            v += 0.5
        acc += e
    return acc


def zipped_and_written(n):
    v = np.arange(1.0, 5.0, dtype=np.float32)
    w = np.ones(4, dtype=np.float32)
    acc = 0.0
    for a, b in zip(v, w):
        if n > 0:
            v[2] = 10.0
            w[3] = 5.0
        acc += a * b
    return acc


def enumerated_zip_written(n):
    v = np.arange(1.0, 5.0, dtype=np.float32)
    acc = 0.0
    for i, (a, b) in enumerate(zip(v, [1.0, 2.0, 3.0, 4.0])):
        if n > 0:
            v[(i + 1) % 4] = a * 2.0
        acc += a * b
    return acc


def test_a_python_loop_reads_what_a_staged_write_left(backend):
    """Over the array itself, its ``enumerate``, its ``zip`` with another array or a list
    (the fuzzer: ``zip(v, w)`` written under a staged ``if`` read the old items, 6.0
    where eagerly 26.0)."""
    numpy_code = backend.numpy_code()
    for fn in (written_under_staged_if, staged_value_written, enumerated_and_written,
               written_then_rebound, zipped_and_written, enumerated_zip_written):
        for n in (2, -1):
            numpy_code.check(fn, np.int64(n))


def test_an_in_place_operator_on_the_iterated_array(backend):
    """``v += 0.5`` on the array once it is staged: the NumPy engine's operator has
    NumPy's meaning (a write); JAX's, PyTorch's and TensorFlow's give the name a new
    array where NumPy writes into it, so the loop could read either: refused."""
    if backend.engine == "numpy":
        for n in (2, -1):
            backend.check(written_in_place, np.int64(n))
        return
    text = backend.staging_error(written_in_place, np.int64(2))
    assert text == (
        f"for loop at {backend.at(written_in_place, 'for e in v:')}: the body applies an "
        f"in-place operator to 'v', the array the loop iterates over, which gives the name a "
        f"new array here (NumPy writes into the array); eagerly each iteration reads that "
        f"array as the iterations before it left it, and here the loop cannot tell which "
        f"array it reads. Iterate over the indices (for i in range(len(v)): e = v[i]), or "
        f"over a copy (for e in v.copy():).")


def written_in_staged_loop(n):
    v = np.arange(4.0, dtype=np.float32)
    acc = 0.0
    for e in v:
        i = 0
        while i < n:
            v[3] += 1.0
            i += 1
        acc += e
    return acc


def test_a_write_inside_a_staged_loop_is_refused(backend):
    """A staged loop inside the body carries the array as a value of its own: the outer
    loop cannot follow the write."""
    text = backend.staging_error(written_in_staged_loop, np.int64(2))
    assert text == (
        f"for loop at {backend.at(written_in_staged_loop, 'for e in v:')}: the body writes "
        f"into 'v', the array the loop iterates over, inside a staged while loop, which gives "
        f"it a value of its own; eagerly each iteration reads that array as the iterations "
        f"before it left it, and here the loop cannot tell which array it reads. Iterate over "
        f"the indices (for i in range(len(v)): e = v[i]), or over a copy (for e in v.copy():).")


def rebound_in_staged_loop(x):
    v = x
    acc = v[0] * 0.0
    for e in v:
        v = v * 2.0
        acc += e
    return acc, v


def test_a_staged_loop_over_an_array_its_body_rebinds(backend):
    """The NumPy engine's graph tells a new array from a written one; elsewhere the loop
    reads its items from the carried array, which a new array would not be: refused."""
    if backend.engine == "numpy":
        backend.check(rebound_in_staged_loop, np.arange(1.0, 5.0))
        return
    text = backend.staging_error(rebound_in_staged_loop, np.arange(1.0, 5.0))
    assert text == (
        f"for loop at {backend.at(rebound_in_staged_loop, 'for e in v:')}: the body gives "
        f"'v', the array the loop iterates over, a value that is not that array as written "
        f"(another array, or one a staged loop or try in the body made); eagerly each "
        f"iteration reads that array as the iterations before it left it, and here the loop "
        f"cannot tell which array it reads. Iterate over the indices (for i in range(len(v)): "
        f"e = v[i]), or over a copy (for e in v.copy():).")
