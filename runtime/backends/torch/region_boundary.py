"""What crosses the boundary of a converted function under ``torch.compile``.

Dynamo calls a converted function as a non-strict region (``backend.entry_point``): it
flattens the arguments with PyTorch's pytree and passes the leaves into its graph, then
flattens what the region returns the same way. PyTorch 2.13 takes only tensors, Python
numbers, strings (as inputs) and the like as those leaves: ``None`` or a NumPy scalar
given to a converted function, or ``None``, a string or a NumPy value it returns, is
dynamo's "Invalid input type" / "Unsupported output type for nonstrict_trace-ed
function", a graph break (an error with ``fullgraph=True``), where the same function
without conversion compiles.

``install`` wraps dynamo's call of a non-strict region, for autograph's regions only:

- An argument leaf that dynamo knows as a Python constant the region cannot take
  (``None``, a NumPy scalar, any constant that is not a graph value) is held by the
  callable the graph records, not passed: dynamo guards on it as on any constant of the
  frame, and the region sees the object itself.
- A NumPy array or scalar argument is a ``StagingError`` naming it (a graph break where
  dynamo may go on): dynamo holds it as a tensor, and the region would run NumPy's code on
  a tensor PyTorch traces.
- An output leaf that is not a graph value comes out beside the graph's: a NumPy array
  (or the tensor that stands for one the program wrote a traced value into:
  ``tensors.NUMPY_ARRAY``) as a tensor of its values that dynamo turns back into one
  (``Tensor.numpy()``, what dynamo does with NumPy code it compiles), anything else
  (``None``, a string, a NumPy scalar) as the constant it was when PyTorch traced (a value made from
  tensors cannot be one: the staging core refuses a string or ``None`` a tensor
  condition chose).
- A dataclass output pytree does not know (a model's output record) crosses as its
  fields and is built again by its constructor (``_opened``).

Where dynamo cannot trace a region (it raised: a ``StagingError``, a trace failure such as a
guard on a value only the run knows, the program's own exception), it breaks the graph
at the call and runs the call in eager code: a ``StagingError`` is the break's reason
(``torch._dynamo.explain``, ``TORCH_LOGS=graph_breaks`` show its text), and the converted
function's frame (``run_as_python``) runs as plain Python, as eagerly: dynamo would
otherwise trace its bytecode and autograph's runtime as any code (frame walks, weak sets,
context managers it does not take: more breaks, and errors of its own).
"""

from __future__ import annotations

import collections

import numpy as np

from . import region_reads, region_replay, region_state
from .patches import wrap_once
from .region_sizes import REGION, is_region


def install() -> None:
    """Wrap dynamo's call of a non-strict region once."""
    try:
        from torch._dynamo.variables.torch import TorchInGraphFunctionVariable
    except ImportError:
        return

    def wrap(call):
        def wrapper(self, tx, args, kwargs):
            if not is_region(self.value):
                return call(self, tx, args, kwargs)
            return _call_region(call, self, tx, args, kwargs)

        return wrapper

    wrap_once(TorchInGraphFunctionVariable, "_call_nonstrict_traceable_function", wrap)


def run_as_python(code) -> None:
    """Have dynamo run a frame of ``code`` (a converted function reached in eager code:
    the call of a region it could not trace) and every call it makes as plain Python,
    never traced by dynamo (a no-op where PyTorch lacks per-code strategies)."""
    try:
        from torch._C._dynamo.eval_frame import set_code_exec_strategy
        from torch._dynamo.types import FrameAction, FrameExecStrategy
    except ImportError:
        return
    set_code_exec_strategy(code, FrameExecStrategy(FrameAction.SKIP, FrameAction.SKIP))


def _call_region(call, variable, tx, args, kwargs):
    from torch._dynamo.variables import ListVariable, VariableTracker
    from torch._dynamo.variables.builder import SourcelessBuilder
    from torch.utils import _pytree

    fn = variable.value
    held: dict = {}  # position (an argument index or keyword) -> the constant held
    passed_args = []
    for i, arg in enumerate(args):
        if _held(tx, fn, arg, f"argument {i + 1}"):
            held[i] = arg.as_python_constant()
        else:
            passed_args.append(arg)
    passed_kwargs = {}
    for name, arg in kwargs.items():
        if _held(tx, fn, arg, f"argument '{name}'"):
            held[name] = arg.as_python_constant()
        else:
            passed_kwargs[name] = arg
    out: list = []  # what the region's first run returned: its tree and its leaves' kinds

    def region(*args, **kwargs):
        full = list(args)
        for i, value in sorted((k, v) for k, v in held.items() if isinstance(k, int)):
            full.insert(i, value)
        kwargs.update((k, v) for k, v in held.items() if isinstance(k, str))
        leaves, tree = _pytree.tree_flatten(_opened(fn(*full, **kwargs)))
        if not out:
            out.append((tree, [_kind(leaf) for leaf in leaves], leaves))
        elif len(leaves) == len(out[0][2]):
            # a later run (the graph run by a backend that does not trace the region, as
            # explain's: the Python path, on real tensors) gives the first run's kinds
            leaves = [_as_recorded(leaf, first) for leaf, first in zip(leaves, out[0][2])]
        return [_as_graph_value(leaf, kind) for leaf, kind in zip(leaves, out[0][1])
                if kind != "constant"]

    region.__name__ = getattr(fn, "__name__", "region")
    setattr(region, REGION, True)
    guards = region_reads.guard(tx, variable, fn, args)  # what it reads, as the original's
    with region_state.recording(fn) as recorded:
        try:
            flat = call(variable.clone(value=region), tx, passed_args, passed_kwargs)
        except Exception as error:
            _refused(fn, error)
            raise
    if recorded and recorded[0][0]:  # the Python state it changed: replayed per call
        found, label = recorded[0]
        if not region_replay.replay(tx, guards, found):
            _unstaged(fn, region_state.refusal(fn, label))
        region_state.accept(fn, found)
    tree, kinds, leaves = out[0]
    items, graph = [], iter(flat.unpack_var_sequence(tx))
    for leaf, kind in zip(leaves, kinds):
        if kind == "graph":
            items.append(next(graph))
        elif kind == "constant":
            items.append(_constant(tx, leaf))
        else:  # a NumPy array or scalar, as dynamo holds one: a tensor's .numpy()
            array = next(graph).call_method(tx, "numpy", [], {})
            items.append(array)
    plan = _plan(tree)
    if plan is None:
        return SourcelessBuilder.create(tx, _pytree.tree_unflatten).call_function(
            tx, [ListVariable(items), VariableTracker.build(tx, tree)], {})
    return SourcelessBuilder.create(tx, _rebuilt).call_function(
        tx, [ListVariable(items), VariableTracker.build(tx, plan)], {})


def _plan(tree):
    """The region's output structure (its pytree spec) as nested ``(kind, keys or
    class, children)`` tuples, where it holds only tuples, lists, dicts and namedtuples;
    else None. Dynamo traces ``_rebuilt`` of it: PyTorch 2.13's ``tree_unflatten``,
    traced by dynamo, fails on a namedtuple (its node type, the ``namedtuple``
    function, is a key dynamo does not find: a ``KeyError``, and dynamo gives up on the
    caller's frame)."""
    if tree.is_leaf():
        return ("leaf", None, ())
    kind, children = tree.type, [_plan(c) for c in tree.children()]
    if None in children:
        return None
    if kind in (tuple, list):
        return (kind.__name__, None, tuple(children))
    if kind is dict:
        return ("dict", tuple(tree.context), tuple(children))
    if kind is collections.namedtuple:  # the node type of every namedtuple, its class the context
        return ("namedtuple", tree.context, tuple(children))
    return None


def _rebuilt(leaves, plan):
    """The structure ``plan`` (``_plan``) with ``leaves`` in its leaf positions."""
    return _built(plan, iter(leaves))


def _built(plan, leaves):
    kind, what, children = plan
    if kind == "leaf":
        return next(leaves)
    parts = [_built(child, leaves) for child in children]
    if kind == "namedtuple":
        made = getattr(what, _DATACLASS, None)
        if made is None:
            return what(*parts)
        # the class read from a global: dynamo calls one it has a source for
        return _dataclasses[made](**dict(zip(what._fields, parts)))
    if kind == "dict":
        return dict(zip(what, parts))
    return tuple(parts) if kind == "tuple" else parts


# A dataclass the region returns (a model's output record: ``Out(logits=h, loss=None)``)
# crosses as a namedtuple of its fields, a class made once per dataclass and marked with
# it, and is built again by its constructor in the code dynamo traces. PyTorch's pytree
# takes an unregistered dataclass as one leaf, which dynamo cannot represent.
_DATACLASS = "_autograph_dataclass"
_field_tuples: dict = {}  # dataclass -> its namedtuple
_dataclasses: list = []  # the dataclasses, in the order of their namedtuples' marks


def _opened(value):
    """``value`` with the dataclasses in its tuples, lists and dicts as namedtuples of their
    fields (those pytree does not know and whose fields all go through ``__init__``); a
    container holding none is ``value`` itself."""
    cls = value.__class__
    if cls is tuple or cls is list or (isinstance(value, tuple) and hasattr(cls, "_fields")):
        # tuple's own iteration: a subclass may refuse its own (``maybe_none``'s value)
        given = list(value) if cls is list else list(tuple.__iter__(value))
        items = [_opened(v) for v in given]
        if all(a is b for a, b in zip(items, given)):
            return value
        return cls(items) if cls is tuple or cls is list else cls(*items)
    if cls is dict:
        items = {k: _opened(v) for k, v in value.items()}
        return value if all(items[k] is v for k, v in value.items()) else items
    fields = _field_tuple(cls)
    if fields is None:
        return value
    return fields(*(_opened(getattr(value, name)) for name in fields._fields))


def _field_tuple(cls):
    if cls in _field_tuples:
        return _field_tuples[cls]
    import dataclasses

    from torch.utils import _pytree

    made = None
    if dataclasses.is_dataclass(cls) and cls not in _pytree.SUPPORTED_NODES:
        fields = dataclasses.fields(cls)
        if all(f.init for f in fields):
            made = collections.namedtuple(f"{cls.__name__}Fields", [f.name for f in fields])
            setattr(made, _DATACLASS, len(_dataclasses))
            _dataclasses.append(cls)
    _field_tuples[cls] = made
    return made


def _refused(fn, error) -> None:
    """A region that failed with a ``StagingError``: a graph break whose reason is its
    text (dynamo's own says "Unsupported output type for nonstrict_trace-ed function"),
    told apart from a line PyTorch could not trace (a guard on a value only the run
    knows, in code autograph does not convert: dynamo breaks the unconverted code there
    too); with ``fullgraph=True`` the error itself (``dynamo_errors``)."""
    from torch._dynamo.exc import Unsupported

    from .dynamo_errors import staging_error_in, trace_failure

    staging = staging_error_in(error) if isinstance(error, Unsupported) else None
    if staging is None:
        return
    untraced = staging.__cause__ is not None and trace_failure(staging.__cause__)
    _unstaged(fn, staging, untraced)


def _unstaged(fn, staging, untraced: bool = False) -> None:
    """A graph break whose reason is the ``StagingError`` ``staging``."""
    from torch._dynamo.exc import unimplemented

    name = getattr(fn, "__qualname__", getattr(fn, "__name__", "the function"))
    unimplemented(gb_type="autograph: a line PyTorch could not trace" if untraced else
                  "autograph: a construct PyTorch cannot stage", context=name,
                  explanation=str(staging), hints=[], from_exc=staging)


# The NumPy scalars regions returned, each read by the graph that returns it: dynamo
# builds a NumPy scalar only as a value it can read from somewhere (a source), and gives
# back one it read unchanged as itself.
_returned_scalars: list = []


def _constant(tx, leaf):
    """A dynamo variable of ``leaf``, a constant the region returned."""
    from torch._dynamo.variables import VariableTracker

    if not isinstance(leaf, np.generic):
        return VariableTracker.build(tx, leaf)
    from torch._dynamo.source import AttrSource, GetItemSource
    from torch._dynamo.variables.builder import VariableBuilder

    _returned_scalars.append(leaf)
    source = GetItemSource(AttrSource(tx.import_source(__name__), "_returned_scalars"),
                           len(_returned_scalars) - 1)
    return VariableBuilder(tx, source)(leaf)


def _held(tx, fn, arg, where: str) -> bool:
    """Is ``arg`` (a dynamo variable) a constant the region cannot take? A NumPy array
    dynamo holds as a tensor is the ``StagingError``."""
    from torch._higher_order_ops.flat_apply import is_graphable, is_graphable_type

    kind = arg.python_type()
    if issubclass(kind, np.ndarray):  # a NumPy scalar too: dynamo holds it as a 0-d array
        import linecache

        from torch._dynamo.exc import unimplemented

        from ...staging.errors import StagingError

        name = getattr(fn, "__qualname__", getattr(fn, "__name__", "the function"))
        file, line = tx.f_code.co_filename, tx.lineno
        text = linecache.getline(file, line).strip()
        error = StagingError(
            f"the converted function '{name}' is given a NumPy array or scalar ({where}) at "
            f"{file}:{line}" + (f" (`{text}`)" if text else "") + f", code torch.compile "
            f"traces, which holds it as a tensor: the function would run its NumPy code on a "
            f"tensor PyTorch traces. Pass torch.as_tensor(value) (a Python number for a "
            f"scalar), or call the converted function outside the compiled code.")
        # a graph break (eager code runs the call) where dynamo may go on; with
        # fullgraph=True the StagingError itself (dynamo_errors), its text as it is
        unimplemented(gb_type="autograph: a NumPy value given to a converted function",
                      context=f"{name}, {where}", explanation=str(error), hints=[],
                      from_exc=error)
    import torch

    if is_graphable_type(kind) or issubclass(kind, torch.nn.Module) \
            or not arg.is_python_constant():  # a module: dynamo passes its state in
        return False
    from torch.utils import _pytree

    return not all(map(is_graphable, _pytree.tree_leaves(arg.as_python_constant())))


def _kind(leaf) -> str:
    from torch._higher_order_ops.flat_apply import is_graphable

    from .tensors import NUMPY_ARRAY

    if getattr(leaf, NUMPY_ARRAY, False):  # a tensor standing for a NumPy array (numpy_operands)
        return "numpy"
    if isinstance(leaf, (str, np.generic)) or not is_graphable(leaf):  # np.float64 is a float
        return "numpy" if isinstance(leaf, np.ndarray) else "constant"
    return "graph"


def _as_recorded(leaf, first):
    """``leaf`` as the kind of value ``first`` (the first run's) was: a NumPy value
    where the trace made a tensor (a NumPy function of a traced tensor) as a tensor."""
    import torch

    if isinstance(first, torch.Tensor) and not isinstance(leaf, torch.Tensor) \
            and isinstance(leaf, (np.ndarray, np.generic, int, float, bool)):
        from .tensors import as_tensor

        return as_tensor(leaf, first.dtype)
    return leaf


def _as_graph_value(leaf, kind: str):
    if kind == "numpy":
        from .tensors import as_tensor

        return as_tensor(leaf)
    return leaf
