"""CPython's standard library, fourth round, copied verbatim (CPython 3.11.7, PSF License
Version 2; see the package docstring): statistics' ``NormalDist``, a class constructed in
the staged function (``__slots__``, ``float()`` of the arguments and a raise on sigma in
``__init__``), its methods (raises on their parameters, the inverse CDF through
``_normal_dist_inv_cdf``), properties, a lexicographic tuple comparison that swaps two
objects in ``overlap``, and operators that make new instances. Pure Python on floats and
the math module. Drivers at the end.
"""
# ruff: noqa
from math import erf, exp, fabs, hypot, log, sqrt, tau

import numpy as np

from .cases import Case
from .python_stdlib3 import _normal_dist_inv_cdf

# CPython 3.11.7, Lib/statistics.py, the module constant _SQRT2 and StatisticsError.
_SQRT2 = sqrt(2.0)


class StatisticsError(ValueError):
    pass


# CPython 3.11.7, Lib/statistics.py, NormalDist; edits: from_samples, samples, quantiles,
# __hash__, __repr__, __getstate__ and __setstate__ left out (random numbers, lists,
# hashing and printing: no numbers to compare); the rest verbatim.
class NormalDist:
    "Normal distribution of a random variable"
    # https://en.wikipedia.org/wiki/Normal_distribution
    # https://en.wikipedia.org/wiki/Variance#Properties

    __slots__ = {
        '_mu': 'Arithmetic mean of a normal distribution',
        '_sigma': 'Standard deviation of a normal distribution',
    }

    def __init__(self, mu=0.0, sigma=1.0):
        "NormalDist where mu is the mean and sigma is the standard deviation."
        if sigma < 0.0:
            raise StatisticsError('sigma must be non-negative')
        self._mu = float(mu)
        self._sigma = float(sigma)


    def pdf(self, x):
        "Probability density function.  P(x <= X < x+dx) / dx"
        variance = self._sigma * self._sigma
        if not variance:
            raise StatisticsError('pdf() not defined when sigma is zero')
        diff = x - self._mu
        return exp(diff * diff / (-2.0 * variance)) / sqrt(tau * variance)

    def cdf(self, x):
        "Cumulative distribution function.  P(X <= x)"
        if not self._sigma:
            raise StatisticsError('cdf() not defined when sigma is zero')
        return 0.5 * (1.0 + erf((x - self._mu) / (self._sigma * _SQRT2)))

    def inv_cdf(self, p):
        """Inverse cumulative distribution function.  x : P(X <= x) = p

        Finds the value of the random variable such that the probability of
        the variable being less than or equal to that value equals the given
        probability.

        This function is also called the percent point function or quantile
        function.
        """
        if p <= 0.0 or p >= 1.0:
            raise StatisticsError('p must be in the range 0.0 < p < 1.0')
        if self._sigma <= 0.0:
            raise StatisticsError('cdf() not defined when sigma at or below zero')
        return _normal_dist_inv_cdf(p, self._mu, self._sigma)


    def overlap(self, other):
        """Compute the overlapping coefficient (OVL) between two normal distributions.

        Measures the agreement between two normal probability distributions.
        Returns a value between 0.0 and 1.0 giving the overlapping area in
        the two underlying probability density functions.

            >>> N1 = NormalDist(2.4, 1.6)
            >>> N2 = NormalDist(3.2, 2.0)
            >>> N1.overlap(N2)
            0.8035050657330205
        """
        # See: "The overlapping coefficient as a measure of agreement between
        # probability distributions and point estimation of the overlap of two
        # normal densities" -- Henry F. Inman and Edwin L. Bradley Jr
        # http://dx.doi.org/10.1080/03610928908830127
        if not isinstance(other, NormalDist):
            raise TypeError('Expected another NormalDist instance')
        X, Y = self, other
        if (Y._sigma, Y._mu) < (X._sigma, X._mu):  # sort to assure commutativity
            X, Y = Y, X
        X_var, Y_var = X.variance, Y.variance
        if not X_var or not Y_var:
            raise StatisticsError('overlap() not defined when sigma is zero')
        dv = Y_var - X_var
        dm = fabs(Y._mu - X._mu)
        if not dv:
            return 1.0 - erf(dm / (2.0 * X._sigma * _SQRT2))
        a = X._mu * Y_var - Y._mu * X_var
        b = X._sigma * Y._sigma * sqrt(dm * dm + dv * log(Y_var / X_var))
        x1 = (a + b) / dv
        x2 = (a - b) / dv
        return 1.0 - (fabs(Y.cdf(x1) - X.cdf(x1)) + fabs(Y.cdf(x2) - X.cdf(x2)))

    def zscore(self, x):
        """Compute the Standard Score.  (x - mean) / stdev

        Describes *x* in terms of the number of standard deviations
        above or below the mean of the normal distribution.
        """
        # https://www.statisticshowto.com/probability-and-statistics/z-score/
        if not self._sigma:
            raise StatisticsError('zscore() not defined when sigma is zero')
        return (x - self._mu) / self._sigma

    @property
    def mean(self):
        "Arithmetic mean of the normal distribution."
        return self._mu

    @property
    def median(self):
        "Return the median of the normal distribution"
        return self._mu

    @property
    def mode(self):
        """Return the mode of the normal distribution

        The mode is the value x where which the probability density
        function (pdf) takes its maximum value.
        """
        return self._mu

    @property
    def stdev(self):
        "Standard deviation of the normal distribution."
        return self._sigma

    @property
    def variance(self):
        "Square of the standard deviation."
        return self._sigma * self._sigma

    def __add__(x1, x2):
        """Add a constant or another NormalDist instance.

        If *other* is a constant, translate mu by the constant,
        leaving sigma unchanged.

        If *other* is a NormalDist, add both the means and the variances.
        Mathematically, this works only if the two distributions are
        independent or if they are jointly normally distributed.
        """
        if isinstance(x2, NormalDist):
            return NormalDist(x1._mu + x2._mu, hypot(x1._sigma, x2._sigma))
        return NormalDist(x1._mu + x2, x1._sigma)

    def __sub__(x1, x2):
        """Subtract a constant or another NormalDist instance.

        If *other* is a constant, translate by the constant mu,
        leaving sigma unchanged.

        If *other* is a NormalDist, subtract the means and add the variances.
        Mathematically, this works only if the two distributions are
        independent or if they are jointly normally distributed.
        """
        if isinstance(x2, NormalDist):
            return NormalDist(x1._mu - x2._mu, hypot(x1._sigma, x2._sigma))
        return NormalDist(x1._mu - x2, x1._sigma)

    def __mul__(x1, x2):
        """Multiply both mu and sigma by a constant.

        Used for rescaling, perhaps to change measurement units.
        Sigma is scaled with the absolute value of the constant.
        """
        return NormalDist(x1._mu * x2, x1._sigma * fabs(x2))

    def __truediv__(x1, x2):
        """Divide both mu and sigma by a constant.

        Used for rescaling, perhaps to change measurement units.
        Sigma is scaled with the absolute value of the constant.
        """
        return NormalDist(x1._mu / x2, x1._sigma / fabs(x2))

    def __pos__(x1):
        "Return a copy of the instance."
        return NormalDist(x1._mu, x1._sigma)

    def __neg__(x1):
        "Negates mu while keeping sigma the same."
        return NormalDist(-x1._mu, x1._sigma)

    __radd__ = __add__

    def __rsub__(x1, x2):
        "Subtract a NormalDist from a constant or another NormalDist."
        return -(x1 - x2)

    __rmul__ = __mul__

    def __eq__(x1, x2):
        "Two NormalDist objects are equal if their mu and sigma are both equal."
        if not isinstance(x2, NormalDist):
            return NotImplemented
        return x1._mu == x2._mu and x1._sigma == x2._sigma


# ---------------------------------------------------------------------------------
# Drivers: distribution parameters as 0-d float64 arrays; NormalDist as statistics'
# users build it, ask it and combine it.

f64 = np.float64


def drive_methods(mu, sigma, x, p, xp):
    d = NormalDist(mu, sigma)
    return (d.mean, d.median, d.mode, d.stdev, d.variance, d.zscore(x), d.pdf(x), d.cdf(x),
            d.inv_cdf(p))


def drive_overlap(mu1, sigma1, mu2, sigma2, xp):
    return NormalDist(mu1, sigma1).overlap(NormalDist(mu2, sigma2))


def drive_normal_ops(mu1, sigma1, mu2, sigma2, x, xp):
    a, b = NormalDist(mu1, sigma1), NormalDist(mu2, sigma2)
    d = a + b
    e = (-(d - 1.5) * 2.0) / 4.0
    return (d.mean, d.stdev, d.variance, e.median, e.mode, e.stdev, d.zscore(x), d.pdf(x),
            e.cdf(x), d.inv_cdf(x), a == b, (3.0 - a).mean)


CASES = [
    Case("statistics.NormalDist (methods)", "CPython 3.11.7, Lib/statistics.py", drive_methods,
         tuple(tuple(f64(v) for v in p) for p in
               ((2.4, 1.6, 0.3, 0.2), (-1.0, 0.5, 1.5, 0.975), (0.0, -1.0, 0.3, 0.5),
                (1.0, 2.0, 0.0, 1.0), (1.0, 0.0, 0.5, 0.5)))),
    Case("statistics.NormalDist.overlap", "CPython 3.11.7, Lib/statistics.py", drive_overlap,
         tuple(tuple(f64(v) for v in p) for p in
               ((2.4, 1.6, 3.2, 2.0), (3.2, 2.0, 2.4, 1.6), (1.0, 1.5, 2.0, 1.5),
                (2.0, 1.5, 1.0, 1.5), (0.0, 0.0, 1.0, 1.0), (0.0, -1.0, 1.0, 1.0)))),
    Case("statistics.NormalDist (operators)", "CPython 3.11.7, Lib/statistics.py",
         drive_normal_ops,
         tuple(tuple(f64(v) for v in p) for p in
               ((2.4, 1.6, 3.2, 2.0, 0.3), (1.0, 0.5, 1.0, 0.5, 0.9), (1.0, 0.5, 1.0, 0.5, 1.5),
                (0.0, -1.0, 1.0, 1.0, 0.5), (-3.0, 0.0, 0.0, 0.0, 0.2)))),
]
