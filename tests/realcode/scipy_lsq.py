"""SciPy's bound-constrained least-squares helpers, copied verbatim (SciPy 1.17.1,
BSD-3-Clause; see the package docstring): the boolean-mask writes of
``scipy/optimize/_lsq/common.py`` (issue 32.1) — which bounds are active, shifting a
point strictly inside its bounds, the Coleman-Li scaling vector and the reflective
transformation. Drivers are at the end.
"""
# ruff: noqa
import numpy as np

from .cases import Case


# SciPy 1.17.1, scipy/optimize/_lsq/common.py, in_bounds; edits: none
def in_bounds(x, lb, ub):
    """Check if a point lies within bounds."""
    return np.all((x >= lb) & (x <= ub))


# SciPy 1.17.1, scipy/optimize/_lsq/common.py, find_active_constraints; edits: none
def find_active_constraints(x, lb, ub, rtol=1e-10):
    """Determine which constraints are active in a given point.

    The threshold is computed using `rtol` and the absolute value of the
    closest bound.

    Returns
    -------
    active : ndarray of int with shape of x
        Each component shows whether the corresponding constraint is active:

             *  0 - a constraint is not active.
             * -1 - a lower bound is active.
             *  1 - a upper bound is active.
    """
    active = np.zeros_like(x, dtype=int)

    if rtol == 0:
        active[x <= lb] = -1
        active[x >= ub] = 1
        return active

    lower_dist = x - lb
    upper_dist = ub - x

    lower_threshold = rtol * np.maximum(1, np.abs(lb))
    upper_threshold = rtol * np.maximum(1, np.abs(ub))

    lower_active = (np.isfinite(lb) &
                    (lower_dist <= np.minimum(upper_dist, lower_threshold)))
    active[lower_active] = -1

    upper_active = (np.isfinite(ub) &
                    (upper_dist <= np.minimum(lower_dist, upper_threshold)))
    active[upper_active] = 1

    return active


# SciPy 1.17.1, scipy/optimize/_lsq/common.py, make_strictly_feasible; edits: none
def make_strictly_feasible(x, lb, ub, rstep=1e-10):
    """Shift a point to the interior of a feasible region.

    Each element of the returned vector is at least at a relative distance
    `rstep` from the closest bound. If ``rstep=0`` then `np.nextafter` is used.
    """
    x_new = x.copy()

    active = find_active_constraints(x, lb, ub, rstep)
    lower_mask = np.equal(active, -1)
    upper_mask = np.equal(active, 1)

    if rstep == 0:
        x_new[lower_mask] = np.nextafter(lb[lower_mask], ub[lower_mask])
        x_new[upper_mask] = np.nextafter(ub[upper_mask], lb[upper_mask])
    else:
        x_new[lower_mask] = (lb[lower_mask] +
                             rstep * np.maximum(1, np.abs(lb[lower_mask])))
        x_new[upper_mask] = (ub[upper_mask] -
                             rstep * np.maximum(1, np.abs(ub[upper_mask])))

    tight_bounds = (x_new < lb) | (x_new > ub)
    x_new[tight_bounds] = 0.5 * (lb[tight_bounds] + ub[tight_bounds])

    return x_new


# SciPy 1.17.1, scipy/optimize/_lsq/common.py, CL_scaling_vector; edits: none
def CL_scaling_vector(x, g, lb, ub):
    """Compute Coleman-Li scaling vector and its derivatives.

    Components of a vector v are defined as follows::

               | ub[i] - x[i], if g[i] < 0 and ub[i] < np.inf
        v[i] = | x[i] - lb[i], if g[i] > 0 and lb[i] > -np.inf
               | 1,           otherwise

    According to this definition v[i] >= 0 for all i. It differs from the
    definition in paper [1]_ (eq. (2.2)), where the absolute value of v is
    used. Both definitions are equivalent down the line.
    Derivatives of v with respect to x take value 1, -1 or 0 depending on a
    case.

    Returns
    -------
    v : ndarray with shape of x
        Scaling vector.
    dv : ndarray with shape of x
        Derivatives of v[i] with respect to x[i], diagonal elements of v's
        Jacobian.

    References
    ----------
    .. [1] M.A. Branch, T.F. Coleman, and Y. Li, "A Subspace, Interior,
           and Conjugate Gradient Method for Large-Scale Bound-Constrained
           Minimization Problems," SIAM Journal on Scientific Computing,
           Vol. 21, Number 1, pp 1-23, 1999.
    """
    v = np.ones_like(x)
    dv = np.zeros_like(x)

    mask = (g < 0) & np.isfinite(ub)
    v[mask] = ub[mask] - x[mask]
    dv[mask] = -1

    mask = (g > 0) & np.isfinite(lb)
    v[mask] = x[mask] - lb[mask]
    dv[mask] = 1

    return v, dv


# SciPy 1.17.1, scipy/optimize/_lsq/common.py, reflective_transformation; edits: none
def reflective_transformation(y, lb, ub):
    """Compute reflective transformation and its gradient."""
    if in_bounds(y, lb, ub):
        return y, np.ones_like(y)

    lb_finite = np.isfinite(lb)
    ub_finite = np.isfinite(ub)

    x = y.copy()
    g_negative = np.zeros_like(y, dtype=bool)

    mask = lb_finite & ~ub_finite
    x[mask] = np.maximum(y[mask], 2 * lb[mask] - y[mask])
    g_negative[mask] = y[mask] < lb[mask]

    mask = ~lb_finite & ub_finite
    x[mask] = np.minimum(y[mask], 2 * ub[mask] - y[mask])
    g_negative[mask] = y[mask] > ub[mask]

    mask = lb_finite & ub_finite
    d = ub - lb
    t = np.remainder(y[mask] - lb[mask], 2 * d[mask])
    x[mask] = lb[mask] + np.minimum(t, 2 * d[mask] - t)
    g_negative[mask] = t > d[mask]

    g = np.ones_like(y)
    g[g_negative] = -1

    return x, g



# ---------------------------------------------------------------------------------
# Drivers: each calls a copied function as least_squares' trf/dogbox solvers do. SciPy
# passes NumPy arrays it owns (``x.copy()`` then writes into the copy): the drivers make
# one from the argument, as a JAX array cannot be written into eagerly.


def drive_make_strictly_feasible(x, lb, ub, xp):
    return make_strictly_feasible(np.array(x), lb, ub, rstep=1e-10)


def drive_make_strictly_feasible_nextafter(x, lb, ub, xp):
    return make_strictly_feasible(np.array(x), lb, ub, rstep=0)


def drive_cl_scaling_vector(x, g, lb, ub, xp):
    return CL_scaling_vector(x, g, lb, ub)


def drive_reflective_transformation(y, lb, ub, xp):
    return reflective_transformation(np.array(y), lb, ub)


inf = np.inf
_LB = np.array([0.0, -1.0, -inf, 2.0])
_UB = np.array([1.0, inf, 3.0, 2.5])
_ON_BOUNDS = (np.array([0.0, -1.0, 3.0, 2.5]), _LB, _UB)  # every bound active
_INSIDE = (np.array([0.5, 4.0, -7.0, 2.2]), _LB, _UB)  # none active
_MIXED = (np.array([1.0, 0.0, 1.0, 2.0]), _LB, _UB)  # an upper and a lower one
_TIGHT = (np.array([1.0, 0.0, 1.0, 2.0]), np.array([1.0, 0.0, 1.0, 2.0]),
          np.array([1.0, 0.0, 1.0, 2.0]))  # lb == ub: the midpoint
_GRAD = np.array([-1.0, 2.0, 0.0, 1.0])

CASES = [
    Case("scipy.optimize._lsq.make_strictly_feasible",
         "SciPy 1.17.1, scipy/optimize/_lsq/common.py", drive_make_strictly_feasible,
         (_ON_BOUNDS, _INSIDE, _MIXED, _TIGHT)),
    Case("scipy.optimize._lsq.make_strictly_feasible (rstep=0)",
         "SciPy 1.17.1, scipy/optimize/_lsq/common.py", drive_make_strictly_feasible_nextafter,
         (_ON_BOUNDS, _INSIDE, _MIXED)),
    Case("scipy.optimize._lsq.CL_scaling_vector", "SciPy 1.17.1, scipy/optimize/_lsq/common.py",
         drive_cl_scaling_vector,
         ((_INSIDE[0], _GRAD, _LB, _UB), (_MIXED[0], -_GRAD, _LB, _UB))),
    Case("scipy.optimize._lsq.reflective_transformation",
         "SciPy 1.17.1, scipy/optimize/_lsq/common.py", drive_reflective_transformation,
         ((np.array([0.5, 4.0, -7.0, 2.2]), _LB, _UB),  # in bounds: returned as it is
          (np.array([-0.5, -3.0, 4.0, 3.5]), _LB, _UB),  # reflected at every bound
          (np.array([1.5, 0.0, 5.0, 2.1]), _LB, _UB))),
]
