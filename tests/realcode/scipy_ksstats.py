"""SciPy, copied verbatim from SciPy 1.17.1 (BSD-3-Clause; see the package docstring):
the sixth round, code the converter had never met. Kolmogorov-Smirnov distribution
pieces of ``scipy/stats/_ksstats.py`` (``_kolmogn_PelzGood``: a Horner loop over a range
whose bound ``int(np.ceil(16 * z / np.pi))`` comes from the value, then ``np.arange`` of
that bound; ``_kolmogn_DMTW``: a matrix whose size comes from the value, a
square-and-multiply ``while`` and rescaling under conditions on the values), the
two-sample KS path count ``_compute_prob_outside_square`` (``scipy/stats/_stats_py.py``: a
``while`` over an ``int(np.floor(n / h))`` counter around a ``for`` over ``range(h)``),
``_get_left_bracket`` (``scipy/stats/_continuous_distns.py``: ``lbrack or rbrack - 1``, a
closure, a ``while not`` that doubles a step and raises ``FitSolverError`` when it
overflows) and ``_boolrelextrema`` (``scipy/signal/_peak_finding.py``: in-place ``&=`` on a
boolean array and an early return on ``~results.any()``). Drivers at the end.
"""
# ruff: noqa
import numpy as np

from .cases import Case


# SciPy 1.17.1, scipy/stats/_ksstats.py: the module's constants and the functions below;
# edits: none
_E128 = 128
_EP128 = np.ldexp(np.longdouble(1), _E128)
_EM128 = np.ldexp(np.longdouble(1), -_E128)

_SQRT2PI = np.sqrt(2 * np.pi)
_LOG_2PI = np.log(2 * np.pi)
_MIN_LOG = -708
_SQRT3 = np.sqrt(3)
_PI_SQUARED = np.pi ** 2
_PI_FOUR = np.pi ** 4
_PI_SIX = np.pi ** 6


def _clip_prob(p):
    """clips a probability to range 0<=p<=1."""
    return np.clip(p, 0.0, 1.0)


def _select_and_clip_prob(cdfprob, sfprob, cdf=True):
    """Selects either the CDF or SF, and then clips to range 0<=p<=1."""
    p = np.where(cdf, cdfprob, sfprob)
    return _clip_prob(p)


def _kolmogn_DMTW(n, d, cdf=True):
    r"""Computes the Kolmogorov CDF:  Pr(D_n <= d) using the MTW approach to
    the Durbin matrix algorithm.

    Durbin (1968); Marsaglia, Tsang, Wang (2003). [1], [3].
    """
    # Write d = (k-h)/n, where k is positive integer and 0 <= h < 1
    # Generate initial matrix H of size m*m where m=(2k-1)
    # Compute k-th row of (n!/n^n) * H^n, scaling intermediate results.
    # Requires memory O(m^2) and computation O(m^2 log(n)).
    # Most suitable for small m.

    if d >= 1.0:
        return _select_and_clip_prob(1.0, 0.0, cdf)
    nd = n * d
    if nd <= 0.5:
        return _select_and_clip_prob(0.0, 1.0, cdf)
    k = int(np.ceil(nd))
    h = k - nd
    m = 2 * k - 1

    H = np.zeros([m, m])

    # Initialize: v is first column (and last row) of H
    #  v[j] = (1-h^(j+1)/(j+1)!  (except for v[-1])
    #  w[j] = 1/(j)!
    # q = k-th row of H (actually i!/n^i*H^i)
    intm = np.arange(1, m + 1)
    v = 1.0 - h ** intm
    w = np.empty(m)
    fac = 1.0
    for j in intm:
        w[j - 1] = fac
        fac /= j  # This might underflow.  Isn't a problem.
        v[j - 1] *= fac
    tt = max(2 * h - 1.0, 0)**m - 2*h**m
    v[-1] = (1.0 + tt) * fac

    for i in range(1, m):
        H[i - 1:, i] = w[:m - i + 1]
    H[:, 0] = v
    H[-1, :] = np.flip(v, axis=0)

    Hpwr = np.eye(np.shape(H)[0])  # Holds intermediate powers of H
    nn = n
    expnt = 0  # Scaling of Hpwr
    Hexpnt = 0  # Scaling of H
    while nn > 0:
        if nn % 2:
            Hpwr = np.matmul(Hpwr, H)
            expnt += Hexpnt
        H = np.matmul(H, H)
        Hexpnt *= 2
        # Scale as needed.
        if np.abs(H[k - 1, k - 1]) > _EP128:
            H /= _EP128
            Hexpnt += _E128
        nn = nn // 2

    p = Hpwr[k - 1, k - 1]

    # Multiply by n!/n^n
    for i in range(1, n + 1):
        p = i * p / n
        if np.abs(p) < _EM128:
            p *= _EP128
            expnt -= _E128

    # unscale
    if expnt != 0:
        p = np.ldexp(p, expnt)

    return _select_and_clip_prob(p, 1.0-p, cdf)


def _kolmogn_PelzGood(n, x, cdf=True):
    """Computes the Pelz-Good approximation to Prob(Dn <= x) with 0<=x<=1.

    Start with Li-Chien, Korolyuk approximation:
        Prob(Dn <= x) ~ K0(z) + K1(z)/sqrt(n) + K2(z)/n + K3(z)/n**1.5
    where z = x*sqrt(n).
    Transform each K_(z) using Jacobi theta functions into a form suitable
    for small z.
    Pelz-Good (1976). [6]
    """
    if x <= 0.0:
        return _select_and_clip_prob(0.0, 1.0, cdf=cdf)
    if x >= 1.0:
        return _select_and_clip_prob(1.0, 0.0, cdf=cdf)

    z = np.sqrt(n) * x
    zsquared, zthree, zfour, zsix = z**2, z**3, z**4, z**6

    qlog = -_PI_SQUARED / 8 / zsquared
    if qlog < _MIN_LOG:  # z ~ 0.041743441416853426
        return _select_and_clip_prob(0.0, 1.0, cdf=cdf)

    q = np.exp(qlog)

    # Coefficients of terms in the sums for K1, K2 and K3
    k1a = -zsquared
    k1b = _PI_SQUARED / 4

    k2a = 6 * zsix + 2 * zfour
    k2b = (2 * zfour - 5 * zsquared) * _PI_SQUARED / 4
    k2c = _PI_FOUR * (1 - 2 * zsquared) / 16

    k3d = _PI_SIX * (5 - 30 * zsquared) / 64
    k3c = _PI_FOUR * (-60 * zsquared + 212 * zfour) / 16
    k3b = _PI_SQUARED * (135 * zfour - 96 * zsix) / 4
    k3a = -30 * zsix - 90 * z**8

    K0to3 = np.zeros(4)
    # Use a Horner scheme to evaluate sum c_i q^(i^2)
    # Reduces to a sum over odd integers.
    maxk = int(np.ceil(16 * z / np.pi))
    for k in range(maxk, 0, -1):
        m = 2 * k - 1
        msquared, mfour, msix = m**2, m**4, m**6
        qpower = np.power(q, 8 * k)
        coeffs = np.array([1.0,
                           k1a + k1b*msquared,
                           k2a + k2b*msquared + k2c*mfour,
                           k3a + k3b*msquared + k3c*mfour + k3d*msix])
        K0to3 *= qpower
        K0to3 += coeffs
    K0to3 *= q
    K0to3 *= _SQRT2PI
    # z**10 > 0 as z > 0.04
    K0to3 /= np.array([z, 6 * zfour, 72 * z**7, 6480 * z**10])

    # Now do the other sum over the other terms, all integers k
    # K_2:  (pi^2 k^2) q^(k^2),
    # K_3:  (3pi^2 k^2 z^2 - pi^4 k^4)*q^(k^2)
    # Don't expect much subtractive cancellation so use direct calculation
    q = np.exp(-_PI_SQUARED / 2 / zsquared)
    ks = np.arange(maxk, 0, -1)
    ksquared = ks ** 2
    sqrt3z = _SQRT3 * z
    kspi = np.pi * ks
    qpwers = q ** ksquared
    k2extra = np.sum(ksquared * qpwers)
    k2extra *= _PI_SQUARED * _SQRT2PI/(-36 * zthree)
    K0to3[2] += k2extra
    k3extra = np.sum((sqrt3z + kspi) * (sqrt3z - kspi) * ksquared * qpwers)
    k3extra *= _PI_SQUARED * _SQRT2PI/(216 * zsix)
    K0to3[3] += k3extra
    powers_of_n = np.power(n * 1.0, np.arange(len(K0to3)) / 2.0)
    K0to3 /= powers_of_n

    if not cdf:
        K0to3 *= -1
        K0to3[0] += 1

    Ksum = sum(K0to3)
    return Ksum


# SciPy 1.17.1, scipy/stats/_stats_py.py, _compute_prob_outside_square; edits: none
def _compute_prob_outside_square(n, h):
    """
    Compute the proportion of paths that pass outside the two diagonal lines.

    Parameters
    ----------
    n : integer
        n > 0
    h : integer
        0 <= h <= n

    Returns
    -------
    p : float
        The proportion of paths that pass outside the lines x-y = +/-h.

    """
    # Compute Pr(D_{n,n} >= h/n)
    # Prob = 2 * ( binom(2n, n-h) - binom(2n, n-2a) + binom(2n, n-3a) - ... )
    # / binom(2n, n)
    # This formulation exhibits subtractive cancellation.
    # Instead divide each term by binom(2n, n), then factor common terms
    # and use a Horner-like algorithm
    # P = 2 * A0 * (1 - A1*(1 - A2*(1 - A3*(1 - A4*(...)))))

    P = 0.0
    k = int(np.floor(n / h))
    while k >= 0:
        p1 = 1.0
        # Each of the Ai terms has numerator and denominator with
        # h simple terms.
        for j in range(h):
            p1 = (n - k * h - j) * p1 / (n + k * h + j + 1)
        P = p1 * (1.0 - P)
        k -= 1
    return 2 * P


# SciPy 1.17.1, scipy/stats/_warnings_errors.py, FitError; edits: none
class FitError(RuntimeError):
    """Represents an error condition when fitting a distribution to data."""
    def __init__(self, msg=None):
        if msg is None:
            msg = ("An error occurred when fitting a distribution to data.")
        self.args = (msg,)


# SciPy 1.17.1, scipy/stats/_continuous_distns.py, FitSolverError and _get_left_bracket;
# edits: none
class FitSolverError(FitError):
    """
    Raised when a solver fails to converge while fitting a distribution.
    """
    # This exception is raised by, for example, beta_gen.fit when
    # optimize.fsolve returns with ier != 1.
    def __init__(self, mesg):
        emsg = "Solver for the MLE equations failed to converge: "
        emsg += mesg.replace('\n', '')
        self.args = (emsg,)


def _get_left_bracket(fun, rbrack, lbrack=None):
    # find left bracket for `root_scalar`. A guess for lbrack may be provided.
    lbrack = lbrack or rbrack - 1
    diff = rbrack - lbrack

    # if there is no sign change in `fun` between the brackets, expand
    # rbrack - lbrack until a sign change occurs
    def interval_contains_root(lbrack, rbrack):
        # return true if the signs disagree.
        return np.sign(fun(lbrack)) != np.sign(fun(rbrack))

    while not interval_contains_root(lbrack, rbrack):
        diff *= 2
        lbrack = rbrack - diff

        msg = ("The solver could not find a bracket containing a "
               "root to an MLE first order condition.")
        if np.isinf(lbrack):
            raise FitSolverError(msg)

    return lbrack


# SciPy 1.17.1, scipy/signal/_peak_finding.py, _boolrelextrema; edits: none
def _boolrelextrema(data, comparator, axis=0, order=1, mode='clip'):
    """
    Calculate the relative extrema of `data`.

    Relative extrema are calculated by finding locations where
    ``comparator(data[n], data[n+1:n+order+1])`` is True.

    Parameters
    ----------
    data : ndarray
        Array in which to find the relative extrema.
    comparator : callable
        Function to use to compare two data points.
        Should take two arrays as arguments.
    axis : int, optional
        Axis over which to select from `data`. Default is 0.
    order : int, optional
        How many points on each side to use for the comparison
        to consider ``comparator(n,n+x)`` to be True.
    mode : str, optional
        How the edges of the vector are treated. 'wrap' (wrap around) or
        'clip' (treat overflow as the same as the last (or first) element).
        Default 'clip'. See numpy.take.

    Returns
    -------
    extrema : ndarray
        Boolean array of the same shape as `data` that is True at an extrema,
        False otherwise.

    See also
    --------
    argrelmax, argrelmin

    Examples
    --------
    >>> import numpy as np
    >>> from scipy.signal._peak_finding import _boolrelextrema
    >>> testdata = np.array([1,2,3,2,1])
    >>> _boolrelextrema(testdata, np.greater, axis=0)
    array([False, False,  True, False, False], dtype=bool)

    """
    if (int(order) != order) or (order < 1):
        raise ValueError('Order must be an int >= 1')

    datalen = data.shape[axis]
    locs = np.arange(0, datalen)

    results = np.ones(data.shape, dtype=bool)
    main = data.take(locs, axis=axis, mode=mode)
    for shift in range(1, order + 1):
        plus = data.take(locs + shift, axis=axis, mode=mode)
        minus = data.take(locs - shift, axis=axis, mode=mode)
        results &= comparator(main, plus)
        results &= comparator(main, minus)
        if ~results.any():
            return results
    return results


# ---------------------------------------------------------------------------------
# Drivers: kstwo's CDF at n = 100 (Pelz-Good) and n = 20 (Durbin's matrix), ks_2samp's
# exact p-value for samples of n, rayleigh's fit bracketing its location equation, and
# argrelmax/argrelmin's mask.


def drive_pelz_good(x, xp):
    return _kolmogn_PelzGood(100, x), _kolmogn_PelzGood(100, x, cdf=False)


def drive_dmtw(x, xp):
    return _kolmogn_DMTW(20, x), _kolmogn_DMTW(20, x, cdf=False)


def drive_prob_outside_square(n, h, xp):
    return _compute_prob_outside_square(n, h)


def drive_left_bracket(data, shift, xp):
    # rayleigh_gen.fit's equation for the location when the scale is free (our words).
    def loc_mle(loc):
        xm = data - loc
        return xm.sum() - (xm**2).sum() / (2 * len(data)) * (1 / xm).sum()

    rbrack = np.nextafter(np.min(data), -np.inf)
    return (_get_left_bracket(loc_mle, rbrack),
            _get_left_bracket(lambda loc: loc - shift, 0.0))


def drive_relextrema(data, xp):
    return (_boolrelextrema(data, np.greater, order=3),
            _boolrelextrema(data, np.less, order=2, mode='wrap'))


_SRC = "SciPy 1.17.1, scipy/"
F = np.float64
I = np.int64
CASES = [
    Case("scipy.stats._kolmogn_PelzGood", _SRC + "stats/_ksstats.py", drive_pelz_good,
         tuple((F(x),) for x in (0.3, 0.05, -0.1, 1.5, 0.0001, 0.12))),
    Case("scipy.stats._kolmogn_DMTW", _SRC + "stats/_ksstats.py", drive_dmtw,
         tuple((F(x),) for x in (0.1, 0.22, 0.01, 1.2)),
         jax="it writes into an array made from its argument (v[j - 1] *= fac, v = 1.0 - "
             "h ** intm): a JAX array, immutable even eagerly"),
    Case("scipy.stats._compute_prob_outside_square", _SRC + "stats/_stats_py.py",
         drive_prob_outside_square,
         tuple((I(n), I(h)) for n, h in ((10, 3), (20, 7), (5, 5), (8, 1)))),
    Case("scipy.stats._get_left_bracket", _SRC + "stats/_continuous_distns.py",
         drive_left_bracket,
         ((np.array([3.0, 4.5, 3.2, 7.0, 5.1, 3.9]), F(-5.0)),
          (np.array([0.1, 0.2, 0.15, 9.0, 0.3, 0.12]), F(-1e300)),
          (np.array([1.0, 2.0, 3.0, 4.0, 5.0, 6.0]), F(-np.inf)))),
    Case("scipy.signal._boolrelextrema", _SRC + "signal/_peak_finding.py", drive_relextrema,
         ((np.array([1.0, 3.0, 2.0, 5.0, 4.0, 4.5, 1.0, 0.0, 2.0, 1.0]),),
          (np.arange(10.0),),
          (np.array([2.0, 1.0, 9.0, 1.0, 2.0, 3.0, 2.0, 1.0, 0.0, 8.0]),))),
]
