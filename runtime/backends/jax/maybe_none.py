"""What JAX adds to a value None on some staged paths (``staging.maybe_none``, the
``s = None`` sentinel of issue 32.2): ``jnp.asarray`` of it where the branch traced
knows it is not None, and a JAX pytree that refuses it: returned from ``jax.jit`` (or
given to a JAX function), it is the StagingError, since a compiled JAX function returns
arrays on every run."""

from __future__ import annotations

import jax

from ...staging.conditionals import known_not_none
from ...staging.maybe_none import NoneOnSomePaths, _refuse, returned_error


def _jax_array(self):
    if known_not_none(self):
        return jax.numpy.asarray(self.value)
    return _refuse(self)


def _returned(self, *args):
    raise returned_error(self)


NoneOnSomePaths.__jax_array__ = _jax_array
jax.tree_util.register_pytree_node(NoneOnSomePaths, _returned, _returned)
