"""NumPy code meeting graph tensors under ``tf.function(ag.convert(f), autograph=False)``:
what converted code is given (ndarray's methods and attributes, ``@`` of vectors, NumPy's
dtype where TensorFlow refuses two), and TensorFlow's own errors while it traces the
user's code said as StagingErrors at the user's line (``TfBackend.explain_error``)."""

import inspect

import numpy as np
import pytest
import tensorflow as tf

import autograph as ag

W = np.arange(9.0).reshape(3, 3)


def staged(fn, *args):
    return tf.function(ag.convert(fn), autograph=False)(*args)


def at(fn, text: str) -> str:
    lines, first = inspect.getsourcelines(fn)
    for offset, line in enumerate(lines):
        if line.strip() == text:
            return f"{inspect.getsourcefile(fn)}:{first + offset} (`{text}`)"
    raise AssertionError(text)


def refusal(fn, *args) -> str:
    with pytest.raises(ag.StagingError) as info:
        staged(fn, *args)
    return str(info.value)


X = np.array([1.0, -2.0, 3.0], np.float32)


# -- what converted code is given


def methods(x):
    d = np.zeros(3, np.float32)
    if x[0] > 0:
        d[1] = x[1]
    e = d[1:].copy()
    return (d.sum(), e.astype(np.int32), d.reshape(3, 1).T, d.real, d.size, x @ x, W @ x,
            d.clip(0, 1).max(axis=0), d.round(1), np.float64(x[0]), d.nonzero()[0])


def test_ndarray_methods_and_attributes_in_converted_code():
    staged_out = staged(methods, tf.constant(X))
    eager_out = methods(X.copy())
    assert len(staged_out) == len(eager_out)
    for s, e in zip(staged_out, eager_out):
        s = s.numpy() if hasattr(s, "numpy") else s
        if not isinstance(e, int):  # a Python int: tf.function returns an int32 tensor
            assert np.asarray(s).dtype == np.asarray(e).dtype, (s, e)
        np.testing.assert_allclose(s, e)


def promoted(x, n):
    scale, out = 1.0, 0.0
    while n > 0:
        n, r = divmod(n, 3)
        scale *= 3
        out += r / scale
    return out, x.astype(np.int32) + 1.5


def test_two_dtypes_tensorflow_refuses_compute_in_numpys():
    out, shifted = staged(promoted, tf.constant(X), tf.constant(np.int64(11)))
    want_out, want_shifted = promoted(X, np.int64(11))
    assert out.dtype == tf.float64 and np.isclose(out.numpy(), want_out)
    assert shifted.dtype == tf.float64 and np.allclose(shifted.numpy(), want_shifted)


def library_methods(x):
    return tf.reduce_sum(x) + tf.size(x, out_type=tf.float32)


def test_code_autograph_does_not_convert_sees_tensorflows_tensor():
    graph = tf.function(lambda x: hasattr(x, "sum"), autograph=False).get_concrete_function(
        tf.TensorSpec([3], tf.float32)).graph  # a lambda tf.function traces: not converted
    assert graph is not None
    seen = []

    @tf.function(autograph=False)
    def probe(x):
        seen.append((hasattr(x, "sum"), hasattr(x, "astype")))
        return x

    probe(tf.constant(X))
    assert seen == [(False, False)]
    assert np.isclose(staged(library_methods, tf.constant(X)).numpy(), 5.0)


# -- refusals


def sorts_in_place(x):
    if x[0] > 0:
        x = x + 1
    x.sort()
    return x


def reads_an_item(x):
    return x[0].item()


def test_ndarray_methods_that_write_or_read_values():
    assert refusal(sorts_in_place, tf.constant(X)) == (
        f".sort of a graph tensor at {at(sorts_in_place, 'x.sort()')}: ndarray.sort writes "
        f"into the array, and under tf.function it is a graph tensor (TensorFlow tensors are "
        f"immutable). Write x = np.sort(x) instead.")
    assert refusal(reads_an_item, tf.constant(X)) == (
        f".item of a graph tensor at {at(reads_an_item, 'return x[0].item()')}: ndarray.item "
        f"needs the array's values, and under tf.function it is a graph tensor, whose values "
        f"exist only when the graph runs. Compute with the tensor (NumPy functions and "
        f"operators run on it), or return it and read the value after the call.")


def _needs_values(where: str) -> str:
    return (
        f"NumPy needs the values of a graph tensor at {where}: a NumPy array is indexed by it "
        f"or has an item set to it, or code autograph does not convert called a NumPy function "
        f"on it; under tf.function a graph tensor has values only when the graph runs. Index a "
        f"tensor instead (tnp.asarray(a)[i], tf.gather(a, i)), write into a local array (w = "
        f"W.copy(), then w[0] = x: staged constructs carry it), or call the NumPy function in "
        f"converted code (np.f(t) runs tf.experimental.numpy's twin).")


def indexes_a_numpy_global(x):
    i = tf.cast(x[0], tf.int32)
    return W[i]


def writes_a_numpy_global(x):
    if x[0] > 0:
        W[0, 0] = x[1]
    return x


@ag.do_not_convert
def numpy_helper(t):
    return np.asarray(t) * 2


def numpy_in_unconverted_code(x):
    if x[0] > 0:
        x = x + 1
    return numpy_helper(x)


def test_numpy_asks_a_graph_tensor_for_its_values():
    # a NumPy global indexed by a graph tensor is a lookup table: a gather, eager's value
    graph = tf.function(ag.convert(indexes_a_numpy_global), autograph=False)
    assert np.array_equal(graph(tf.constant(X)).numpy(), W[1])
    before = W.copy()
    # an item a staged value writes into a global NumPy array: refused as on every backend
    assert refusal(writes_a_numpy_global, tf.constant(X)) == (
        f"item assignment at {at(writes_a_numpy_global, 'W[0, 0] = x[1]')}: a staged value is "
        f"written into the NumPy array 'W' holds, which becomes a staged value; but 'W' is a "
        f"global or a variable of an enclosing function, which the converted function does "
        f"not rebind, so it would keep the old contents. Write into a local copy and return it "
        f"(a = W.copy(); a[i] = v; return a), or pass the array in as an argument.")
    assert np.array_equal(W, before)
    assert refusal(numpy_in_unconverted_code, tf.constant(X)) == _needs_values(
        at(numpy_in_unconverted_code, "return numpy_helper(x)"))


def tf_matmul_of_vectors(x):
    if x[0] > 0:
        x = x + 1
    return tf.matmul(x, x)


@ag.do_not_convert
def copies(t):
    return t.copy()


def method_in_unconverted_code(x):
    if x[0] > 0:
        x = x + 1
    return copies(x)


def test_tensorflow_errors_at_the_users_line():
    assert refusal(tf_matmul_of_vectors, tf.constant(X)) == (
        f"matrix product at {at(tf_matmul_of_vectors, 'return tf.matmul(x, x)')}: TensorFlow's "
        f"MatMul (tf.matmul, and @ outside code autograph converts) takes matrices, and an "
        f"operand has rank 1. Write np.matmul(a, b) or a @ b in converted code (a vector "
        f"operand is NumPy's there), or tf.linalg.matvec(m, v) / tf.tensordot(u, v, 1).")
    assert refusal(method_in_unconverted_code, tf.constant(X)) == (
        f".copy of a graph tensor at {at(method_in_unconverted_code, 'return copies(x)')}: under "
        f"tf.function a NumPy array a staged construct wrote, or what a NumPy call on a graph "
        f"tensor returned, is a tf.Tensor, which has no ndarray attribute 'copy'; converted "
        f"code is given ndarray's, but code autograph does not convert asked for it here. Call "
        f"the NumPy function on it (np.copy(t)) in converted code, or use TensorFlow's op.")


def compares(x, n):
    return x == 0.5, x != 1.0, x < 1.5, 2.5 > x, x == n


def test_comparisons_tensorflow_refuses_compare_in_numpys_dtype():
    out = staged(compares, tf.constant([1, 2]), tf.constant(np.float32(1.0)))
    want = compares(np.array([1, 2], np.int32), np.float32(1.0))
    for s, w in zip(out, want):
        assert s.dtype == tf.bool and np.array_equal(s.numpy(), w)


# -- a converted try passes TensorFlow's refusals on (``messages.tracing_error``)


@ag.do_not_convert
def as_float(t):
    return float(t[0])


@ag.do_not_convert
def as_array(t):
    return np.asarray(t) * 2


@ag.do_not_convert
def read_back(t):
    return t.numpy()


def guarded(helper):
    def fn(x):
        try:
            y = helper(x)
        except Exception:  # noqa: BLE001 - eagerly the handler does not run
            y = x * 0.0 - 7.0
        return y
    return fn


@pytest.mark.parametrize("helper", [as_float, as_array, read_back])
def test_a_handler_does_not_catch_tensorflows_refusals(helper):
    fn = guarded(helper)
    assert not np.array_equal(fn(tf.constant(X)), X * 0.0 - 7.0)  # eagerly: the helper's value
    with pytest.raises(Exception) as refused:  # noqa: B017 - TensorFlow's or ours
        out = staged(fn, tf.constant(X))
        pytest.fail(f"the handler ran: {out!r}")
    assert "the handler ran" not in str(refused.value)


# -- a staged for over an array its body writes into reads the written items (NumPy's
# iteration by index); where the body also rebinds the array, the refusal names it


def writes_then_rebinds(x):
    v = np.array(x)
    acc = v[0] * 0.0
    for e in v:
        v[1] = 7.0
        v = v * 2.0
        acc += e
    return acc


def enumerates_and_writes(x):
    v = np.array(x)
    acc = v[0] * 0.0
    for i, e in enumerate(v, 1):
        ag.print("item", e)
        v[i % 4] = e * 2.0
        acc += e * i
    return acc, v


def writes_in_and_before_a_branch(x, n):
    v = np.array(x)
    acc = v[0] * 0.0
    for e in v:
        v[1] = 7.0
        if n > 0:
            v[3] = 1.0
        acc += e
    return acc


def rebinds_in_a_branch(x, n):
    v = np.array(x)
    acc = v[0] * 0.0
    for e in v:
        v[1] = 7.0
        if n > 0:
            v = v * 2.0
        acc += e
    return acc


def test_a_loop_over_the_array_its_body_writes(capfd):
    x = np.arange(1.0, 5.0)
    acc, v = staged(enumerates_and_writes, tf.constant(x))
    assert capfd.readouterr().out == "item 1\nitem 2\nitem 4\nitem 8\n"  # once per item
    want_acc, want_v = enumerates_and_writes(x.copy())
    assert float(acc) == want_acc and np.array_equal(v.numpy(), want_v)
    for n in (1, -1):
        got = staged(writes_in_and_before_a_branch, tf.constant(x), tf.constant(n))
        assert float(got) == writes_in_and_before_a_branch(x.copy(), n)
    assert refusal(rebinds_in_a_branch, tf.constant(x), tf.constant(1)).startswith(
        f"for loop at {at(rebinds_in_a_branch, 'for e in v:')}: the body gives 'v', the array "
        f"the loop iterates")  # (the staging core's words: staging.iterated)
    assert refusal(writes_then_rebinds, tf.constant(x)) == (
        f"for loop at {at(writes_then_rebinds, 'for e in v:')}: the body gives 'v', the array "
        f"the loop iterates over, a value that is not that array as written (another array, "
        f"or one a staged loop or try in the body made); eagerly each iteration reads that "
        f"array as the iterations before it left it, and here the loop cannot tell which "
        f"array it reads. Iterate over the indices (for i in range(len(v)): e = v[i]), or "
        f"over a copy (for e in v.copy():).")


def arange_to_a_bound(x):
    n = int(np.ceil(x * 4))
    return np.arange(n, 0, -1)


def test_a_graph_tensor_tested_by_code_autograph_does_not_convert():
    """TensorFlow's own code given a graph tensor where it needs a Python value (the
    bound of ``np.arange``, found on SciPy's ``_kolmogn_PelzGood``): a StagingError at the
    user's line, not OperatorNotAllowedInGraphError."""
    assert refusal(arange_to_a_bound, tf.constant(1.5)) == (
        f"a graph tensor is used as a Python bool at "
        f"{at(arange_to_a_bound, 'return np.arange(n, 0, -1)')}, by code autograph does not "
        f"convert (TensorFlow's or NumPy's own: np.arange given a graph tensor as a bound, a "
        f"builtin such as all() over a tensor); under tf.function a graph tensor has a value "
        f"only when the graph runs. Pass a Python value there (computed outside tf.function), "
        f"or write the test in converted code, whose if, while and for of a graph tensor are "
        f"graph ops.")


def unpacks_three(x):
    a, b, c = x
    return a + b * c


def unpacks_two(x):
    a, b = x
    return a + b


def lists(x):
    return list(x)


def test_iterating_over_a_graph_tensor():
    """``a, b, c = x`` and ``list(x)`` in converted code: ndarray's iteration along the
    first axis where its length is static (TensorFlow refuses every graph tensor); where
    the graph knows the length only when it runs, a StagingError at the user's line.
    Eagerly a wrong count and a 0-d array are NumPy's errors, so they are staged."""
    assert float(staged(unpacks_three, tf.constant(X))) == 1.0 + -2.0 * 3.0
    with pytest.raises(ValueError, match=r"^too many values to unpack \(expected 2\)$"):
        staged(unpacks_two, tf.constant(X))
    with pytest.raises(TypeError, match="^iteration over a 0-d array$"):
        staged(lists, tf.constant(1.0))
    with pytest.raises(TypeError, match="^iteration over a 0-d array$"):
        lists(np.array(1.0))
    unknown = tf.function(ag.convert(unpacks_three), autograph=False,
                          input_signature=[tf.TensorSpec([None], tf.float32)])
    with pytest.raises(ag.StagingError) as info:
        unknown(tf.constant(X))
    assert str(info.value) == (
        f"a graph tensor is iterated over or unpacked at {at(unpacks_three, 'a, b, c = x')}, "
        f"and the length of its first axis is known only when the graph runs (shape "
        f"(None,)): under tf.function its items must be known when it traces. Index it "
        f"(x[0], x[1]), loop over range(len(x)) in converted code, or give the tf.function "
        f"an input_signature with that length.")
