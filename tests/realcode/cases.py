"""One case of the real-code corpus: a copied function, the driver that calls it the
way its library does, and inputs (NumPy arrays of fixed shapes and dtypes) that take
different paths through the one trace a backend builds for them."""

from __future__ import annotations

import dataclasses
from typing import Callable, Optional


@dataclasses.dataclass(frozen=True)
class Case:
    name: str  # the table's key: library.module.function
    source: str  # library version, file
    driver: Callable  # driver(*arrays, xp=numpy or jax.numpy)
    inputs: tuple  # tuples of NumPy arrays: each one a different path
    jax: Optional[str] = None  # None: runs under jax.jit; else why it cannot


def all_cases() -> list:
    from . import (networkx_layout, numpy_polynomial, our_words, python_stdlib, scipy_integrate,
                   scipy_lsq, scipy_optimize, scipy_radau, scipy_stats, sklearn_pieces,
                   statsmodels_pieces)

    modules = (scipy_optimize, scipy_integrate, scipy_radau, scipy_stats, scipy_lsq,
               sklearn_pieces, statsmodels_pieces, networkx_layout, numpy_polynomial,
               python_stdlib, our_words) + _later_rounds()
    return [case for module in modules for case in module.CASES]


def third_round_names() -> set:
    """The third to sixth rounds' cases: real library code copied verbatim that
    the converter had never met; their PyTorch and TensorFlow pairs are tabulated (slow),
    as the second's."""
    return {case.name for module in _later_rounds() for case in module.CASES}


def _later_rounds() -> tuple:
    return _third_round() + _fourth_round() + _fifth_round() + _sixth_round()


def _third_round() -> tuple:
    from . import mpmath_intmath, numpy_lib, python_stdlib3, scipy_trust

    return (scipy_trust, numpy_lib, python_stdlib3, mpmath_intmath)


def _fourth_round() -> tuple:
    from . import numpy_financial, python_stdlib4

    return (python_stdlib4, numpy_financial)


def _fifth_round() -> tuple:
    from . import properscoring_pieces

    return (properscoring_pieces,)


def _sixth_round() -> tuple:
    from . import scipy_ksstats

    return (scipy_ksstats,)
