"""Python values the graph-engine tests pass as arguments."""

from __future__ import annotations

import numpy as np


class Scale:
    """A Python value with a dtype and a shape (JAX, or a lookup by dtype and shape,
    would take it for an array): ``ag.function`` keys it by its value, so its graph fixes
    ``k``; it multiplies as ``k`` does."""

    def __init__(self, k):
        self.k, self.dtype, self.shape = k, np.dtype(np.float64), ()

    def __eq__(self, other):
        return isinstance(other, Scale) and other.k == self.k

    def __hash__(self):
        return hash(self.k)

    def __mul__(self, other):
        return self.k * other
