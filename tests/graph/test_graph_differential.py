"""Every function here runs three ways: as plain Python on NumPy arrays, and as an
autograph.function (traced, compiled). Values, dtypes and shapes must agree."""


import numpy as np
import pytest

import autograph as ag



def collatz(n):
    steps = np.array(0, np.int64)
    while n != 1:
        if n % 2 == 0:
            n = n // 2
        else:
            n = 3 * n + 1
        steps += 1
    return steps


def first_above(x, limit):
    for v in x:
        if v > limit:
            return v
    return x[0] * 0 - 1


def count_until_break(x):
    total = np.float32(0)
    for v in x:
        if total > 10:
            break
        total = total + v
    return total


def range_loop(n, x):
    acc = np.zeros_like(x)
    for i in range(n):
        acc = acc + x * i
    return acc


def python_range_with_tensor_break(x):
    s = x[0] * 0
    for i in range(5):
        if s > 3:
            break
        s = s + x[i]
    return s


def logic(x, y):
    if (x > 0 and y > 0) or not (x < -5):
        r = x + y
    else:
        r = x - y
    return r


def ternary(x):
    y = x * 2 if x.sum() > 0 else -x
    return y


def mixed_precision(x):
    y = x + 1          # float32 + weak int -> float32
    z = y * 2.5        # weak float keeps float32
    w = z + np.float64(1)  # strong float64 scalar promotes
    return y, z, w


def int_division(a):
    return a / 2, a // 2, a % 3, -a, abs(a)


def reductions(x):
    return x.sum(), x.mean(axis=0), np.max(x, axis=1), x.T @ x, x.astype(np.float32).std()


def indexing(x, idx):
    return x[1:, ::2], x[idx], x[x > 0.5], x[..., None].shape


def setitem_in_loop(x):
    out = np.zeros(x.shape, x.dtype)
    for i in range(x.shape[0]):
        out[i] = x[i] * i
    return out


def tensor_setitem(x):
    y = x.copy()
    y[0] = 100
    y[x > 2] = -1
    return y


def while_with_return(x):
    i = 0
    while i < 10:
        if x[i] < 0:
            return i
        i += 1
    return -1


def nested_loops(m):
    total = np.array(0.0)
    for row in m:
        for v in row:
            if v > 0:
                total = total + v
    return total


def enumerate_loop(x):
    best = x[0] * 0
    at = 0
    for i, v in enumerate(x):
        if v > best:
            best = v
            at = i
    return best, at


def structures(x):
    return {"a": x, "b": [x + 1, (x * 2,)]}


def where_and_clip(x):
    return np.where(x > 0, x, 0.0), np.clip(x, -1, 1), np.maximum(x, 0)


def views_keep_buffers_alive(x):
    a = x * 2
    v = a[:2]
    c = a + 1          # a dies here, but its view v is still needed
    d = v * 3
    e = c - 1
    w = e.reshape(2, 2)
    e2 = np.exp(e)     # e dies, its view w is still needed
    return c, d, w + 0, e2


def setitem_with_live_view(x):
    a = x + 1
    v = a[1:]
    a[1] = 100         # a is updated but the view was taken before: eager shares memory
    return a, v.sum()


def chained_temporaries(x, w):
    for _ in range(3):
        x = np.tanh(x @ w + 1) * 2 - x
    return x


CASES = [
    (collatz, (np.array(27),)),
    (collatz, (np.array(1),)),
    (first_above, (np.array([1.0, 5.0, 7.0]), 4.0)),
    (first_above, (np.array([1.0, 2.0]), 4.0)),
    (count_until_break, (np.arange(10, dtype=np.float32),)),
    (range_loop, (np.array(4), np.array([1.0, 2.0]))),
    (python_range_with_tensor_break, (np.array([1.0, 2.0, 3.0, 4.0, 5.0]),)),
    (logic, (np.array(1.0), np.array(2.0))),
    (logic, (np.array(-1.0), np.array(2.0))),
    (logic, (np.array(-10.0), np.array(2.0))),
    (ternary, (np.array([1.0, -3.0]),)),
    (ternary, (np.array([1.0, 3.0]),)),
    (mixed_precision, (np.array([1.0, 2.0], np.float32),)),
    (int_division, (np.array([3, -7], np.int32),)),
    (reductions, (np.arange(12.0).reshape(3, 4),)),
    (indexing, (np.linspace(0, 1, 12).reshape(3, 4), np.array([2, 0]))),
    (setitem_in_loop, (np.arange(4.0),)),
    (tensor_setitem, (np.arange(5),)),
    (while_with_return, (np.array([1, 2, -3, 4, 5, 6, 7, 8, 9, 10]),)),
    (while_with_return, (np.arange(10),)),
    (nested_loops, (np.array([[1.0, -2.0], [3.0, 4.0]]),)),
    (enumerate_loop, (np.array([3.0, 9.0, 2.0]),)),
    (structures, (np.array([1, 2]),)),
    (where_and_clip, (np.array([-2.0, 0.5, 3.0]),)),
    (views_keep_buffers_alive, (np.arange(4.0),)),
    (chained_temporaries, (np.ones((2, 3)), np.full((3, 3), 0.1))),
]


def assert_same(expected, actual, path="result", close=False):
    """Same structure, dtypes and shapes; same values (``close``: floats equal to a few
    ulps, as XLA's math library computes them)."""
    if isinstance(expected, (tuple, list)):
        assert type(actual) is type(expected), path
        assert len(actual) == len(expected), path
        for i, (e, a) in enumerate(zip(expected, actual)):
            assert_same(e, a, f"{path}[{i}]", close)
    elif isinstance(expected, dict):
        assert actual.keys() == expected.keys(), path
        for k in expected:
            assert_same(expected[k], actual[k], f"{path}[{k!r}]", close)
    else:
        e, a = np.asarray(expected), np.asarray(actual)
        assert a.dtype == e.dtype, f"{path}: dtype {a.dtype} != {e.dtype}"
        assert a.shape == e.shape, f"{path}: shape {a.shape} != {e.shape}"
        if close and a.dtype.kind in "fc":
            np.testing.assert_allclose(a, e, rtol=8 * np.finfo(a.dtype).eps, err_msg=path)
        else:
            np.testing.assert_array_equal(a, e, err_msg=path)



def _name(case, i):
    fn = case.values[0] if hasattr(case, "values") else case[0]
    return f"{fn.__name__}-{i}"


@pytest.mark.parametrize("fn,args", CASES, ids=[_name(c, i) for i, c in enumerate(CASES)])
def test_graph_matches_python(fn, args, graph_engine):
    expected = fn(*[a.copy() if isinstance(a, np.ndarray) else a for a in args])
    graph_fn = ag.function(fn)
    actual = graph_fn(*args)
    close = graph_engine == "numpy-xla"
    assert_same(expected, actual, close=close)
    again = graph_fn(*args)  # the cached concrete function gives the same
    assert_same(expected, again, close=close)


@pytest.mark.parametrize("fn,args", CASES[:12], ids=[c[0].__name__ for c in CASES[:12]])
def test_graph_survives_save_and_load(fn, args, tmp_path):
    expected = fn(*args)
    concrete = ag.function(fn).get_concrete_function(*args)
    path = tmp_path / "graph.npz"
    concrete.save(path)
    loaded = ag.load(path)
    assert_same(expected, loaded(*args))
    assert str(loaded.graph) == str(concrete.graph)
