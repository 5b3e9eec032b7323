"""The one way this backend changes a function of PyTorch's: wrapped once, in place.

The repairs and hooks of PyTorch 2.13 (``region_boundary``, ``region_sizes``,
``strict_export``, ``dynamo_errors``, ``tracing``) each replace one attribute of a
PyTorch module or class by a wrapper of it. ``wrap_once`` does that the same way for
all of them: a no-op where PyTorch lacks the attribute (another version), never twice
(a wrapper is marked, and an attribute that already holds one is left alone).
"""

from __future__ import annotations

import functools

_WRAPPED = "_autograph_wrapper"  # set on every wrapper wrap_once installs


def wrap_once(owner, name: str, wrap) -> bool:
    """Replace ``owner.name`` by ``wrap(original)`` (given the original's name and
    docstring), unless it is missing or already one of ours. True if it was replaced."""
    original = getattr(owner, name, None)
    if original is None or getattr(original, _WRAPPED, False):
        return False
    wrapper = functools.wraps(original)(wrap(original))
    setattr(wrapper, _WRAPPED, True)
    setattr(owner, name, wrapper)
    return True
