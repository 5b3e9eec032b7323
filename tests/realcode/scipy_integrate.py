"""SciPy integrate (solve_ivp's pieces), copied verbatim (SciPy 1.17.1, BSD-3-Clause;
see the package docstring): an explicit Runge-Kutta step that writes its stages into
the caller's array, the initial step-size heuristic, first-step validation, and the
BDF solver's Newton iteration. Drivers are at the end.
"""
# ruff: noqa
import numpy as np

from .cases import Case

# Module-level names the copied functions read, as SciPy defines them:
# scipy/integrate/_ivp/bdf.py
NEWTON_MAXITER = 4
# scipy/integrate/_ivp/rk.py, class RK23 (the Bogacki-Shampine tableau)
RK23_C = np.array([0, 1/2, 3/4])
RK23_A = np.array([
    [0, 0, 0],
    [1/2, 0, 0],
    [0, 3/4, 0]
])
RK23_B = np.array([2/9, 1/3, 4/9])


# SciPy 1.17.1, scipy/integrate/_ivp/rk.py, rk_step; edits: none
def rk_step(fun, t, y, f, h, A, B, C, K):
    """Perform a single Runge-Kutta step.

    This function computes a prediction of an explicit Runge-Kutta method and
    also estimates the error of a less accurate method.

    Notation for Butcher tableau is as in [1]_.

    Parameters
    ----------
    fun : callable
        Right-hand side of the system.
    t : float
        Current time.
    y : ndarray, shape (n,)
        Current state.
    f : ndarray, shape (n,)
        Current value of the derivative, i.e., ``fun(x, y)``.
    h : float
        Step to use.
    A : ndarray, shape (n_stages, n_stages)
        Coefficients for combining previous RK stages to compute the next
        stage. For explicit methods the coefficients at and above the main
        diagonal are zeros.
    B : ndarray, shape (n_stages,)
        Coefficients for combining RK stages for computing the final
        prediction.
    C : ndarray, shape (n_stages,)
        Coefficients for incrementing time for consecutive RK stages.
        The value for the first stage is always zero.
    K : ndarray, shape (n_stages + 1, n)
        Storage array for putting RK stages here. Stages are stored in rows.
        The last row is a linear combination of the previous rows with
        coefficients

    Returns
    -------
    y_new : ndarray, shape (n,)
        Solution at t + h computed with a higher accuracy.
    f_new : ndarray, shape (n,)
        Derivative ``fun(t + h, y_new)``.

    References
    ----------
    .. [1] E. Hairer, S. P. Norsett G. Wanner, "Solving Ordinary Differential
           Equations I: Nonstiff Problems", Sec. II.4.
    """
    K[0] = f
    for s, (a, c) in enumerate(zip(A[1:], C[1:]), start=1):
        dy = np.dot(K[:s].T, a[:s]) * h
        K[s] = fun(t + c * h, y + dy)

    y_new = y + h * np.dot(K[:-1].T, B)
    f_new = fun(t + h, y_new)

    K[-1] = f_new

    return y_new, f_new


# SciPy 1.17.1, scipy/integrate/_ivp/common.py, norm; edits: none
def norm(x):
    """Compute RMS norm."""
    return np.linalg.norm(x) / x.size ** 0.5


# SciPy 1.17.1, scipy/integrate/_ivp/common.py, validate_first_step; edits: none
def validate_first_step(first_step, t0, t_bound):
    """Assert that first_step is valid and return it."""
    if first_step <= 0:
        raise ValueError("`first_step` must be positive.")
    if first_step > np.abs(t_bound - t0):
        raise ValueError("`first_step` exceeds bounds.")
    return first_step


# SciPy 1.17.1, scipy/integrate/_ivp/common.py, select_initial_step; edits: none
def select_initial_step(fun, t0, y0, t_bound,
                        max_step, f0, direction, order, rtol, atol):
    """Empirically select a good initial step.

    The algorithm is described in [1]_.

    Parameters
    ----------
    fun : callable
        Right-hand side of the system.
    t0 : float
        Initial value of the independent variable.
    y0 : ndarray, shape (n,)
        Initial value of the dependent variable.
    t_bound : float
        End-point of integration interval; used to ensure that t0+step<=tbound
        and that fun is only evaluated in the interval [t0,tbound]
    max_step : float
        Maximum allowable step size.
    f0 : ndarray, shape (n,)
        Initial value of the derivative, i.e., ``fun(t0, y0)``.
    direction : float
        Integration direction.
    order : float
        Error estimator order. It means that the error controlled by the
        algorithm is proportional to ``step_size ** (order + 1)`.
    rtol : float
        Desired relative tolerance.
    atol : float
        Desired absolute tolerance.

    Returns
    -------
    h_abs : float
        Absolute value of the suggested initial step.

    References
    ----------
    .. [1] E. Hairer, S. P. Norsett G. Wanner, "Solving Ordinary Differential
           Equations I: Nonstiff Problems", Sec. II.4.
    """
    if y0.size == 0:
        return np.inf

    interval_length = abs(t_bound - t0)
    if interval_length == 0.0:
        return 0.0

    scale = atol + np.abs(y0) * rtol
    d0 = norm(y0 / scale)
    d1 = norm(f0 / scale)
    if d0 < 1e-5 or d1 < 1e-5:
        h0 = 1e-6
    else:
        h0 = 0.01 * d0 / d1
    # Check t0+h0*direction doesn't take us beyond t_bound
    h0 = min(h0, interval_length)
    y1 = y0 + h0 * direction * f0
    f1 = fun(t0 + h0 * direction, y1)
    d2 = norm((f1 - f0) / scale) / h0

    if d1 <= 1e-15 and d2 <= 1e-15:
        h1 = max(1e-6, h0 * 1e-3)
    else:
        h1 = (0.01 / max(d1, d2)) ** (1 / (order + 1))

    return min(100 * h0, h1, interval_length, max_step)


# SciPy 1.17.1, scipy/integrate/_ivp/bdf.py, solve_bdf_system; edits: none
def solve_bdf_system(fun, t_new, y_predict, c, psi, LU, solve_lu, scale, tol):
    """Solve the algebraic system resulting from BDF method."""
    d = 0
    y = y_predict.copy()
    dy_norm_old = None
    converged = False
    for k in range(NEWTON_MAXITER):
        f = fun(t_new, y)
        if not np.all(np.isfinite(f)):
            break

        dy = solve_lu(LU, c * f - psi - d)
        dy_norm = norm(dy / scale)

        if dy_norm_old is None:
            rate = None
        else:
            rate = dy_norm / dy_norm_old

        if (rate is not None and (rate >= 1 or
                rate ** (NEWTON_MAXITER - k) / (1 - rate) * dy_norm > tol)):
            break

        y += dy
        d += dy

        if (dy_norm == 0 or
                rate is not None and rate / (1 - rate) * dy_norm < tol):
            converged = True
            break

        dy_norm_old = dy_norm

    return converged, k + 1, y, d


# ---------------------------------------------------------------------------------
# Drivers: each calls a copied function as solve_ivp's solvers do, on arrays.

f64 = np.float64


def _decay(t, y, xp):
    return xp.stack([-2.0 * y[0] + y[1], -y[1] * y[1] + xp.sin(t)])


def drive_rk_step(t, y, h, K, xp):
    # rk_step's own loop runs over the (static) tableau: it is here for how it returns
    # its stages, by writing them into the caller's K (issue 22, item 4).
    f = _decay(t, y, xp)
    y_new, f_new = rk_step(lambda t, y: _decay(t, y, xp), t, y, f, h,
                           xp.asarray(RK23_A), xp.asarray(RK23_B), xp.asarray(RK23_C), K)
    return y_new, f_new


def drive_validate_first_step(first_step, t0, xp):
    return validate_first_step(first_step, t0, 1.0)


def drive_select_initial_step(t0, y0, xp):
    fun = lambda t, y: _decay(t, y, xp)
    return select_initial_step(fun, t0, y0, 2.0, np.inf, fun(t0, y0), 1.0, 3, 1e-3, 1e-6)


def drive_bdf_newton(y_predict, h, xp):
    # One implicit Euler step (c = h, psi = 0) of the stiff system y' = J y + y**2 / 4.
    J = xp.asarray([[-50.0, 1.0], [0.0, -1.0]])
    LU = xp.eye(2) - h * J
    fun = lambda t, y: J @ y + y * y / 4
    solve_lu = lambda LU, b: xp.linalg.solve(LU, b)
    scale = 1e-6 + 1e-3 * xp.abs(y_predict)
    return solve_bdf_system(fun, 0.0, y_predict, h, xp.zeros(2), LU, solve_lu, scale, 1e-3)


_SRC = "SciPy 1.17.1, scipy/integrate/_ivp/"

CASES = [
    Case("scipy.integrate.rk_step", _SRC + "rk.py", drive_rk_step,
         tuple((f64(t), np.array(y), f64(h), np.zeros((4, 2)))
               for t, y, h in ((0.0, [1.0, 0.5], 0.1), (1.0, [-2.0, 3.0], 0.02))),
         jax='writes into its argument K: JAX arrays are immutable (eagerly too)'),
    Case("scipy.integrate.validate_first_step", _SRC + "common.py", drive_validate_first_step,
         tuple((f64(a), f64(b)) for a, b in ((0.1, 0.0), (0.5, 0.25), (2.0, 0.0), (-0.1, 0.0)))),
    Case("scipy.integrate.select_initial_step", _SRC + "common.py", drive_select_initial_step,
         tuple((f64(t), np.array(y)) for t, y in
               ((0.0, [1.0, 0.5]), (0.0, [0.0, 0.0]), (1.5, [1e3, -2.0])))),
    Case("scipy.integrate.solve_bdf_system", _SRC + "bdf.py", drive_bdf_newton,
         tuple((np.array(y), f64(h)) for y, h in
               (([1.0, 0.5], 0.01), ([1.0, 0.5], 0.5), ([40.0, 30.0], 2.0)))),
]
