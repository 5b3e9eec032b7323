"""Numerical functions written with ``np.*``, called on Python floats and small arrays.

Their NumPy calls are what converted code routes to ``jax.numpy`` under ``jax.jit``
(``runtime.numpy_calls``); these rows show what that costs outside a trace: nothing
per NumPy call (the Python path is the user's own code), one entry test per call
of the function. Kept apart from ``functions`` so that module imports nothing
but the standard library.
"""

from __future__ import annotations

import numpy as np


def error_norm(y, y_new, f, h):
    """Straight-line NumPy on Python floats: eleven NumPy calls, no control flow."""
    scale = 1e-6 + np.maximum(np.abs(y), np.abs(y_new)) * 1e-3
    err = np.abs(h * f) / scale
    return np.sqrt(np.square(err) + np.exp(-np.abs(h))) * np.sign(f) + np.hypot(y, f)


def newton_sqrt(a):
    """Newton's square root: a loop whose trip count depends on ``a``, NumPy calls in it."""
    x = np.maximum(a, 1.0)
    steps = 0
    while np.abs(x * x - a) > 1e-12 * a:
        x = 0.5 * (x + a / x)
        steps += 1
    return np.sqrt(np.abs(x)) + steps


def cg_steps(A, b):
    """Conjugate gradients on a 3x3 system: np.dot and np.linalg.norm on small arrays."""
    x = np.zeros_like(b)
    r = b - np.dot(A, x)
    p = r
    rs = np.dot(r, r)
    for _ in range(3):
        if np.linalg.norm(r) < 1e-12:
            break
        Ap = np.dot(A, p)
        alpha = rs / np.dot(p, Ap)
        x = x + alpha * p
        r = r - alpha * Ap
        new = np.dot(r, r)
        p = r + (new / rs) * p
        rs = new
    return float(np.linalg.norm(x))


_A = np.array([[4.0, 1.0, 0.0], [1.0, 3.0, 1.0], [0.0, 1.0, 2.0]])
CALLS = [
    ("error_norm, 11 np calls on floats", error_norm, (0.3, 0.5, -1.25, 0.01)),
    ("newton_sqrt(2.0), np calls in a loop", newton_sqrt, (2.0,)),
    ("cg_steps, np.dot/np.linalg.norm on 3x3", cg_steps, (_A, np.array([1.0, 2.0, 3.0]))),
]
