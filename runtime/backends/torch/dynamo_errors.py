"""A ``StagingError`` raised while dynamo traces reaches the user as itself.

Dynamo runs a converted function (a non-strict region, ``backend.entry_point``) once
on fake tensors to learn its outputs. An exception raised there is wrapped three times
on its way out (``run_node``: a ``RuntimeError``; ``get_fake_value``: "RuntimeError when
making fake tensor call"; the region's call: "Unsupported output type for
nonstrict_trace-ed function"), and ``torch.compile`` raises the last one with the chain
cut off, so the user never saw which construct of their code could not be staged.

``install`` wraps dynamo's per-frame compile step (``convert_frame._compile``) and its
capture for strict ``torch.export`` (``_fullgraph_capture_frame``): when a compile that
must give one graph (``fullgraph=True``, strict export) fails because of a
``StagingError``, that error is raised instead, as autograph raises
it under JAX and TensorFlow; so is an exception a ``raise`` statement of the user's
code raised while dynamo traced it (eagerly the program raises it too). Where dynamo may go on past a failed region
(``fullgraph=False``) these wrappers leave the error alone, and PyTorch 2.13 raises the
``StagingError`` itself too, as an exception of the user's code
(``tests/torch/test_torch_errors.py``).
"""

from __future__ import annotations

import linecache
import os

from ...staging import converted
from ...staging.errors import StagingError
from .patches import wrap_once

# autograph's runtime package (runtime/backends/torch/ is two levels below it)
_RUNTIME = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))) + os.sep
_ONE_GRAPH = 6  # the position of ``one_graph`` among ``_compile``'s arguments


def install() -> None:
    """Install the wrappers once (a no-op where dynamo lacks those steps)."""
    try:
        from torch._dynamo import convert_frame
    except ImportError:
        return
    _wrap(convert_frame, "_compile", _one_graph)  # torch.compile
    _wrap(convert_frame, "_fullgraph_capture_frame", lambda args, kwargs: True)  # export


def _wrap(module, name: str, reaches_user) -> None:
    def wrap(step):
        def wrapper(*args, **kwargs):
            try:
                return step(*args, **kwargs)
            except Exception as error:
                staging = _staging_error(error)
                if staging is None or not reaches_user(args, kwargs):
                    raise
                raise staging.with_traceback(staging.__traceback__) from None

        return wrapper

    wrap_once(module, name, wrap)


def _one_graph(args, kwargs) -> bool:
    """Whether the failing compile had to give one graph (its error reaches the user)."""
    one_graph = kwargs.get("one_graph", args[_ONE_GRAPH] if len(args) > _ONE_GRAPH else False)
    box = kwargs.get("convert_frame_box")
    return bool(one_graph) or bool(getattr(box, "error_on_graph_break", False))


def _staging_error(error: BaseException):
    """The ``StagingError`` among the exceptions ``error`` was raised from, else the one
    a ``raise`` statement of the user's converted code raised (eagerly the program
    raises it too), or None."""
    return staging_error_in(error) or next(filter(raised_by_a_raise, _chain(error)), None)


def staging_error_in(error: BaseException):
    """The ``StagingError`` among the exceptions ``error`` was raised from, or None."""
    return next((e for e in _chain(error) if isinstance(e, StagingError)), None)


def _chain(error: BaseException):
    """``error`` and the exceptions it was raised from (its cause, else its context)."""
    seen = set()
    while error is not None and id(error) not in seen:
        yield error
        seen.add(id(error))
        error = error.__cause__ or error.__context__


def raised_by_a_raise(error: BaseException) -> bool:
    """Was ``error`` raised by a ``raise`` statement of the user's converted code, or by
    autograph's runtime giving the exception eager code gives (NumPy's TypeError for
    ``+`` of an array and a list, its ValueError for ``copy=False`` that must copy)?"""
    tb = error.__traceback__
    while tb is not None and tb.tb_next is not None:
        tb = tb.tb_next
    if tb is None:
        return False
    if tb.tb_frame.f_code.co_filename.startswith(_RUNTIME):
        return True
    if tb.tb_frame.f_code not in converted.codes:
        return False
    line = linecache.getline(tb.tb_frame.f_code.co_filename, tb.tb_lineno)
    return line.lstrip().startswith("raise")


def trace_failure(error) -> bool:
    """A line PyTorch could not trace (``Backend.trace_failure``): a guard on a value only
    the run knows (``if x > 0`` in code autograph does not convert), an op whose output
    depends on the data, NumPy asking a traced tensor for its values."""
    from torch._subclasses import fake_tensor
    from torch.fx.experimental.symbolic_shapes import GuardOnDataDependentSymNode

    return isinstance(error, (GuardOnDataDependentSymNode,
                              fake_tensor.DataDependentOutputException,
                              fake_tensor.DynamicOutputShapeException)) or (
        isinstance(error, RuntimeError)
        and "numpy() is not supported for tensor subclasses" in str(error))
