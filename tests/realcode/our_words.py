"""Numerical routines of real libraries, written in our own words (not copied): each
follows the control flow of the routine its case names (the loops, the early exits,
the raises and warnings, the attributes set on one call and read on the next), so the
corpus meets code the converter was not written against. Drivers at the end call them
the way their libraries do, on inputs of one shape and dtype that take different paths.
"""
# ruff: noqa
import math
import warnings

import numpy as np

from .cases import Case


# After SciPy 1.17.1, scipy/optimize/_optimize.py, _minimize_scalar_bounded (fminbound):
# Brent's bounded minimiser, golden-section steps where a parabola is not trusted.
def bounded_brent(func, lo, hi, xatol=1e-5, maxiter=500):
    if lo > hi:
        raise ValueError("The lower bound exceeds the upper bound.")
    sqrt_eps = np.sqrt(2.2e-16)
    golden = 0.5 * (3.0 - np.sqrt(5.0))
    a, b = lo, hi
    v = w = x = a + golden * (b - a)
    step = prev = 0.0
    fx = func(x)
    fv = fw = fx
    calls, flag = 1, 0
    mid = 0.5 * (a + b)
    tol1 = sqrt_eps * np.abs(x) + xatol / 3.0
    tol2 = 2.0 * tol1
    while np.abs(x - mid) > tol2 - 0.5 * (b - a):
        use_golden = True
        if np.abs(prev) > tol1:
            use_golden = False
            r = (x - w) * (fx - fv)
            q = (x - v) * (fx - fw)
            p = (x - v) * q - (x - w) * r
            q = 2.0 * (q - r)
            if q > 0.0:
                p = -p
            q = np.abs(q)
            r, prev = prev, step
            if np.abs(p) < np.abs(0.5 * q * r) and p > q * (a - x) and p < q * (b - x):
                step = p / q
                u = x + step
                if (u - a) < tol2 or (b - u) < tol2:
                    step = tol1 * np.sign(mid - x) + (tol1 * (mid - x == 0))
            else:
                use_golden = True
        if use_golden:
            prev = (a - x) if x >= mid else (b - x)
            step = golden * prev
        u = x + np.sign(step) * np.maximum(np.abs(step), tol1)
        fu = func(u)
        calls += 1
        if fu <= fx:
            if u >= x:
                a = x
            else:
                b = x
            v, fv = w, fw
            w, fw = x, fx
            x, fx = u, fu
        else:
            if u < x:
                a = u
            else:
                b = u
            if fu <= fw or w == x:
                v, fv = w, fw
                w, fw = u, fu
            elif fu <= fv or v == x or v == w:
                v, fv = u, fu
        mid = 0.5 * (a + b)
        tol1 = sqrt_eps * np.abs(x) + xatol / 3.0
        tol2 = 2.0 * tol1
        if calls >= maxiter:
            flag = 1
            break
    return x, fx, flag, calls


# After SciPy 1.17.1, scipy/optimize/_optimize.py, _minimize_scalar_golden (golden):
# golden-section search on a bracket, counting iterations.
def golden_section(func, a, c, tol=1e-8, maxiter=200):
    ratio_small = 0.3819660
    ratio_big = 1 - ratio_small
    b = a + ratio_small * (c - a)
    x0, x3 = a, c
    if np.abs(c - b) > np.abs(b - a):
        x1, x2 = b, b + ratio_small * (c - b)
    else:
        x2, x1 = b, b - ratio_small * (b - a)
    f1, f2 = func(x1), func(x2)
    nit = 0
    for i in range(maxiter):
        if np.abs(x3 - x0) <= tol * (np.abs(x1) + np.abs(x2)):
            break
        if f2 < f1:
            x0, x1, x2 = x1, x2, ratio_big * x2 + ratio_small * x3
            f1, f2 = f2, func(x2)
        else:
            x3, x2, x1 = x2, x1, ratio_big * x1 + ratio_small * x0
            f2, f1 = f1, func(x1)
        nit += 1
    if f1 < f2:
        return x1, f1, nit
    return x2, f2, nit


# After numpy-financial 1.0.0, numpy_financial/_financial.py, rate: Newton's method on
# the annuity equation; NaN where it does not converge within maxiter.
def annuity_rate(nper, pmt, pv, fv, guess=0.1, tol=1e-6, maxiter=100):
    rn = guess
    count = 0
    close = False
    while count < maxiter and not np.all(close):
        t1 = (rn + 1) ** nper
        t2 = (rn + 1) ** (nper - 1)
        g = fv + t1 * pv + pmt * (t1 - 1) / rn
        gp = nper * t2 * pv - pmt * (t1 - 1) / rn ** 2 + nper * pmt * t2 / rn
        nxt = rn - g / gp
        close = np.abs(nxt - rn) < tol
        count += 1
        rn = nxt
    if not np.all(close):
        return np.nan
    return rn


# After statsmodels 0.15.0, statsmodels/tsa/stattools.py, levinson_durbin (autocovariances
# given): the recursion for AR coefficients, written into arrays column by column.
def levinson_durbin(acov, nlags):
    order = nlags
    phi = np.zeros((order + 1, order + 1), "d")
    sig = np.zeros(order + 1)
    phi[1, 1] = acov[1] / acov[0]
    sig[1] = acov[0] - phi[1, 1] * acov[1]
    for k in range(2, order + 1):
        phi[k, k] = (acov[k] - np.dot(phi[1:k, k - 1], acov[1:k][::-1])) / sig[k - 1]
        for j in range(1, k):
            phi[j, k] = phi[j, k - 1] - phi[k, k] * phi[k - j, k - 1]
        sig[k] = sig[k - 1] * (1 - phi[k, k] ** 2)
    sigma_v = sig[-1]
    arcoefs = phi[1:, -1]
    pacf = np.diag(phi).copy()
    pacf[0] = 1.0
    return sigma_v, arcoefs, pacf


# After FilterPy 1.4.5, filterpy/kalman/kalman_filter.py, KalmanFilter.predict/update:
# a filter object whose state the calls update; an update with no measurement keeps
# the prediction, and (as trackers gate it) one too far from it is skipped.
class KalmanFilter:
    def __init__(self, x, P, F, H, Q, R, gate):
        self.x, self.P, self.F, self.H, self.Q, self.R = x, P, F, H, Q, R
        self.gate = gate
        self.skipped = 0

    def predict(self):
        self.x = self.F @ self.x
        self.P = self.F @ self.P @ self.F.T + self.Q

    def update(self, z):
        if z is None:
            return
        y = z - self.H @ self.x
        S = self.H @ self.P @ self.H.T + self.R
        Si = np.linalg.inv(S)
        if y @ Si @ y > self.gate:
            self.skipped += 1
            return
        K = self.P @ self.H.T @ Si
        self.x = self.x + K @ y
        I_KH = np.eye(len(self.x)) - K @ self.H
        self.P = I_KH @ self.P @ I_KH.T + K @ self.R @ K.T


# After Numerical Recipes' and Boost's Ridders method (our words): a bracketed root.
def ridders(f, a, b, xtol=1e-12, maxiter=60):
    fa, fb = f(a), f(b)
    if fa * fb > 0:
        raise ValueError("f(a) and f(b) must have different signs")
    if fa == 0:
        return a, 0
    if fb == 0:
        return b, 0
    x = a
    for it in range(maxiter):
        m = 0.5 * (a + b)
        fm = f(m)
        s = math.sqrt(fm * fm - fa * fb)
        if s == 0:
            return m, it
        x_new = m + (m - a) * (1.0 if fa > fb else -1.0) * fm / s
        if abs(x_new - x) < xtol:
            return x_new, it
        x = x_new
        fx = f(x)
        if fx == 0:
            return x, it
        if math.copysign(fm, fx) != fm:
            a, fa, b, fb = m, fm, x, fx
        elif math.copysign(fa, fx) != fa:
            b, fb = x, fx
        else:
            a, fa = x, fx
        if abs(b - a) < xtol:
            return x, it
    raise RuntimeError(f"Ridders' method did not converge in {maxiter} iterations")


# The Illinois variant of regula falsi (our words, after the textbook algorithm): the
# end that stays put twice has its function value halved.
def illinois(f, a, b, tol=1e-10, maxiter=100):
    fa, fb = f(a), f(b)
    side = 0
    c = a
    for n in range(maxiter):
        c = (fa * b - fb * a) / (fa - fb)
        if abs(b - a) < tol * abs(b + a):
            break
        fc = f(c)
        if fc * fb > 0:
            b, fb = c, fc
            if side == -1:
                fa /= 2
            side = -1
        elif fa * fc > 0:
            a, fa = c, fc
            if side == 1:
                fb /= 2
            side = 1
        else:
            break
    return c


# Romberg integration (after SciPy's removed scipy.integrate.romberg, our words): a
# table of trapezoid refinements extrapolated row by row, stopping when two agree.
def romberg(f, a, b, tol=1e-10, max_rows=12):
    R = np.zeros((max_rows, max_rows))
    h = b - a
    R[0, 0] = 0.5 * h * (f(a) + f(b))
    rows = 1
    for i in range(1, max_rows):
        h = h / 2
        n = 2 ** (i - 1)
        total = 0.0
        for k in range(1, n + 1):
            total = total + f(a + (2 * k - 1) * h)
        R[i, 0] = 0.5 * R[i - 1, 0] + h * total
        for j in range(1, i + 1):
            R[i, j] = R[i, j - 1] + (R[i, j - 1] - R[i - 1, j - 1]) / (4 ** j - 1)
        rows = i + 1
        if abs(R[i, i] - R[i - 1, i - 1]) < tol:
            break
    return R[rows - 1, rows - 1], rows


# Welford's online mean and variance (after the algorithm in statsmodels' and pandas'
# rolling moments), skipping NaNs as nan-aware reductions do.
def welford(xs):
    n = 0
    mean = 0.0
    m2 = 0.0
    for x in xs:
        if np.isnan(x):
            continue
        n += 1
        delta = x - mean
        mean += delta / n
        m2 += delta * (x - mean)
    if n < 2:
        return mean, np.nan
    return mean, m2 / (n - 1)


# Power iteration for the dominant eigenpair (after scikit-learn's and SciPy's power
# method helpers, our words): normalise, stop when the Rayleigh quotient settles.
def power_iteration(A, v, tol=1e-10, maxiter=500):
    v = v / np.linalg.norm(v)
    lam = 0.0
    converged = False
    for i in range(maxiter):
        w = A @ v
        lam_new = v @ w
        v = w / np.linalg.norm(w)
        if abs(lam_new - lam) < tol * abs(lam_new):
            converged = True
            lam = lam_new
            break
        lam = lam_new
    if v[np.argmax(np.abs(v))] < 0:
        v = -v
    return lam, v, converged


# After scikit-learn 1.9.1, sklearn/utils/extmath.py, stable_cumsum: a cumulative sum
# checked against the plain sum, with a warning where they disagree.
def stable_cumsum(arr, rtol=1e-05, atol=1e-08):
    out = np.cumsum(arr, dtype=np.float64)
    expected = np.sum(arr, dtype=np.float64)
    if not np.allclose(out[-1], expected, rtol=rtol, atol=atol):
        warnings.warn("cumsum was found to be unstable: its last element does not "
                      "correspond to sum", RuntimeWarning)
    return out


# After scikit-learn 1.9.1, sklearn/linear_model/_sag.py, get_auto_step_size: the step
# size from the data's largest squared row norm, by loss; an unknown loss is an error.
def auto_step_size(max_squared_sum, alpha_scaled, loss, fit_intercept, n_samples, is_saga):
    if loss in ("log", "multinomial"):
        L = 0.25 * (max_squared_sum + int(fit_intercept)) + alpha_scaled
    elif loss == "squared":
        L = max_squared_sum + int(fit_intercept) + alpha_scaled
    else:
        raise ValueError(f"Unknown loss function for SAG solver, got {loss} instead of "
                         f"'log' or 'squared'")
    if is_saga:
        mun = min(2 * n_samples * alpha_scaled, L)
        step = 1.0 / (2 * L + mun)
    else:
        step = 1.0 / L
    return step


# Gauss-Seidel iteration (textbook, our words): sweeps that write each unknown in
# place, until the update is small or the sweeps run out; a zero pivot is an error.
def gauss_seidel(A, b, x, tol=1e-10, max_sweeps=200):
    n = len(b)
    for sweep in range(max_sweeps):
        change = 0.0
        for i in range(n):
            if A[i, i] == 0:
                raise ZeroDivisionError(f"zero pivot in row {i}")
            s = b[i] - A[i, :] @ x + A[i, i] * x[i]
            new = s / A[i, i]
            change = max(change, abs(new - x[i]))
            x[i] = new
        if change < tol:
            return x, sweep + 1
    return x, max_sweeps


# A Hampel filter (after the outlier filters of signal-processing toolkits, our words):
# a point further than k scaled MADs from its window's median is replaced by the median.
def hampel(x, half_window, k=3.0):
    y = x.copy()
    n = len(x)
    replaced = 0
    for i in range(half_window, n - half_window):
        window = x[i - half_window:i + half_window + 1]
        med = np.median(window)
        mad = 1.4826 * np.median(np.abs(window - med))
        if np.abs(x[i] - med) > k * mad:
            y[i] = med
            replaced += 1
    return y, replaced


# After NumPy's np.interp for one point (our words): binary search in the knots, the end
# values (or the given left/right) outside them.
def interp_point(x, xp, fp, left=None, right=None):
    if x < xp[0]:
        return fp[0] if left is None else left
    if x > xp[-1]:
        return fp[-1] if right is None else right
    lo, hi = 0, len(xp) - 1
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if xp[mid] <= x:
            lo = mid
        else:
            hi = mid
    slope = (fp[hi] - fp[lo]) / (xp[hi] - xp[lo])
    return fp[lo] + slope * (x - xp[lo])


# ---------------------------------------------------------------------------------
# Drivers.

f64 = np.float64


def drive_bounded_brent(lo, hi, c, xp):
    return bounded_brent(lambda x: (x - c) ** 2 + 0.1 * np.sin(5 * x), lo, hi, maxiter=30)


def drive_golden(a, c, shift, xp):
    return golden_section(lambda x: (x - shift) ** 2 * (1 + 0.1 * x * x), a, c)


def drive_rate(nper, pmt, pv, fv, xp):
    return annuity_rate(nper, pmt, pv, fv, maxiter=20)


def drive_levinson(acov, xp):
    return levinson_durbin(acov, 4)


def drive_kalman(zs, gate, xp):
    dt = 1.0
    kf = KalmanFilter(np.array([0.0, 1.0]), np.eye(2) * 10.0,
                      np.array([[1.0, dt], [0.0, 1.0]]), np.array([[1.0, 0.0]]),
                      np.eye(2) * 0.01, np.array([[0.5]]), gate)
    for z in zs:
        kf.predict()
        kf.update(z)
    return kf.x, kf.P, kf.skipped


def drive_ridders(a, b, c, xp):
    return ridders(lambda x: x ** 3 - c, a, b)


def drive_illinois(a, b, c, xp):
    return illinois(lambda x: np.cos(x) - c * x, a, b)


def drive_romberg(a, b, w, xp):
    return romberg(lambda x: np.exp(-w * x * x), a, b, max_rows=6)


def drive_welford(xs, xp):
    return welford(xs)


def drive_power(A, v, xp):
    return power_iteration(A, v, maxiter=60)


def drive_stable_cumsum(arr, xp):
    return stable_cumsum(arr, rtol=1e-12, atol=1e-12)


def drive_auto_step(max_squared_sum, alpha, n, xp):
    return (auto_step_size(max_squared_sum, alpha, "log", True, n, False),
            auto_step_size(max_squared_sum, alpha, "squared", False, n, True))


def drive_gauss_seidel(A, b, x, xp):
    return gauss_seidel(A, b, x)


def drive_hampel(x, xp):
    return hampel(x, 2)


def drive_interp(x, xp):
    knots = np.array([0.0, 1.0, 2.5, 4.0, 6.0])
    values = np.array([1.0, 3.0, 2.0, 5.0, 4.0])
    return interp_point(x, knots, values), interp_point(x, knots, values, left=-1.0, right=-2.0)


def _scalars(*rows):
    return tuple(tuple(f64(v) for v in row) for row in rows)


_SPD = np.array([[4.0, 1.0, 0.5], [1.0, 3.0, 0.2], [0.5, 0.2, 2.0]])
_ZERO_PIVOT = np.array([[4.0, 1.0, 0.5], [1.0, 0.0, 0.2], [0.5, 0.2, 2.0]])
_OURS = "our words, after "
# NumPy's pairwise sum keeps the ones that a running sum loses next to 1e16.
_CANCELS = np.array([1e16] + [1.0] * 7 + [-1e16] + [0.0] * 7)

CASES = [
    Case("after scipy.optimize._minimize_scalar_bounded", _OURS + "SciPy 1.17.1, "
         "scipy/optimize/_optimize.py", drive_bounded_brent,
         _scalars((0.0, 3.0, 1.2), (-2.0, 2.0, -1.7), (0.0, 1.0, 5.0), (3.0, 1.0, 0.0))),
    Case("after scipy.optimize._minimize_scalar_golden", _OURS + "SciPy 1.17.1, "
         "scipy/optimize/_optimize.py", drive_golden,
         _scalars((0.0, 4.0, 1.3), (-3.0, 1.0, -2.5), (0.0, 2.0, 0.2))),
    Case("after numpy_financial.rate", _OURS + "numpy-financial 1.0.0, "
         "numpy_financial/_financial.py", drive_rate,
         _scalars((10, -100, 800, 0), (360, -1500, 250000, 0), (10, 100, 800, 0))),
    Case("after statsmodels.levinson_durbin", _OURS + "statsmodels 0.15.0, "
         "statsmodels/tsa/stattools.py", drive_levinson,
         ((np.array([2.0, 1.2, 0.6, 0.3, 0.1]),), (np.array([1.0, -0.5, 0.25, -0.125, 0.0625]),))),
    Case("after filterpy.KalmanFilter", _OURS + "FilterPy 1.4.5, filterpy/kalman/kalman_filter.py",
         drive_kalman,
         ((np.array([[1.1], [2.0], [2.9], [40.0], [5.1]]), f64(9.0)),
          (np.array([[1.1], [2.0], [2.9], [4.2], [5.1]]), f64(9.0)))),
    Case("ridders", _OURS + "Ridders' method (Numerical Recipes, Boost.Math)", drive_ridders,
         _scalars((0.0, 3.0, 2.0), (1.0, 2.0, 8.0), (3.0, 4.0, 2.0), (0.0, 2.0, 1.0))),
    Case("illinois", _OURS + "regula falsi, Illinois variant", drive_illinois,
         _scalars((0.0, 1.0, 1.0), (0.0, 2.0, 0.2), (0.0, 1.0, 0.5))),
    Case("romberg", _OURS + "SciPy's scipy.integrate.romberg (removed in 1.15)", drive_romberg,
         _scalars((0.0, 1.0, 1.0), (0.0, 3.0, 4.0), (-1.0, 1.0, 0.0))),
    Case("welford", _OURS + "Welford's online variance", drive_welford,
         ((np.array([1.0, 2.0, np.nan, 4.0, 7.0]),), (np.array([np.nan, 3.0, np.nan, np.nan, np.nan]),))),
    Case("power_iteration", _OURS + "power method helpers (scikit-learn, SciPy)", drive_power,
         ((_SPD, np.array([1.0, 0.0, 0.0])), (np.diag([1.0, 1.0, 1.0]), np.array([-1.0, 0.5, 0.2])),
          (np.diag([1.0, 0.999, 0.5]), np.array([1.0, 1.0, 1.0])))),
    Case("after sklearn.stable_cumsum", _OURS + "scikit-learn 1.9.1, sklearn/utils/extmath.py",
         drive_stable_cumsum,
         ((np.arange(16.0),), (_CANCELS,))),
    Case("after sklearn.get_auto_step_size", _OURS + "scikit-learn 1.9.1, "
         "sklearn/linear_model/_sag.py", drive_auto_step,
         _scalars((4.0, 0.01, 100), (0.5, 2.0, 10))),
    Case("gauss_seidel", _OURS + "Gauss-Seidel iteration (textbook)", drive_gauss_seidel,
         ((_SPD, np.array([1.0, 2.0, 3.0]), np.zeros(3)),
          (_ZERO_PIVOT, np.array([1.0, 2.0, 3.0]), np.zeros(3))),
         jax="writes into its argument x: JAX arrays are immutable (eagerly too)"),
    Case("hampel", _OURS + "a Hampel outlier filter", drive_hampel,
         ((np.array([1.0, 1.1, 0.9, 8.0, 1.0, 1.2, 0.8, 1.0]),),
          (np.array([1.0, 1.1, 0.9, 1.05, 1.0, 1.2, 0.8, 1.0]),)),
         jax="writes into a copy, y[i] = med: JAX arrays are immutable (eagerly too)"),
    Case("after numpy.interp", _OURS + "NumPy 2.4.6, np.interp for one point", drive_interp,
         _scalars((-1.0,), (0.5,), (3.0,), (6.0,), (7.5,))),
]
