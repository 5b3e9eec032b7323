"""Helpers shared by the JAX backend tests (imported as a module: test files here are
named test_jax_* so they never clash with other test directories)."""

from __future__ import annotations

import inspect

import jax
import numpy as np
from jax.extend.core import jaxprs_in_params

import autograph as ag


def staged(f):
    """What users write: ``jax.jit(ag.convert(f))``."""
    return jax.jit(ag.convert(f))


def assert_same_values(expected, actual):
    """Equal values leaf by leaf (a Python number and a 0-d array may compare equal)."""
    e_leaves, e_tree = jax.tree_util.tree_flatten(expected)
    a_leaves, a_tree = jax.tree_util.tree_flatten(actual)
    assert e_tree == a_tree, (expected, actual)
    for e, a in zip(e_leaves, a_leaves):
        np.testing.assert_allclose(np.asarray(a), np.asarray(e), rtol=1e-6)


def assert_matches_eager(f, *args):
    """``f`` run eagerly on concrete arrays and ``jax.jit(ag.convert(f))`` agree."""
    assert_same_values(f(*args), staged(f)(*args))


def at(f, text: str) -> str:
    """``file:line (`text`)`` of the first line of ``f`` that reads ``text``: where
    an error message must point."""
    lines, first = inspect.getsourcelines(f)
    for offset, line in enumerate(lines):
        if line.strip() == text:
            return f"{inspect.getsourcefile(f)}:{first + offset} (`{text}`)"
    raise AssertionError(f"{text!r} not in {f.__name__}")


def primitives(jaxpr) -> list:
    """Names of all primitives in ``jaxpr`` (a ``make_jaxpr`` result), nested ones included."""
    jaxpr = getattr(jaxpr, "jaxpr", jaxpr)
    names = []
    for eqn in jaxpr.eqns:
        names.append(eqn.primitive.name)
        for sub in jaxprs_in_params(eqn.params):
            names.extend(primitives(sub))
    return names


def assert_close(expected, actual):
    """``actual`` (an array) equals ``expected`` (a list or array of numbers)."""
    np.testing.assert_allclose(np.asarray(actual), np.asarray(expected), rtol=1e-6)
