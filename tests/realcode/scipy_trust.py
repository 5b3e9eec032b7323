"""SciPy's trust-region and TOMS 748 pieces, copied verbatim (SciPy 1.17.1,
BSD-3-Clause; see the package docstring): the third round, functions the converter was
not written against. From ``scipy/optimize/_lsq/common.py``: the line/trust-region
intersection, the Levenberg-Marquardt subproblem by one SVD, the radius update, the
bounded 1-D quadratic minimum, the step to the nearest bound and the termination
test; from ``_zeros_py.py``: Alefeld-Potra-Shi's TOMS 748 solver whole (the class, with
its helpers); from ``_trustregion.py``: the sphere intersection of the quadratic
subproblems. Drivers are at the end.
"""
# ruff: noqa
import math
import warnings
from math import copysign

import numpy as np
from numpy.linalg import norm

from .cases import Case
from .scipy_optimize import (_compute_divided_differences, _newton_quadratic, _secant,
                             _update_bracket)

# SciPy 1.17.1, scipy/optimize/_lsq/common.py and _zeros_py.py, module constants; edits: none
EPS = np.finfo(float).eps
_iter = 100
_xtol = 2e-12
_rtol = 4 * np.finfo(float).eps
_ECONVERGED = 0
_ECONVERR = -2
_EINPROGRESS = 1


# SciPy 1.17.1, scipy/optimize/_lsq/common.py, intersect_trust_region; edits: none
def intersect_trust_region(x, s, Delta):
    """Find the intersection of a line with the boundary of a trust region.

    This function solves the quadratic equation with respect to t
    ||(x + s*t)||**2 = Delta**2.

    Returns
    -------
    t_neg, t_pos : tuple of float
        Negative and positive roots.

    Raises
    ------
    ValueError
        If `s` is zero or `x` is not within the trust region.
    """
    a = np.dot(s, s)
    if a == 0:
        raise ValueError("`s` is zero.")

    b = np.dot(x, s)

    c = np.dot(x, x) - Delta**2
    if c > 0:
        raise ValueError("`x` is not within the trust region.")

    d = np.sqrt(b*b - a*c)  # Root from one fourth of the discriminant.

    # Computations below avoid loss of significance, see "Numerical Recipes".
    q = -(b + copysign(d, b))
    t1 = q / a
    t2 = c / q

    if t1 < t2:
        return t1, t2
    else:
        return t2, t1


# SciPy 1.17.1, scipy/optimize/_lsq/common.py, solve_lsq_trust_region; edits: none
def solve_lsq_trust_region(n, m, uf, s, V, Delta, initial_alpha=None,
                           rtol=0.01, max_iter=10):
    """Solve a trust-region problem arising in least-squares minimization.

    This function implements a method described by J. J. More [1]_ and used
    in MINPACK, but it relies on a single SVD of Jacobian instead of series
    of Cholesky decompositions. Before running this function, compute:
    ``U, s, VT = svd(J, full_matrices=False)``.

    Parameters
    ----------
    n : int
        Number of variables.
    m : int
        Number of residuals.
    uf : ndarray
        Computed as U.T.dot(f).
    s : ndarray
        Singular values of J.
    V : ndarray
        Transpose of VT.
    Delta : float
        Radius of a trust region.
    initial_alpha : float, optional
        Initial guess for alpha, which might be available from a previous
        iteration. If None, determined automatically.
    rtol : float, optional
        Stopping tolerance for the root-finding procedure. Namely, the
        solution ``p`` will satisfy ``abs(norm(p) - Delta) < rtol * Delta``.
    max_iter : int, optional
        Maximum allowed number of iterations for the root-finding procedure.

    Returns
    -------
    p : ndarray, shape (n,)
        Found solution of a trust-region problem.
    alpha : float
        Positive value such that (J.T*J + alpha*I)*p = -J.T*f.
        Sometimes called Levenberg-Marquardt parameter.
    n_iter : int
        Number of iterations made by root-finding procedure. Zero means
        that Gauss-Newton step was selected as the solution.

    References
    ----------
    .. [1] More, J. J., "The Levenberg-Marquardt Algorithm: Implementation
           and Theory," Numerical Analysis, ed. G. A. Watson, Lecture Notes
           in Mathematics 630, Springer Verlag, pp. 105-116, 1977.
    """
    def phi_and_derivative(alpha, suf, s, Delta):
        """Function of which to find zero.

        It is defined as "norm of regularized (by alpha) least-squares
        solution minus `Delta`". Refer to [1]_.
        """
        denom = s**2 + alpha
        p_norm = norm(suf / denom)
        phi = p_norm - Delta
        phi_prime = -np.sum(suf ** 2 / denom**3) / p_norm
        return phi, phi_prime

    suf = s * uf

    # Check if J has full rank and try Gauss-Newton step.
    if m >= n:
        threshold = EPS * m * s[0]
        full_rank = s[-1] > threshold
    else:
        full_rank = False

    if full_rank:
        p = -V.dot(uf / s)
        if norm(p) <= Delta:
            return p, 0.0, 0

    alpha_upper = norm(suf) / Delta

    if full_rank:
        phi, phi_prime = phi_and_derivative(0.0, suf, s, Delta)
        alpha_lower = -phi / phi_prime
    else:
        alpha_lower = 0.0

    if initial_alpha is None or not full_rank and initial_alpha == 0:
        alpha = max(0.001 * alpha_upper, (alpha_lower * alpha_upper)**0.5)
    else:
        alpha = initial_alpha

    for it in range(max_iter):
        if alpha < alpha_lower or alpha > alpha_upper:
            alpha = max(0.001 * alpha_upper, (alpha_lower * alpha_upper)**0.5)

        phi, phi_prime = phi_and_derivative(alpha, suf, s, Delta)

        if phi < 0:
            alpha_upper = alpha

        ratio = phi / phi_prime
        alpha_lower = max(alpha_lower, alpha - ratio)
        alpha -= (phi + Delta) * ratio / Delta

        if np.abs(phi) < rtol * Delta:
            break

    p = -V.dot(suf / (s**2 + alpha))

    # Make the norm of p equal to Delta, p is changed only slightly during
    # this. It is done to prevent p lie outside the trust region (which can
    # cause problems later).
    p *= Delta / norm(p)

    return p, alpha, it + 1


# SciPy 1.17.1, scipy/optimize/_lsq/common.py, update_tr_radius; edits: none
def update_tr_radius(Delta, actual_reduction, predicted_reduction,
                     step_norm, bound_hit):
    """Update the radius of a trust region based on the cost reduction.

    Returns
    -------
    Delta : float
        New radius.
    ratio : float
        Ratio between actual and predicted reductions.
    """
    if predicted_reduction > 0:
        ratio = actual_reduction / predicted_reduction
    elif predicted_reduction == actual_reduction == 0:
        ratio = 1
    else:
        ratio = 0

    if ratio < 0.25:
        Delta = 0.25 * step_norm
    elif ratio > 0.75 and bound_hit:
        Delta *= 2.0

    return Delta, ratio


# SciPy 1.17.1, scipy/optimize/_lsq/common.py, minimize_quadratic_1d; edits: none
def minimize_quadratic_1d(a, b, lb, ub, c=0):
    """Minimize a 1-D quadratic function subject to bounds.

    The free term `c` is 0 by default. Bounds must be finite.

    Returns
    -------
    t : float
        Minimum point.
    y : float
        Minimum value.
    """
    t = [lb, ub]
    if a != 0:
        extremum = -0.5 * b / a
        if lb < extremum < ub:
            t.append(extremum)
    t = np.asarray(t)
    y = t * (a * t + b) + c
    min_index = np.argmin(y)
    return t[min_index], y[min_index]


# SciPy 1.17.1, scipy/optimize/_lsq/common.py, step_size_to_bound; edits: none
def step_size_to_bound(x, s, lb, ub):
    """Compute a min_step size required to reach a bound.

    The function computes a positive scalar t, such that x + s * t is on
    the bound.

    Returns
    -------
    step : float
        Computed step. Non-negative value.
    hits : ndarray of int with shape of x
        Each element indicates whether a corresponding variable reaches the
        bound:

             *  0 - the bound was not hit.
             * -1 - the lower bound was hit.
             *  1 - the upper bound was hit.
    """
    non_zero = np.nonzero(s)
    s_non_zero = s[non_zero]
    steps = np.empty_like(x)
    steps.fill(np.inf)
    with np.errstate(over='ignore'):
        steps[non_zero] = np.maximum((lb - x)[non_zero] / s_non_zero,
                                     (ub - x)[non_zero] / s_non_zero)
    min_step = np.min(steps)
    return min_step, np.equal(steps, min_step) * np.sign(s).astype(int)


# SciPy 1.17.1, scipy/optimize/_lsq/common.py, check_termination; edits: none
def check_termination(dF, F, dx_norm, x_norm, ratio, ftol, xtol):
    """Check termination condition for nonlinear least squares."""
    ftol_satisfied = dF < ftol * F and ratio > 0.25
    xtol_satisfied = dx_norm < xtol * (xtol + x_norm)

    if ftol_satisfied and xtol_satisfied:
        return 4
    elif ftol_satisfied:
        return 2
    elif xtol_satisfied:
        return 3
    else:
        return None


# SciPy 1.17.1, scipy/optimize/_zeros_py.py, _notclose; edits: none
def _notclose(fs, rtol=_rtol, atol=_xtol):
    # Ensure not None, not 0, all finite, and not very close to each other
    notclosefvals = (
            all(fs) and all(np.isfinite(fs)) and
            not any(any(np.isclose(_f, fs[i + 1:], rtol=rtol, atol=atol))
                    for i, _f in enumerate(fs[:-1])))
    return notclosefvals


# SciPy 1.17.1, scipy/optimize/_zeros_py.py, _interpolated_poly; edits: none
def _interpolated_poly(xvals, fvals, x):
    """Compute p(x) for the polynomial passing through the specified locations.

    Use Neville's algorithm to compute p(x) where p is the minimal degree
    polynomial passing through the points xvals, fvals"""
    xvals = np.asarray(xvals)
    N = len(xvals)
    Q = np.zeros([N, N])
    D = np.zeros([N, N])
    Q[:, 0] = fvals[:]
    D[:, 0] = fvals[:]
    for k in range(1, N):
        alpha = D[k:, k - 1] - Q[k - 1:N - 1, k - 1]
        diffik = xvals[0:N - k] - xvals[k:N]
        Q[k:, k] = (xvals[k:] - x) / diffik * alpha
        D[k:, k] = (xvals[:N - k] - x) / diffik * alpha
    # Expect Q[-1, 1:] to be small relative to Q[-1, 0] as x approaches a root
    return np.sum(Q[-1, 1:]) + Q[-1, 0]


# SciPy 1.17.1, scipy/optimize/_zeros_py.py, _inverse_poly_zero; edits: none
def _inverse_poly_zero(a, b, c, d, fa, fb, fc, fd):
    """Inverse cubic interpolation f-values -> x-values

    Given four points (fa, a), (fb, b), (fc, c), (fd, d) with
    fa, fb, fc, fd all distinct, find poly IP(y) through the 4 points
    and compute x=IP(0).
    """
    return _interpolated_poly([fa, fb, fc, fd], [a, b, c, d], 0)


# SciPy 1.17.1, scipy/optimize/_zeros_py.py, TOMS748Solver; edits: none
class TOMS748Solver:
    """Solve f(x, *args) == 0 using Algorithm748 of Alefeld, Potro & Shi.
    """
    _MU = 0.5
    _K_MIN = 1
    _K_MAX = 100  # A very high value for real usage. Expect 1, 2, maybe 3.

    def __init__(self):
        self.f = None
        self.args = None
        self.function_calls = 0
        self.iterations = 0
        self.k = 2
        # ab=[a,b] is a global interval containing a root
        self.ab = [np.nan, np.nan]
        # fab is function values at a, b
        self.fab = [np.nan, np.nan]
        self.d = None
        self.fd = None
        self.e = None
        self.fe = None
        self.disp = False
        self.xtol = _xtol
        self.rtol = _rtol
        self.maxiter = _iter

    def configure(self, xtol, rtol, maxiter, disp, k):
        self.disp = disp
        self.xtol = xtol
        self.rtol = rtol
        self.maxiter = maxiter
        # Silently replace a low value of k with 1
        self.k = max(k, self._K_MIN)
        # Noisily replace a high value of k with self._K_MAX
        if self.k > self._K_MAX:
            msg = f"toms748: Overriding k: ->{self._K_MAX}"
            warnings.warn(msg, RuntimeWarning, stacklevel=3)
            self.k = self._K_MAX

    def _callf(self, x, error=True):
        """Call the user-supplied function, update book-keeping"""
        fx = self.f(x, *self.args)
        self.function_calls += 1
        if not np.isfinite(fx) and error:
            raise ValueError(f"Invalid function value: f({x:f}) -> {fx} ")
        return fx

    def get_result(self, x, flag=_ECONVERGED):
        r"""Package the result and statistics into a tuple."""
        return (x, self.function_calls, self.iterations, flag)

    def _update_bracket(self, c, fc):
        return _update_bracket(self.ab, self.fab, c, fc)

    def start(self, f, a, b, args=()):
        r"""Prepare for the iterations."""
        self.function_calls = 0
        self.iterations = 0

        self.f = f
        self.args = args
        self.ab[:] = [a, b]
        if not np.isfinite(a) or np.imag(a) != 0:
            raise ValueError(f"Invalid x value: {a} ")
        if not np.isfinite(b) or np.imag(b) != 0:
            raise ValueError(f"Invalid x value: {b} ")

        fa = self._callf(a)
        if not np.isfinite(fa) or np.imag(fa) != 0:
            raise ValueError(f"Invalid function value: f({a:f}) -> {fa} ")
        if fa == 0:
            return _ECONVERGED, a
        fb = self._callf(b)
        if not np.isfinite(fb) or np.imag(fb) != 0:
            raise ValueError(f"Invalid function value: f({b:f}) -> {fb} ")
        if fb == 0:
            return _ECONVERGED, b

        if np.sign(fb) * np.sign(fa) > 0:
            raise ValueError("f(a) and f(b) must have different signs, but "
                             f"f({a:e})={fa:e}, f({b:e})={fb:e} ")
        self.fab[:] = [fa, fb]

        return _EINPROGRESS, sum(self.ab) / 2.0

    def get_status(self):
        """Determine the current status."""
        a, b = self.ab[:2]
        if np.isclose(a, b, rtol=self.rtol, atol=self.xtol):
            return _ECONVERGED, sum(self.ab) / 2.0
        if self.iterations >= self.maxiter:
            return _ECONVERR, sum(self.ab) / 2.0
        return _EINPROGRESS, sum(self.ab) / 2.0

    def iterate(self):
        """Perform one step in the algorithm.

        Implements Algorithm 4.1(k=1) or 4.2(k=2) in [APS1995]
        """
        self.iterations += 1
        eps = np.finfo(float).eps
        d, fd, e, fe = self.d, self.fd, self.e, self.fe
        ab_width = self.ab[1] - self.ab[0]  # Need the start width below
        c = None

        for nsteps in range(2, self.k+2):
            # If the f-values are sufficiently separated, perform an inverse
            # polynomial interpolation step. Otherwise, nsteps repeats of
            # an approximate Newton-Raphson step.
            if _notclose(self.fab + [fd, fe], rtol=0, atol=32*eps):
                c0 = _inverse_poly_zero(self.ab[0], self.ab[1], d, e,
                                        self.fab[0], self.fab[1], fd, fe)
                if self.ab[0] < c0 < self.ab[1]:
                    c = c0
            if c is None:
                c = _newton_quadratic(self.ab, self.fab, d, fd, nsteps)

            fc = self._callf(c)
            if fc == 0:
                return _ECONVERGED, c

            # re-bracket
            e, fe = d, fd
            d, fd = self._update_bracket(c, fc)

        # u is the endpoint with the smallest f-value
        uix = (0 if np.abs(self.fab[0]) < np.abs(self.fab[1]) else 1)
        u, fu = self.ab[uix], self.fab[uix]

        _, A = _compute_divided_differences(self.ab, self.fab,
                                            forward=(uix == 0), full=False)
        c = u - 2 * fu / A
        if np.abs(c - u) > 0.5 * (self.ab[1] - self.ab[0]):
            c = sum(self.ab) / 2.0
        else:
            if np.isclose(c, u, rtol=eps, atol=0):
                # c didn't change (much).
                # Either because the f-values at the endpoints have vastly
                # differing magnitudes, or because the root is very close to
                # that endpoint
                frs = np.frexp(self.fab)[1]
                if frs[uix] < frs[1 - uix] - 50:  # Differ by more than 2**50
                    c = (31 * self.ab[uix] + self.ab[1 - uix]) / 32
                else:
                    # Make a bigger adjustment, about the
                    # size of the requested tolerance.
                    mm = (1 if uix == 0 else -1)
                    adj = mm * np.abs(c) * self.rtol + mm * self.xtol
                    c = u + adj
                if not self.ab[0] < c < self.ab[1]:
                    c = sum(self.ab) / 2.0

        fc = self._callf(c)
        if fc == 0:
            return _ECONVERGED, c

        e, fe = d, fd
        d, fd = self._update_bracket(c, fc)

        # If the width of the new interval did not decrease enough, bisect
        if self.ab[1] - self.ab[0] > self._MU * ab_width:
            e, fe = d, fd
            z = sum(self.ab) / 2.0
            fz = self._callf(z)
            if fz == 0:
                return _ECONVERGED, z
            d, fd = self._update_bracket(z, fz)

        # Record d and e for next iteration
        self.d, self.fd = d, fd
        self.e, self.fe = e, fe

        status, xn = self.get_status()
        return status, xn

    def solve(self, f, a, b, args=(),
              xtol=_xtol, rtol=_rtol, k=2, maxiter=_iter, disp=True):
        r"""Solve f(x) = 0 given an interval containing a root."""
        self.configure(xtol=xtol, rtol=rtol, maxiter=maxiter, disp=disp, k=k)
        status, xn = self.start(f, a, b, args)
        if status == _ECONVERGED:
            return self.get_result(xn)

        # The first step only has two x-values.
        c = _secant(self.ab, self.fab)
        if not self.ab[0] < c < self.ab[1]:
            c = sum(self.ab) / 2.0
        fc = self._callf(c)
        if fc == 0:
            return self.get_result(c)

        self.d, self.fd = self._update_bracket(c, fc)
        self.e, self.fe = None, None
        self.iterations += 1

        while True:
            status, xn = self.iterate()
            if status == _ECONVERGED:
                return self.get_result(xn)
            if status == _ECONVERR:
                fmt = "Failed to converge after %d iterations, bracket is %s"
                if disp:
                    msg = fmt % (self.iterations + 1, self.ab)
                    raise RuntimeError(msg)
                return self.get_result(xn, _ECONVERR)


# SciPy 1.17.1, scipy/optimize/_trustregion.py, BaseQuadraticSubproblem.get_boundaries_intersections;
# edits: the method only, in a class of that one method (the rest of the class evaluates
# the model and is not called)
class BaseQuadraticSubproblem:
    def get_boundaries_intersections(self, z, d, trust_radius):
        """
        Solve the scalar quadratic equation ``||z + t d|| == trust_radius``.
        This is like a line-sphere intersection.
        Return the two values of t, sorted from low to high.
        """
        a = np.dot(d, d)
        b = 2 * np.dot(z, d)
        c = np.dot(z, z) - trust_radius**2
        sqrt_discriminant = math.sqrt(b*b - 4*a*c)

        # The following calculation is mathematically
        # equivalent to:
        # ta = (-b - sqrt_discriminant) / (2*a)
        # tb = (-b + sqrt_discriminant) / (2*a)
        # but produce smaller round off errors.
        # Look at Matrix Computation p.97
        # for a better justification.
        aux = b + math.copysign(sqrt_discriminant, b)
        ta = -aux / (2*a)
        tb = -2*c / aux
        return sorted([ta, tb])

# ---------------------------------------------------------------------------------
# Drivers: each calls a copied function the way least_squares' trf/lm solvers,
# toms748 and the trust-region minimisers do, on scalars and arrays of fixed shapes.


def _f64(*values):
    return tuple(np.float64(v) for v in values)


def drive_intersect_trust_region(x, s, Delta, xp):
    return intersect_trust_region(x, s, Delta)


_X0 = np.array([0.1, -0.2, 0.3])
_INTERSECT = (
    (_X0, np.array([1.0, 2.0, -0.5]), np.float64(2.0)),  # b < 0: copysign picks the sign
    (_X0, np.array([-1.0, 0.5, 1.5]), np.float64(1.0)),  # b > 0
    (_X0, np.zeros(3), np.float64(1.0)),  # `s` is zero: ValueError
    (np.array([3.0, 0.0, 0.0]), np.array([1.0, 0.0, 0.0]), np.float64(1.0)),  # outside
)


def drive_solve_lsq_trust_region(uf, s, V, Delta, xp):
    # trf's inner loop: J (4 x 3) by its SVD, U.T.dot(f), a radius; n, m from the shapes.
    n, m = 3, 4
    return solve_lsq_trust_region(n, m, uf, s, V, Delta)


def _svd_problem(seed, rank_deficient=False):
    rng = np.random.default_rng(seed)
    J = rng.standard_normal((4, 3))
    if rank_deficient:
        J[:, 2] = J[:, 0] + J[:, 1]
    f = rng.standard_normal(4)
    U, s, VT = np.linalg.svd(J, full_matrices=False)
    return U.T.dot(f), s, VT.T


_LSQ_FULL = _svd_problem(0)
_LSQ_DEFICIENT = _svd_problem(1, rank_deficient=True)
_SOLVE_LSQ = (
    _LSQ_FULL + (np.float64(100.0),),  # the Gauss-Newton step lies inside: returned at once
    _LSQ_FULL + (np.float64(0.05),),  # Newton iterations on alpha until |phi| < rtol * Delta
    _LSQ_DEFICIENT + (np.float64(0.3),),  # not full rank: alpha_lower = 0
    _LSQ_FULL + (np.float64(1e-12),),  # a tiny radius: runs to max_iter
)


def drive_update_tr_radius(Delta, actual_reduction, predicted_reduction, step_norm,
                           bound_hit, xp):
    return update_tr_radius(Delta, actual_reduction, predicted_reduction, step_norm,
                            bound_hit)


_UPDATE_TR = tuple(_f64(*row[:4]) + (np.bool_(row[4]),) for row in (
    (1.0, 0.9, 1.0, 0.5, True),  # ratio 0.9 at the bound: doubled
    (1.0, 0.9, 1.0, 0.5, False),  # ratio 0.9 inside: kept
    (1.0, 0.1, 1.0, 0.5, True),  # ratio 0.1: a quarter of the step
    (1.0, 0.0, 0.0, 0.5, True),  # both zero: ratio 1
    (1.0, 0.3, -1.0, 0.5, True),  # predicted increase: ratio 0
))


def drive_minimize_quadratic_1d(a, b, lb, ub, xp):
    return minimize_quadratic_1d(a, b, lb, ub)


_MIN_Q1D = tuple(_f64(*row) for row in (
    (1.0, -1.0, -2.0, 2.0),  # the extremum 0.5 inside: three candidates
    (1.0, -10.0, -2.0, 2.0),  # the extremum 5 outside: the bounds only
    (0.0, 3.0, -2.0, 2.0),  # a == 0: linear
))


def drive_step_size_to_bound(x, s, lb, ub, xp):
    return step_size_to_bound(x, s, lb, ub)


_LB3, _UB3 = np.array([-1.0, -1.0, -1.0]), np.array([1.0, 2.0, 1.0])
_STEP_TO_BOUND = (
    (np.zeros(3), np.array([1.0, -0.5, 0.0]), _LB3, _UB3),  # one zero direction
    (np.zeros(3), np.array([0.5, 1.0, 2.0]), _LB3, _UB3),  # every direction nonzero
)


def drive_check_termination(dF, F, dx_norm, x_norm, ratio, xp):
    return check_termination(dF, F, dx_norm, x_norm, ratio, 1e-8, 1e-8)


_CHECK_TERMINATION = tuple(_f64(*row) for row in (
    (1e-12, 1.0, 1e-12, 1.0, 0.9),  # both: 4
    (1e-12, 1.0, 1.0, 1.0, 0.9),  # ftol: 2
    (1.0, 1.0, 1e-12, 1.0, 0.9),  # xtol: 3
    (1.0, 1.0, 1.0, 1.0, 0.9),  # neither: None
))


def drive_notclose(fs, xp):
    # toms748 asks whether its four f-values allow inverse cubic interpolation.
    return _notclose(list(fs), rtol=0, atol=32 * np.finfo(float).eps)


_NOTCLOSE = (
    (np.array([1.0, -2.0, 0.5, 3.0]),),  # distinct: True
    (np.array([1.0, -2.0, 0.0, 3.0]),),  # a zero: False
    (np.array([1.0, -2.0, np.inf, 3.0]),),  # not finite: False
    (np.array([1.0, -2.0, 1.0 + 1e-17, 3.0]),),  # two close: False
)


def drive_inverse_poly_zero(abcd, fabcd, xp):
    a, b, c, d = abcd
    fa, fb, fc, fd = fabcd
    return _inverse_poly_zero(a, b, c, d, fa, fb, fc, fd)


_INVERSE_POLY = (
    (np.array([1.0, 2.0, 1.5, 1.2]), np.array([-1.0, 6.0, 1.375, -0.272])),  # x**3 - 2
    (np.array([0.0, 1.0, 0.4, 0.7]), np.array([-1.0, 0.5, -0.3, 0.1])),
)


def drive_toms748(a, b, shift, maxiter, xp):
    # toms748(f, a, b) with its defaults (k=1; disp=True raises on maxiter).
    solver = TOMS748Solver()
    return solver.solve(lambda x: x ** 3 - shift, a, b, xtol=2e-12, rtol=_rtol, k=1,
                        maxiter=maxiter, disp=True)


def drive_toms748_k2(a, b, shift, maxiter, xp):
    solver = TOMS748Solver()
    return solver.solve(lambda x: np.cos(x) - shift, a, b, xtol=1e-10, rtol=_rtol, k=2,
                        maxiter=maxiter, disp=True)


_I = np.int64
_TOMS748 = (
    _f64(0.0, 3.0, 2.0) + (_I(100),),  # converges
    _f64(2.0, 3.0, 8.0) + (_I(100),),  # f(a) == 0: at once
    _f64(2.0, 3.0, 1.0) + (_I(100),),  # same signs: ValueError
    _f64(0.0, 3.0, 2.0) + (_I(2),),  # maxiter: RuntimeError with the bracket
)
_TOMS748_K2 = (
    _f64(0.0, 3.0, 0.3) + (_I(100),),
    _f64(0.0, 1.0, 0.3) + (_I(100),),  # same signs: ValueError
    _f64(0.0, 3.0, 0.3) + (_I(1),),
)


def drive_boundaries_intersections(z, d, trust_radius, xp):
    return BaseQuadraticSubproblem().get_boundaries_intersections(z, d, trust_radius)


_BOUNDARIES = (
    (np.array([0.1, 0.2]), np.array([1.0, 1.0]), np.float64(1.0)),  # b > 0
    (np.array([0.1, 0.2]), np.array([-1.0, 0.5]), np.float64(2.0)),  # b < 0
)


_SRC = "SciPy 1.17.1, scipy/optimize/"
CASES = [
    Case("scipy.optimize._lsq.intersect_trust_region", _SRC + "_lsq/common.py",
         drive_intersect_trust_region, _INTERSECT),
    Case("scipy.optimize._lsq.solve_lsq_trust_region", _SRC + "_lsq/common.py",
         drive_solve_lsq_trust_region, _SOLVE_LSQ),
    Case("scipy.optimize._lsq.update_tr_radius", _SRC + "_lsq/common.py",
         drive_update_tr_radius, _UPDATE_TR),
    Case("scipy.optimize._lsq.minimize_quadratic_1d", _SRC + "_lsq/common.py",
         drive_minimize_quadratic_1d, _MIN_Q1D),
    Case("scipy.optimize._lsq.step_size_to_bound", _SRC + "_lsq/common.py",
         drive_step_size_to_bound, _STEP_TO_BOUND),
    Case("scipy.optimize._lsq.check_termination", _SRC + "_lsq/common.py",
         drive_check_termination, _CHECK_TERMINATION),
    Case("scipy.optimize._notclose", _SRC + "_zeros_py.py", drive_notclose, _NOTCLOSE),
    Case("scipy.optimize._inverse_poly_zero", _SRC + "_zeros_py.py", drive_inverse_poly_zero,
         _INVERSE_POLY),
    Case("scipy.optimize.TOMS748Solver (k=1)", _SRC + "_zeros_py.py", drive_toms748, _TOMS748),
    Case("scipy.optimize.TOMS748Solver (k=2)", _SRC + "_zeros_py.py", drive_toms748_k2,
         _TOMS748_K2),
    Case("scipy.optimize.BaseQuadraticSubproblem.get_boundaries_intersections",
         _SRC + "_trustregion.py", drive_boundaries_intersections, _BOUNDARIES),
]
