"""What TensorFlow adds to a value None on some staged paths (``staging.maybe_none``):
a nest structure that refuses it. Returned from the ``tf.function`` (or given to a
TensorFlow function that flattens its arguments), it is the StagingError: the graph
returns tensors on every run, and no boundary of ours rebuilds None after it."""

from __future__ import annotations

from ...staging.maybe_none import NoneOnSomePaths, returned_error


def _returned(self, *args):
    raise returned_error(self)


def _unflatten(cls, metadata, components):
    raise returned_error(NoneOnSomePaths(None, None, "the value"))


# TensorFlow's nest asks a class for these before it takes it for a named tuple
NoneOnSomePaths.__tf_flatten__ = _returned
NoneOnSomePaths.__tf_unflatten__ = classmethod(_unflatten)
