"""Lists a staged loop appends to, on PyTorch: buffers of the loop's bound, cut after it.

The staging core (``staging.accumulate``) carries what a loop appends in one buffer
per array leaf of an item and a count. A ``while_loop`` carry keeps its shape, so a
buffer has the loop's bound as its first dimension: the trip count of a ``for`` (a
tensor's first axis, or the length of a ``range`` with tensor bounds, read with
``.item()`` before the loop starts), else ``set_loop_options(maximum_iterations=N)``.
After the loop the buffer is cut to the rows written (``rows_upto``): ``count.item()``
is one of PyTorch's data-dependent sizes (an unbacked SymInt), which ``torch.compile``
and ``torch.export`` (strict and not) carry into the program; the exported program
returns as many rows as the run appended.

Inside a loop body a row is read and written with ``index_select``/``index_copy``
(indexing with a 0-d tensor is refused there: PyTorch cannot guard on its value).
"""

from __future__ import annotations

import contextlib
from sys import _getframe  # the runtime's own: a user may take it off sys

import torch
from torch._guards import detect_fake_mode

from ...staging import accumulate, errors
from ...staging.state import fill


def _size(n):
    """A staged integer as a size: a Python int or SymInt as it is, a 0-d tensor by
    ``.item()`` (a data-dependent size while PyTorch traces), never negative."""
    if isinstance(n, torch.Tensor):
        mode = detect_fake_mode((n,))
        env = None if mode is None else mode.shape_env
        # dynamo asks every size a non-strict region makes to be an output's whole
        # size; a count the program only sums over is not: it is the region's own
        with contextlib.nullcontext() if env is None else env.ignore_fresh_unbacked_symbols():
            n = n.item()
    torch._check(n >= 0)
    return n


def new_rows(shape, dtype, capacity):
    """Zeros of ``[capacity, *shape[1:]]``: the buffer of a list a loop appends to."""
    if capacity is not None:
        shape = (_size(capacity),) + tuple(shape[1:])
    return torch.zeros(shape, dtype=dtype)


def write_row(rows, index, value):
    """``rows`` with row ``index`` (a 0-d tensor in a loop body) set to ``value``."""
    if not isinstance(index, torch.Tensor):
        index = torch.full((), index, dtype=torch.int64)
    return rows.index_copy(0, index.reshape(1).to(torch.int64), value.unsqueeze(0))


def read_row(rows, index):
    """Row ``index`` of ``rows``: a new tensor, which later writes leave alone."""
    if not isinstance(index, torch.Tensor):
        return rows[index].clone()
    return torch.index_select(rows, 0, index.reshape(1).to(torch.int64)).squeeze(0)


def rows_upto(rows, count):
    """The first ``count`` rows of ``rows`` (after the loop): a first dimension of a
    data-dependent size, checked against the buffer's (PyTorch then knows the size
    is the count itself, as an output of a compiled region must show it)."""
    n = _size(count)
    torch._check(n <= rows.shape[0])
    return rows[:n]


def collected_call(fn, args, kwargs):
    """``torch.stack``/``torch.cat``/``torch.tensor``/``torch.as_tensor`` of a list a loop
    collected (``args[0]``, one tensor per item): what they give of the list eagerly."""
    lst, rest = args[0], args[1:]
    name = getattr(fn, "__name__", "")
    if fn in (torch.stack, torch.cat) and len(rest) <= 1 and set(kwargs) <= {"dim"}:
        dim = (rest or (kwargs.get("dim", 0),))[0]
        whole = lst.stacked()
        if not lst.prefix:  # eagerly an error, not an empty tensor: checked when it runs
            torch._assert_async(lst.count > 0, f"torch.{name}() of an empty list")
        if fn is torch.cat:  # the items' first axes one after another
            if whole.dim() < 2:
                lst._refuse("in torch.cat() of 0-d tensors", "use torch.stack(lst)")
            dim = dim % (whole.dim() - 1)
            return torch.movedim(whole, 0, dim).flatten(dim, dim + 1)
        return torch.movedim(whole, 0, dim % whole.dim())
    if fn in (torch.tensor, torch.as_tensor) and not rest and set(kwargs) <= {"dtype"}:
        whole = lst.stacked()
        return whole if kwargs.get("dtype") is None else whole.to(kwargs["dtype"])
    lst._refuse(f"in torch.{name}()", "use torch.stack(lst) or torch.cat(lst)")


# ---------------------------------------------------------------- returned from the program


def _flatten(collected: accumulate.Collected):
    if _dynamo_region_output():
        raise errors.StagingError(
            f"{errors.subject(collected.label)}, a list the staged loop at {collected.where} "
            f"appended to a number of items known only at run time, is returned from the "
            f"function torch.compile (or strict torch.export) compiles, whose graph returns a "
            f"fixed number of tensors, not a list of a run-time length. Return "
            f"torch.stack(lst) (np.stack(lst): its items as one tensor) instead; non-strict "
            f"torch.export returns the list.")
    return [*collected.prefix, *collected.rows], (len(collected.prefix), collected)


def _unflatten(children, context):
    """What a compiled or exported program returns for a collected list: a list, as
    eager code returns it (its rows are tensors of the run's length then). While
    PyTorch traces (its leaves are proxies or tracing tensors) the list stays collected."""
    n_prefix, collected = context
    prefix, rows = list(children[:n_prefix]), list(children[n_prefix:])
    if all(type(r) is torch.Tensor for r in rows) and rows[0].shape[0].__class__ is int:
        n = rows[0].shape[0]
        return prefix + [fill(collected.template, [r[i] for r in rows]) for i in range(n)]
    return collected.with_items(prefix, rows)


def _dynamo_region_output() -> bool:
    """Is dynamo flattening what a converted function (a ``nonstrict_trace`` region)
    returned? It then needs a spec of a fixed structure and our list's own type, neither
    of which a list of a run-time length gives (PyTorch 2.13: ``flat_apply_capture``)."""
    frame = _getframe(2)
    for _ in range(12):
        if frame is None:
            return False
        if frame.f_code.co_name == "flat_apply_capture" and "_dynamo" in frame.f_code.co_filename:
            return True
        frame = frame.f_back
    return False


torch.utils._pytree.register_pytree_node(accumulate.Collected, _flatten, _unflatten)
