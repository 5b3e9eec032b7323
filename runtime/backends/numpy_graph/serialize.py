"""Saving a concrete function and loading it back without its Python source.

The file is one ``.npz`` archive: ``__graph__`` holds the graph as JSON (ops,
their arguments, blocks, the signature), every constant and every captured
variable's value is an array entry of its own. Nothing is pickled, nothing is
imported and no code from the file runs. Functions are stored by name and looked up
again on load in closed lists (the NumPy functions and ufuncs tracing records,
``math``, a few builtins, autograph's run-time helpers for raising and
``np.errstate``); the exception classes a graph raises, the named tuples it returns
and modules passed as Python arguments (``xp=np``) are stored by import path and
looked up among the modules already imported. ``saved_names`` decides what a file
may name. Everything is checked before the graph is compiled: op kinds, methods and
attributes, dtypes (numbers, strings, dates; no object arrays), and the names and
accessors that go into the compiled code; a file that is not a whole archive is one
``ValueError`` too. Loading rebuilds the ``Graph`` and compiles it,
giving a ``ConcreteFunction`` (with the loaded ``variables``).

What the function's boundary does around the graph (``boundary.Boundary``: writing
into the caller's arrays and lists, rebuilding ``None`` and chosen strings) is data
beside the graph, saved with it. A graph that holds something with no saved form
is refused when saving, with the op, its line and what to do; never saved without it.

Format 2 added the boundary, raises, ``math`` and ``np.errstate``. Format 1 files
still load, unless their graph writes into an argument: format 1 dropped those
writes, and such a file is refused with a message saying to save it again.

A whole ``autograph.function`` saves every graph it has traced into one file
(each graph's arrays under its own prefix, the captured variables once, so
graphs that shared a variable share it again after loading); loading it gives
a ``LoadedFunction``, which calls the graph traced for its arguments.
"""

from __future__ import annotations

import json
import math
import os
import sys
import types
from typing import Any, Union

import numpy as np

from . import messages
from .boundary import Boundary, compile_function
from .concrete import ConcreteFunction
from .ir import Block, Graph, Op, Value, VarRef
from .numeric import errstate_enter, errstate_exit
from .raising import Message, raise_copy, rebuild_exception
from .render import qualname
from .saved_names import (
    RUNTIME_NAMES, STREAMS, callable_name, identifier, import_path, imported_module,
    make_named_tuple, named_class, resolve, same_exception, same_function, well_formed,
)
from .tensor import Tensor
from .writes import ArgumentWrite, access_path, argument_writes

FORMAT = "autograph-graph-2"
FUNCTION_FORMAT = "autograph-function-2"
class _Writer:
    def __init__(self, graph: Graph, prefix: str = ""):
        self.prefix = prefix
        self.arrays: dict[str, np.ndarray] = {}
        self.values: dict[int, dict] = {}
        self.graph = graph
        self.where: list = []  # the op (or part) being written, innermost last: for refusals

    def refuse(self, what: str, fix: str = messages.SAVE_FIX):
        at = self.where[-1] if self.where else "the function's result"
        if at.__class__ is Op:
            place, source = _op_text(at), at.source
        else:
            place, source = at, None
        raise ValueError(messages.cannot_save(self.graph.name, place, source, what, fix))

    def value(self, v: Value) -> dict:
        if v.id not in self.values:
            entry = {"id": v.id, "dtype": v.dtype.str, "shape": list(v.shape), "weak": v.weak,
                     "name": v.name}
            if v.const is not None:
                if v.weak:
                    entry["py"] = self.enc(v.const)
                else:
                    const = np.asarray(v.const)
                    if const.dtype.hasobject:
                        self.refuse(f"holds a constant array of Python objects ({const!r:.60})",
                                    "Give the array a numeric or string dtype, or pass it in "
                                    "as an argument.")
                    key = f"{self.prefix}c{v.id}"
                    self.arrays[key] = const
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
        if cls is dict:
            if all(k.__class__ is str for k in obj):
                return {"dict": {k: self.enc(v) for k, v in obj.items()}}
            return {"items": [[self.enc(k), self.enc(v)] for k, v in obj.items()]}
        if cls is slice:
            return {"slice": [self.enc(x) for x in (obj.start, obj.stop, obj.step)]}
        if obj is Ellipsis:
            return {"ellipsis": True}
        if isinstance(obj, np.dtype):
            return {"dtype": obj.str}
        if isinstance(obj, np.generic) and obj.dtype.kind in "biufcU":
            return {"scalar": [obj.dtype.str, self.enc(obj.item())]}
        if isinstance(obj, type) and issubclass(obj, np.generic):
            return {"type": np.dtype(obj).str}
        if obj is int or obj is float or obj is bool or obj is complex:
            return {"builtin": obj.__name__}
        if cls is VarRef:
            return {"var": obj.name}
        if isinstance(obj, BaseException):
            return self.exception(obj)
        if cls is Message:  # a raise's arguments with slots for run-time values
            return {"message": [self.enc(list(obj.args)), self.enc(list(obj.slots))]}
        if isinstance(obj, type) and issubclass(obj, BaseException):
            return {"exception_class": self.importable(obj, "exception")}
        if isinstance(obj, tuple) and hasattr(cls, "_fields"):
            return {"namedtuple": [*self.importable(cls, "named tuple"),
                                   [self.enc(x) for x in obj]]}
        for stream in STREAMS:
            if obj is getattr(sys, stream):
                return {"stream": stream}
        if isinstance(obj, types.ModuleType) and sys.modules.get(obj.__name__) is obj:
            return {"module": obj.__name__}  # a Python argument such as xp=np
        if cls is Tensor:
            self.refuse(f"holds {_tensor_text(obj)}")
        if callable(obj):
            name = RUNTIME_NAMES.get(id(obj)) or qualname(obj)
            if not same_function(resolve(name), obj):
                at = self.where[-1] if self.where else None
                what = ("is not NumPy's, math's or a builtin" if getattr(at, "target", None) is obj
                        else f"names {callable_name(obj)}, which is not NumPy's, math's or a "
                             f"builtin")
                self.refuse(f"{what}, the only functions a saved graph can call",
                            "Compute it with NumPy functions, or outside the function and "
                            "pass the result in as an argument.")
            return {"fn": name}
        self.refuse(f"holds {obj!r:.80}, which has no saved form")

    def importable(self, cls: type, what: str) -> list:
        """``[module, qualname]`` of ``cls``, which importing finds again."""
        path = [cls.__module__, cls.__qualname__]
        if import_path(*path) is not cls:
            self.refuse(f"uses the {what} class {'.'.join(path)}, which cannot be found by its "
                        f"import path, so a loaded graph could not make it",
                        f"Define {cls.__name__} at the top level of a module (not inside a "
                        f"function)" + (", or use a built-in exception." if what == "exception"
                                        else ", or return a tuple or a dict."))
        return path

    def exception(self, exc: BaseException) -> dict:
        """An exception the graph raises: its class by import path, and what rebuilds it
        (``__reduce__``'s arguments and state, as ``copy`` uses them)."""
        cls = type(exc)
        path = self.importable(cls, "exception")
        try:
            reduced = exc.__reduce_ex__(4)
            args, state = tuple(reduced[1]), (reduced[2] if len(reduced) > 2 else None)
        except Exception:
            reduced, args, state = (None,), (), None
        if state is not None and state.__class__ is not dict:
            reduced, state = (None,), None  # a state only the class knows how to apply
        parts = [(f"argument {i}", a) for i, a in enumerate(args)]
        for what, part in parts + [(f"attribute '{k}'", v) for k, v in (state or {}).items()]:
            tensor = _find_tensor(part)
            if tensor is not None:
                self.refuse(f"raises a {cls.__name__} whose {what} holds "
                            f"{_tensor_text(tensor)}",
                            "Keep run-time values out of the exception's arguments and "
                            "attributes (the graph raises the exception made while tracing), "
                            "or raise it outside the function.")
        try:
            same = reduced[0] is cls and same_exception(rebuild_exception(cls, args, state), exc)
        except Exception:
            same = False
        if not same:
            self.refuse(f"raises {cls.__name__}({str(exc)!r}), which its class cannot rebuild "
                        f"from its arguments {args!r:.60}",
                        f"Pass {cls.__name__}'s constructor arguments on to "
                        f"Exception.__init__ (or define __reduce__), or raise a built-in "
                        f"exception.")
        return {"exception": [*path, self.enc(tuple(args)), self.enc(state or {})]}

    def op(self, op: Op) -> dict:
        self.where.append(op)
        entry = {
            "kind": op.kind,
            "target": self.enc(op.target) if op.target is not None else None,
            "args": self.enc(op.args), "kwargs": self.enc(op.kwargs),
            "outputs": [self.value(v) for v in op.outputs],
            "out_tree": self.enc(op.out_tree),
            "blocks": {k: self.block(b) for k, b in op.blocks.items()},
            "source": list(op.source) if op.source else None,
            "effect": op.effect,
        }
        self.where.pop()
        return entry

    def block(self, block: Block) -> dict:
        return {"params": [self.value(p) for p in block.params],
                "ops": [self.op(op) for op in block.ops],
                "results": self.enc(block.results), "pattern": self.enc(block.pattern)}

    def boundary(self, boundary: Boundary) -> dict:
        return {"writes": [[w.index, self.enc(w.path), w.item] + ([w.cast] if w.cast else [])
                           for w in boundary.writes],
                "finals": self.enc(boundary.finals), "places": self.enc(boundary.places),
                "flags": self.enc(boundary.flags)}


def _op_text(op: Op) -> str:
    """How a refusal names the op: ``the raise``, ``the call of numpy.foo`` ..."""
    if op.kind == "call" and callable(op.target):
        if op.target is raise_copy:
            return "the raise"
        if op.target in (errstate_enter, errstate_exit):
            return "the np.errstate block"
        return f"the call of {callable_name(op.target)}"
    if op.kind in ("cond", "while", "for"):
        return f"the staged {'if' if op.kind == 'cond' else op.kind}"
    return f"the {op.kind} op" + (f" {op.target!r}" if op.target.__class__ is str else "")


def _find_tensor(obj):
    """The first symbolic tensor in a nested tuple/list/dict, or None."""
    if obj.__class__ is Tensor:
        return obj
    items = obj.values() if obj.__class__ is dict else obj if obj.__class__ in (tuple, list) else ()
    return next((t for t in map(_find_tensor, items) if t is not None), None)


def _tensor_text(tensor) -> str:
    value = tensor._value
    return (f"the symbolic tensor {value.name} ({value.type_str()}), which has a value only "
            f"while the graph runs")


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

    def param(name, s):
        writer.where.append(f"the Python argument '{name}'")
        entry = spec(s)
        writer.where.pop()
        return entry

    inputs = [writer.value(p) if isinstance(p, Value) else
              {"varin": p.name, "dtype": p.dtype.str, "shape": list(p.shape)} for p in graph.inputs]
    document = {
        "format": FORMAT, "name": graph.name, "params": concrete.param_names,
        "specs": [param(n, s) for n, s in zip(concrete.param_names, concrete.specs)],
        "inputs": inputs,
        "layout": [[[access, writer.enc(leaf)] for access, leaf in leaves]
                   for leaves in concrete.layout],
        "body": writer.block(graph.body),
        "outputs": writer.enc(graph.outputs),
        "captured": [],
    }
    if concrete.boundary:
        writer.where.append("the function's boundary")
        document["boundary"] = writer.boundary(concrete.boundary)
    for variable in graph.captured:
        key = variables.get(id(variable))
        if key is None:
            key = variables[id(variable)] = f"var{len(variables)}"
            arrays[key] = variable.value
        document["captured"].append({"name": variable.name, "key": key})
    document["values"] = list(writer.values.values())
    arrays.update(writer.arrays)
    return document


# The dtypes a saved array or value may have: numbers, strings, dates (no objects, no
# records, which could hold objects).
DTYPE_KINDS = set("biufcUSmM")


def saved_dtype(text) -> np.dtype:
    """The dtype a file names, if it is one a saved graph can have."""
    try:
        dtype = np.dtype(text) if text.__class__ is str else None
    except TypeError:
        dtype = None
    if dtype is None or dtype.kind not in DTYPE_KINDS:
        raise ValueError(f"autograph.load: {text!r} in the graph file is not a dtype a saved "
                         f"graph has (numbers, strings and dates only).")
    return dtype


def saved_array(arrays: dict, key, dtype=None) -> np.ndarray:
    """The archive's array ``key``, checked to be of a dtype a saved graph has (and
    ``dtype`` when given)."""
    array = arrays.get(key) if key.__class__ is str else None
    if array is None:
        raise ValueError(f"autograph.load: the graph file names the array {key!r}, which the "
                         f"file does not hold.")
    saved_dtype(array.dtype.str)
    if dtype is not None and array.dtype != dtype:
        raise ValueError(f"autograph.load: the array {key!r} in the graph file is "
                         f"{array.dtype.name}, where the graph says {dtype.name}.")
    return array


def saved_shape(dims) -> tuple:
    """A shape a file gives: sizes, or None for a size known only at run time."""
    if dims.__class__ is not list or not all(
            d is None or (d.__class__ is int and d >= 0) for d in dims):
        raise ValueError(f"autograph.load: {dims!r:.60} in the graph file is not a shape.")
    return tuple(dims)


class _Reader:
    def __init__(self, document, arrays):
        self.arrays = arrays
        self.values: dict[int, Value] = {}
        self.modules = False  # a module is a Python argument's value, never a graph value
        for entry in document["values"]:
            const = None
            dtype = np.dtype(object) if entry["dtype"] == "|O" and "py" in entry else \
                saved_dtype(entry["dtype"])  # a Python constant's dtype says nothing
            if "py" in entry:
                const = self.dec(entry["py"])
            elif "const" in entry:
                const = saved_array(arrays, entry["const"], dtype)
                if entry.get("scalar"):
                    const = const[()]
            self.values[entry["id"]] = Value(entry["id"], dtype,
                                             saved_shape(entry["shape"]),
                                             entry["weak"] is True, const,
                                             identifier(entry["name"]))
        self.vars: dict[str, VarRef] = {}

    def dec(self, obj):
        if obj is None or obj.__class__ in (bool, int, float, str):
            return obj
        if obj.__class__ is not dict or len(obj) != 1:
            raise ValueError(f"autograph.load: {obj!r:.60} in the graph file is not an entry "
                             f"autograph writes.")
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
        if tag == "items":
            return {self.dec(k): self.dec(v) for k, v in payload}
        if tag == "slice":
            return slice(*(self.dec(x) for x in payload))
        if tag == "ellipsis":
            return Ellipsis
        if tag == "dtype":
            return saved_dtype(payload)
        if tag == "scalar":
            item = self.dec(payload[1])
            if item.__class__ not in (bool, int, float, complex, str):
                raise ValueError(f"autograph.load: a NumPy scalar of {item!r:.60} in the graph "
                                 f"file is not one autograph writes.")
            return saved_dtype(payload[0]).type(item)
        if tag == "type":
            return saved_dtype(payload).type
        if tag == "builtin":
            return {"int": int, "float": float, "bool": bool, "complex": complex}[payload]
        if tag == "var":
            return self.vars[payload]
        if tag == "fn":
            fn = resolve(payload)
            if fn is None:
                raise ValueError(f"autograph.load: unknown function {payload!r} in the graph file.")
            return fn
        if tag == "exception":
            module, name, args, state = payload
            cls, args, state = named_class(module, name, "exception"), self.dec(args), \
                self.dec(state)
            if args.__class__ is not tuple or state.__class__ is not dict:
                raise ValueError(f"autograph.load: the exception {module}.{name} in the graph "
                                 f"file is not one autograph writes.")
            try:
                return rebuild_exception(cls, args, state)
            except Exception as exc:
                raise ValueError(f"autograph.load: the graph raises {module}.{name}, which "
                                 f"cannot be made again from the saved arguments {args!r:.60} "
                                 f"({type(exc).__name__}: {exc}); has the class changed since "
                                 f"the function was saved?") from None
        if tag == "exception_class":
            return named_class(*payload, "exception")
        if tag == "message":
            return _message(self.dec(payload[0]), self.dec(payload[1]))
        if tag == "namedtuple":
            module, name, items = payload
            return make_named_tuple(named_class(module, name, "named tuple"),
                                    [self.dec(x) for x in items])
        if tag == "module":
            if not self.modules:
                raise ValueError(f"autograph.load: the graph file holds the module "
                                 f"{payload!r:.60} as a graph value; saved graphs hold no "
                                 f"modules (only a Python argument may be one).")
            return imported_module(payload)
        if tag == "stream" and payload in STREAMS:
            return getattr(sys, payload)
        raise ValueError(f"autograph.load: unknown entry {tag!r} in the graph file.")

    def op(self, entry) -> Op:
        if entry["kind"] == "call" and not (entry["target"].__class__ is dict and
                                            entry["target"].keys() == {"fn"}):
            raise ValueError(f"autograph.load: a call op in the graph file calls "
                             f"{entry['target']!r:.60}, which is not a function autograph "
                             f"writes.")
        op = Op(entry["kind"], self.dec(entry["target"]), self.dec(entry["args"]),
                self.dec(entry["kwargs"]), [self.dec(v) for v in entry["outputs"]],
                self.dec(entry["out_tree"]),
                {k: self.block(b) for k, b in entry["blocks"].items()},
                _source(entry["source"]), entry["effect"] is True)
        if not well_formed(op):
            raise ValueError(f"autograph.load: a {op.kind!r} op with target {op.target!r} in "
                             f"the graph file is not one autograph writes.")
        return op

    def block(self, entry) -> Block:
        block = Block([self.dec(p) for p in entry["params"]])
        block.ops = [self.op(e) for e in entry["ops"]]
        block.results = self.dec(entry["results"])
        block.pattern = self.dec(entry["pattern"])
        return block


_SOURCE_BYTES = 16 << 20  # a user's source file larger than this is not read for its lines


def _source(source):
    """An op's ``(file, line)`` as the file gives it. Tracebacks and the compiled graph
    read that file's lines: only a regular file of a source's size is kept (never a
    device or pipe a crafted file could name, which reading would hang on)."""
    if not source:
        return None
    ok = source.__class__ is list and len(source) == 2 and source[0].__class__ is str and \
        source[1].__class__ is int and source[1] > 0
    if not ok:
        raise ValueError(f"autograph.load: {source!r:.60} in the graph file is not a source "
                         f"line.")
    filename = source[0]
    try:
        exists = os.path.exists(filename)
        if exists and not (os.path.isfile(filename) and
                           os.path.getsize(filename) <= _SOURCE_BYTES):
            return None
    except (OSError, ValueError):  # a name the OS cannot look up (a NUL in it ...)
        return None
    return tuple(source)


def _message(args, slots) -> Message:
    """A raise's message as the file gives it, checked to be what ``Message`` holds."""
    kinds = {"const": lambda item: True, "slot": lambda item: item.__class__ is int,
             "text": lambda item: item.__class__ is list and
             all(p.__class__ in (str, int) for p in item)}
    ok = args.__class__ is list and slots.__class__ is list and all(
        a.__class__ is tuple and len(a) == 2 and a[0] in kinds and kinds[a[0]](a[1])
        for a in args) and all(
        s.__class__ is tuple and len(s) == 2 and s[0].__class__ is str and s[1].__class__ is bool
        for s in slots)
    if not ok:
        raise ValueError("autograph.load: a raise's message in the graph file is not one "
                         "autograph writes.")
    message = Message(tuple(tuple(a) for a in args))
    message.slots = [tuple(s) for s in slots]
    return message


def _read_archive(path) -> dict:
    """The arrays of the file at ``path``; a file that is not a whole ``.npz`` archive
    of plain arrays (truncated, corrupted, pickled objects) is one clear ValueError."""
    try:
        archive = np.load(path, allow_pickle=False)
        if not isinstance(archive, np.lib.npyio.NpzFile):
            raise ValueError(f"autograph.load: {path} is not a whole saved autograph graph (it "
                             f"is a single .npy array, not an .npz archive).")
        with archive:
            return {k: archive[k] for k in archive.files}
    except (FileNotFoundError, IsADirectoryError, PermissionError):
        raise
    except ValueError as exc:
        if str(exc).startswith("autograph.load: "):
            raise
        problem = ("it holds pickled Python objects, which autograph never writes (loading "
                   "them could run code)" if "allow_pickle" in str(exc) else str(exc))
    except Exception as exc:  # zipfile.BadZipFile, EOFError, zlib.error ...
        problem = f"{type(exc).__name__}: {exc}"
    raise ValueError(f"autograph.load: {path} is not a whole saved autograph graph "
                     f"({problem}).")


def load(path: Any, jit_compile: bool = False) -> Union[ConcreteFunction, LoadedFunction]:
    """Load a saved graph or function, compiled again, without its Python source.

    Args:
        path: A file written by ``ConcreteFunction.save`` or ``Function.save``
            (a path or an open binary file).
        jit_compile: Compile each graph with XLA through JAX, as
            ``autograph.function(jit_compile=True)`` does (the file is the same:
            how a graph runs is chosen when it is loaded).

    Returns:
        For a saved concrete function, a ``ConcreteFunction``; for a saved
        ``autograph.function``, a ``LoadedFunction`` that calls the graph traced
        for its arguments. Variables are in ``.variables``. It raises what the
        traced function raised when a run takes a ``raise``, writes into the
        argument arrays and lists the function wrote into, and returns ``None``
        and chosen strings exactly where the traced function did.

    Raises:
        ValueError: The file is not a whole saved autograph graph (truncated,
            corrupted, pickled data); was written by a newer autograph, or by an
            older one that lost the function's writes into its arguments; holds
            anything ``save`` does not write (a function that is not NumPy's,
            ``math``'s or a builtin, an unknown op, method or dtype); or names an
            exception class, named tuple or module that is not imported here
            (loading imports nothing). Nothing from the file runs before this.
        ImportError: ``jit_compile=True`` and JAX is not installed.
        StagingError: ``jit_compile=True`` and a graph holds an op XLA cannot run.

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
    if jit_compile:
        from .polymorphic import _require_jax

        _require_jax()
    arrays = _read_archive(path)
    text = arrays.pop("__graph__", None)
    if text is None or text.dtype.kind != "U" or text.shape:
        raise ValueError(f"autograph.load: {path} is not a saved autograph graph.")
    try:
        document = json.loads(str(text))
        return _load_document(document, arrays, path, jit_compile)
    except (KeyError, TypeError, IndexError, AttributeError, RecursionError,
            json.JSONDecodeError) as exc:
        raise ValueError(f"autograph.load: {path} is damaged: its graph is not one autograph "
                         f"writes ({type(exc).__name__}: {str(exc):.80}).") from None


def _load_document(document: dict, arrays: dict, path, jit_compile: bool):
    form = document.get("format")
    if form in (FORMAT, "autograph-graph-1"):
        return _load_graph(document, arrays, {}, path, jit_compile)
    if form in (FUNCTION_FORMAT, "autograph-function-1"):
        variables: dict = {}
        return LoadedFunction(document["name"], [_load_graph(d, arrays, variables, path,
                                                             jit_compile)
                                                 for d in document["functions"]])
    if isinstance(form, str) and form.startswith("autograph-"):
        raise ValueError(f"autograph.load: {path} was saved in format {form!r}, by a newer "
                         f"autograph; this one reads {FORMAT!r}, {FUNCTION_FORMAT!r} and their "
                         f"earlier versions. Load it with a newer autograph, or save the "
                         f"function again with this one.")
    raise ValueError(f"autograph.load: {path} is not a saved autograph graph.")


def _load_graph(document: dict, arrays: dict, variables: dict, path,
                jit_compile: bool = False) -> ConcreteFunction:
    """One graph; ``variables`` (key -> Variable) is shared by the graphs of one file."""
    from .polymorphic import TensorSpec
    from .variables import Variable

    reader = _Reader(document, arrays)
    graph = Graph(document["name"])
    for k, entry in enumerate(document["captured"]):
        variable = variables.get(entry["key"])
        if variable is None:
            variable = variables[entry["key"]] = Variable.__new__(Variable)
            variable.value = saved_array(arrays, entry["key"])
            variable.name = entry["name"]
        graph.captured.append(variable)
        reader.vars[f"v{k}"] = VarRef(f"v{k}", variable.dtype, variable.shape)
    for entry in document["inputs"]:
        if "varin" in entry:
            ref = VarRef(identifier(entry["varin"]), saved_dtype(entry["dtype"]),
                         saved_shape(entry["shape"]))
            reader.vars[ref.name] = ref
            graph.inputs.append(ref)
        else:
            graph.inputs.append(reader.dec(entry))

    def spec(s):
        if isinstance(s, dict) and len(s) == 1:
            (tag, payload), = s.items()
            if tag == "spec":
                return TensorSpec(payload[0], saved_dtype(payload[1]))
            if tag == "varspec":
                placeholder = Variable.__new__(Variable)
                placeholder.value = np.zeros(saved_shape(payload[0]),
                                             saved_dtype(payload[1]))
                placeholder.name = None
                return placeholder
            if tag in ("tuple", "list"):
                return (tuple if tag == "tuple" else list)(spec(x) for x in payload)
            if tag == "dict":
                return {k: spec(v) for k, v in payload.items()}
        reader.modules = True  # a Python argument may be a module (xp=np)
        try:
            return reader.dec(s)
        finally:
            reader.modules = False

    specs = [spec(s) for s in document["specs"]]
    layout = [[(access, reader.dec(leaf)) for access, leaf in leaves]
              for leaves in document["layout"]]
    for leaves in layout:
        for access, _ in leaves:
            access_path(access)  # ValueError unless it is one (it becomes code)
    graph.body = reader.block(document["body"])
    graph.outputs = reader.dec(document["outputs"])
    boundary = _boundary(reader, document.get("boundary"))
    if not boundary and document["format"] != FORMAT:
        _check_old_writes(graph, path)
    concrete = ConcreteFunction(graph, compile_function(graph, layout, boundary,
                                                        jit_compile=jit_compile), specs,
                                document["params"], document["name"], layout, boundary)
    concrete.variables = list(graph.captured)
    return concrete


def _boundary(reader: _Reader, entry) -> Boundary:
    if entry is None:
        return Boundary()
    writes = [ArgumentWrite(int(index), reader.dec(at), item is True,
                            cast[0] if cast and cast[0] in ("bool", "int", "float") else None)
              for index, at, item, *cast in entry["writes"]]
    return Boundary(writes, reader.dec(entry["finals"]), reader.dec(entry["places"]),
                    reader.dec(entry["flags"]))


def _check_old_writes(graph: Graph, path) -> None:
    """Format 1 kept no boundary: refuse a graph that wrote into its arguments."""
    written = argument_writes(graph)
    if written:
        names = ", ".join(f"'{value.name}'" for value, _ in written)
        raise ValueError(f"autograph.load: {path} was saved in format 1, which did not keep "
                         f"the writes of '{graph.name}' into its argument arrays ({names}); "
                         f"loaded, the function would leave them unchanged. Save the function "
                         f"again with this version of autograph.")


class LoadedFunction:
    """A saved ``autograph.function``, loaded: its graphs, and a call that runs the
    graph traced for the arguments (arrays by dtype and shape, Python values by
    value), as the function did.

    Example:
        >>> import os, tempfile
        >>> import numpy as np
        >>> import autograph as ag
        >>> @ag.function
        ... def double(x):
        ...     return x * 2
        >>> _ = double(np.ones(2))
        >>> path = os.path.join(tempfile.mkdtemp(), "double.npz")
        >>> double.save(path)
        >>> loaded = ag.load(path)
        >>> loaded(np.array([1.0, 5.0]))
        array([ 2., 10.])
        >>> loaded(np.array([1, 5]))   # no graph was traced for int64 arrays
        Traceback (most recent call last):
        ...
        TypeError: double(): none of the 1 saved graphs was traced for these arguments ...
    """

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

    def save(self, path: Any) -> None:
        """Write the loaded graphs to ``path`` again, in this version's format."""
        save_function(self, path)

    def __repr__(self) -> str:
        return f"<autograph.load {self.__name__}: {len(self.concrete_functions)} graphs>"
