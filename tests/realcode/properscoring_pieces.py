"""properscoring (The Climate Corporation, Apache License 2.0; GitHub master a465b55,
2022), copied verbatim: the fifth round. Proper scoring rules on NumPy arrays:
``crps_gaussian`` (a formula through ``scipy.special.ndtr``), ``crps_ensemble`` and its
NumPy fallback ``_crps_ensemble_vectorized`` (``np.sort``/``argsort_indices``' index
tuples, ``nanmean`` inside a ``contextlib.contextmanager`` that filters warnings),
``brier_score`` (raises on values, ``set(np.unique(...)) <= {0, 1}``),
``threshold_brier_score`` and its fallback (a nested function writing NaN through
``np.where``), and the two numba kernels of ``_gufuncs.py`` run as plain Python (numba compiles
them in the library; here each is called the way ``guvectorize`` calls it, on one
observation and a ``result`` array the call fills):
loops over arrays with ``break``, early returns and item writes into the ``result``
argument under conditions on the values. Drivers at the end.
"""
# ruff: noqa
import contextlib
import warnings

import numpy as np
from scipy import special

from .cases import Case

# properscoring a465b55, the modules' functions in the order below; edits: the numba
# decorators (`@guvectorize(...)`) of the two kernels left out (they run as Python), the
# docstrings with LaTeX (`\int`) made raw strings (the same text, without Python's
# invalid-escape warning), and
# `_crps_ensemble_core`/`_threshold_brier_score_core` bound to the NumPy fallbacks (the
# libraries' `except ImportError:` branch, as without numba).


# _utils.py
def move_axis_to_end(array, axis):
    array = np.asarray(array)
    return np.rollaxis(array, axis, start=array.ndim)


def argsort_indices(a, axis=-1):
    """Like argsort, but returns an index suitable for sorting the
    the original array even if that array is multidimensional
    """
    a = np.asarray(a)
    ind = list(np.ix_(*[np.arange(d) for d in a.shape]))
    ind[axis] = a.argsort(axis)
    return tuple(ind)


@contextlib.contextmanager
def suppress_warnings(msg=None):
    with warnings.catch_warnings():
        warnings.filterwarnings('ignore', msg)
        yield


# _crps.py
_normconst = 1.0 / np.sqrt(2.0 * np.pi)


def _normpdf(x):
    """Probability density function of a univariate standard Gaussian
    distribution with zero mean and unit variance.
    """
    return _normconst * np.exp(-(x * x) / 2.0)


# Cumulative distribution function of a univariate standard Gaussian
# distribution with zero mean and unit variance.
_normcdf = special.ndtr


def crps_gaussian(x, mu, sig, grad=False):
    """
    Computes the CRPS of observations x relative to normally distributed
    forecasts with mean, mu, and standard deviation, sig.

    CRPS(N(mu, sig^2); x)

    Formula taken from Equation (5):

    Calibrated Probablistic Forecasting Using Ensemble Model Output
    Statistics and Minimum CRPS Estimation. Gneiting, Raftery,
    Westveld, Goldman. Monthly Weather Review 2004

    http://journals.ametsoc.org/doi/pdf/10.1175/MWR2904.1

    Parameters
    ----------
    x : scalar or np.ndarray
        The observation or set of observations.
    mu : scalar or np.ndarray
        The mean of the forecast normal distribution
    sig : scalar or np.ndarray
        The standard deviation of the forecast distribution
    grad : boolean
        If True the gradient of the CRPS w.r.t. mu and sig
        is returned along with the CRPS.

    Returns
    -------
    crps : scalar or np.ndarray or tuple of
        The CRPS of each observation x relative to mu and sig.
        The shape of the output array is determined by numpy
        broadcasting rules.
    crps_grad : np.ndarray (optional)
        If grad=True the gradient of the crps is returned as
        a numpy array [grad_wrt_mu, grad_wrt_sig].  The
        same broadcasting rules apply.
    """
    x = np.asarray(x)
    mu = np.asarray(mu)
    sig = np.asarray(sig)
    # standadized x
    sx = (x - mu) / sig
    # some precomputations to speed up the gradient
    pdf = _normpdf(sx)
    cdf = _normcdf(sx)
    pi_inv = 1. / np.sqrt(np.pi)
    # the actual crps
    crps = sig * (sx * (2 * cdf - 1) + 2 * pdf - pi_inv)
    if grad:
        dmu = 1 - 2 * cdf
        dsig = 2 * pdf - pi_inv
        return crps, np.array([dmu, dsig])
    else:
        return crps


def _crps_ensemble_vectorized(observations, forecasts, weights=1):
    """
    An alternative but simpler implementation of CRPS for testing purposes

    This implementation is based on the identity:

    .. math::
        CRPS(F, x) = E_F|X - x| - 1/2 * E_F|X - X'|

    where X and X' denote independent random variables drawn from the forecast
    distribution F, and E_F denotes the expectation value under F.

    Hence it has runtime O(n^2) instead of O(n log(n)) where n is the number of
    ensemble members.

    Reference
    ---------
    Tilmann Gneiting and Adrian E. Raftery. Strictly proper scoring rules,
        prediction, and estimation, 2005. University of Washington Department of
        Statistics Technical Report no. 463R.
        https://www.stat.washington.edu/research/reports/2004/tr463R.pdf
    """
    observations = np.asarray(observations)
    forecasts = np.asarray(forecasts)
    weights = np.asarray(weights)
    if weights.ndim > 0:
        weights = np.where(~np.isnan(forecasts), weights, np.nan)
        weights = weights / np.nanmean(weights, axis=-1, keepdims=True)

    if observations.ndim == forecasts.ndim - 1:
        # sum over the last axis
        assert observations.shape == forecasts.shape[:-1]
        observations = observations[..., np.newaxis]
        with suppress_warnings('Mean of empty slice'):
            score = np.nanmean(weights * abs(forecasts - observations), -1)
        # insert new axes along last and second to last forecast dimensions so
        # forecasts_diff expands with the array broadcasting
        forecasts_diff = (np.expand_dims(forecasts, -1) -
                          np.expand_dims(forecasts, -2))
        weights_matrix = (np.expand_dims(weights, -1) *
                          np.expand_dims(weights, -2))
        with suppress_warnings('Mean of empty slice'):
            score += -0.5 * np.nanmean(weights_matrix * abs(forecasts_diff),
                                       axis=(-2, -1))
        return score
    elif observations.ndim == forecasts.ndim:
        # there is no 'realization' axis to sum over (this is a deterministic
        # forecast)
        return abs(observations - forecasts)


_crps_ensemble_core = _crps_ensemble_vectorized


def crps_ensemble(observations, forecasts, weights=None, issorted=False,
                  axis=-1):
    r"""
    Calculate the continuous ranked probability score (CRPS) for a set of
    explicit forecast realizations.

    The CRPS compares the empirical distribution of an ensemble forecast
    to a scalar observation. Smaller scores indicate better skill.

    CRPS is defined for one-dimensional random variables with a probability
    density $p(x)$,

    .. math::
        CRPS(F, x) = \int_z (F(z) - H(z - x))^2 dz

    where $F(x) = \int_{z \leq x} p(z) dz$ is the cumulative distribution
    function (CDF) of the forecast distribution $F$ and $H(x)$ denotes the
    Heaviside step function, where $x$ is a point estimate of the true
    observation (observational error is neglected).

    This function calculates CRPS efficiently using the empirical CDF:
    http://en.wikipedia.org/wiki/Empirical_distribution_function

    The Numba accelerated version of this function requires time
    O(N * E * log(E)) and space O(N * E) where N is the number of observations
    and E is the size of the forecast ensemble.

    The non-Numba accelerated version much slower for large ensembles: it
    requires both time and space O(N * E ** 2).

    Parameters
    ----------
    observations : float or array_like
        Observations float or array. Missing values (NaN) are given scores of
        NaN.
    forecasts : float or array_like
        Array of forecasts ensemble members, of the same shape as observations
        except for the axis along which CRPS is calculated (which should be the
        axis corresponding to the ensemble). If forecasts has the same shape as
        observations, the forecasts are treated as deterministic. Missing
        values (NaN) are ignored.
    weights : array_like, optional
        If provided, the CRPS is calculated exactly with the assigned
        probability weights to each forecast. Weights should be positive, but
        do not need to be normalized. By default, each forecast is weighted
        equally.
    issorted : bool, optional
        Optimization flag to indicate that the elements of `ensemble` are
        already sorted along `axis`.
    axis : int, optional
        Axis in forecasts and weights which corresponds to different ensemble
        members, along which to calculate CRPS.

    Returns
    -------
    out : np.ndarray
        CRPS for each ensemble forecast against the observations.

    References
    ----------
    Jochen Broecker. Chapter 7 in Forecast Verification: A Practitioner's Guide
        in Atmospheric Science. John Wiley & Sons, Ltd, Chichester, UK, 2nd
        edition, 2012.
    Tilmann Gneiting and Adrian E. Raftery. Strictly proper scoring rules,
        prediction, and estimation, 2005. University of Washington Department of
        Statistics Technical Report no. 463R.
        https://www.stat.washington.edu/research/reports/2004/tr463R.pdf
    Wilks D.S. (1995) Chapter 8 in _Statistical Methods in the
        Atmospheric Sciences_. Academic Press.
    """
    observations = np.asarray(observations)
    forecasts = np.asarray(forecasts)
    if axis != -1:
        forecasts = move_axis_to_end(forecasts, axis)

    if weights is not None:
        weights = move_axis_to_end(weights, axis)
        if weights.shape != forecasts.shape:
            raise ValueError('forecasts and weights must have the same shape')

    if observations.shape not in [forecasts.shape, forecasts.shape[:-1]]:
        raise ValueError('observations and forecasts must have matching '
                         'shapes or matching shapes except along `axis=%s`'
                         % axis)

    if observations.shape == forecasts.shape:
        if weights is not None:
            raise ValueError('cannot supply weights unless you also supply '
                             'an ensemble forecast')
        return abs(observations - forecasts)

    if not issorted:
        if weights is None:
            forecasts = np.sort(forecasts, axis=-1)
        else:
            idx = argsort_indices(forecasts, axis=-1)
            forecasts = forecasts[idx]
            weights = weights[idx]

    if weights is None:
        weights = np.ones_like(forecasts)

    return _crps_ensemble_core(observations, forecasts, weights)


# _brier.py
def brier_score(observations, forecasts):
    r"""
    Calculate the Brier score (BS)

    The Brier score (BS) scores binary forecasts $k \in \{0, 1\}$,

    ..math:
        BS(p, k) = (p_1 - k)^2,

    where $p_1$ is the forecast probability of $k=1$.

    Parameters
    ----------
    observations, forecasts : array_like
        Broadcast compatible arrays of forecasts (probabilities between 0 and
        1) and observations (0, 1 or NaN).

    Returns
    -------
    out : np.ndarray
        Brier score for each forecast/observation.

    References
    ----------
    Jochen Broecker. Chapter 7 in Forecast Verification: A Practitioner's Guide
        in Atmospheric Science. John Wiley & Sons, Ltd, Chichester, UK, 2nd
        edition, 2012.
        https://drive.google.com/a/climate.com/file/d/0B8AfRcot4nsIYmc3alpTeTZpLWc
    Tilmann Gneiting and Adrian E. Raftery. Strictly proper scoring rules,
        prediction, and estimation, 2005. University of Washington Department of
        Statistics Technical Report no. 463R.
        https://www.stat.washington.edu/research/reports/2004/tr463R.pdf
    """
    machine_eps = np.finfo(float).eps
    forecasts = np.asarray(forecasts)
    if (forecasts < 0.0).any() or (forecasts > (1.0 + machine_eps)).any():
        raise ValueError('forecasts must not be outside of the unit interval '
                         '[0, 1]')
    observations = np.asarray(observations)
    if observations.ndim > 0:
        valid_obs = observations[~np.isnan(observations)]
    else:
        valid_obs = observations if not np.isnan(observations) else []
    if not set(np.unique(valid_obs)) <= {0, 1}:
        raise ValueError('observations can only contain 0, 1, or NaN')
    return (forecasts - observations) ** 2


def _threshold_brier_score_vectorized(observations, forecasts, thresholds):
    observations = np.asarray(observations)
    thresholds = np.asarray(thresholds)
    forecasts = np.asarray(forecasts)

    def exceedances(x):
        # NaN safe calculation of threshold exceedances
        # add an extra dimension to `x` and broadcast `thresholds` so that it
        # varies along that new dimension
        with suppress_warnings('invalid value encountered in greater'):
            exceeds = (x[..., np.newaxis] >
                       thresholds.reshape((1,) * x.ndim + (-1,))
                       ).astype(float)
        if x.ndim == 0 and np.isnan(x):
            exceeds[:] = np.nan
        else:
            exceeds[np.where(np.isnan(x))] = np.nan
        return exceeds

    binary_obs = exceedances(observations)
    if observations.shape == forecasts.shape:
        prob_forecast = exceedances(forecasts)
    elif observations.shape == forecasts.shape[:-1]:
        # axis=-2 should be the 'realization' axis, after swapping that axes
        # to the end of forecasts and inserting one extra axis
        with suppress_warnings('Mean of empty slice'):
            prob_forecast = np.nanmean(exceedances(forecasts), axis=-2)
    else:
        raise AssertionError
    return brier_score(binary_obs, prob_forecast)


_threshold_brier_score_core = _threshold_brier_score_vectorized


def threshold_brier_score(observations, forecasts, threshold, issorted=False,
                          axis=-1):
    r"""
    Calculate the Brier scores of an ensemble for exceeding given thresholds.

    According to the threshold decomposition of CRPS, the resulting Brier
    scores can thus be summed along the last axis to calculate CRPS, as

    .. math::
        CRPS(F, x) = \int_z BS(F(z), H(z - x)) dz

    where $F(x) = \int_{z \leq x} p(z) dz$ is the cumulative distribution
    function (CDF) of the forecast distribution $F$, $x$ is a point estimate of
    the true observation (observational error is neglected), $BS$ denotes the
    Brier score and $H(x)$ denotes the Heaviside step function, which we define
    here as equal to 1 for x >= 0 and 0 otherwise.

    It is more efficient to calculate CRPS directly, but this threshold
    decomposition itself provides a useful summary of model quality as a
    function of measurement values.

    The Numba accelerated version of this function is much faster for
    calculating many thresholds simultaneously: it runs in time
    O(N * (E * log(E) + T)), where N is the number of observations, E is the
    ensemble size and T is the number of thresholds.

    The non-Numba accelerated version requires time and space O(N * E * T).

    Parameters
    ----------
    observations : float or array_like
        Observations float or array. Missing values (NaN) are given scores of
        NaN.
    forecasts : float or array_like
        Array of forecasts ensemble members, of the same shape as observations
        except for the extra axis corresponding to the ensemble. If forecasts
        has the same shape as observations, the forecasts are treated as
        deterministic. Missing values (NaN) are ignored.
    threshold : scalar or 1d array_like
        Threshold value(s) at which to calculate exceedence Brier scores.
    issorted : bool, optional
        Optimization flag to indicate that the elements of `ensemble` are
        already sorted along `axis`.
    axis : int, optional
        Axis in forecasts which corresponds to different ensemble members,
        along which to calculate the threshold decomposition.

    Returns
    -------
    out : np.ndarray
        Brier scores at each thresold for each ensemble forecast against the
        observations. If ``threshold`` is a scalar, the result will have the
        same shape as observations. Otherwise, it will have an additional final
        dimension corresponding to the threshold levels.

    References
    ----------
    Gneiting, T. and Ranjan, R. Comparing density forecasts using threshold-
       and quantile-weighted scoring rules. J. Bus. Econ. Stat. 29, 411-422
       (2011). http://www.stat.washington.edu/research/reports/2008/tr533.pdf

    See also
    --------
    crps_ensemble, brier_score
    """
    observations = np.asarray(observations)
    threshold = np.asarray(threshold)
    forecasts = np.asarray(forecasts)

    if axis != -1:
        forecasts = move_axis_to_end(forecasts, axis)

    if forecasts.shape == observations.shape:
        forecasts = forecasts[..., np.newaxis]

    if observations.shape != forecasts.shape[:-1]:
        raise ValueError('observations and forecasts must have matching '
                         'shapes or matching shapes except along `axis=%s`'
                         % axis)

    scalar_threshold = threshold.ndim == 0

    if threshold.ndim > 1:
        raise ValueError('threshold must be scalar or 1-dimensional')
    if threshold.ndim == 1 and not (np.sort(threshold) == threshold).all():
        raise ValueError('1D thresholds must be sorted')

    threshold = threshold.reshape((1,) * observations.ndim + (-1,))

    if not issorted:
        forecasts = np.sort(forecasts, axis=-1)

    result = _threshold_brier_score_core(observations, forecasts, threshold)

    if scalar_threshold:
        result = result.squeeze(axis=-1)

    return result


# _gufuncs.py
def _crps_ensemble_gufunc(observation, forecasts, weights, result):
    # beware: forecasts are assumed sorted in NumPy's sort order

    # we index the 0th element to get the scalar value from this 0d array:
    # http://numba.pydata.org/numba-doc/0.18.2/user/vectorize.html#the-guvectorize-decorator
    obs = observation[0]

    if np.isnan(obs):
        result[0] = np.nan
        return

    total_weight = 0.0
    for n, weight in enumerate(weights):
        if np.isnan(forecasts[n]):
            # NumPy sorts NaN to the end
            break
        if not weight >= 0:
            # this catches NaN weights
            result[0] = np.nan
            return
        total_weight += weight

    obs_cdf = 0
    forecast_cdf = 0
    prev_forecast = 0
    integral = 0

    for n, forecast in enumerate(forecasts):
        if np.isnan(forecast):
            # NumPy sorts NaN to the end
            if n == 0:
                integral = np.nan
            # reset for the sake of the conditional below
            forecast = prev_forecast
            break

        if obs_cdf == 0 and obs < forecast:
            integral += (obs - prev_forecast) * forecast_cdf ** 2
            integral += (forecast - obs) * (forecast_cdf - 1) ** 2
            obs_cdf = 1
        else:
            integral += ((forecast - prev_forecast)
                         * (forecast_cdf - obs_cdf) ** 2)

        forecast_cdf += weights[n] / total_weight
        prev_forecast = forecast

    if obs_cdf == 0:
        # forecast can be undefined here if the loop body is never executed
        # (because forecasts have size 0), but don't worry about that because
        # we want to raise an error in that case, anyways
        integral += obs - forecast

    result[0] = integral


def _threshold_brier_score_gufunc(observation, forecasts, thresholds, result):
    # both forecasts and thresholds are assumed sorted in NumPy's sort order
    obs = observation[0]

    n_thresholds = len(thresholds)
    n_forecasts = len(forecasts)
    while np.isnan(forecasts[n_forecasts - 1]) and n_forecasts > 0:
        n_forecasts -= 1

    if np.isnan(obs) or n_forecasts == 0:
        result[:] = np.nan
        return

    inv_n_forecasts = 1.0 / n_forecasts

    i = 0
    j = 0
    while i < n_forecasts and j < n_thresholds:
        forecast = forecasts[i]
        threshold = thresholds[j]

        if forecast <= threshold:
            i += 1
        else:
            probability = i * inv_n_forecasts
            binary_obs = obs <= threshold
            result[j] = (probability - binary_obs) ** 2
            j += 1

    for k in range(j, n_thresholds):
        threshold = thresholds[k]
        binary_obs = obs <= threshold
        # probability is always 1, so we can skip the square
        result[k] = 1 - binary_obs


# ---------------------------------------------------------------------------------
# Drivers: ensembles of forecasts (float64, NaN for missing members) against observations,
# called as properscoring's users (and guvectorize, for the kernels) call them.


def drive_crps_gaussian(x, mu, sig, xp):
    crps, grad = crps_gaussian(x, mu, sig, grad=True)
    return crps_gaussian(x, mu, sig), crps, grad


def drive_crps_ensemble(observations, forecasts, weights, xp):
    return (crps_ensemble(observations, forecasts),
            crps_ensemble(observations, forecasts, weights),
            crps_ensemble(observations, forecasts.T, axis=0),
            _crps_ensemble_vectorized(observations, forecasts, weights))


def drive_brier_score(observations, forecasts, xp):
    return brier_score(observations, forecasts)


def drive_threshold_brier_score(observations, forecasts, thresholds, xp):
    return (threshold_brier_score(observations, forecasts, thresholds),
            threshold_brier_score(observations, forecasts, thresholds[1]))


def drive_crps_kernel(observation, forecasts, weights, xp):
    result = np.zeros(1)
    _crps_ensemble_gufunc(observation, forecasts, weights, result)
    return result


def drive_brier_kernel(observation, forecasts, thresholds, xp):
    result = np.zeros(3)
    _threshold_brier_score_gufunc(observation, forecasts, thresholds, result)
    return result


ARRAY = np.array
NAN = np.nan
_SOURCE = "properscoring a465b55"
CASES = [
    Case("properscoring.crps_gaussian", f"{_SOURCE}, _crps.py", drive_crps_gaussian,
         ((ARRAY([0.0, 1.5, -2.0]), ARRAY([0.0, 1.0, 0.5]), ARRAY([1.0, 2.0, 0.5])),
          (ARRAY([3.0, NAN, 0.1]), ARRAY([0.0, 0.0, 0.0]), ARRAY([0.1, 1.0, 10.0])))),
    Case("properscoring.crps_ensemble", f"{_SOURCE}, _crps.py", drive_crps_ensemble,
         ((ARRAY([0.5, 2.0, -1.0]),
           ARRAY([[0.0, 1.0, 2.0, 3.0], [3.0, 1.0, NAN, 2.0], [1.0, -2.0, 0.0, 0.5]]),
           ARRAY([[1.0, 1.0, 2.0, 1.0], [1.0, 3.0, 1.0, 1.0], [0.5, 0.5, 1.0, 2.0]])),
          (ARRAY([NAN, 0.0, 5.0]),
           ARRAY([[0.0, 1.0, 2.0, 3.0], [NAN, NAN, NAN, NAN], [1.0, 2.0, 3.0, 4.0]]),
           ARRAY([[1.0, 1.0, 1.0, 1.0], [1.0, 1.0, 1.0, 1.0], [2.0, 1.0, 1.0, 1.0]])))),
    Case("properscoring.brier_score", f"{_SOURCE}, _brier.py", drive_brier_score,
         ((ARRAY([0.0, 1.0, NAN, 1.0]), ARRAY([0.1, 0.9, 0.5, 0.3])),
          (ARRAY([0.0, 1.0, 0.0, 1.0]), ARRAY([0.1, 1.5, 0.5, 0.3])),
          (ARRAY([0.0, 2.0, 0.0, 1.0]), ARRAY([0.1, 0.5, 0.5, 0.3])))),
    Case("properscoring.threshold_brier_score", f"{_SOURCE}, _brier.py",
         drive_threshold_brier_score,
         ((ARRAY([0.5, 2.0, NAN]), ARRAY([[0.0, 1.0, 2.0], [3.0, NAN, 2.0], [1.0, -2.0, 0.0]]),
           ARRAY([0.0, 1.0, 2.5])),
          (ARRAY([-1.0, 0.0, 1.0]), ARRAY([[0.0, 0.0, 0.0], [1.0, 1.0, 1.0], [2.0, 2.0, 2.0]]),
           ARRAY([-0.5, 0.5, 1.5])))),
    Case("properscoring._crps_ensemble_gufunc", f"{_SOURCE}, _gufuncs.py", drive_crps_kernel,
         ((ARRAY([0.5]), ARRAY([0.0, 1.0, 2.0, 3.0]), ARRAY([1.0, 1.0, 2.0, 1.0])),
          (ARRAY([5.0]), ARRAY([0.0, 1.0, NAN, NAN]), ARRAY([1.0, 1.0, 1.0, 1.0])),
          (ARRAY([NAN]), ARRAY([0.0, 1.0, 2.0, 3.0]), ARRAY([1.0, 1.0, 1.0, 1.0])),
          (ARRAY([1.0]), ARRAY([0.0, 1.0, 2.0, 3.0]), ARRAY([1.0, NAN, 1.0, 1.0])),
          (ARRAY([1.0]), ARRAY([NAN, NAN, NAN, NAN]), ARRAY([1.0, 1.0, 1.0, 1.0])))),
    Case("properscoring._threshold_brier_score_gufunc", f"{_SOURCE}, _gufuncs.py",
         drive_brier_kernel,
         ((ARRAY([0.5]), ARRAY([0.0, 1.0, 2.0, 3.0]), ARRAY([0.5, 1.5, 4.0])),
          (ARRAY([2.0]), ARRAY([0.0, 1.0, NAN, NAN]), ARRAY([-1.0, 0.5, 1.0])),
          (ARRAY([NAN]), ARRAY([0.0, 1.0, 2.0, 3.0]), ARRAY([0.5, 1.5, 4.0])),
          (ARRAY([1.0]), ARRAY([NAN, NAN, NAN, NAN]), ARRAY([0.5, 1.5, 4.0])))),
]
