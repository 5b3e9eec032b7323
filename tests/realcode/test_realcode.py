"""Real numerical code (tests/realcode) against eager, on every staging backend.

Every (case, backend) pair that does not match eager today is in ``BLOCKED`` with its
first blocker; those run as strict xfails, so a pair that starts to match fails the
suite until its entry is removed (that is how a new mechanism shows up here), and a
pair whose first blocker changes fails until its entry names the new one. A case
whose copied code calls NumPy functions on its arrays (or writes into them) cannot be
traced by ``jax.jit`` whatever the conversion does, since NumPy takes no JAX tracer
and JAX arrays are immutable: its ``Case.jax`` says so, and its JAX pair is skipped.
"""

from __future__ import annotations

import os
import traceback

import pytest

from realcode.cases import all_cases
from realcode.harness import BACKENDS, run

HERE = os.path.dirname(os.path.abspath(__file__))
HARNESS = os.path.join(HERE, "harness.py")

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

# First blocker of each (case, backend) pair that does not match eager today, and a
# piece of its signature: the error's text or the copied line it is raised from (a
# wrong value: the path of the leaf that differs). A pair whose first blocker moves
# (a mechanism landed, the next one shows) fails with its new error.
BLOCKED = {
    ("scipy.optimize.bracket", "numpy"): (ASARRAY, "np.asarray([xa, xb])"),
    ("scipy.optimize.Brent.optimize", "numpy"): (RAISE, "ValueError: Bracketing values"),
    ("scipy.optimize.scalar_search_wolfe2", "numpy"): (NONE, "if not np.isfinite(xmin):"),
    ("scipy.optimize.scalar_search_wolfe1 (DCSRCH)", "numpy"): (STRING, "'task' is a different"),
    ("scipy.optimize._cubicmin", "numpy"): (WRITE_OWN, "d1[0, 0] = dc ** 2"),
    ("scipy.optimize._quadmin", "numpy"): (NONE, "if not np.isfinite(xmin):"),
    ("scipy.optimize.scalar_search_armijo", "numpy"): (NONE, "return None, phi_a1"),
    ("scipy.optimize.dcstep", "numpy"): (BUILTINS, "s = max(abs(theta), abs(dx), abs(dp))"),
    ("scipy.optimize.newton (Newton)", "numpy"): (ASARRAY, "x0 = np.asarray(x0)[()] * 1.0"),
    ("scipy.optimize.newton (Halley)", "numpy"): (ASARRAY, "x0 = np.asarray(x0)[()] * 1.0"),
    ("scipy.optimize.newton (secant)", "numpy"): (ASARRAY, "x0 = np.asarray(x0)[()] * 1.0"),
    ("scipy.optimize._update_bracket", "numpy"): (LIST_INDEX, "rx, rfx = ab[idx], fab[idx]"),
    ("scipy.optimize._newton_quadratic", "numpy"): (ASARRAY, "xvals = np.asarray(xvals)"),
    ("scipy.optimize.estimate_smallest_singular_value", "numpy"): (WRITE_OWN, "w[k] = wp"),
    ("scipy.integrate.rk_step", "numpy"): (WRITE_ARG, "arguments after the call[3]"),
    ("scipy.integrate.validate_first_step", "numpy"): (RAISE, "must be positive"),
    ("scipy.integrate.select_initial_step", "numpy"):
        (BUILTINS, "h0 = min(h0, interval_length)"),
    ("scipy.integrate.solve_bdf_system", "numpy"): (NONE, "'dy_norm_old' is None"),
    ("scipy.integrate.solve_collocation_system", "numpy"):
        (WRITE_OWN, "F[i] = fun(t + ch[i], y + Z[i])"),
    ("scipy.integrate.predict_factor", "numpy"): (BUILTINS, "min(1, multiplier)"),
    ("scipy.integrate.predict_factor", "jax"): (BUILTINS, "min(1, multiplier)"),
    ("sklearn._get_first_singular_vectors_power_method", "numpy"):
        ("other: a staged condition inside a generator expression "
         "(next(col for col in y.T if np.any(...)))", "next(col for col in y.T if"),
    ("sklearn._ica_par (logcosh)", "numpy"):
        ("other: a ufunc writing into its argument (np.tanh(x, x), out=)", "gx = np.tanh(x, x)"),
    ("sklearn._ica_par (exp)", "numpy"): (BUILTINS, "lim = max(abs(abs("),
    ("sklearn._cg", "numpy"): (ASARRAY, "xp.asarray(fgrad, copy=True)"),
    ("statsmodels._bisection_search_conservative", "numpy"): (RAISE, "problem with signs"),
    ("statsmodels._lowess_update_nn", "numpy"): (WRITE_ARG_LIST, "result[0]"),
    ("statsmodels._lowess_update_nn", "jax"): (WRITE_ARG_LIST, "result[0]"),
    ("statsmodels.van_der_corput", "numpy"): (BUILTINS, "divmod(quotient, base)"),
    ("statsmodels.van_der_corput", "jax"):
        ("other: a list grown in a staged loop (sequence.append; a clear StagingError)",
         "'sequence' is a list of 0 items"),
    ("networkx._fruchterman_reingold", "numpy"): (BUILTINS, "t = max(max(pos.T[0])"),
    ("networkx.rescale_layout", "numpy"): (WRITE_ARG, "arguments after the call[0]"),
    ("numpy.polynomial.polyutils.trimseq", "numpy"):
        ("other: the length of the result depends on the values (the StagingError names "
         "'i', assigned in one branch only)", "'i' is defined in the false branch only"),
    ("numpy.polynomial.polyutils.trimseq", "jax"):
        ("other: the length of the result depends on the values (no fixed-shape graph)",
         "return seq[:i + 1]"),
    ("colorsys.rgb_to_hls", "numpy"): (BUILTINS, "maxc = max(r, g, b)"),
    ("colorsys.rgb_to_hls", "jax"): (BUILTINS, "maxc = max(r, g, b)"),
    ("colorsys.rgb_to_hsv", "numpy"): (BUILTINS, "maxc = max(r, g, b)"),
    ("colorsys.rgb_to_hsv", "jax"): (BUILTINS, "maxc = max(r, g, b)"),
}

CASES = {case.name: case for case in all_cases()}


class KnownBlocker(Exception):
    """The pair failed with the first blocker its table entry names."""


def _signature(error: BaseException) -> str:
    """The error's type and text, and the copied line it was raised from."""
    lines = [frame.line for frame in traceback.extract_tb(error.__traceback__)
             if os.path.dirname(frame.filename) == HERE and frame.filename != HARNESS]
    return f"{type(error).__name__}: {error} @ {lines[-1] if lines else ''}"


def _params():
    for name, case in CASES.items():
        for backend in BACKENDS:
            marks = []
            if backend == "jax" and case.jax:
                marks.append(pytest.mark.skip(reason=f"not applicable to JAX: {case.jax}"))
            elif (name, backend) in BLOCKED:
                marks.append(pytest.mark.xfail(strict=True, raises=KnownBlocker,
                                               reason=BLOCKED[name, backend][0]))
            yield pytest.param(name, backend, id=f"{name}-{backend}", marks=marks)


@pytest.mark.parametrize("name,backend", list(_params()))
def test_matches_eager(name, backend):
    if (name, backend) not in BLOCKED:
        run(CASES[name], backend)
        return
    reason, sign = BLOCKED[name, backend]
    try:
        run(CASES[name], backend)
    except Exception as error:  # noqa: BLE001 - compared with the table's entry below
        signature = _signature(error)
        if sign not in signature:
            raise AssertionError(f"the first blocker moved: the table says {reason!r} "
                                 f"({sign!r}); now {signature[:400]}") from error
        raise KnownBlocker(reason) from error


def test_table_names_real_pairs():
    for name, backend in BLOCKED:
        assert name in CASES and backend in BACKENDS, (name, backend)
        assert not (backend == "jax" and CASES[name].jax), (name, "is not applicable to JAX")
