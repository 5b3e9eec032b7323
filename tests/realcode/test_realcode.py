"""Real numerical code (tests/realcode) against eager, on every staging backend.

Every (case, backend) pair that does not match eager today is in ``BLOCKED`` with its
first blocker; those run as strict xfails, so a pair that starts to match fails the
suite until its entry is removed (that is how a new mechanism shows up here). A case
whose copied code calls NumPy functions on its arrays (or writes into them) cannot be
traced by ``jax.jit`` whatever the conversion does, since NumPy takes no JAX tracer
and JAX arrays are immutable: its ``Case.jax`` says so, and its JAX pair is skipped.
"""

from __future__ import annotations

import pytest

from realcode.cases import all_cases
from realcode.harness import BACKENDS, run

# First blockers, by the categories of issue 22 (run the case and read its error:
# `python tests/realcode/report.py -v`).
RAISE = "raise in a staged branch (fires while tracing, on valid input)"
ASARRAY = "np.asarray/np.array of a tensor or of a list of tensors"
BUILTINS = "builtins/math on staged scalars"
WRITE_ARG = "writing into an argument array (the caller's array is left unchanged: wrong value)"
WRITE_OWN = "writing into an array the function made (issue 9 item 10)"
NONE = "None as a value on some paths"
LIST_INDEX = "staged index into a Python list"
STRING = "a string chosen by a staged if (a status like task = b'ERROR: ...')"
WRITE_ARG_LIST = ("writing into a list the caller passed, in a staged loop (the caller's list "
                  "keeps its old items: wrong value)")

# First blocker of each (case, backend) pair that does not match eager today.
BLOCKED = {
    ("scipy.optimize.bracket", "numpy"): ASARRAY,
    ("scipy.optimize.Brent.optimize", "numpy"): RAISE,
    ("scipy.optimize.scalar_search_wolfe2", "numpy"): NONE,
    ("scipy.optimize.scalar_search_wolfe1 (DCSRCH)", "numpy"): STRING,
    ("scipy.optimize._cubicmin", "numpy"): WRITE_OWN,
    ("scipy.optimize._quadmin", "numpy"): NONE,
    ("scipy.optimize.scalar_search_armijo", "numpy"): NONE,
    ("scipy.optimize.dcstep", "numpy"): BUILTINS,
    ("scipy.optimize.newton (Newton)", "numpy"): ASARRAY,
    ("scipy.optimize.newton (Halley)", "numpy"): ASARRAY,
    ("scipy.optimize.newton (secant)", "numpy"): ASARRAY,
    ("scipy.optimize._update_bracket", "numpy"): LIST_INDEX,
    ("scipy.optimize._newton_quadratic", "numpy"): ASARRAY,
    ("scipy.optimize.estimate_smallest_singular_value", "numpy"): WRITE_OWN,
    ("scipy.integrate.rk_step", "numpy"): WRITE_ARG,
    ("scipy.integrate.validate_first_step", "numpy"): RAISE,
    ("scipy.integrate.select_initial_step", "numpy"): BUILTINS,
    ("scipy.integrate.solve_bdf_system", "numpy"): NONE,
    ("scipy.integrate.solve_collocation_system", "numpy"): WRITE_OWN,
    ("scipy.integrate.predict_factor", "numpy"): BUILTINS,
    ("scipy.integrate.predict_factor", "jax"): BUILTINS,
    ("sklearn._get_first_singular_vectors_power_method", "numpy"):
        "other: a staged condition inside a generator expression "
        "(next(col for col in y.T if np.any(...)))",
    ("sklearn._ica_par (logcosh)", "numpy"):
        "other: np.linalg.eigh under ag.function returns raw graph values in its result "
        "(TypeError in np.clip)",
    ("sklearn._ica_par (exp)", "numpy"):
        "other: np.linalg.eigh under ag.function returns raw graph values in its result "
        "(TypeError in np.clip)",
    ("sklearn._cg", "numpy"): ASARRAY,
    ("statsmodels._bisection_search_conservative", "numpy"): RAISE,
    ("statsmodels._lowess_update_nn", "numpy"): WRITE_ARG_LIST,
    ("statsmodels._lowess_update_nn", "jax"): WRITE_ARG_LIST,
    ("statsmodels.van_der_corput", "numpy"): BUILTINS,
    ("statsmodels.van_der_corput", "jax"):
        "other: a list grown in a staged loop (sequence.append; a clear StagingError)",
    ("networkx._fruchterman_reingold", "numpy"): BUILTINS,
    ("networkx.rescale_layout", "numpy"): WRITE_ARG,
    ("numpy.polynomial.polyutils.trimseq", "numpy"):
        "other: the length of the result depends on the values (the StagingError names "
        "'i', assigned in one branch only)",
    ("numpy.polynomial.polyutils.trimseq", "jax"):
        "other: the length of the result depends on the values (no fixed-shape graph)",
    ("colorsys.rgb_to_hls", "numpy"): BUILTINS,
    ("colorsys.rgb_to_hls", "jax"): BUILTINS,
    ("colorsys.rgb_to_hsv", "numpy"): BUILTINS,
    ("colorsys.rgb_to_hsv", "jax"): BUILTINS,
}

CASES = {case.name: case for case in all_cases()}


def _params():
    for name, case in CASES.items():
        for backend in BACKENDS:
            marks = []
            if backend == "jax" and case.jax:
                marks.append(pytest.mark.skip(reason=f"not applicable to JAX: {case.jax}"))
            elif (name, backend) in BLOCKED:
                marks.append(pytest.mark.xfail(strict=True, reason=BLOCKED[name, backend]))
            yield pytest.param(name, backend, id=f"{name}-{backend}", marks=marks)


@pytest.mark.parametrize("name,backend", list(_params()))
def test_matches_eager(name, backend):
    run(CASES[name], backend)


def test_table_names_real_pairs():
    for name, backend in BLOCKED:
        assert name in CASES and backend in BACKENDS, (name, backend)
        assert not (backend == "jax" and CASES[name].jax), (name, "is not applicable to JAX")
