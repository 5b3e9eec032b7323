"""Writing into arrays (issues 9.10, 22.4): item and slice assignment is a functional
update in the graph, in straight-line code, branches and loops; writing into an
argument keeps NumPy's semantics on the NumPy engine (the caller's array holds what
eager would have left there) and is a StagingError under jax.jit."""

import numpy as np
import pytest

import autograph as ag


def fill(x, n):
    out = np.zeros(3, np.float32)  # float32: JAX's default float, so both backends agree
    out[0] = x
    d1 = np.empty((2, 2), np.float32)
    d1[0, 0] = x * 2
    d1[1] = -x
    d1[0, 1] = 0.0
    for i in range(n):
        out[i % 3] = out[i % 3] + i
    if x > 1:
        out[2] = x
    out[out > 2] = 0
    return out, d1


def columns(a, k):
    out = np.ones((3, 4), np.float32)
    out[:, k] = a
    out[1, :] = a[0]
    return out


def test_writes_into_arrays_made_in_the_function(backend):
    backend.check(fill, np.float32(1.5), np.int32(5))
    backend.check(fill, np.float32(0.5), np.int32(2))


def test_slice_writes(backend):
    backend.check(columns, np.arange(3.0, dtype=np.float32), 2)


def rk_step(y, h, K):
    for s in range(1, 3):
        dy = K[s - 1] * h
        K[s] = dy + y
    if h > 0.5:
        K[0] = 7.0
    return K.sum()


def _writes_back(fn, *args):
    """Run eagerly and under ag.function on copies of ``args``: results and arguments agree."""
    import autograph as ag

    eager_args = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
    staged_args = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
    expected = fn(*eager_args)
    got = ag.function(fn)(*staged_args)
    np.testing.assert_allclose(got, expected)
    for e, s in zip(eager_args, staged_args):
        if isinstance(e, np.ndarray):
            np.testing.assert_array_equal(s, e)


def test_writing_into_an_argument(backend):
    if backend.name == "jax":
        text = backend.staging_error(rk_step, np.ones(2), np.float64(0.7), np.ones((3, 2)))
        assert text.startswith("item assignment at ")
        assert "(`K[s] = dy + y`): 'K' is an argument of rk_step(), and JAX arrays are " \
               "immutable, so under jax.jit the write cannot reach the caller's array. Return " \
               "the updated array instead (and assign it in the caller)." in text
        return
    _writes_back(rk_step, np.ones(2), np.float64(0.7), np.ones((3, 2)))
    _writes_back(rk_step, np.ones(2), np.float64(0.2), np.ones((3, 2)))


def scale_into(out, v):
    out[:] = out * v


def caller(x, v):
    buf = x * 1.0
    scale_into(buf, v)
    return buf


def test_helper_writes_into_its_callers_array(backend):
    if backend.name in ("jax", "tensorflow"):  # immutable arrays: eager refuses the write too
        text = backend.staging_error(caller, np.arange(3.0), np.float64(2.0))
        assert "'out' is an argument of scale_into()" in text
        return
    backend.check(caller, np.arange(3.0, dtype=np.float32), np.float32(2.0))


def branch_caller(x, v):
    buf = x * 1.0
    if v > 0:
        scale_into(buf, v)
    return buf


def test_helper_writes_into_an_array_from_outside_its_branch(backend):
    text = backend.staging_error(branch_caller, np.arange(3.0), np.float64(2.0))
    assert "'out' is an argument of scale_into()" in text
    assert "Return the updated array instead" in text


def with_out(x, y):
    z = x * 1.0
    np.add(z, y, out=z)
    np.clip(z, 0, 2, out=z)
    return z


def test_out_argument_updates_the_array(backend):
    if backend.name == "jax":
        return  # out= needs a NumPy array to write into: eager JAX refuses it too
    backend.numpy_code().check(with_out, np.arange(3.0, dtype=np.float32), np.ones(3, np.float32))


def out_into_a_slice(x):
    a = np.zeros(4, np.float32)
    np.multiply(x, 2.0, out=a[1:3])
    return a


def out_into_a_view(x):
    a = np.zeros(4, np.float32)
    v = a[1:3]
    if x.sum() > 0:
        np.multiply(x, 2.0, out=v)
    return a


@pytest.mark.parametrize("fn", [out_into_a_slice, out_into_a_view])
def test_out_into_a_view_of_a_concrete_array_is_written_or_refused(backend, fn):
    """``out=`` a view of a NumPy array made in the function: eagerly the base sees the
    write. A staged value cannot go into a NumPy array; where the base would be left as
    it was (``a`` returned unchanged was a silent wrong value on the NumPy engine) the
    call is refused."""
    try:
        backend.numpy_code().check(fn, np.array([1.0, 2.0], np.float32))
    except (ag.StagingError, TypeError) as error:
        assert "out=" in str(error)


def update_bracket(ab, fab, c, fc):
    fa, fb = fab
    idx = 0 if fa * fc < 0 else 1
    rx, rfx = ab[idx], fab[idx]
    fab[idx] = fc
    ab[idx] = c
    return rx, rfx, ab[0] + ab[1]


def bracket_driver(a, b, fa, fb, c, fc):
    ab, fab = [a, b], [fa, fb]
    rx, rfx, total = update_bracket(ab, fab, c, fc)
    return rx, rfx, total, ab, fab


def test_list_items_written_with_a_staged_index(backend):
    for fa in (1.0, -1.0):
        backend.check(bracket_driver, np.float32(0), np.float32(1), np.float32(fa),
                      np.float32(2), np.float32(0.5), np.float32(-0.3))


def test_list_arguments_hold_what_eager_left_there(backend):
    if backend.name == "jax":
        return  # jax.jit cannot see the caller's list: the conversion makes a new one
    import autograph as ag

    for fa in (1.0, -1.0):
        eager = ([np.float64(0), np.float64(1)], [np.float64(fa), np.float64(2)])
        staged = (list(eager[0]), list(eager[1]))
        update_bracket(*eager, np.float64(0.5), np.float64(-0.3))
        ag.function(update_bracket)(*staged, np.float64(0.5), np.float64(-0.3))
        assert [float(v) for v in staged[0] + staged[1]] == [float(v) for v in eager[0] + eager[1]]


def python_number_kinds(x):
    a = 1
    if x > 0:
        a = 0.5
    return x * a


def test_python_int_and_float_branches_join_as_float(backend):
    backend.check(python_number_kinds, np.float32(2.0))
    backend.check(python_number_kinds, np.float32(-2.0))


def conjugate_gradient(A, b):
    x = np.zeros_like(b)
    r = np.copy(b)  # (b.copy(): NumPy's function, which every backend runs as NumPy's)
    p = np.copy(r)
    rs = r @ r
    i = 0
    while rs > 1e-20 and i < 10:
        Ap = A @ p
        alpha = rs / (p @ Ap)
        np.add(x, alpha * p, out=x)
        r = r - alpha * Ap
        new = r @ r
        p = r + (new / rs) * p
        rs = new
        i += 1
    return x


def test_out_argument_in_a_staged_loop(backend):
    if backend.name == "jax":
        return  # out= needs a NumPy array to write into: eager JAX refuses it too
    backend.numpy_code().check(conjugate_gradient, np.array([[4.0, 1.0], [1.0, 3.0]]),
                               np.array([1.0, 2.0]))


def accumulate(x):
    acc = np.zeros(3)
    for i in range(3):
        acc += x * i
    return acc


def test_in_place_operator_on_an_array_made_in_the_function(backend):
    if backend.engine == "torch":  # eager PyTorch: NumPy defers to the tensor x * i, which
        # declines: the oracle is eager PyTorch, not the NumPy code
        return backend.check_raises(accumulate, TypeError, "Concatenation operation", np.ones(3))
    backend.numpy_code().check(accumulate, np.ones(3))  # a NumPy array += a staged value


def rescale(pos, scale):
    pos -= pos.mean(axis=0)
    lim = np.abs(pos).max()
    if lim > 0:
        pos *= scale / lim
    return pos


def test_in_place_operators_on_an_argument(backend):
    if backend.name == "jax":
        return  # JAX arrays are immutable: pos -= ... rebinds, as jax.numpy does
    _writes_back(rescale, np.arange(6.0).reshape(3, 2), np.float64(2.0))


def accumulate_steps(x):
    # SciPy Radau's Newton loop: items written into a step array, then added into a sum
    # that started as zeros; the next writes must not show through the sum.
    W = np.zeros(2, np.float32)
    dW = np.empty_like(W)
    for k in range(3):
        dW[0] = x * k
        dW[1] = x
        W += dW
    return W, dW


def test_item_writes_after_an_in_place_add_leave_the_sum_alone(backend):
    backend.numpy_code().check(accumulate_steps, np.float32(2.0))


def write_python_items(n, lst, d):
    lst[0] = n + 1
    if n > 0:
        lst[1] = 5
    d["k"] = 2.5
    return n * 2


def test_python_items_of_argument_lists_hold_what_eager_left_there(backend):
    """A list or dict argument's Python numbers written by the function (with a staged
    value, under a staged `if`, with a constant) are in the caller's container after the
    call, as eager code leaves them (the NumPy engine once left them all unchanged). The
    NumPy engine's boundary writes them back; jax.jit, torch and tf.function trace with
    the caller's list itself (held static here), which then holds their tracers: not a
    promise of theirs (a list they take as a pytree is a new list inside the trace)."""
    if backend.engine != "numpy":
        return
    for k in (-1, 3):
        eager, staged = ([1, 2], {"k": 1.0}), ([1, 2], {"k": 1.0})
        expected = backend.eager(write_python_items, np.int64(k), *eager)
        got = backend.staged(write_python_items, np.int64(k), *staged)
        backend.assert_same(expected, got)
        backend.assert_same(eager[1]["k"], staged[1]["k"])
        for e, s in zip(eager[0], staged[0]):
            backend.assert_same(e if isinstance(e, int) else np.asarray(e), s)


def append_to_argument(n, lst):
    lst.append(n)
    return n


def test_appending_to_an_argument_list(backend):
    """A graph cannot grow the caller's list on every run: the NumPy engine refuses."""
    if backend.engine != "numpy":
        return  # the other frameworks trace with the caller's list itself
    text = backend.staging_error(append_to_argument, np.int64(1), [1, 2])
    assert text == ("autograph.function 'append_to_argument': the trace changed the length of "
                    "the list argument 'lst' (2 items before, 3 after: an append, pop, insert or "
                    "new key); a graph cannot change the caller's list on every call as eager "
                    "code does. Work on a copy (lst = list(lst)) and return it.")


def iterate_and_write(x, n):
    v = np.array(x)  # a NumPy array of the function's own, written below
    acc = v[0] * 0.0
    for e in v:
        if n > 0:
            v[2] = 10.0
        acc += e
    return acc


def enumerate_and_write(x):
    v = np.array(x)
    acc = v[0] * 0.0
    for i, e in enumerate(v):
        v[(i + 1) % 4] = e * 2.0
        acc += e
    return acc, v


def test_a_loop_reads_the_items_its_body_wrote(backend):
    """``for e in v`` reads each item from ``v`` as the iterations before it left it
    (NumPy iterates an array by index): a staged loop over an array its body writes
    into reads the written items (found by the differential fuzzer: the NumPy engine
    read the array as it was before the loop; JAX, PyTorch and TensorFlow too)."""
    numpy_code = backend.numpy_code()
    for n in (1, -1):
        numpy_code.check(iterate_and_write, np.arange(4.0), np.int64(n))
    numpy_code.check(enumerate_and_write, np.arange(1.0, 5.0))


def alias_written_in_loop(v, n):
    u = v
    for i in range(n):
        v -= 0.5
    return u[1]


def view_written_in_loop(v, n):
    w = v[1:]
    for i in range(n):
        v[2] += 1.0
    return w[1]


def alias_written_in_branch(v, n):
    u = v
    if n > 0:
        v[1] = 9.0
    return u[1]


def test_writes_in_staged_loops_and_branches_that_an_alias_or_view_would_miss(backend):
    """An array written in place in a staged loop (or, through an alias, in a staged
    branch) while another name read later holds it or a view of it: eagerly that name
    sees the write; the construct gives only the written name the new value, so the
    NumPy engine refuses (it returned the old contents: found by the fuzzer)."""
    if backend.engine != "numpy":
        return  # their arrays are not written in place by a staged construct
    at = backend.at(alias_written_in_loop, "for i in range(n):")
    text = backend.staging_error(alias_written_in_loop, np.arange(4.0), np.int64(2))
    assert text == (f"for loop at {at}: the body writes into 'v' in place, and 'u' holds the "
                    f"same array or one sharing its memory (an alias, a view of it, or the "
                    f"array it views) and is read later; the staged loop gives only 'v' the "
                    f"new contents, so 'u' would keep the old ones. Write through one name "
                    f"only, or make one of them a copy (.copy()) if the two should not share.")
    text = backend.staging_error(view_written_in_loop, np.arange(4.0), np.int64(2))
    assert "the body writes into 'v' in place, and 'w' holds the same array" in text
    text = backend.staging_error(alias_written_in_branch, np.arange(4.0), np.int64(2))
    assert text.startswith(f"item assignment at {backend.at(alias_written_in_branch, 'v[1] = 9.0')}")
    assert "'u' holds the same array or one sharing its memory" in text



def collected_then_written(v, lst):
    t = 0
    for e in v:
        lst.append(0)
        lst[2] = t
        return t, e
    lst[2] = lst[1] + 1
    return t, v[0]


def test_an_item_written_into_a_list_a_staged_loop_appended_to(backend):
    """After a staged loop that appended to a list a number of times known at run time,
    writing one of its items is refused with a StagingError naming the list and the
    loop (it was a TypeError of ours: found by the differential fuzzer)."""
    if backend.engine != "numpy":
        return  # the list after the loop is the NumPy engine's (a run-time length)
    text = backend.staging_error(collected_then_written, np.arange(3.0), [0, 1, 2])
    assert text == (f"'lst' item assignment at {backend.at(collected_then_written, 'lst[2] = lst[1] + 1')}: "
                    f"the staged loop at {backend.at(collected_then_written, 'for e in v:')} "
                    f"appended to 'lst' a number of items known only at run time, so the graph "
                    f"holds them stacked. Here: append the new value instead, or build the list "
                    f"again after the loop.")


def view_written_in_loop_in_try(v, n):
    acc = v[0] * 0.0
    w = v[1:]
    try:
        for i in range(n):
            acc -= w[0]
            v -= 1.0
    except ZeroDivisionError:
        v -= 0.5
    return acc


def iterate_and_write_in_try(v, n):
    acc = v[0] * 0.0
    try:
        for e in v:
            v[2] = 10.0
            acc += e
    except ZeroDivisionError:
        v -= 0.5
    return acc


def test_loop_writes_inside_a_staged_try(backend):
    """The same two loops inside a ``try`` whose handler writes the array too (there the
    array is a nonlocal of the try's body): refused, where they returned stale values."""
    if backend.engine != "numpy":
        return  # the NumPy engine's arrays are written in place
    text = backend.staging_error(view_written_in_loop_in_try, np.arange(4.0), np.int64(2))
    assert "the body writes into 'v' in place, and 'w' holds the same array" in text
    text = backend.staging_error(iterate_and_write_in_try, np.arange(4.0), np.int64(2))
    assert text.startswith(f"for loop at {backend.at(iterate_and_write_in_try, 'for e in v:')}: "
                           f"the body writes into 'v', the array the loop iterates over, in a "
                           f"way the graph cannot follow")


def write_argument_under_a_staged_if(v, x):
    if x.sum() > 0:
        v[0] = -1.0
    return x + 1


def test_a_staged_if_writing_into_an_argument(backend):
    """Eagerly the caller's array changes; a backend whose staged if writes into a copy
    (JAX, PyTorch, TensorFlow) refuses, naming the argument: never the caller's array
    left as it was (the NumPy engine writes it back)."""
    if backend.engine == "numpy":
        backend.check(write_argument_under_a_staged_if, np.zeros(3), np.ones(2))
        return
    text = backend.staging_error(write_argument_under_a_staged_if, np.zeros(3), np.ones(2))
    assert f"item assignment at {backend.at(write_argument_under_a_staged_if, 'v[0] = -1.0')}" \
           f": 'v' is an argument of write_argument_under_a_staged_if()" in text


def subtract_from_argument_under_a_staged_if(v, x):
    if np.sum(x) > 0:
        v -= x
    return v * 1.0


def test_a_staged_if_changing_an_argument_in_place(backend):
    """``v -= x`` changes a PyTorch tensor in place (eagerly the caller's tensor too):
    the staged if changes a copy, so PyTorch refuses, naming the argument (a fuzz
    finding: the caller's tensor was left as it was). NumPy's in-place operator is
    staged state of the NumPy engine; JAX's and TensorFlow's arrays are immutable, where
    ``-=`` gives the name a new array eagerly too."""
    fn = subtract_from_argument_under_a_staged_if
    if backend.engine != "torch":  # each call on arrays of its own (the eager one writes)
        backend.assert_same(backend.eager(fn, np.zeros(2), np.ones(2)),
                            backend.staged(fn, np.zeros(2), np.ones(2)))
        return
    text = backend.staging_error(fn, np.zeros(2), np.ones(2))
    assert text.startswith(
        f"in-place operator at {backend.at(subtract_from_argument_under_a_staged_if, 'v -= x')}"
        f": 'v' is an argument of subtract_from_argument_under_a_staged_if(), and a staged if "
        f"or loop writes into a copy of it, so under torch.compile and torch.export the write "
        f"cannot reach the caller's array.")


def written_through_a_slice(a, k):
    row = a[k:k + 1]  # a slice with staged bounds: a view
    row += 1.0
    return a


def written_through_an_item(a):
    item = a[np.int64(2)]  # a NumPy integer key: a view
    item += 2.0
    return a


def test_writes_through_views_taken_with_staged_slice_bounds_or_numpy_integer_keys(backend):
    """A view taken with a staged slice bound or a NumPy integer key shares the array's
    memory as eagerly: a write through it reaches the array (the NumPy engine took both
    for copies and returned the array unchanged). XLA compiles for fixed shapes only."""
    if backend.engine != "numpy":
        return  # their arrays are not written in place
    backend.check(written_through_an_item, np.zeros((3, 2)))
    if backend.name == "numpy-xla":
        assert "a slice with staged bounds" in backend.staging_error(written_through_a_slice, np.zeros((3, 2)), np.int64(1))
    else:
        backend.check(written_through_a_slice, np.zeros((3, 2)), np.int64(1))
