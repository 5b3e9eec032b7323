"""Saving a concrete function and loading it back without its Python source.

The file is one ``.npz`` archive: ``__graph__`` holds the graph as JSON (ops,
their arguments, blocks, the signature), every constant and every captured
variable's value is an array entry of its own. Nothing is pickled: functions
are stored by their NumPy name (``numpy.add``, ``numpy.linalg.norm``) and looked
up again in NumPy on load, and only NumPy (and a few builtins) can be named, so
loading a file cannot run arbitrary code. Loading rebuilds the ``Graph`` and
compiles it, giving a ``ConcreteFunction`` (with the loaded ``variables``).

A whole ``autograph.function`` saves every graph it has traced into one file
(each graph's arrays under its own prefix, the captured variables once, so
graphs that shared a variable share it again after loading); loading it gives
a ``LoadedFunction``, which calls the graph traced for its arguments.
"""

from __future__ import annotations

import builtins
import json
import math
from typing import Any, Union

import numpy as np

from . import messages
from .codegen import compile_graph
from .concrete import ConcreteFunction
from .ir import Block, Graph, Op, Value, VarRef
from .render import qualname

FORMAT = "autograph-graph-1"
FUNCTION_FORMAT = "autograph-function-1"
_BUILTINS = {"len", "round", "abs", "float", "int", "bool", "complex", "min", "max", "sum"}


class _Writer:
    def __init__(self, graph: Graph, prefix: str = ""):
        self.prefix = prefix
        self.arrays: dict[str, np.ndarray] = {}
        self.values: dict[int, dict] = {}
        self.graph = graph

    def value(self, v: Value) -> dict:
        if v.id not in self.values:
            entry = {"id": v.id, "dtype": v.dtype.str, "shape": list(v.shape), "weak": v.weak,
                     "name": v.name}
            if v.const is not None:
                if v.weak:
                    entry["py"] = self.enc(v.const)
                else:
                    key = f"{self.prefix}c{v.id}"
                    self.arrays[key] = np.asarray(v.const)
                    entry["const"] = key
                    entry["scalar"] = isinstance(v.const, np.generic)
            self.values[v.id] = entry
        return {"v": v.id}

    def enc(self, obj):
        cls = obj.__class__
        if cls is Value:
            return self.value(obj)
        if obj is None or cls in (bool, int, str):
            return obj
        if cls is float:
            return obj if math.isfinite(obj) else {"float": repr(obj)}
        if cls is complex:
            return {"complex": [obj.real, obj.imag]}
        if cls is tuple:
            return {"tuple": [self.enc(x) for x in obj]}
        if cls is list:
            return {"list": [self.enc(x) for x in obj]}
        if cls is dict and all(k.__class__ is str for k in obj):
            return {"dict": {k: self.enc(v) for k, v in obj.items()}}
        if cls is slice:
            return {"slice": [self.enc(x) for x in (obj.start, obj.stop, obj.step)]}
        if obj is Ellipsis:
            return {"ellipsis": True}
        if isinstance(obj, np.dtype):
            return {"dtype": obj.str}
        if isinstance(obj, type) and issubclass(obj, np.generic):
            return {"type": np.dtype(obj).str}
        if obj in (int, float, bool, complex):
            return {"builtin": obj.__name__}
        if cls is VarRef:
            return {"var": obj.name}
        if callable(obj):
            name = qualname(obj)
            if _resolve(name) is not obj:
                raise ValueError(messages.cannot_save(f"the function {name}"))
            return {"fn": name}
        raise ValueError(messages.cannot_save(repr(obj)))

    def op(self, op: Op) -> dict:
        return {
            "kind": op.kind,
            "target": self.enc(op.target) if op.target is not None else None,
            "args": self.enc(op.args), "kwargs": self.enc(op.kwargs),
            "outputs": [self.value(v) for v in op.outputs],
            "out_tree": self.enc(op.out_tree),
            "blocks": {k: self.block(b) for k, b in op.blocks.items()},
            "source": list(op.source) if op.source else None,
            "effect": op.effect,
        }

    def block(self, block: Block) -> dict:
        return {"params": [self.value(p) for p in block.params],
                "ops": [self.op(op) for op in block.ops],
                "results": self.enc(block.results), "pattern": self.enc(block.pattern)}


def save(concrete: ConcreteFunction, path) -> None:
    arrays: dict = {}
    _write(path, _graph_document(concrete, "", {}, arrays), arrays)


def save_function(function, path) -> None:
    """Every graph ``function`` (an ``autograph.function``) has traced, in one file."""
    concretes = function.concrete_functions
    if not concretes:
        raise ValueError(f"autograph.function '{function.__name__}': nothing to save, no graph "
                         f"has been traced yet. Call the function (or get_concrete_function) "
                         f"with each signature to save first.")
    arrays: dict = {}
    variables: dict = {}
    documents = [_graph_document(c, f"g{i}_", variables, arrays) for i, c in enumerate(concretes)]
    _write(path, {"format": FUNCTION_FORMAT, "name": function.__name__, "functions": documents},
           arrays)


def _write(path, document: dict, arrays: dict) -> None:
    arrays = dict(arrays)
    arrays["__graph__"] = np.array(json.dumps(document))
    with open(path, "wb") as f:
        np.savez(f, **arrays)


def _graph_document(concrete: ConcreteFunction, prefix: str, variables: dict, arrays: dict) -> dict:
    """The JSON document of one graph; its arrays go into ``arrays`` (keys start with
    ``prefix``), each captured variable once across graphs (``variables``: id -> key)."""
    from .polymorphic import TensorSpec
    from .variables import Variable

    graph = concrete.graph
    writer = _Writer(graph, prefix)

    def spec(s):
        if isinstance(s, TensorSpec):
            return {"spec": [None if s.shape is None else list(s.shape), s.dtype.str]}
        if isinstance(s, Variable):
            return {"varspec": [list(s.shape), s.dtype.str]}
        if s.__class__ in (tuple, list):
            return {s.__class__.__name__: [spec(x) for x in s]}
        if s.__class__ is dict:
            return {"dict": {k: spec(v) for k, v in s.items()}}
        return writer.enc(s)

    inputs = [writer.value(p) if isinstance(p, Value) else
              {"varin": p.name, "dtype": p.dtype.str, "shape": list(p.shape)} for p in graph.inputs]
    document = {
        "format": FORMAT, "name": graph.name, "params": concrete.param_names,
        "specs": [spec(s) for s in concrete.specs],
        "inputs": inputs,
        "layout": [[[access, writer.enc(leaf)] for access, leaf in leaves]
                   for leaves in concrete.layout],
        "body": writer.block(graph.body),
        "outputs": writer.enc(graph.outputs),
        "captured": [],
    }
    for variable in graph.captured:
        key = variables.get(id(variable))
        if key is None:
            key = variables[id(variable)] = f"var{len(variables)}"
            arrays[key] = variable.value
        document["captured"].append({"name": variable.name, "key": key})
    document["values"] = list(writer.values.values())
    arrays.update(writer.arrays)
    return document


def _resolve(name: str):
    parts = name.split(".")
    if parts[0] == "builtins" and len(parts) == 2 and parts[1] in _BUILTINS:
        return getattr(builtins, parts[1])
    if parts[0] != "numpy":
        return None
    obj = np
    for part in parts[1:]:
        if part.startswith("_"):
            return None
        obj = getattr(obj, part, None)
        if obj is None:
            return None
    return obj


class _Reader:
    def __init__(self, document, arrays):
        self.arrays = arrays
        self.values: dict[int, Value] = {}
        for entry in document["values"]:
            const = None
            if "py" in entry:
                const = self.dec(entry["py"])
            elif "const" in entry:
                const = arrays[entry["const"]]
                if entry.get("scalar"):
                    const = const[()]
            self.values[entry["id"]] = Value(entry["id"], np.dtype(entry["dtype"]),
                                             tuple(entry["shape"]), entry["weak"], const,
                                             entry["name"])
        self.vars: dict[str, VarRef] = {}

    def dec(self, obj):
        if obj is None or obj.__class__ in (bool, int, float, str):
            return obj
        (tag, payload), = obj.items()
        if tag == "v":
            return self.values[payload]
        if tag == "float":
            return float(payload)
        if tag == "complex":
            return complex(*payload)
        if tag == "tuple":
            return tuple(self.dec(x) for x in payload)
        if tag == "list":
            return [self.dec(x) for x in payload]
        if tag == "dict":
            return {k: self.dec(v) for k, v in payload.items()}
        if tag == "slice":
            return slice(*(self.dec(x) for x in payload))
        if tag == "ellipsis":
            return Ellipsis
        if tag == "dtype":
            return np.dtype(payload)
        if tag == "type":
            return np.dtype(payload).type
        if tag == "builtin":
            return {"int": int, "float": float, "bool": bool, "complex": complex}[payload]
        if tag == "var":
            return self.vars[payload]
        if tag == "fn":
            fn = _resolve(payload)
            if fn is None:
                raise ValueError(f"autograph.load: unknown function {payload!r} in the graph file.")
            return fn
        raise ValueError(f"autograph.load: unknown entry {tag!r} in the graph file.")

    def op(self, entry) -> Op:
        op = Op(entry["kind"], self.dec(entry["target"]), self.dec(entry["args"]),
                self.dec(entry["kwargs"]), [self.dec(v) for v in entry["outputs"]],
                self.dec(entry["out_tree"]),
                {k: self.block(b) for k, b in entry["blocks"].items()},
                tuple(entry["source"]) if entry["source"] else None, entry["effect"])
        return op

    def block(self, entry) -> Block:
        block = Block([self.dec(p) for p in entry["params"]])
        block.ops = [self.op(e) for e in entry["ops"]]
        block.results = self.dec(entry["results"])
        block.pattern = self.dec(entry["pattern"])
        return block


def load(path: Any) -> Union[ConcreteFunction, LoadedFunction]:
    """Load a saved graph or function, compiled again, without its Python source.

    Args:
        path: A file written by ``ConcreteFunction.save`` or ``Function.save``
            (a path or an open binary file).

    Returns:
        For a saved concrete function, a ``ConcreteFunction``; for a saved
        ``autograph.function``, a ``LoadedFunction`` that calls the graph traced
        for its arguments. Variables are in ``.variables``.

    Raises:
        ValueError: The file is not a saved autograph graph, or names a
            function that is not NumPy's.

    Example:
        >>> import os, tempfile
        >>> import numpy as np
        >>> import autograph as ag
        >>> @ag.function
        ... def double(x):
        ...     return x * 2
        >>> _ = double(np.array([1.0, 2.0])), double(np.array(3))
        >>> path = os.path.join(tempfile.mkdtemp(), "double.npz")
        >>> double.save(path)
        >>> loaded = ag.load(path)
        >>> loaded(np.array(5))
        array(10)
    """
    with np.load(path, allow_pickle=False) as archive:
        arrays = {k: archive[k] for k in archive.files}
    if "__graph__" not in arrays:
        raise ValueError(f"autograph.load: {path} is not a saved autograph graph.")
    document = json.loads(str(arrays.pop("__graph__")))
    if document.get("format") == FORMAT:
        return _load_graph(document, arrays, {})
    if document.get("format") == FUNCTION_FORMAT:
        variables: dict = {}
        return LoadedFunction(document["name"],
                              [_load_graph(d, arrays, variables) for d in document["functions"]])
    raise ValueError(f"autograph.load: {path} is not a saved autograph graph.")


def _load_graph(document: dict, arrays: dict, variables: dict) -> ConcreteFunction:
    """One graph; ``variables`` (key -> Variable) is shared by the graphs of one file."""
    from .polymorphic import TensorSpec
    from .variables import Variable

    reader = _Reader(document, arrays)
    graph = Graph(document["name"])
    for k, entry in enumerate(document["captured"]):
        variable = variables.get(entry["key"])
        if variable is None:
            variable = variables[entry["key"]] = Variable.__new__(Variable)
            variable.value = arrays[entry["key"]]
            variable.name = entry["name"]
        graph.captured.append(variable)
        reader.vars[f"v{k}"] = VarRef(f"v{k}", variable.dtype, variable.shape)
    for entry in document["inputs"]:
        if "varin" in entry:
            ref = VarRef(entry["varin"], np.dtype(entry["dtype"]), tuple(entry["shape"]))
            reader.vars[ref.name] = ref
            graph.inputs.append(ref)
        else:
            graph.inputs.append(reader.dec(entry))

    def spec(s):
        if isinstance(s, dict) and len(s) == 1:
            (tag, payload), = s.items()
            if tag == "spec":
                return TensorSpec(payload[0], np.dtype(payload[1]))
            if tag == "varspec":
                placeholder = Variable.__new__(Variable)
                placeholder.value = np.zeros(tuple(payload[0]), np.dtype(payload[1]))
                placeholder.name = None
                return placeholder
            if tag in ("tuple", "list"):
                return (tuple if tag == "tuple" else list)(spec(x) for x in payload)
            if tag == "dict":
                return {k: spec(v) for k, v in payload.items()}
        return reader.dec(s)

    specs = [spec(s) for s in document["specs"]]
    layout = [[(access, reader.dec(leaf)) for access, leaf in leaves]
              for leaves in document["layout"]]
    graph.body = reader.block(document["body"])
    graph.outputs = reader.dec(document["outputs"])
    concrete = ConcreteFunction(graph, compile_graph(graph, layout), specs, document["params"],
                                document["name"], layout)
    concrete.variables = list(graph.captured)
    return concrete


class LoadedFunction:
    """A saved ``autograph.function``, loaded: its graphs, and a call that runs the
    graph traced for the arguments (arrays by dtype and shape, Python values by
    value), as the function did."""

    def __init__(self, name: str, concrete_functions: list) -> None:
        self.__name__ = name
        self.concrete_functions: list[ConcreteFunction] = list(concrete_functions)
        seen: dict = {}
        for concrete in self.concrete_functions:
            for variable in concrete.variables:
                seen.setdefault(id(variable), variable)
        self.variables = list(seen.values())

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self.get_concrete_function(*args, **kwargs)(*args, **kwargs)

    def get_concrete_function(self, *args: Any, **kwargs: Any) -> ConcreteFunction:
        """The saved graph these arguments (arrays and Python values) select.

        Raises:
            TypeError: No saved graph was traced for arguments like these.
        """
        lenient = None
        for concrete in self.concrete_functions:
            try:
                full = concrete._bind(args, kwargs)
            except TypeError:
                continue
            if concrete._accepts(full):
                return concrete
            if lenient is None:
                try:
                    for name, spec, a in zip(concrete.param_names, concrete.specs, full):
                        concrete._check(name, spec, a)
                    lenient = concrete
                except (TypeError, ValueError):
                    pass
        if lenient is not None:  # Python numbers or lists where arrays were traced
            return lenient
        from .polymorphic import _describe_key

        given = ", ".join([_describe_key(a) for a in args] +
                          [f"{k}={_describe_key(v)}" for k, v in kwargs.items()])
        raise TypeError(f"{self.__name__}(): none of the {len(self.concrete_functions)} saved "
                        f"graphs was traced for these arguments ({given}). Saved signatures:\n\n"
                        f"{self.pretty_printed_concrete_signatures()}")

    def pretty_printed_concrete_signatures(self) -> str:
        """The signature of every saved graph, one block each."""
        return "\n\n".join(c.pretty_signature() for c in self.concrete_functions)

    def __repr__(self) -> str:
        return f"<autograph.load {self.__name__}: {len(self.concrete_functions)} graphs>"
