"""statsmodels pieces, copied verbatim (statsmodels 0.15.0, BSD-3-Clause; see the
package docstring): the bracketing and conservative bisection of the binomial
confidence-interval search, LOWESS's nearest-neighbour window update (in place on a
list) and the van der Corput sequence. Most are plain
Python on their arguments. Drivers are at the end.
"""
# ruff: noqa
from collections.abc import Callable

import numpy as np

from .cases import Case

# Module-level name the copied _bound_proportion_confint reads, as
# statsmodels/stats/proportion.py defines it.
FLOAT_INFO = np.finfo(float)


# statsmodels 0.15.0, statsmodels/stats/proportion.py, _bound_proportion_confint; edits: none
def _bound_proportion_confint(
    func: Callable[[float], float], qi: float, lower: bool = True
) -> float:
    """
    Try hard to find a bound different from eps/1 - eps in proportion_confint

    Parameters
    ----------
    func : callable
        Callable function to use as the objective of the search
    qi : float
        The empirical success rate
    lower : bool, optional
        Whether to find a lower bound for the left side of the CI

    Returns
    -------
    float
        The coarse bound
    """
    default = FLOAT_INFO.eps if lower else 1.0 - FLOAT_INFO.eps

    def step(v):
        return v / 8 if lower else v + (1.0 - v) / 8

    x = step(qi)
    w = func(x)
    cnt = 1
    while w > 0 and cnt < 10:
        x = step(x)
        w = func(x)
        cnt += 1
    return x if cnt < 10 else default


# statsmodels 0.15.0, statsmodels/stats/proportion.py, _bisection_search_conservative; edits: none
def _bisection_search_conservative(
    func: Callable[[float], float], lb: float, ub: float, steps: int = 27
) -> tuple[float, float]:
    """
    Private function used as a fallback by proportion_confint

    Used when brentq returns a non-conservative bound for the CI

    Parameters
    ----------
    func : callable
        Callable function to use as the objective of the search
    lb : float
        Lower bound
    ub : float
        Upper bound
    steps : int, optional
        Number of steps to use in the bisection

    Returns
    -------
    est : float
        The estimated value.  Will always produce a negative value of func
    func_val : float
        The value of the function at the estimate
    """
    upper = func(ub)
    lower = func(lb)
    best = upper if upper < 0 else lower
    best_pt = ub if upper < 0 else lb
    if np.sign(lower) == np.sign(upper):
        raise ValueError("problem with signs")
    mp = (ub + lb) / 2
    mid = func(mp)
    if (mid < 0) and (mid > best):
        best = mid
        best_pt = mp
    for _ in range(steps):
        if np.sign(mid) == np.sign(upper):
            ub = mp
            upper = mid
        else:
            lb = mp
        mp = (ub + lb) / 2
        mid = func(mp)
        if (mid < 0) and (mid > best):
            best = mid
            best_pt = mp
    return best_pt, best


# statsmodels 0.15.0, statsmodels/nonparametric/smoothers_lowess_old.py, _lowess_update_nn; edits: none
def _lowess_update_nn(x, cur_nn, i):
    """
    Update the endpoints of the nearest neighbors to the ith point

    Parameters
    ----------
    x : ndarray
        The sorted points of x-values
    cur_nn : list of int
        Two-element list giving the current indices between which are the
        k closest points to x[i]. (The actual value of
        k is irrelevant for the algorithm.)
    i : int
        The index of the current value in x for which
        the k closest points are desired.

    Returns
    -------
    None
        The modifications are made to `cur_nn` in place.
    """
    while True:
        if cur_nn[1] < x.size:
            left_dist = x[i] - x[cur_nn[0]]
            new_right_dist = x[cur_nn[1]] - x[i]
            if new_right_dist < left_dist:
                cur_nn[0] = cur_nn[0] + 1
                cur_nn[1] = cur_nn[1] + 1
            else:
                break
        else:
            break


# statsmodels 0.15.0, statsmodels/tools/sequences.py, van_der_corput; edits: none
def van_der_corput(n_sample, base=2, start_index=0):
    """
    Van der Corput sequence

    Pseudo-random number generator based on a b-adic expansion.

    Parameters
    ----------
    n_sample : int
        Number of element of the sequence.
    base : int, optional
        Base of the sequence.
    start_index : int, optional
        Index to start the sequence from.

    Returns
    -------
    sequence : list (n_samples,)
        Sequence of Van der Corput.

    """
    sequence = []
    for i in range(start_index, start_index + n_sample):
        n_th_number, denom = 0., 1.
        quotient = i
        while quotient > 0:
            quotient, remainder = divmod(quotient, base)
            denom *= base
            n_th_number += remainder / denom
        sequence.append(n_th_number)

    return sequence


# ---------------------------------------------------------------------------------
# Drivers: each calls a copied function as statsmodels does, on arrays. The p-value
# functions of proportion_confint (scipy.stats.binomtest) are replaced by smooth
# monotone stand-ins with the same sign pattern.


def drive_bound_proportion_confint(qi, t, u, xp):
    return (_bound_proportion_confint(lambda q: q - t, qi, lower=True),
            _bound_proportion_confint(lambda q: u - q, qi, lower=False))


def drive_bisection_search(lb, ub, t, xp):
    return _bisection_search_conservative(lambda q: xp.tanh(t - q), lb, ub, steps=12)


def drive_lowess_update_nn(x, left, right, i, xp):
    cur_nn = [left, right]
    _lowess_update_nn(x, cur_nn, i)
    return cur_nn


def drive_van_der_corput(start_index, xp):
    return van_der_corput(4, base=3, start_index=start_index)


f64, i64 = np.float64, np.int64
_X = np.array([0.0, 0.1, 0.15, 0.2, 0.6, 0.9, 1.0, 1.6])
_SRC = "statsmodels 0.15.0, statsmodels/"

CASES = [
    Case("statsmodels._bound_proportion_confint", _SRC + "stats/proportion.py",
         drive_bound_proportion_confint,
         tuple((f64(q), f64(t), f64(u)) for q, t, u in
               ((0.5, 0.1, 0.6), (0.5, 1e-4, 0.75), (0.3, 1e-12, 1.0)))),
    Case("statsmodels._bisection_search_conservative", _SRC + "stats/proportion.py",
         drive_bisection_search,
         tuple((f64(a), f64(b), f64(t)) for a, b, t in
               ((0.0, 1.0, 0.3), (0.0, 1.0, 0.7), (0.0, 1.0, 2.0)))),
    Case("statsmodels._lowess_update_nn", _SRC + "nonparametric/smoothers_lowess_old.py",
         drive_lowess_update_nn,
         tuple((_X, i64(a), i64(b), i64(i)) for a, b, i in ((0, 3, 1), (0, 3, 5), (2, 5, 7)))),
    Case("statsmodels.van_der_corput", _SRC + "tools/sequences.py", drive_van_der_corput,
         tuple((i64(n),) for n in (0, 7))),
]
