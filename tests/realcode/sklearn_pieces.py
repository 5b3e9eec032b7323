"""scikit-learn pieces, copied verbatim (scikit-learn 1.9.1, BSD-3-Clause; see the
package docstring): PLS's power method for the first singular vectors, FastICA's
parallel fixed-point loop with its default nonlinearity, the truncated conjugate
gradient of the Newton-CG solver (written against the array API: it takes ``xp``), and
t-SNE's gradient descent with per-parameter gains (boolean-mask updates, issue 32.1;
from scikit-learn's main branch).
Drivers are at the end.
"""
# ruff: noqa
import math
import warnings
from time import time

import numpy as np

from .cases import Case

# Edit for _sym_decorrelation: scipy.linalg (LAPACK) is not available here; its
# eigh of a symmetric matrix has the same meaning as numpy.linalg.eigh.
linalg = np.linalg


# scikit-learn 1.9.1, sklearn/exceptions.py, ConvergenceWarning; edits: none
class ConvergenceWarning(UserWarning):
    """Custom warning to capture convergence problems

    .. versionchanged:: 0.18
       Moved from sklearn.utils.
    """


# scikit-learn 1.9.1, sklearn/cross_decomposition/_pls.py, _get_first_singular_vectors_power_method; edits: none
def _get_first_singular_vectors_power_method(
    X, y, mode="A", max_iter=500, tol=1e-06, norm_y_weights=False
):
    """Return the first left and right singular vectors of X'y.

    Provides an alternative to the svd(X'y) and uses the power method instead.
    With norm_y_weights to True and in mode A, this corresponds to the
    algorithm section 11.3 of the Wegelin's review, except this starts at the
    "update saliences" part.
    """

    eps = np.finfo(X.dtype).eps
    try:
        y_score = next(col for col in y.T if np.any(np.abs(col) > eps))
    except StopIteration as e:
        raise StopIteration("y residual is constant") from e

    x_weights_old = 100  # init to big value for first convergence check

    if mode == "B":
        # Precompute pseudo inverse matrices
        # Basically: X_pinv = (X.T X)^-1 X.T
        # Which requires inverting a (n_features, n_features) matrix.
        # As a result, and as detailed in the Wegelin's review, CCA (i.e. mode
        # B) will be unstable if n_features > n_samples or n_targets >
        # n_samples
        X_pinv, y_pinv = _pinv2_old(X), _pinv2_old(y)

    for i in range(max_iter):
        if mode == "B":
            x_weights = np.dot(X_pinv, y_score)
        else:
            x_weights = np.dot(X.T, y_score) / np.dot(y_score, y_score)

        x_weights /= np.sqrt(np.dot(x_weights, x_weights)) + eps
        x_score = np.dot(X, x_weights)

        if mode == "B":
            y_weights = np.dot(y_pinv, x_score)
        else:
            y_weights = np.dot(y.T, x_score) / np.dot(x_score.T, x_score)

        if norm_y_weights:
            y_weights /= np.sqrt(np.dot(y_weights, y_weights)) + eps

        y_score = np.dot(y, y_weights) / (np.dot(y_weights, y_weights) + eps)

        x_weights_diff = x_weights - x_weights_old
        if np.dot(x_weights_diff, x_weights_diff) < tol or y.shape[1] == 1:
            break
        x_weights_old = x_weights

    n_iter = i + 1
    if n_iter == max_iter:
        warnings.warn("Maximum number of iterations reached", ConvergenceWarning)

    return x_weights, y_weights, n_iter


# scikit-learn 1.9.1, sklearn/decomposition/_fastica.py, _sym_decorrelation; edits: none in the body; the module-level name `linalg` (scipy.linalg, LAPACK) is bound to numpy.linalg at the top of this module
def _sym_decorrelation(W):
    """Symmetric decorrelation
    i.e. W <- (W * W.T) ^{-1/2} * W
    """
    s, u = linalg.eigh(np.dot(W, W.T))
    # Avoid sqrt of negative values because of rounding errors. Note that
    # np.sqrt(tiny) is larger than tiny and therefore this clipping also
    # prevents division by zero in the next step.
    s = np.clip(s, a_min=np.finfo(W.dtype).tiny, a_max=None)

    # u (resp. s) contains the eigenvectors (resp. square roots of
    # the eigenvalues) of W * W.T
    return np.linalg.multi_dot([u * (1.0 / np.sqrt(s)), u.T, W])


# scikit-learn 1.9.1, sklearn/decomposition/_fastica.py, _ica_par; edits: none
def _ica_par(X, tol, g, fun_args, max_iter, w_init):
    """Parallel FastICA.

    Used internally by FastICA --main loop

    """
    W = _sym_decorrelation(w_init)
    del w_init
    p_ = float(X.shape[1])
    for ii in range(max_iter):
        gwtx, g_wtx = g(np.dot(W, X), fun_args)
        W1 = _sym_decorrelation(np.dot(gwtx, X.T) / p_ - g_wtx[:, np.newaxis] * W)
        del gwtx, g_wtx
        # builtin max, abs are faster than numpy counter parts.
        # np.einsum allows having the lowest memory footprint.
        # It is faster than np.diag(np.dot(W1, W.T)).
        lim = max(abs(abs(np.einsum("ij,ij->i", W1, W)) - 1))
        W = W1
        if lim < tol:
            break
    else:
        warnings.warn(
            (
                "FastICA did not converge. Consider increasing "
                "tolerance or the maximum number of iterations."
            ),
            ConvergenceWarning,
        )

    return W, ii + 1


# scikit-learn 1.9.1, sklearn/decomposition/_fastica.py, _logcosh; edits: none
def _logcosh(x, fun_args=None):
    alpha = fun_args.get("alpha", 1.0)

    x *= alpha
    gx = np.tanh(x, x)  # apply the tanh inplace

    if x.ndim == 1:
        return gx, alpha * (1 - gx**2)

    # When the input is 2D, compute in a loop to avoid extra allocation
    # of array of shape x.shape
    g_x = np.empty(x.shape[0], dtype=x.dtype)
    for i, gx_i in enumerate(gx):
        g_x[i] = (alpha * (1 - gx_i**2)).mean()
    return gx, g_x


# scikit-learn 1.9.1, sklearn/decomposition/_fastica.py, _exp; edits: none
def _exp(x, fun_args):
    exp = np.exp(-(x**2) / 2)
    gx = x * exp
    g_x = (1 - x**2) * exp
    return gx, g_x.mean(axis=-1)


# scikit-learn 1.9.1, sklearn/utils/_array_api.py, size; edits: none
def size(x):
    """Return the total number of elements of x.

    Parameters
    ----------
    x : array
        Array instance from NumPy or an array API compatible library.

    Returns
    -------
    out : int
        Total number of elements.
    """
    return math.prod(x.shape)


# scikit-learn 1.9.1, sklearn/utils/optimize.py, _cg; edits: none
def _cg(fhess_p, fgrad, maxiter, tol, xp, device, verbose=0):
    """
    Solve iteratively the linear system 'fhess_p . xsupi = fgrad'
    with a conjugate gradient descent.

    Parameters
    ----------
    fhess_p : callable
        Function that takes the gradient as a parameter and returns the
        matrix product of the Hessian and gradient.

    fgrad : ndarray of shape (n_features,) or (n_features + 1,)
        Gradient vector.

    maxiter : int
        Number of CG iterations.

    tol : float
        Stopping criterion.

    Returns
    -------
    xsupi : ndarray of shape (n_features,) or (n_features + 1,)
        Estimated solution.
    """
    eps = 16 * xp.finfo(fgrad.dtype).eps
    xsupi = xp.zeros(size(fgrad), dtype=fgrad.dtype, device=device)
    ri = xp.asarray(fgrad, copy=True)  # residual = fgrad - fhess_p @ xsupi
    psupi = -ri
    i = 0
    dri0 = ri @ ri
    # We also keep track of |p_i|^2.
    psupi_norm2 = dri0
    is_verbose = verbose >= 2

    while i <= maxiter:
        if (norm1_re := xp.sum(xp.abs(ri))) <= tol:
            if is_verbose:
                print(
                    f"  Inner CG solver iteration {i} stopped with\n"
                    f"    sum(|residuals|) <= tol: {norm1_re} <= {tol}"
                )
            break

        Ap = fhess_p(psupi)
        # check curvature
        curv = psupi @ Ap
        if 0 <= curv <= eps * psupi_norm2:
            # See https://arxiv.org/abs/1803.02924, Algo 1 Capped Conjugate Gradient.
            if is_verbose:
                print(
                    f"  Inner CG solver iteration {i} stopped with\n"
                    f"    tiny_|p| = eps * ||p||^2, eps = {eps}, "
                    f"squared L2 norm ||p||^2 = {psupi_norm2}\n"
                    f"    curvature <= tiny_|p|: {curv} <= {eps * psupi_norm2}"
                )
            break
        elif curv < 0:
            if i > 0:
                if is_verbose:
                    print(
                        f"  Inner CG solver iteration {i} stopped with negative "
                        f"curvature, curvature = {curv}"
                    )
                break
            else:
                # fall back to steepest descent direction
                xsupi += dri0 / curv * psupi
                if is_verbose:
                    print("  Inner CG solver iteration 0 fell back to steepest descent")
                break
        alphai = dri0 / curv
        xsupi += alphai * psupi
        ri += alphai * Ap
        dri1 = ri @ ri
        betai = dri1 / dri0
        psupi = -ri + betai * psupi
        # We use  |p_i|^2 = |r_i|^2 + beta_i^2 |p_{i-1}|^2
        psupi_norm2 = dri1 + betai**2 * psupi_norm2
        i = i + 1
        dri0 = dri1  # update ri @ri for next time.
    if is_verbose and i > maxiter:
        print(
            f"  Inner CG solver stopped reaching maxiter={i - 1} with "
            f"sum(|residuals|) = {xp.sum(xp.abs(ri))}"
        )
    return xsupi


# scikit-learn main (commit b0b7efd), sklearn/manifold/_t_sne.py, _gradient_descent; edits: none
def _gradient_descent(
    objective,
    p0,
    it,
    n_iter,
    n_iter_check=1,
    n_iter_without_progress=300,
    momentum=0.8,
    learning_rate=200.0,
    min_gain=0.01,
    min_grad_norm=1e-7,
    verbose=0,
    args=None,
    kwargs=None,
):
    """Batch gradient descent with momentum and individual gains.

    Parameters
    ----------
    objective : callable
        Should return a tuple of cost and gradient for a given parameter
        vector. When expensive to compute, the cost can optionally
        be None and can be computed every n_iter_check steps using
        the objective_error function.

    p0 : array-like of shape (n_params,)
        Initial parameter vector.

    it : int
        Current number of iterations (this function will be called more than
        once during the optimization).

    n_iter : int
        Maximum number of gradient descent iterations.

    n_iter_check : int, default=1
        Number of iterations before evaluating the global error. If the error
        is sufficiently low, we abort the optimization.

    n_iter_without_progress : int, default=300
        Maximum number of iterations without progress before we abort the
        optimization.

    momentum : float within (0.0, 1.0), default=0.8
        The momentum generates a weight for previous gradients that decays
        exponentially.

    learning_rate : float, default=200.0
        The learning rate for t-SNE is usually in the range [10.0, 1000.0]. If
        the learning rate is too high, the data may look like a 'ball' with any
        point approximately equidistant from its nearest neighbours. If the
        learning rate is too low, most points may look compressed in a dense
        cloud with few outliers.

    min_gain : float, default=0.01
        Minimum individual gain for each parameter.

    min_grad_norm : float, default=1e-7
        If the gradient norm is below this threshold, the optimization will
        be aborted.

    verbose : int, default=0
        Verbosity level.

    args : sequence, default=None
        Arguments to pass to objective function.

    kwargs : dict, default=None
        Keyword arguments to pass to objective function.

    Returns
    -------
    p : ndarray of shape (n_params,)
        Optimum parameters.

    error : float
        Optimum.

    i : int
        Last iteration.
    """
    if args is None:
        args = []
    if kwargs is None:
        kwargs = {}

    p = p0.copy().ravel()
    update = np.zeros_like(p)
    gains = np.ones_like(p)
    error = np.finfo(float).max
    best_error = np.finfo(float).max
    best_iter = i = it

    tic = time()
    for i in range(it, n_iter):
        check_convergence = (i + 1) % n_iter_check == 0
        # only compute the error when needed
        kwargs["compute_error"] = check_convergence or i == n_iter - 1

        error, grad = objective(p, *args, **kwargs)

        inc = update * grad < 0.0
        dec = np.invert(inc)
        gains[inc] += 0.2
        gains[dec] *= 0.8
        np.clip(gains, min_gain, np.inf, out=gains)
        grad *= gains
        update = momentum * update - learning_rate * grad
        p += update

        if check_convergence:
            toc = time()
            duration = toc - tic
            tic = toc
            grad_norm = linalg.norm(grad)

            if verbose >= 2:
                print(
                    "[t-SNE] Iteration %d: error = %.7f,"
                    " gradient norm = %.7f"
                    " (%s iterations in %0.3fs)"
                    % (i + 1, error, grad_norm, n_iter_check, duration)
                )

            if error < best_error:
                best_error = error
                best_iter = i
            elif i - best_iter > n_iter_without_progress:
                if verbose >= 2:
                    print(
                        "[t-SNE] Iteration %d: did not make any progress "
                        "during the last %d episodes. Finished."
                        % (i + 1, n_iter_without_progress)
                    )
                break
            if grad_norm <= min_grad_norm:
                if verbose >= 2:
                    print(
                        "[t-SNE] Iteration %d: gradient norm %f. Finished."
                        % (i + 1, grad_norm)
                    )
                break

    return p, error, i


# ---------------------------------------------------------------------------------
# Drivers: each calls a copied function as its estimator does, on arrays.

f64 = np.float64


def drive_pls_power_method(X, y, xp):
    return _get_first_singular_vectors_power_method(X, y, max_iter=10, tol=1e-10)


def drive_ica_logcosh(X, w_init, xp):
    return _ica_par(X, 1e-4, _logcosh, {}, 15, w_init)


def drive_ica_exp(X, w_init, xp):
    return _ica_par(X, 1e-4, _exp, {}, 15, w_init)


def _quadratic_error(p, target, scale, compute_error=True):
    """t-SNE's objective has this form: (error, gradient) of the parameters."""
    diff = p - target
    return 0.5 * np.dot(scale * diff, diff), scale * diff


def drive_tsne_gradient_descent(p0, target, scale, xp):
    return _gradient_descent(_quadratic_error, p0, 0, 12, n_iter_check=3,
                             n_iter_without_progress=2, momentum=0.5, learning_rate=0.4,
                             min_grad_norm=1e-3, args=[target, scale])


def drive_cg(H, grad, xp):
    return _cg(lambda p: H @ p, grad, 10, 1e-8, xp, None)


_rng = np.random.default_rng(0)
_X = _rng.standard_normal((8, 3))
_Y = np.random.default_rng(1).standard_normal((3, 8, 2))
_S = np.stack([np.sign(np.sin(np.linspace(0, 9, 40))), np.linspace(-1, 1, 40) ** 3])
_SPD = np.array([[4.0, 1.0, 0.0], [1.0, 3.0, 0.5], [0.0, 0.5, 2.0]])
_INDEF = np.array([[1.0, 0.0, 0.0], [0.0, -2.0, 0.0], [0.0, 0.0, 1.0]])

CASES = [
    Case("sklearn._get_first_singular_vectors_power_method",
         "scikit-learn 1.9.1, sklearn/cross_decomposition/_pls.py",
         drive_pls_power_method,
         ((_X, _Y[0]), (_X, _Y[1]), (_X, _Y[2]))),  # maxiter; 5 iterations; 9 iterations
    Case("sklearn._ica_par (logcosh)", "scikit-learn 1.9.1, sklearn/decomposition/_fastica.py",
         drive_ica_logcosh,
         ((np.array([[1.0, 0.6], [0.4, 1.0]]) @ _S, np.eye(2)),
          (np.array([[1.0, 0.0], [0.0, 1.0]]) @ _S, np.array([[0.6, 0.8], [-0.8, 0.6]])))),
    Case("sklearn._ica_par (exp)", "scikit-learn 1.9.1, sklearn/decomposition/_fastica.py",
         drive_ica_exp,
         ((np.array([[1.0, 0.6], [0.4, 1.0]]) @ _S, np.eye(2)),
          (np.array([[1.0, 0.0], [0.0, 1.0]]) @ _S, np.array([[0.6, 0.8], [-0.8, 0.6]])))),
    Case("sklearn._gradient_descent (t-SNE)", "scikit-learn main, sklearn/manifold/_t_sne.py",
         drive_tsne_gradient_descent,
         ((np.array([1.0, -2.0, 0.5]), np.zeros(3), np.ones(3)),  # runs to n_iter
          (np.array([1e-4, 0.0, 0.0]), np.zeros(3), np.ones(3)),  # gradient norm: stops at once
          (np.array([3.0, -1.0, 2.0]), np.zeros(3), np.full(3, 8.0)))),  # no progress: stops
    Case("sklearn._cg", "scikit-learn 1.9.1, sklearn/utils/optimize.py", drive_cg,
         ((_SPD, np.array([1.0, -1.0, 0.5])),  # converges
          (_INDEF, np.array([1.0, 1.0, 0.0])),  # negative curvature at once: steepest descent
          (_INDEF, np.array([1.0, 0.1, 1.0])),  # negative curvature later
          (_SPD, np.zeros(3)))),  # zero gradient: no iteration
]
