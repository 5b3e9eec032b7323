"""NetworkX's numeric layout code, copied verbatim (NetworkX 3.6.1, BSD-3-Clause; see
the package docstring): the Fruchterman-Reingold force iteration on a dense adjacency
matrix (stops early when the layout settles) and the rescaling that updates the
caller's position array in place. Drivers are at the end.
"""
# ruff: noqa
import types

import numpy as np

from .cases import Case

# Edit for _fruchterman_reingold: its decorator, networkx.utils.np_random_state(7),
# turns the `seed` argument into a numpy RandomState; NetworkX is not a dependency
# here, and the drivers pass `pos`, so `seed` is never read: the decorator is the
# identity.
np_random_state = lambda index: (lambda fn: fn)


# NetworkX 3.6.1, networkx/exception.py, NetworkXException; edits: none
class NetworkXException(Exception):
    """Base class for exceptions in NetworkX."""


# NetworkX 3.6.1, networkx/exception.py, NetworkXError; edits: none
class NetworkXError(NetworkXException):
    """Exception for a serious error in NetworkX"""


# NetworkX 3.6.1, networkx/drawing/layout.py, _fruchterman_reingold; edits: none in the body; its decorator np_random_state is the identity (see the top of this module)
@np_random_state(7)
def _fruchterman_reingold(
    A, k=None, pos=None, fixed=None, iterations=50, threshold=1e-4, dim=2, seed=None
):
    # Position nodes in adjacency matrix A using Fruchterman-Reingold
    # Entry point for NetworkX graph is fruchterman_reingold_layout()
    import numpy as np

    try:
        nnodes, _ = A.shape
    except AttributeError as err:
        msg = "fruchterman_reingold() takes an adjacency matrix as input"
        raise nx.NetworkXError(msg) from err

    if pos is None:
        # random initial positions
        pos = np.asarray(seed.rand(nnodes, dim), dtype=A.dtype)
    else:
        # make sure positions are of same type as matrix
        pos = pos.astype(A.dtype)

    # optimal distance between nodes
    if k is None:
        k = np.sqrt(1.0 / nnodes)
    # the initial "temperature"  is about .1 of domain area (=1x1)
    # this is the largest step allowed in the dynamics.
    # We need to calculate this in case our fixed positions force our domain
    # to be much bigger than 1x1
    t = max(max(pos.T[0]) - min(pos.T[0]), max(pos.T[1]) - min(pos.T[1])) * 0.1
    # simple cooling scheme.
    # linearly step down by dt on each iteration so last iteration is size dt.
    dt = t / (iterations + 1)
    delta = np.zeros((pos.shape[0], pos.shape[0], pos.shape[1]), dtype=A.dtype)
    # the inscrutable (but fast) version
    # this is still O(V^2)
    # could use multilevel methods to speed this up significantly
    for iteration in range(iterations):
        # matrix of difference between points
        delta = pos[:, np.newaxis, :] - pos[np.newaxis, :, :]
        # distance between points
        distance = np.linalg.norm(delta, axis=-1)
        # enforce minimum distance of 0.01
        np.clip(distance, 0.01, None, out=distance)
        # displacement "force"
        displacement = np.einsum(
            "ijk,ij->ik", delta, (k * k / distance**2 - A * distance / k)
        )
        # update positions
        length = np.linalg.norm(displacement, axis=-1)
        # Threshold the minimum length prior to position scaling
        # See gh-8113 for detailed discussion of the threshold
        length = np.clip(length, a_min=0.01, a_max=None)
        delta_pos = np.einsum("ij,i->ij", displacement, t / length)
        if fixed is not None:
            # don't change positions of fixed nodes
            delta_pos[fixed] = 0.0
        pos += delta_pos
        # cool temperature
        t -= dt
        if (np.linalg.norm(delta_pos) / nnodes) < threshold:
            break
    return pos


# NetworkX 3.6.1, networkx/drawing/layout.py, rescale_layout; edits: none
def rescale_layout(pos, scale=1):
    """Returns scaled position array to (-scale, scale) in all axes.

    The function acts on NumPy arrays which hold position information.
    Each position is one row of the array. The dimension of the space
    equals the number of columns. Each coordinate in one column.

    To rescale, the mean (center) is subtracted from each axis separately.
    Then all values are scaled so that the largest magnitude value
    from all axes equals `scale` (thus, the aspect ratio is preserved).
    The resulting NumPy Array is returned (order of rows unchanged).

    Parameters
    ----------
    pos : numpy array
        positions to be scaled. Each row is a position.

    scale : number (default: 1)
        The size of the resulting extent in all directions.

    attribute : str, default None
        If non-None, the position of each node will be stored on the graph as
        an attribute named `attribute` which can be accessed with
        `G.nodes[...][attribute]`. The function still returns the dictionary.

    Returns
    -------
    pos : numpy array
        scaled positions. Each row is a position.

    See Also
    --------
    rescale_layout_dict
    """
    import numpy as np

    # Find max length over all dimensions
    pos -= pos.mean(axis=0)
    lim = np.abs(pos).max()  # max coordinate for all axes
    # rescale to (-scale, scale) in all directions, preserves aspect
    if lim > 0:
        pos *= scale / lim
    return pos


# The copied code names its error class through the package: ``nx.NetworkXError``.
nx = types.SimpleNamespace(NetworkXError=NetworkXError)


# ---------------------------------------------------------------------------------
# Drivers: each calls a copied function as the layout functions do, on arrays.


def drive_fruchterman_reingold(A, pos, xp):
    return _fruchterman_reingold(A, pos=pos, iterations=30, threshold=1e-3)


def drive_rescale_layout(pos, xp):
    return rescale_layout(pos, scale=2.0)


_PATH = np.array([[0, 1, 0, 0], [1, 0, 1, 0], [0, 1, 0, 1], [0, 0, 1, 0]], float)
_STAR = np.array([[0, 1, 1, 1], [1, 0, 0, 0], [1, 0, 0, 0], [1, 0, 0, 0]], float)
_START = np.array([[0.0, 0.0], [1.0, 0.2], [0.3, 0.9], [0.8, 0.7]])

CASES = [
    Case("networkx._fruchterman_reingold", "NetworkX 3.6.1, networkx/drawing/layout.py",
         drive_fruchterman_reingold,
         ((_PATH, _START), (_STAR, _START), (np.zeros((4, 4)), _START * 1e-3))),
    Case("networkx.rescale_layout", "NetworkX 3.6.1, networkx/drawing/layout.py",
         drive_rescale_layout, ((_START,), (np.ones((4, 2)),))),
]
