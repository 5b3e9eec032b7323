"""What PyTorch adds to a value None on some staged paths (``staging.maybe_none``): a
PyTorch pytree that refuses it. Returned from the compiled or exported function (or
given to a PyTorch function), it is the StagingError: the program PyTorch compiles
returns tensors on every run, and no boundary of ours rebuilds None after it."""

from __future__ import annotations

from torch.utils import _pytree

from ...staging.maybe_none import NoneOnSomePaths, returned_error


def _returned(self, *args):
    raise returned_error(self)


# PyTorch's pytree flattens every named tuple as one, whatever is registered, and knows
# one by its callable ``_asdict`` (which nothing of ours calls): without it, registered.
NoneOnSomePaths._asdict = None
_pytree.register_pytree_node(NoneOnSomePaths, _returned, _returned)
