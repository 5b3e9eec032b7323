"""``a[k]`` and ``a[k] = v`` with a 0-d integer tensor ``k`` PyTorch traces.

Eagerly PyTorch takes a 0-d integer tensor in an index as the integer it holds. While
PyTorch traces, that integer is a data-dependent size: ``a[k]`` at the top level of a
program works, but in the body of a ``while_loop`` (a counter ``i``, ``a[i % 3]``)
PyTorch 2.13 fails ("Could not extract specialized integer from data-dependent
expression"). So an index holding 0-d integer tensors among ints, slices, ``None``
and ``...`` is applied one dimension at a time: ``index_select`` for a tensor, the
basic index for the rest (``read``); a write (``write``) indexes with each such tensor
as a one-element index, ``v`` reshaped to that index's shape. Any other index (a mask,
an array of indexes) is PyTorch's own. A NumPy array indexed (a table made while
tracing) is a tensor of its values first.
"""

from __future__ import annotations

import torch


def _scalar_index(i) -> bool:
    return isinstance(i, torch.Tensor) and i.dim() == 0 and not i.dtype.is_floating_point \
        and not i.dtype.is_complex and i.dtype != torch.bool


def scalar_items(index):
    """``index`` as a tuple, if it holds a 0-d integer tensor and otherwise only ints,
    slices, None and Ellipsis; else None (PyTorch's own indexing)."""
    items = index if index.__class__ is tuple else (index,)
    found = False
    for i in items:
        if _scalar_index(i):
            found = True
        elif not (i is None or i is Ellipsis or i.__class__ in (int, slice)):
            return None
    return items if found else None


def read(target: torch.Tensor, index):
    """``target[index]``, each 0-d integer tensor of ``index`` read with ``index_select``."""
    items = scalar_items(index)
    if items is None:
        return target[index]
    x, d = target, 0
    consumed = sum(1 for i in items if i is not None and i is not Ellipsis)
    for i in items:
        if i is None:
            x, d = x.unsqueeze(d), d + 1
        elif i is Ellipsis:
            d = x.dim() - (consumed - _before(items, i))
        elif i.__class__ is int:
            x = x.select(d, i)
        elif i.__class__ is slice:
            x, d = x[(slice(None),) * d + (i,)], d + 1
        else:
            n = x.shape[d]
            k = i.to(torch.int64).reshape(1)
            x = torch.index_select(x, d, torch.where(k < 0, k + n, k)).squeeze(d)
    return x


def _before(items, ellipsis) -> int:
    """How many dimensions the items before ``ellipsis`` consume."""
    count = 0
    for i in items:
        if i is ellipsis:
            return count
        if i is not None:
            count += 1
    return count


def write(target: torch.Tensor, index, value) -> None:
    """``target[index] = value`` in place, each 0-d integer tensor of ``index`` a
    one-element index (``value``, a tensor, reshaped to the selection that gives); for
    an ``index`` that ``scalar_items`` takes."""
    items = scalar_items(index)
    shape = read(target, index).shape  # what eager indexing selects
    one = tuple(i.to(torch.int64).reshape(1) if _scalar_index(i) else i for i in items)
    selection = target[one].shape
    target[one] = value.to(target.dtype).broadcast_to(shape).reshape(selection)
