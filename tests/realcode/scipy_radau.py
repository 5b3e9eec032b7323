"""SciPy's Radau IIA solver pieces, copied verbatim (SciPy 1.17.1, BSD-3-Clause; see
the package docstring): the simplified Newton iteration of the collocation system
(complex arithmetic, a loop that stops on divergence or convergence) and the step-size
factor. Kept apart from scipy_integrate because both files define NEWTON_MAXITER.
"""
# ruff: noqa
import numpy as np

from .cases import Case

# Module-level constants the copied functions read, verbatim from
# scipy/integrate/_ivp/radau.py (SciPy 1.17.1).
S6 = 6 ** 0.5

# Butcher tableau. A is not used directly, see below.
C = np.array([(4 - S6) / 10, (4 + S6) / 10, 1])
E = np.array([-13 - 7 * S6, -13 + 7 * S6, -1]) / 3

# Eigendecomposition of A is done: A = T L T**-1. There is 1 real eigenvalue
# and a complex conjugate pair. They are written below.
MU_REAL = 3 + 3 ** (2 / 3) - 3 ** (1 / 3)
MU_COMPLEX = (3 + 0.5 * (3 ** (1 / 3) - 3 ** (2 / 3))
              - 0.5j * (3 ** (5 / 6) + 3 ** (7 / 6)))

# These are transformation matrices.
T = np.array([
    [0.09443876248897524, -0.14125529502095421, 0.03002919410514742],
    [0.25021312296533332, 0.20412935229379994, -0.38294211275726192],
    [1, 1, 0]])
TI = np.array([
    [4.17871859155190428, 0.32768282076106237, 0.52337644549944951],
    [-4.17871859155190428, -0.32768282076106237, 0.47662355450055044],
    [0.50287263494578682, -2.57192694985560522, 0.59603920482822492]])
# These linear combinations are used in the algorithm.
TI_REAL = TI[0]
TI_COMPLEX = TI[1] + 1j * TI[2]

# Interpolator coefficients.
P = np.array([
    [13/3 + 7*S6/3, -23/3 - 22*S6/3, 10/3 + 5 * S6],
    [13/3 - 7*S6/3, -23/3 + 22*S6/3, 10/3 - 5 * S6],
    [1/3, -8/3, 10/3]])


NEWTON_MAXITER = 6  # Maximum number of Newton iterations.
MIN_FACTOR = 0.2  # Minimum allowed decrease in a step size.
MAX_FACTOR = 10  # Maximum allowed increase in a step size.




# SciPy 1.17.1, scipy/integrate/_ivp/common.py, norm; edits: none
def norm(x):
    """Compute RMS norm."""
    return np.linalg.norm(x) / x.size ** 0.5


# SciPy 1.17.1, scipy/integrate/_ivp/radau.py, solve_collocation_system; edits: none
def solve_collocation_system(fun, t, y, h, Z0, scale, tol,
                             LU_real, LU_complex, solve_lu):
    """Solve the collocation system.

    Parameters
    ----------
    fun : callable
        Right-hand side of the system.
    t : float
        Current time.
    y : ndarray, shape (n,)
        Current state.
    h : float
        Step to try.
    Z0 : ndarray, shape (3, n)
        Initial guess for the solution. It determines new values of `y` at
        ``t + h * C`` as ``y + Z0``, where ``C`` is the Radau method constants.
    scale : ndarray, shape (n)
        Problem tolerance scale, i.e. ``rtol * abs(y) + atol``.
    tol : float
        Tolerance to which solve the system. This value is compared with
        the normalized by `scale` error.
    LU_real, LU_complex
        LU decompositions of the system Jacobians.
    solve_lu : callable
        Callable which solves a linear system given a LU decomposition. The
        signature is ``solve_lu(LU, b)``.

    Returns
    -------
    converged : bool
        Whether iterations converged.
    n_iter : int
        Number of completed iterations.
    Z : ndarray, shape (3, n)
        Found solution.
    rate : float
        The rate of convergence.
    """
    n = y.shape[0]
    M_real = MU_REAL / h
    M_complex = MU_COMPLEX / h

    W = TI.dot(Z0)
    Z = Z0

    F = np.empty((3, n))
    ch = h * C

    dW_norm_old = None
    dW = np.empty_like(W)
    converged = False
    rate = None
    for k in range(NEWTON_MAXITER):
        for i in range(3):
            F[i] = fun(t + ch[i], y + Z[i])

        if not np.all(np.isfinite(F)):
            break

        f_real = F.T.dot(TI_REAL) - M_real * W[0]
        f_complex = F.T.dot(TI_COMPLEX) - M_complex * (W[1] + 1j * W[2])

        dW_real = solve_lu(LU_real, f_real)
        dW_complex = solve_lu(LU_complex, f_complex)

        dW[0] = dW_real
        dW[1] = dW_complex.real
        dW[2] = dW_complex.imag

        dW_norm = norm(dW / scale)
        if dW_norm_old is not None:
            rate = dW_norm / dW_norm_old

        if (rate is not None and (rate >= 1 or
                rate ** (NEWTON_MAXITER - k) / (1 - rate) * dW_norm > tol)):
            break

        W += dW
        Z = T.dot(W)

        if (dW_norm == 0 or
                rate is not None and rate / (1 - rate) * dW_norm < tol):
            converged = True
            break

        dW_norm_old = dW_norm

    return converged, k + 1, Z, rate


# SciPy 1.17.1, scipy/integrate/_ivp/radau.py, predict_factor; edits: none
def predict_factor(h_abs, h_abs_old, error_norm, error_norm_old):
    """Predict by which factor to increase/decrease the step size.

    The algorithm is described in [1]_.

    Parameters
    ----------
    h_abs, h_abs_old : float
        Current and previous values of the step size, `h_abs_old` can be None
        (see Notes).
    error_norm, error_norm_old : float
        Current and previous values of the error norm, `error_norm_old` can
        be None (see Notes).

    Returns
    -------
    factor : float
        Predicted factor.

    Notes
    -----
    If `h_abs_old` and `error_norm_old` are both not None then a two-step
    algorithm is used, otherwise a one-step algorithm is used.

    References
    ----------
    .. [1] E. Hairer, S. P. Norsett G. Wanner, "Solving Ordinary Differential
           Equations II: Stiff and Differential-Algebraic Problems", Sec. IV.8.
    """
    if error_norm_old is None or h_abs_old is None or error_norm == 0:
        multiplier = 1
    else:
        multiplier = h_abs / h_abs_old * (error_norm_old / error_norm) ** 0.25

    with np.errstate(divide='ignore'):
        factor = min(1, multiplier) * error_norm ** -0.25

    return factor


# ---------------------------------------------------------------------------------
# Drivers: each calls a copied function as the Radau solver does, on arrays.

f64 = np.float64


def drive_collocation(y, h, xp):
    # The stiff system y' = J y + y**2 / 4, Newton matrices as Radau._step_impl makes them.
    J = xp.asarray([[-50.0, 1.0], [0.0, -1.0]])
    fun = lambda t, y: J @ y + y * y / 4
    I = xp.eye(2)
    LU_real = MU_REAL / h * I - J
    LU_complex = MU_COMPLEX / h * I - J
    solve_lu = lambda LU, b: xp.linalg.solve(LU, b)
    scale = 1e-6 + 1e-3 * xp.abs(y)
    Z0 = xp.zeros((3, 2))
    return solve_collocation_system(fun, 0.0, y, h, Z0, scale, 1e-3,
                                    LU_real, LU_complex, solve_lu)


def drive_predict_factor(h_abs, h_abs_old, error_norm, error_norm_old, xp):
    return predict_factor(h_abs, h_abs_old, error_norm, error_norm_old)


_SRC = "SciPy 1.17.1, scipy/integrate/_ivp/radau.py"

CASES = [
    Case("scipy.integrate.solve_collocation_system", _SRC, drive_collocation,
         tuple((np.array(y), f64(h)) for y, h in
               (([1.0, 0.5], 0.01), ([1.0, 0.5], 0.5), ([40.0, 30.0], 2.0)))),
    Case("scipy.integrate.predict_factor", _SRC, drive_predict_factor,
         tuple(tuple(f64(v) for v in row) for row in
               ((0.1, 0.2, 0.5, 0.8), (0.1, 0.2, 0.0, 0.8), (0.1, 0.05, 0.5, 0.8)))),
]
