"""Loading a file autograph did not write (issue 27, item 7): ``ag.load`` accepts only
what ``save`` writes and refuses anything else with one ``ValueError`` before anything
from the file runs. Each case starts from a real saved file and changes one thing, as
an attacker editing the JSON or the archive would; a marker file shows whether any of
the file's code ran.
"""

from __future__ import annotations

import json
import os
import pickle
import sys
import zipfile

import numpy as np
import pytest

import autograph as ag


def copy_twice(x):
    y = x.copy()
    return y * 2.0


def clip_sum(x):
    if np.sum(x) > 0:
        return np.clip(x, 0.0, 1.0)
    return -x


class Marker:
    """Unpickled, it writes its file: proof that pickled data ran."""

    def __init__(self, path):
        self.path = path

    def __reduce__(self):
        return (open, (self.path, "w"))


def _saved(tmp_path, fn=copy_twice, name="f.npz"):
    graph_fn = ag.function(fn)
    graph_fn(np.ones(2))
    path = tmp_path / name
    graph_fn.save(path)
    return path


def _read(path):
    with np.load(path, allow_pickle=False) as archive:
        arrays = {k: archive[k] for k in archive.files}
    return json.loads(str(arrays.pop("__graph__"))), arrays


def _write(path, document, arrays, allow_pickle=False):
    arrays = dict(arrays, __graph__=np.array(json.dumps(document)))
    with open(path, "wb") as f:
        np.savez(f, allow_pickle=allow_pickle, **arrays)


def _rewrite(path, change):
    document, arrays = _read(path)
    change(document["functions"][0], arrays)
    _write(path, document, arrays)


def _op(graph, kind):
    return next(op for op in graph["body"]["ops"] if op["kind"] == kind)


def _refused(path, match):
    with pytest.raises(ValueError, match=match) as caught:
        ag.load(path)
    assert str(caught.value).startswith("autograph.load: ")
    return str(caught.value)


@pytest.fixture
def marker(tmp_path):
    path = tmp_path / "ran"
    yield path
    assert not path.exists(), "code from the file ran"


# --- what a saved file names ------------------------------------------------------------

def test_a_module_as_a_graph_value_is_refused(tmp_path, marker):
    path = _saved(tmp_path)

    def attack(graph, arrays):
        graph["values"].append({"id": 999, "dtype": "|O", "shape": [], "weak": True,
                                "name": "m", "py": {"module": "os"}})
        op = _op(graph, "method")
        op["target"] = "system"
        op["args"] = {"tuple": [{"v": 999}, f"touch {marker}"]}

    _rewrite(path, attack)
    text = _refused(path, "holds the module 'os' as a graph value")
    assert text == ("autograph.load: the graph file holds the module 'os' as a graph value; "
                    "saved graphs hold no modules (only a Python argument may be one).")


@pytest.mark.parametrize("method", ["system", "tofile", "dump", "__reduce__", "view"])
def test_a_method_outside_the_closed_list_is_refused(tmp_path, marker, method):
    path = _saved(tmp_path)

    def attack(graph, arrays):
        op = _op(graph, "method")
        op["target"] = method
        op["args"]["tuple"].append(str(marker))

    _rewrite(path, attack)
    _refused(path, f"a 'method' op with target '{method}' in the graph file is not one "
                   f"autograph writes")


def test_an_attribute_outside_the_closed_list_is_refused(tmp_path):
    path = _saved(tmp_path)

    def attack(graph, arrays):
        op = _op(graph, "method")
        op.update(kind="attr", target="ctypes")

    _rewrite(path, attack)
    _refused(path, "a 'attr' op with target 'ctypes' in the graph file is not one autograph "
                   "writes")


@pytest.mark.parametrize("name", [
    "numpy.load", "numpy.save", "numpy.fromfile", "numpy.memmap", "numpy.lib.format.read_array",
    "numpy.testing.assert_equal", "numpy.test", "os.system", "builtins.eval", "builtins.exec",
    "builtins.open", "builtins.__import__", "subprocess.run", "math.__loader__",
    "numpy.add.at", "numpy.ndarray.tofile", "autograph.load", "importlib.import_module",
])
def test_a_call_of_a_function_outside_the_closed_list_is_refused(tmp_path, marker, name):
    path = _saved(tmp_path)
    pickled = tmp_path / "payload.pkl"
    with open(pickled, "wb") as f:
        pickle.dump(np.array([Marker(str(marker))], dtype=object), f)

    def attack(graph, arrays):
        op = _op(graph, "method")
        op.update(kind="call", target={"fn": name})
        op["args"] = {"tuple": [str(pickled)]}
        op["kwargs"] = {"dict": {"allow_pickle": True}}

    _rewrite(path, attack)
    _refused(path, "unknown function|is not one autograph writes")


@pytest.mark.parametrize("target", [
    {"exception_class": ["builtins", "ValueError"]}, {"builtin": "int"},
    {"type": "<f8"}, {"module": "os"}, "numpy.load",
])
def test_a_call_of_anything_but_a_named_function_is_refused(tmp_path, target):
    path = _saved(tmp_path)

    def attack(graph, arrays):
        op = _op(graph, "method")
        op.update(kind="call", target=target)

    _rewrite(path, attack)
    _refused(path, "which is not a function autograph writes")


def test_a_numpy_function_a_graph_records_still_loads(tmp_path):
    path = _saved(tmp_path, clip_sum)
    loaded = ag.load(path)
    np.testing.assert_array_equal(loaded(np.array([2.0, -1.0])), [1.0, 0.0])


def test_an_unknown_op_kind_is_refused(tmp_path):
    path = _saved(tmp_path)
    _rewrite(path, lambda graph, arrays: _op(graph, "method").update(kind="exec", target=None,
                                                                       args={"tuple": ["1"]}))
    _refused(path, "a 'exec' op with target None in the graph file is not one autograph writes")


def test_a_module_the_file_names_is_not_imported(tmp_path, marker):
    """Neither as a Python argument nor as an exception's or named tuple's module."""
    (tmp_path / "side_effects.py").write_text(
        f"open({str(marker)!r}, 'w').close()\nclass Boom(Exception):\n    pass\n")
    sys.path.insert(0, str(tmp_path))
    try:
        path = _saved(tmp_path)
        _rewrite(path, lambda graph, arrays: graph["specs"].__setitem__(
            0, {"module": "side_effects"}))
        assert _refused(path, "not imported here") == (
            "autograph.load: the graph was traced with the module side_effects as an argument, "
            "which is not imported here; loading imports nothing a file names. Import "
            "side_effects before loading.")

        for tag, payload in [("exception_class", ["side_effects", "Boom"]),
                             ("exception", ["side_effects", "Boom", {"tuple": []}, {"dict": {}}]),
                             ("namedtuple", ["side_effects", "Pair", []])]:
            path = _saved(tmp_path)

            def attack(graph, arrays):
                op = _op(graph, "method")
                op["args"]["tuple"].append({tag: payload})

            _rewrite(path, attack)
            _refused(path, "side_effects is not imported; loading imports nothing a file names")
        assert "side_effects" not in sys.modules
    finally:
        sys.path.remove(str(tmp_path))


def test_a_named_tuple_is_made_without_running_its_class(tmp_path):
    from autograph.runtime.backends.numpy_graph import serialize

    reader = serialize._Reader({"values": []}, {})
    made = reader.dec({"namedtuple": [__name__, "Guarded", [1, 2]]})
    assert made == (1, 2) and type(made) is Guarded and Guarded.made == 0
    with pytest.raises(ValueError, match="has 2 fields, the file gives 3 items"):
        reader.dec({"namedtuple": [__name__, "Guarded", [1, 2, 3]]})
    with pytest.raises(ValueError, match="what is there is not a named tuple"):
        reader.dec({"namedtuple": ["os", "system", []]})


class Guarded(tuple):
    """A named tuple whose constructor would count (and could do anything)."""
    _fields = ("a", "b")
    made = 0

    def __new__(cls, *items):
        Guarded.made += 1
        return tuple.__new__(cls, items)


# --- values and arrays -------------------------------------------------------------------

def test_pickled_arrays_are_refused_unread(tmp_path, marker):
    path = _saved(tmp_path)
    document, arrays = _read(path)
    arrays["c99"] = np.array([Marker(str(marker))], dtype=object)
    _write(path, document, arrays, allow_pickle=True)
    assert _refused(path, "pickled") == (
        f"autograph.load: {path} is not a whole saved autograph graph (it holds pickled Python "
        f"objects, which autograph never writes (loading them could run code)).")


@pytest.mark.parametrize("dtype", ["|O", "|V8", "[('a', '<f8')]", "not a dtype", 7, None])
def test_a_value_of_a_dtype_no_graph_has_is_refused(tmp_path, dtype):
    path = _saved(tmp_path)
    _rewrite(path, lambda graph, arrays: graph["values"][0].update(dtype=dtype))
    _refused(path, "is not a dtype a saved graph has")


def test_a_spec_of_object_dtype_is_refused(tmp_path):
    path = _saved(tmp_path)
    _rewrite(path, lambda graph, arrays: graph["specs"][0]["spec"].__setitem__(1, "|O"))
    _refused(path, "'|O' in the graph file is not a dtype a saved graph has")


def test_a_constant_whose_array_is_not_its_dtype_is_refused(tmp_path):
    path = _saved(tmp_path)

    def attack(graph, arrays):
        graph["values"].append({"id": 998, "dtype": "<f8", "shape": [2], "weak": False,
                                "name": "c", "const": "c998", "scalar": False})
        arrays["c998"] = np.array(["a", "b"])
        _op(graph, "method")["args"]["tuple"].append({"v": 998})

    _rewrite(path, attack)
    _refused(path, "the array 'c998' in the graph file is str32, where the graph says float64")


def test_a_constant_naming_a_missing_array_is_refused(tmp_path):
    path = _saved(tmp_path)

    def attack(graph, arrays):
        graph["values"].append({"id": 998, "dtype": "<f8", "shape": [], "weak": False,
                                "name": "c", "const": "nowhere"})

    _rewrite(path, attack)
    _refused(path, "names the array 'nowhere', which the file does not hold")


@pytest.mark.parametrize("shape", [[-1], ["2"], 2, [1.5]])
def test_a_shape_that_is_not_one_is_refused(tmp_path, shape):
    path = _saved(tmp_path)
    _rewrite(path, lambda graph, arrays: graph["values"][0].update(shape=shape))
    _refused(path, "in the graph file is not a shape")


def test_a_malformed_raise_message_is_refused(tmp_path):
    from autograph.runtime.backends.numpy_graph import serialize

    reader = serialize._Reader({"values": []}, {})
    with pytest.raises(ValueError, match="a raise's message in the graph file is not one"):
        reader.dec({"message": [{"list": [{"tuple": ["eval", "1"]}]}, {"list": []}]})


# --- archives that are not whole ------------------------------------------------------------

def test_a_truncated_archive_is_one_clear_error(tmp_path):
    path = _saved(tmp_path, clip_sum)
    data = path.read_bytes()
    for size in (0, 10, len(data) // 2, len(data) - 5):
        path.write_bytes(data[:size])
        _refused(path, "is not a whole saved autograph graph")


def test_a_corrupted_archive_is_one_clear_error(tmp_path):
    path = _saved(tmp_path, clip_sum)
    data = bytearray(path.read_bytes())
    with zipfile.ZipFile(path) as archive:
        info = archive.getinfo("__graph__.npy")
    start = info.header_offset + 30 + len(info.filename) + 200
    data[start:start + 40] = b"\xff" * 40
    path.write_bytes(bytes(data))
    _refused(path, "is not a whole saved autograph graph")


@pytest.mark.parametrize("text", ["{", "[]", "{\"format\": \"autograph-function-2\"}",
                                  "{\"format\": \"autograph-function-2\", \"name\": \"f\", "
                                  "\"functions\": [{\"format\": \"autograph-graph-2\"}]}",
                                  "[" * 100000 + "]" * 100000])
def test_a_damaged_graph_document_is_one_clear_error(tmp_path, text):
    path = tmp_path / "f.npz"
    with open(path, "wb") as f:
        np.savez(f, __graph__=np.array(text))
    _refused(path, "is damaged|is not a saved autograph graph")


def test_a_single_npy_array_is_one_clear_error(tmp_path):
    path = tmp_path / "a.npy"
    np.save(path, np.ones(3))
    _refused(path, r"a\.npy is not a whole saved autograph graph \(it is a single \.npy array")


def test_a_missing_file_stays_a_file_not_found_error(tmp_path):
    with pytest.raises(FileNotFoundError):
        ag.load(tmp_path / "nowhere.npz")


def test_every_existing_function_still_loads(tmp_path):
    path = _saved(tmp_path)
    np.testing.assert_array_equal(ag.load(path)(np.array([1.0, 3.0])), [2.0, 6.0])
    assert not os.path.exists(tmp_path / "ran")


@pytest.mark.parametrize("source", [["/dev/zero", 1], ["/dev/stdin", 1], ["/", 1]])
def test_an_op_naming_a_device_as_its_source_loads_without_reading_it(tmp_path, source):
    path = _saved(tmp_path)
    _rewrite(path, lambda graph, arrays: _op(graph, "method").update(source=source))
    loaded = ag.load(path)  # would hang reading the device for the op's line
    assert _op_of(loaded).source is None
    np.testing.assert_array_equal(loaded(np.ones(2)), [2.0, 2.0])


@pytest.mark.parametrize("source", [["f.py", 0], ["f.py", "1"], [3, 1], "f.py:1"])
def test_a_source_that_is_not_a_line_is_refused(tmp_path, source):
    path = _saved(tmp_path)
    _rewrite(path, lambda graph, arrays: _op(graph, "method").update(source=source))
    _refused(path, "in the graph file is not a source line")


def _op_of(loaded):
    (concrete,) = loaded.concrete_functions
    return next(op for op in concrete.graph.body.ops if op.kind == "method")


def with_module(x, xp):
    if xp.sum(x) > 0:
        return xp.sqrt(x)
    return x


def test_a_module_passed_as_a_python_argument_loads_when_imported(tmp_path):
    graph_fn = ag.function(with_module)
    graph_fn(np.ones(2), np)
    graph_fn.save(tmp_path / "xp.npz")
    loaded = ag.load(tmp_path / "xp.npz")
    np.testing.assert_array_equal(loaded(np.full(2, 4.0), np), [2.0, 2.0])
