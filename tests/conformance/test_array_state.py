"""NumPy arrays are mutable during a trace (issue 27, items 1-6). A concrete array a
staged op reads is captured by value at that point; a concrete array written under a
staged ``if`` or loop (directly, through a view, in place) is state of that construct,
written only on the paths that take the write; a view shares its base's state. Where
a write cannot reach every name that holds the array, a StagingError says so. State a
called function keeps (a closure's counter, the caller's list) is carried through
staged loops. (Item 6, a failed trace restoring the globals, is the NumPy engine's:
tests/graph/test_graph_escapes.py.)"""

import numpy as np
import pytest

import autograph as ag

F = np.float32  # JAX's default float, so both backends agree on dtypes


# --- 1. writes under a staged if happen only on the paths that take them

def write_under_if(x):
    d = np.ones(2, F)
    if x < 0:
        d[1] = -1.0
    return d


def add_under_if(x):
    d = np.ones(2, F)
    if x < 0:
        d += 1.0
    return d


def write_in_both_branches(x):
    d = np.zeros(3, F)
    if x > 0:
        d[0] = 1.0
    else:
        d[2] = 2.0
        d *= 3.0
    return d, d.sum()


def write_into_listed_array(x):
    bufs = [np.zeros(2, F), 7]
    if x > 0:
        bufs[0][1] = 3.0
    return bufs[0], bufs[1]


def write_into_dict_array(x):
    d = {"a": np.zeros(2, F)}
    if x > 0:
        d["a"] += 1.0
    return d["a"]


def write_in_staged_loop(x):
    d = np.zeros(3, F)
    while x > 0:
        d[1] = d[1] + x
        x = x - 1
    return d


@pytest.mark.parametrize("x", [F(1.0), F(-1.0)])
def test_writes_under_a_staged_if(backend, x):
    backend.check(write_under_if, x)
    backend.check(add_under_if, x)
    backend.check(write_in_both_branches, x)
    backend.check(write_into_listed_array, x)
    backend.check(write_into_dict_array, x)


@pytest.mark.parametrize("x", [F(2.0), F(-1.0)])
def test_writes_in_a_staged_loop(backend, x):
    backend.check(write_in_staged_loop, x)


# --- 2. an op reads a concrete array by value

def scale_changed_after_use(x):
    scale = np.array(1.0, F)
    y = x * scale
    scale *= 10
    return y + x * scale


def weights_changed_after_use(x):
    w = np.ones(2, F)
    y = x @ w
    w[0] = 5
    return y, x @ w


def read_in_branch_changed_after(x):
    w = np.ones(2, F)
    if x > 0:
        y = x * w
    else:
        y = x - w
    w[0] = 5
    return y, x * w


def int64_counter_read_twice(xs):
    i = np.array(0)
    first = xs[i]
    i += 2
    return first, xs[i]


def array_loop_counter(xs):
    acc = F(0.0)
    i = np.array(0)
    while i < xs.shape[0]:
        acc = acc + xs[i]
        i += 1
    return acc


def test_a_concrete_array_is_read_by_value(backend):
    backend = backend.numpy_code()  # NumPy arrays operated with the arguments
    backend.check(scale_changed_after_use, F(1.0))
    backend.check(weights_changed_after_use, np.ones((2, 2), F))
    backend.check(array_loop_counter, np.arange(3.0, dtype=F))
    backend.check(int64_counter_read_twice, np.arange(3.0, dtype=F))
    for x in (F(1.0), F(-1.0)):
        backend.check(read_in_branch_changed_after, x)


# --- 3. writes through a view reach the base, and the base's writes reach its views

def masked_write_through_slice(x):
    dk = np.zeros_like(x)
    dk[1:-1][x[1:-1] > 0] = 1.0
    return dk


def write_through_named_view(x):
    dk = np.zeros_like(x)
    inner = dk[1:-1]
    inner[0] = 5.0
    return dk + x


def base_write_seen_by_view(x):
    dk = np.zeros_like(x)
    inner = dk[1:-1]
    dk[1] = 7.0
    inner += 1
    return dk, inner


def view_of_a_view(x):
    dk = x * 1.0
    inner = dk[1:-1]
    every_other = inner[::2]
    every_other[...] = 0.0
    return dk, inner


X = np.array([1.0, 2.0, -3.0, 4.0, 5.0], F)


def test_writes_through_views(backend):
    backend = backend.numpy_code()  # a NumPy array made from a tensor is operated with it
    backend.check(write_through_named_view, X)
    backend.check(base_write_seen_by_view, X)
    # a mask written through a slice, dk[1:-1][mask] = v, is written back into dk
    # (the item of an item: converted as a whole, tests/conformance/test_nested_item_writes.py)
    backend.check(masked_write_through_slice, X)
    if backend.engine in ("numpy", "torch"):  # JAX arrays are immutable: no views to share
        backend.check(view_of_a_view, X)


def view_written_in_branch(x):
    d = np.ones(4, F)
    inner = d[1:3]
    if x < 0:
        inner[0] = 5.0
    return d


def base_written_in_staged_loop(x):
    arr = np.zeros(3, F)
    view = arr[1:]
    while x > 0:
        arr[1] = arr[1] + x
        x = x - 1
    return view


def staged_value_into_view(x):
    arr = np.zeros(3, F)
    view = arr[1:]
    view[0] = x
    return arr


def copied_under_if(x):
    d = np.zeros(3, F)
    if x > 0:
        np.copyto(d, 2.0)
    return d


def test_writes_the_construct_cannot_carry_are_refused(backend):
    text = backend.staging_error(view_written_in_branch, F(1.0))
    assert text == (
        f"if statement at {backend.at(view_written_in_branch, 'if x < 0:')}: a NumPy array is "
        f"written inside it (directly, through a view, or in place) and the condition is a "
        f"staged value, so the array becomes a staged value there; but it is also held by 'd', "
        f"which the if statement does not assign, which would keep the old contents. Write "
        f"through 'd' itself in the if statement (so that the if statement carries it), or copy "
        f"the array before the if statement if 'd' is to keep its old contents.")
    text = backend.staging_error(copied_under_if, F(1.0))
    assert "but it is also held by 'd', which the if statement does not assign" in text
    text = backend.staging_error(base_written_in_staged_loop, F(2.0))
    assert text == (
        f"while loop at {backend.at(base_written_in_staged_loop, 'while x > 0:')}: 'arr', a "
        f"NumPy array, is changed inside it and the condition is a staged value, so it becomes "
        f"a staged value there; but 'view' shares its memory (a view of it, or the array it "
        f"views) and would keep the old contents. Write through one of them only, or copy the "
        f"view (v = a[1:].copy()) if the two should not share.")
    text = backend.staging_error(staged_value_into_view, F(2.0))
    assert text == (
        f"item assignment at {backend.at(staged_value_into_view, 'view[0] = x')}: a staged "
        f"value is written into a NumPy array, which becomes a staged value; but 'arr' shares "
        f"its memory (a view of it, or the array it views) and would keep the old contents. "
        f"Write through one of them only, or copy the view (v = a[1:].copy()) if the two "
        f"should not share.")


# --- 4. an in-place operator on a 0-d argument array is written back to the caller

def double_if_positive(D, x):
    if x > 0:
        D *= 2.0
    return x


def test_zero_d_argument_written_back_under_a_staged_if(backend):
    if backend.name == "jax":  # JAX arrays are immutable: D *= 2.0 rebinds D, eagerly too
        backend.check(double_if_positive, np.array(1.0, F), F(1.0))
        return
    for shape in ((), (2,)):
        for x in (1.0, -1.0):
            eager, staged = np.ones(shape), np.ones(shape)
            double_if_positive(eager, x)
            ag.function(double_if_positive)(staged, np.float64(x))
            np.testing.assert_array_equal(staged, eager)


# --- 5. state a called function keeps, changed in a staged loop

def _counted(function):
    ncalls = [0]

    def wrapper(x):
        ncalls[0] += 1
        return function(x)

    return ncalls, wrapper


def _half(v):
    return v * 0.5


def minimize(x):
    ncalls, f = _counted(_half)
    while x > 1.0:
        x = f(x)
    return x, ncalls[0]


def _add_one(acc):
    acc[0] = acc[0] + 1.0


def into_callers_list(x, n):
    acc = [0.0]
    i = 0
    while i < n:
        _add_one(acc)
        i += 1
    return acc[0] + x * 0


def nested_closure_counter(x):
    acc = [0.0]

    def step():
        acc[0] = acc[0] + 1.0

    while x > 0:
        step()
        x = x - 1
    return acc[0]


def _bump_while_positive(x, counts):
    while x > 0:
        counts[0] = counts[0] + 1
        x = x - 1


def callers_list_in_callees_loop(x):
    counts = [0, 5]
    _bump_while_positive(x, counts)
    return counts[0], counts[1]


CALLS = [0]


def _counted_globally(v):
    CALLS[0] += 1
    return v * 0.5


def global_counter(x):
    while x > 1.0:
        x = _counted_globally(x)
    return x


def test_state_of_called_functions_is_carried(backend):
    backend.check(minimize, F(8.0))
    backend.check(into_callers_list, F(1.0), np.int32(3))
    backend.check(nested_closure_counter, F(3.0))
    backend.check(nested_closure_counter, F(-1.0))
    backend.check(callers_list_in_callees_loop, F(3.0))
    backend.check(callers_list_in_callees_loop, F(-1.0))


def test_state_reached_through_a_global_is_refused(backend):
    before = list(CALLS)
    text = backend.staging_error(global_counter, F(8.0))
    assert text == (
        f"while loop at {backend.at(global_counter, 'while x > 1.0:')}: 'CALLS[0]' (reached "
        f"through the global 'CALLS') is changed inside it and the condition is a staged "
        f"value, so it would hold a staged value that outlives the trace. Keep the state in a "
        f"local variable (or an argument) and return it, or in an autograph.Variable.")
    assert CALLS == before


# --- 3b. writes into arrays computed from traced values, and their aliases and views
# (eager NumPy is the oracle: under jax.jit the write gives the written name a new array,
# so a name that still holds the old one and is read later is refused, never left behind)

def alias_written(x):
    d = x * 1.0
    e = d
    e[0] = 5.0
    return d


def view_written(x):
    d = x * 1.0
    inner = d[1:]
    inner[0] = 5.0
    return d


def base_written_view_read(x):
    d = x * 1.0
    inner = d[1:]
    d[1] = 5.0
    return inner


def view_of_a_view_written(x):
    d = x * 1.0
    inner = d[1:]
    every_other = inner[::2]
    every_other[0] = 0.0
    return d


def view_written_in_staged_branch(x):
    d = x * 1.0
    inner = d[1:]
    if x[0] > 0:
        inner[0] = 5.0
    return d


def numpy_alias_given_a_staged_value(x):
    d = np.zeros(3, F)
    e = d
    e[0] = x[1]
    return d


def rows_updated_in_a_loop(a, n):
    i = 0
    while i < n:
        row = a[i]
        a[i] = row * 2.0
        i += 1
    return a + 0.0


def copy_written(x):
    d = x * 1.0
    inner = d[1:].copy()
    inner[0] = 5.0
    return d, inner


_REWRITES = {  # backends whose item writes give the written name a new value
    "jax": ("jax.jit", "array (JAX arrays are immutable)"),
    "torch": ("torch.compile and torch.export", "tensor (a staged construct writes into a copy)"),
    "tensorflow": ("tf.function", "tensor (TensorFlow tensors are immutable)"),
}


def _sharing_refused(backend, fn, holder, line):
    under, new = _REWRITES[backend.engine]
    return (
        f"item assignment at {backend.at(fn, line)}: under {under} the write gives "
        f"'{line.split('[')[0]}' a new {new}, but '{holder}' holds "
        f"the same array or one sharing its memory (an alias, a view of it, or the array it "
        f"views) and is read later, so it would keep the old contents where NumPy changes "
        f"them. Write through one name only (a[1:][0] = v -> a[1] = v), or copy the array "
        f"(v = a[1:].copy()) if the two should not share.")


XS = np.array([1.0, 2.0, 3.0, 4.0], F)


@pytest.mark.parametrize("fn,holder,line", [
    (alias_written, "d", "e[0] = 5.0"),
    (view_written, "d", "inner[0] = 5.0"),
    (base_written_view_read, "inner", "d[1] = 5.0"),
    (view_of_a_view_written, "d", "every_other[0] = 0.0"),
    (view_written_in_staged_branch, "d", "inner[0] = 5.0"),
])
def test_writes_into_traced_arrays_reach_every_name(backend, fn, holder, line):
    refused = backend.numpy_oracle(fn, XS)
    if backend.engine in _REWRITES and (backend.engine != "torch"
                                        or fn is view_written_in_staged_branch):
        # torch writes in place outside staged constructs, into a copy inside one
        assert refused == _sharing_refused(backend, fn, holder, line)
    elif fn is view_written_in_staged_branch:  # the NumPy engine's own view refusal
        assert refused is not None and "shares memory with a view or base" in refused
    else:
        assert refused is None


def test_writes_nothing_else_reads_are_staged(backend):
    assert backend.numpy_oracle(rows_updated_in_a_loop, np.ones((3, 2), F), np.int32(2)) is None
    refused = backend.numpy_oracle(copy_written, XS)
    if backend.engine == "torch":  # ndarray.copy: a tensor has no such method
        assert refused.startswith(
            f"PyTorch could not trace the line at {backend.at(copy_written, 'inner = d[1:].copy()')}"
            f": AttributeError: 'FakeTensor' object has no attribute 'copy'. ")
        return
    assert refused is None


def test_a_staged_value_written_into_an_aliased_numpy_array(backend):
    text = backend.numpy_oracle(numpy_alias_given_a_staged_value, XS)
    assert text == (
        f"item assignment at {backend.at(numpy_alias_given_a_staged_value, 'e[0] = x[1]')}: a "
        f"staged value is written into a NumPy array, which becomes a staged value; but 'd' "
        f"holds the same array and is read later, so it would keep the old contents. Write "
        f"through one name only, or copy the array (e = d.copy()) if the two should not share.")


# --- an in-place operator on a name (``inner += 1``) is seen by the runtime too ---

def view_in_place(x):
    d = x * 1.0
    inner = d[1:]
    inner += 1
    return d


def numpy_view_given_a_staged_value(x):
    d = np.zeros(3, F)
    inner = d[1:]
    inner += x[0]
    return d


def numpy_array_given_a_staged_value(x):
    d = np.zeros(3, F)
    d += x[0]
    return d


def test_in_place_operator_on_a_view_reaches_the_base_or_is_refused(backend):
    """A view's ``+=`` changes its base eagerly in NumPy and PyTorch; where the name
    gets a new array instead (JAX, TensorFlow: immutable arrays), it is refused."""
    if backend.engine in ("jax", "tensorflow"):
        under, new = {"jax": ("jax.jit", "array (JAX arrays are immutable)"),
                      "tensorflow": ("tf.function", "tensor (TensorFlow tensors are immutable)")
                      }[backend.engine]
        assert backend.staging_error(view_in_place, X[:3]) == (
            f"in-place operator at {backend.at(view_in_place, 'inner += 1')}: eagerly it "
            f"changes the array 'inner' holds, and 'd' holds the same array or one sharing its "
            f"memory (an alias, a view of it, or the array it views) and is read later; under "
            f"{under} the operator gives it a new {new}, so 'd' would keep the old contents. "
            f"Write the operator out (inner += v -> inner = inner + v: a new array) if 'd' "
            f"should keep them, or change the array through one name only.")
    else:
        backend.check(view_in_place, X[:3])


def test_in_place_operator_gives_a_numpy_array_a_staged_value(backend):
    """``d += x[0]``: the NumPy engine writes it into the array (its views refused);
    JAX's and TensorFlow's arrays take over NumPy's operator, eagerly too, and the name
    gets their array (PyTorch's tensor raises TypeError there, eagerly too)."""
    if backend.engine == "torch":
        for fn in (numpy_view_given_a_staged_value, numpy_array_given_a_staged_value):
            backend.check_raises(fn, TypeError, "Concatenation operation", X[:3])
        return
    backend.check(numpy_array_given_a_staged_value, X[:3])
    if backend.engine == "numpy":
        text = backend.staging_error(numpy_view_given_a_staged_value, X[:3])
        assert text == (
            f"item assignment at {backend.at(numpy_view_given_a_staged_value, 'inner += x[0]')}"
            f": a staged value is written into a NumPy array, which becomes a staged value; "
            f"but 'd' shares its memory (a view of it, or the array it views) and would keep "
            f"the old contents. Write through one of them only, or copy the view "
            f"(v = a[1:].copy()) if the two should not share.")
    else:
        backend.check(numpy_view_given_a_staged_value, X[:3])


# --- a NumPy array a staged if gave another name, changed in place afterwards ---

def alias_then_in_place(x):
    i = np.array(0.0)
    r = x * 0
    if x > 0:
        r = i
    i += 1
    return r


def test_in_place_change_of_an_array_a_staged_if_gave_another_name_is_refused(backend):
    """``r = i`` in a staged branch makes ``r`` the very array eagerly, so ``i += 1``
    later shows in ``r``; the staged ``if`` gives ``r`` a copy: refused, never the old
    contents (was a silent wrong value on the NumPy engine)."""
    under = {"numpy": "autograph.function"}.get(backend.engine, backend.compiler)
    assert backend.staging_error(alias_then_in_place, np.float64(1.0)) == (
        f"in-place operator at {backend.at(alias_then_in_place, 'i += 1')}: eagerly it "
        f"changes the array 'i' holds, and 'r' holds the same array or one sharing its "
        f"memory (an alias, a view of it, or the array it views) and is read later; under "
        f"{under} a staged if gave it a copy, so 'r' would keep the old contents. Write the "
        f"operator out (i += v -> i = i + v: a new array) if 'r' should keep them, or change "
        f"the array through one name only.")
