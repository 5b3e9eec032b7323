"""SciPy stats, copied verbatim (SciPy 1.17.1, BSD-3-Clause; see the package
docstring): the binary search binomtest uses to find the other tail of a two-sided
test. Pure Python on its arguments, so it runs on JAX arrays as well. Drivers at the end.
"""
# ruff: noqa
import numpy as np

from .cases import Case


# SciPy 1.17.1, scipy/stats/_binomtest.py, _binary_search_for_binom_tst; edits: none
def _binary_search_for_binom_tst(a, d, lo, hi):
    """
    Conducts an implicit binary search on a function specified by `a`.

    Meant to be used on the binomial PMF for the case of two-sided tests
    to obtain the value on the other side of the mode where the tail
    probability should be computed. The values on either side of
    the mode are always in order, meaning binary search is applicable.

    Parameters
    ----------
    a : callable
      The function over which to perform binary search. Its values
      for inputs lo and hi should be in ascending order.
    d : float
      The value to search.
    lo : int
      The lower end of range to search.
    hi : int
      The higher end of the range to search.

    Returns
    -------
    int
      The index, i between lo and hi
      such that a(i)<=d<a(i+1)
    """
    while lo < hi:
        mid = lo + (hi-lo)//2
        midval = a(mid)
        if midval < d:
            lo = mid+1
        elif midval > d:
            hi = mid-1
        else:
            return mid
    if a(lo) <= d:
        return lo
    else:
        return lo-1


# ---------------------------------------------------------------------------------
# Drivers: binomtest searches the binomial pmf of n trials on the far side of the mode.

_PMF = np.array([0.001, 0.01, 0.044, 0.117, 0.205, 0.246, 0.205, 0.117, 0.044, 0.01, 0.001])


def drive_binary_search(pmf, d, lo, hi, xp):
    # pmf: the binomial pmf (n = 10, p = 0.5); its ascending side is indices 0..5.
    return _binary_search_for_binom_tst(lambda i: pmf[i], d, lo, hi)


CASES = [
    Case("scipy.stats._binary_search_for_binom_tst", "SciPy 1.17.1, scipy/stats/_binomtest.py",
         drive_binary_search,
         tuple((_PMF, np.float64(d), np.int64(0), np.int64(5)) for d in (0.117, 0.05, 0.0005, 0.3))),
]
