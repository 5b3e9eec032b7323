"""The graph as data: printing, optimizations, generated code, save and load."""

import numpy as np

import autograph as ag


def test_graph_prints_one_line_per_op_with_source_lines():
    @ag.function
    def f(x):
        y = x * 2
        z = y + 1
        return z

    text = str(f.get_concrete_function(np.arange(3.0)).graph)
    lines = text.splitlines()
    assert lines[0] == "graph f(x: float64[3]) -> float64[3]"
    assert lines[1].startswith("  t2 = x * 2") and "float64[3]" in lines[1]
    assert lines[1].rstrip().endswith("test_graph_data.py:11")
    assert lines[2].startswith("  t3 = t2 + 1") and lines[2].rstrip().endswith("test_graph_data.py:12")
    assert lines[3] == "  return t3"


def test_common_subexpressions_and_dead_code_are_removed():
    @ag.function
    def f(x):
        unused = np.sin(x) * 3  # noqa: F841
        a = np.exp(x) + 1
        b = np.exp(x) + 1
        return a * b

    concrete = f.get_concrete_function(np.arange(3.0))
    text = str(concrete.graph)
    assert text.count("np.exp") == 1
    assert "np.sin" not in text
    np.testing.assert_allclose(f(np.arange(3.0)), (np.exp(np.arange(3.0)) + 1) ** 2)


def test_constants_are_folded_while_tracing():
    @ag.function
    def f(x):
        table = np.arange(4.0) * 2 + 1
        return x + table.sum()

    text = str(f.get_concrete_function(np.array(1.0)).graph)
    assert len(text.splitlines()) == 3  # header, one add of a folded constant, return
    assert f(np.array(1.0)) == 17.0


def test_buffers_are_reused_with_out():
    @ag.function
    def f(x, w, b):
        for _ in range(3):
            x = np.maximum(x @ w + b, 0)
        return x

    args = (np.ones((4, 8)), np.full((8, 8), 0.1), np.zeros(8))
    source = f.get_concrete_function(*args)._fn.__autograph_source__
    assert source.count("out=") >= 5
    expected = args[0]
    for _ in range(3):
        expected = np.maximum(expected @ args[1] + args[2], 0)
    np.testing.assert_allclose(f(*args), expected)
    assert not np.shares_memory(f(*args), f(*args))


def test_outputs_never_alias_constants_or_variables():
    v = ag.Variable(np.zeros(3))

    @ag.function
    def f():
        return np.zeros(3) if False else np.ones(3), v.read_value()

    a, b = f()
    a[0] = 5
    b[0] = 5
    c, d = f()
    assert c[0] == 1 and d[0] == 0 and v.numpy()[0] == 0


def test_save_and_load_with_variables(tmp_path):
    counter = ag.Variable(np.int64(0))

    @ag.function
    def step(x):
        counter.assign_add(1)
        if np.sum(x) > 0:
            y = x * counter
        else:
            y = -x
        return y

    concrete = step.get_concrete_function(np.ones(2))
    step(np.ones(2))
    path = tmp_path / "step.npz"
    concrete.save(path)
    loaded = ag.load(path)
    (loaded_counter,) = loaded.variables
    assert loaded_counter.numpy() == 1
    np.testing.assert_array_equal(loaded(np.ones(2)), [2.0, 2.0])
    np.testing.assert_array_equal(loaded(-np.ones(2)), [1.0, 1.0])
    assert loaded_counter.numpy() == 3
    assert counter.numpy() == 1  # the original is not touched by the loaded copy
    assert str(loaded.graph) == str(concrete.graph)


def test_loaded_graph_does_not_need_the_source(tmp_path):
    namespace = {}
    exec(
        "import numpy as np\n"
        "def f(x, n):\n"
        "    while n > 0:\n"
        "        x = x * 2\n"
        "        n = n - 1\n"
        "    return x\n",
        namespace,
    )
    import linecache

    linecache.clearcache()
    path = tmp_path / "f.npz"
    ag.function(namespace["f"], autograph=False).get_concrete_function(
        np.ones(2), 3).save(path)
    loaded = ag.load(path)
    np.testing.assert_array_equal(loaded(np.ones(2), 3), [8.0, 8.0])
