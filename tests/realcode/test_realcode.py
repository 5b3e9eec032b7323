"""Real numerical code (tests/realcode) against eager, on every staging backend.

Every (case, backend) pair that does not match eager today is in ``BLOCKED`` with its
first blocker; those run as strict xfails, so a pair that starts to match fails the
suite until its entry is removed (that is how a new mechanism shows up here), and a
pair whose first blocker changes fails until its entry names the new one. A case
whose copied code writes into an array its caller passed in cannot run on JAX arrays
even eagerly (they are immutable): its ``Case.jax`` says so, and its JAX pair is skipped.
The PyTorch and TensorFlow pairs compile a program each (seconds to minutes): they are
``slow`` (``pytest -m slow tests/realcode``), and tabulated for the second round's cases
(``our_words.py``); ``report.py`` runs them for every case.
"""

from __future__ import annotations

import os
import traceback

import pytest

from realcode.cases import all_cases, third_round_names
from realcode.harness import BACKENDS, run

HERE = os.path.dirname(os.path.abspath(__file__))
HARNESS = os.path.join(HERE, "harness.py")

# First blockers, by the categories of issue 22 (run the case and read its error:
# `python tests/realcode/report.py -v`).
STRING = "a string chosen by a staged if (a status like task = b'ERROR: ...')"
LIST_GROWN = ("a list appended to in a loop over a range with staged bounds: JAX needs "
              "set_loop_options(maximum_iterations=N), which verbatim code does not have")

# First blocker of each (case, backend) pair that does not match eager today, and a
# piece of its signature: the error's text or the copied line it is raised from (a
# wrong value: the path of the leaf that differs). A pair whose first blocker moves
# (a mechanism landed, the next one shows) fails with its new error.
BLOCKED = {
    ("gauss_seidel", "numpy"):
        ("a write into an argument of a called function inside a staged loop: its caller's "
         "array cannot see it (a StagingError: return the updated array instead)",
         "'x' is an argument of gauss_seidel(), and the assignment is in a staged branch"),
    ("sklearn._get_first_singular_vectors_power_method", "numpy"):
        ("next() of a generator expression with a staged test inside a try that handles its "
         "StopIteration (a graph cannot run the handler: a StagingError)",
         "which the try statement at"),
    ("statsmodels.van_der_corput", "jax"):
        (LIST_GROWN, "the loop appends to 'sequence', and how many times it runs is known only "
                     "at run time"),
    ("numpy.polynomial.polyutils.trimseq", "jax"):
        ("other: the length of the result depends on the values (no fixed-shape graph)",
         "return seq[:i + 1]"),
}

# Under jax.jit (NumPy calls on tracers run as jax.numpy): what stops each case next.
JAX_RAISE = ("a raise in a staged branch (compiled JAX code cannot raise: a StagingError; "
             "validate outside jax.jit)")
JAX_NONE = "None on some staged paths (JAX carries no None out of a staged branch: a StagingError)"
JAX_OUT = ("np.<ufunc>(..., out=x) or np.tanh(x, x) on a traced array (JAX arrays are immutable: "
           "a StagingError)")
BLOCKED.update({
    ("scipy.optimize.bracket", "jax"): (JAX_RAISE, "raise RuntimeError(msg)"),
    ("scipy.optimize.Brent.optimize", "jax"): (JAX_RAISE, "raise ValueError("),
    ("scipy.optimize.scalar_search_wolfe2", "jax"): (JAX_NONE, "the return value is None"),
    ("scipy.optimize.scalar_search_wolfe1 (DCSRCH)", "jax"): (STRING, "'task' is a different"),
    ("scipy.optimize._cubicmin", "jax"): (JAX_NONE, "the return value is None"),
    ("scipy.optimize._quadmin", "jax"): (JAX_NONE, "the return value is None"),
    ("scipy.optimize.scalar_search_armijo", "jax"): (JAX_NONE, "the return value[0] is None"),
    ("scipy.optimize.newton (Newton)", "jax"): (JAX_RAISE, "raise RuntimeError(msg)"),
    ("scipy.optimize.newton (Halley)", "jax"): (JAX_RAISE, "raise RuntimeError(msg)"),
    ("scipy.optimize.newton (secant)", "jax"): (JAX_RAISE, "raise RuntimeError(msg)"),
    ("scipy.optimize.newton (Newton, maxiter)", "jax"): (JAX_RAISE, "raise RuntimeError(msg)"),
    ("scipy.optimize.newton (secant, maxiter)", "jax"): (JAX_RAISE, "raise RuntimeError(msg)"),
    ("scipy.integrate.validate_first_step", "jax"): (JAX_RAISE, "raise ValueError("),
    ("scipy.integrate.solve_collocation_system", "jax"):
        (JAX_NONE, "'rate' is None on some staged paths and a value on others, and is returned"),
    ("sklearn._get_first_singular_vectors_power_method", "jax"):
        ("next() of a generator expression with a staged test and no default (JAX cannot "
         "raise StopIteration when the compiled function runs: a StagingError)",
         "next() of a generator expression whose test is staged"),
    ("sklearn._ica_par (logcosh)", "jax"): (JAX_OUT, "np.tanh(..., out=...)"),
    ("statsmodels._bisection_search_conservative", "jax"):
        (JAX_RAISE, 'raise ValueError("problem with signs")'),
    ("networkx._fruchterman_reingold", "jax"): (JAX_OUT, "np.clip(..., out=...)"),
    ("sklearn._gradient_descent (t-SNE)", "jax"): (JAX_OUT, "np.clip(..., out=...)"),
    ("after scipy.optimize._minimize_scalar_bounded", "jax"):
        (JAX_RAISE, 'raise ValueError("The lower bound exceeds the upper bound.")'),
    ("ridders", "jax"): (JAX_RAISE, 'raise ValueError("f(a) and f(b) must have different signs")'),
})

CASES = {case.name: case for case in all_cases()}


# Under jit_compile=True every case stops where it stops under ag.function (the trace is the
# same); what XLA refuses besides is listed here.
BLOCKED.update({(name, "numpy-xla"): blocker for (name, on), blocker in list(BLOCKED.items())
                if on == "numpy"})
XLA_ERRSTATE = ("np.errstate(... 'raise'): XLA has no floating-point error modes (refused "
                "before compiling: a StagingError)")
XLA_ROUNDING = ("XLA rounds differently in the last bits (its own math library, fused "
                "multiply-adds): a message that shows a value after many iterations differs")
XLA_PATH = ("XLA rounds differently in the last bits (a multiply and an add fused into one "
            "rounding, where NumPy rounds twice): a convergence test at its tolerance's edge "
            "takes one more iteration (jax.jit of the same code does too; with "
            "XLA_FLAGS=--xla_cpu_max_isa=AVX, no fused multiply-adds, it matches)")
BLOCKED.update({
    ("scipy.optimize._cubicmin", "numpy-xla"): (XLA_ERRSTATE, "np.errstate at"),
    ("scipy.optimize._quadmin", "numpy-xla"): (XLA_ERRSTATE, "np.errstate at"),
    ("scipy.optimize.newton (Newton, maxiter)", "numpy-xla"):
        (XLA_ROUNDING, "Failed to converge after 6 iterations, value is"),
    ("scipy.optimize.newton (secant, maxiter)", "numpy-xla"):
        (XLA_ROUNDING, "Failed to converge after 6 iterations, value is"),
    ("scipy.optimize.scalar_search_wolfe2", "numpy-xla"): (XLA_ERRSTATE, "np.errstate at"),
    ("after scipy.optimize._minimize_scalar_bounded", "numpy-xla"): (XLA_PATH, "result[0]"),
    ("ridders", "numpy-xla"): (XLA_PATH, "result[1]"),
    ("statsmodels.van_der_corput", "numpy-xla"):
        ("a list grown in a staged loop that runs a number of times known only at run time: "
         "XLA needs a bound, ag.set_loop_options(maximum_iterations=N) (refused before "
         "compiling: a StagingError)", "grows in the staged for loop at"),
})


# torch.compile(fullgraph=True) and tf.function of the second round's cases (slow pairs).
TORCH_RAISE = ("a raise in a staged branch (a compiled PyTorch program cannot raise when it "
               "runs: a StagingError naming the line)")
TORCH_OUTPUT = ("dynamo refuses the converted function's result ('Unsupported output type for "
                "nonstrict_trace-ed function'): a value NumPy calls left is not a plain tensor "
                "(PyTorch's error, not naming the line)")
TORCH_NUMPY = ("a NumPy array meeting a traced tensor: NumPy asks for its values (a "
               "StagingError naming the line)")
TF_SETITEM = ("an item assignment with a tuple index (phi[1, 1] = ...): refused (a StagingError "
              "naming the line: only integer and boolean-mask writes are lowered)")
BLOCKED.update({
    ("after scipy.optimize._minimize_scalar_bounded", "torch"):
        (TORCH_RAISE, 'raise ValueError("The lower bound exceeds the upper bound.")'),
    ("gauss_seidel", "torch"): (TORCH_RAISE, 'raise ZeroDivisionError(f"zero pivot in row {i}")'),
    ("ridders", "torch"): (TORCH_RAISE, 'raise ValueError("f(a) and f(b) must have different signs")'),
    ("romberg", "torch"):
        ("a write at indexes computed in a staged loop (R[i, j] = ...): PyTorch cannot specialize "
         "a data-dependent value (GuardOnDataDependentSymNode, not naming the line)",
         "GuardOnDataDependentSymNode"),
    ("after statsmodels.levinson_durbin", "torch"):
        (TORCH_OUTPUT, "Unsupported output type for nonstrict_trace-ed function"),
    ("after sklearn.stable_cumsum", "torch"):
        (TORCH_OUTPUT, "Unsupported output type for nonstrict_trace-ed function"),
    ("hampel", "torch"): (TORCH_OUTPUT, "Unsupported output type for nonstrict_trace-ed function"),
    ("after filterpy.KalmanFilter", "torch"):
        (TORCH_NUMPY, ".numpy() is not supported for tensor subclasses"),
    ("after numpy.interp", "torch"): (TORCH_NUMPY, ".numpy() is not supported for tensor subclasses"),
    ("power_iteration", "torch"):
        ("an index computed from the data (v[np.argmax(np.abs(v))]): PyTorch cannot specialize "
         "a data-dependent value (GuardOnDataDependentSymNode, not naming the line)",
         "GuardOnDataDependentSymNode"),
    ("after scipy.optimize._minimize_scalar_bounded", "tf"):
        ("TensorFlow's own dtype rules: a float64 tensor times a bool tensor is a TypeError "
         "(NumPy promotes the bool; eager TensorFlow raises too)",
         "Input 'y' of 'AddV2' Op has type bool"),
    ("after statsmodels.levinson_durbin", "tf"):
        (TF_SETITEM, "a graph tensor is immutable and this index is not an integer"),
    ("romberg", "tf"): (TF_SETITEM, "a graph tensor is immutable and this index is not an integer"),
    ("after filterpy.KalmanFilter", "tf"):
        ("a NumPy array meeting a traced tf.Tensor (self.H @ self.x): NumPy asks for its values "
         "(NotImplementedError, not naming the line)", "Cannot convert a symbolic tf.Tensor"),
    ("power_iteration", "tf"):
        ("np.linalg.norm has no tf.experimental.numpy twin (a StagingError naming the line)",
         "np.linalg.norm at"),
    ("gauss_seidel", "tf"):
        ("A[i, :] @ x of two vectors: TensorFlow's @ needs matrices where NumPy's is a dot "
         "product (a ValueError, not naming the line)", "Shape must be rank 2 but is rank 1"),
    ("hampel", "tf"):
        ("x.copy(): a tf.Tensor has no copy method (AttributeError, eager TensorFlow too)",
         "has no attribute 'copy'"),
    ("after numpy.interp", "tf"):
        ("a NumPy array indexed by a traced tf.Tensor (xp[mid]): NumPy's IndexError, not naming "
         "the line", "only integers, slices"),
})


class KnownBlocker(Exception):
    """The pair failed with the first blocker its table entry names."""


def _signature(error: BaseException) -> str:
    """The error's type and text, and the copied line it was raised from."""
    lines = [frame.line for frame in traceback.extract_tb(error.__traceback__)
             if os.path.dirname(frame.filename) == HERE and frame.filename != HARNESS]
    return f"{type(error).__name__}: {error} @ {lines[-1] if lines else ''}"


FRAMEWORKS = ("torch", "tf")  # slow pairs, tabulated for the second and third rounds' cases
THIRD_ROUND = third_round_names()


def _params():
    for name, case in CASES.items():
        for backend in BACKENDS:
            if (backend in FRAMEWORKS and not case.source.startswith("our words")
                    and name not in THIRD_ROUND):
                continue  # the first round's: report.py's columns only
            marks = [pytest.mark.slow] if backend in FRAMEWORKS else []
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
