"""``==`` / ``!=`` on a scalar that is None on some staged paths (SciPy's DCSRCH sets
``self.stage = None`` and tests ``self.stage == 1`` on a later call). Eager Python
compares None with a number as unequal, without a TypeError, so the comparison is
the flag's answer where it is None and the values' elsewhere.
"""

import numpy as np
import pytest


def stage_test(x):
    stage = None
    if x > 0:
        stage = 1
    y = x
    if stage == 1:
        y = x * 2
    if stage != 2:
        y = y + 1
    if 1 == stage:
        y = y * 3
    return y


@pytest.mark.parametrize("x", [3.0, -3.0])
def test_equality_of_a_scalar_none_on_some_paths(backend, x):
    backend.check(stage_test, np.float64(x))


def two_stages(x):
    a = None
    b = None
    if x > 0:
        a = 1
    if x > 1:
        b = 1
    y = x
    if a == b:
        y = x * 2
    if a != b:
        y = y - 1
    return y


@pytest.mark.parametrize("x", [3.0, 0.5, -3.0])
def test_two_values_none_on_some_paths(backend, x):
    backend.check(two_stages, np.float64(x))
