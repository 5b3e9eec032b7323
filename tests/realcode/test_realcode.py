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
JAX_ERRSTATE = ("np.errstate(divide='raise', ...) around arithmetic on traced values: JAX's ops "
                "never raise, so the FloatingPointError handler would silently not run (refused: "
                "a StagingError naming the line)")
JAX_NONE = "None on some staged paths (JAX carries no None out of a staged branch: a StagingError)"
JAX_OUT = ("np.<ufunc>(..., out=x) or np.tanh(x, x) on a traced array (JAX arrays are immutable: "
           "a StagingError)")
BLOCKED.update({
    ("scipy.optimize.bracket", "jax"): (JAX_RAISE, "raise RuntimeError(msg)"),
    ("scipy.optimize.Brent.optimize", "jax"): (JAX_RAISE, "raise ValueError("),
    ("scipy.optimize.scalar_search_wolfe2", "jax"): (JAX_ERRSTATE, "asks for floating-point errors to raise"),
    ("scipy.optimize.scalar_search_wolfe1 (DCSRCH)", "jax"): (STRING, "'task' is a different"),
    ("scipy.optimize._cubicmin", "jax"): (JAX_ERRSTATE, "asks for floating-point errors to raise"),
    ("scipy.optimize._quadmin", "jax"): (JAX_ERRSTATE, "asks for floating-point errors to raise"),
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
TORCH_TRACED = ("NumPy code PyTorch's traced tensors do not take: a StagingError naming the "
                "line (dynamo said 'Unsupported output type for nonstrict_trace-ed function')")
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
        (TORCH_TRACED + ": a negative slice step, acov[1:k][::-1]", "step must be greater than zero"),
    ("after sklearn.stable_cumsum", "torch"):
        (TORCH_TRACED + ": np.cumsum(arr, dtype=np.float64) in torch._numpy",
         "'getset_descriptor' object has no attribute '_scalar_type'"),
    ("hampel", "torch"): (TORCH_TRACED + ": x.copy()", "has no attribute 'copy'"),
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


# The third round (scipy_trust, numpy_lib, python_stdlib3, mpmath_intmath: real library
# code copied verbatim, never converted before), on every backend.
R3_NONE = ("None on some staged paths (check_termination's `return None`, hsv_to_rgb's "
           "fall-off end): a graph's outputs are arrays (a StagingError)")
R3_LIST_BRANCH = ("a list appended to in a staged branch only (its length would depend on "
                  "the values: a StagingError)")
R3_VALUE_SHAPE = ("a NumPy function whose output's shape depends on the values (np.nonzero, "
                  "np.piecewise): compiled code has fixed shapes (a StagingError)")
R3_INT_FLOAT = ("a variable that is an int on one staged path and a float on the other "
                "(ratio = 1): PyTorch's cond needs one dtype (a StagingError)")
R3_MAYBE_NONE_TRUTH = ("the truth of a value None on some staged paths (all(fs) while fe may "
                       "still be None): a StagingError")
R3_SORTED = ("sorted() of staged scalars: Python's sort asks each comparison for a bool "
             "(the framework's error, naming the line on the NumPy engine and PyTorch)")
R3_BIG_INT = ("a comparison with a Python int beyond int64 (bisect(powers, n) with "
              "powers up to 1 << 299, x < 1 << 800): the framework's error")
R3_LIST_WRITE = ("a list of staged scalars written into a NumPy array made in the function "
                 "(Q[:, 0] = fvals[:]): NumPy asks for their values (naming the line)")
R3_COMMON_TYPE = ("np.common_type of a traced array (NumPy's as_series): not staged (a "
                  "TypeError naming the line; its except Exception no longer swallows it)")
R3_TORCH_TRACE = ("NumPy code PyTorch's traced tensors do not take (ndarray.fill, .dot of a "
                  "matrix and a vector, dtype.kind, a data-dependent guard): a StagingError "
                  "naming the line")
R3_TF_ITER = ("the truth of a graph tensor in code autograph does not convert "
              "(sorted([ta, tb]) asks each comparison for a bool): a StagingError naming the "
              "line (before the sixth round, TensorFlow's OperatorNotAllowedInGraphError; "
              "iterating over one, list(fs) and a, b, c, d = abcd, works since session 13 "
              "where its first axis has a static length)")
R3_TF_NO_TWIN = ("np.frexp has no tf.experimental.numpy twin (a StagingError naming the line)")
R3_TF_NDARRAY = ("an ndarray method or attribute a tf.Tensor lacks (.dot, .size, dtype.kind, "
                 ">>=, an index array): TensorFlow's AttributeError/TypeError, not naming the line")
BLOCKED.update({
    ('scipy.optimize._lsq.intersect_trust_region', 'jax'): (JAX_RAISE, 'if a == 0:'),
    ('scipy.optimize._lsq.intersect_trust_region', 'torch'): (TORCH_RAISE, 'if a == 0:'),
    ('scipy.optimize._lsq.solve_lsq_trust_region', 'torch'): (R3_TORCH_TRACE, 'p = -V.dot(uf / s)'),
    ('scipy.optimize._lsq.solve_lsq_trust_region', 'tf'): (R3_TF_NDARRAY, "'SymbolicTensor' object has no attribute 'dot'"),
    ('scipy.optimize._lsq.update_tr_radius', 'torch'): (R3_INT_FLOAT, 'if predicted_reduction > 0:'),
    ('scipy.optimize._lsq.minimize_quadratic_1d', 'numpy'): (R3_LIST_BRANCH, 'if lb < extremum < ub:'),
    ('scipy.optimize._lsq.minimize_quadratic_1d', 'numpy-xla'): (R3_LIST_BRANCH, 'if lb < extremum < ub:'),
    ('scipy.optimize._lsq.minimize_quadratic_1d', 'jax'): (R3_LIST_BRANCH, 'if lb < extremum < ub:'),
    ('scipy.optimize._lsq.minimize_quadratic_1d', 'torch'): (R3_LIST_BRANCH, 'if lb < extremum < ub:'),
    ('scipy.optimize._lsq.minimize_quadratic_1d', 'tf'): (R3_LIST_BRANCH, 'if lb < extremum < ub:'),
    ('scipy.optimize._lsq.step_size_to_bound', 'numpy-xla'): (R3_VALUE_SHAPE, 'non_zero = np.nonzero(s)'),
    ('scipy.optimize._lsq.step_size_to_bound', 'jax'): (R3_VALUE_SHAPE, 'non_zero = np.nonzero(s)'),
    ('scipy.optimize._lsq.step_size_to_bound', 'torch'): (R3_TORCH_TRACE, 'steps.fill(np.inf)'),
    ('scipy.optimize._lsq.step_size_to_bound', 'tf'): (R3_TF_NDARRAY, 'Only integers, slices'),
    ('scipy.optimize._lsq.check_termination', 'jax'): (R3_NONE, 'elif xtol_satisfied:'),
    ('scipy.optimize._lsq.check_termination', 'torch'): (R3_NONE, 'elif xtol_satisfied:'),
    ('scipy.optimize._lsq.check_termination', 'tf'): (R3_NONE, 'elif xtol_satisfied:'),
    ('scipy.optimize._notclose', 'torch'): (R3_TORCH_TRACE, 'all(fs) and all(np.isfinite(fs)) and'),
    ('scipy.optimize._inverse_poly_zero', 'numpy'): (R3_LIST_WRITE, 'Q[:, 0] = fvals[:]'),
    ('scipy.optimize._inverse_poly_zero', 'numpy-xla'): (R3_LIST_WRITE, 'Q[:, 0] = fvals[:]'),
    ('scipy.optimize._inverse_poly_zero', 'jax'): (R3_LIST_WRITE, 'The numpy.ndarray conversion method __array__() was called o'),
    ('scipy.optimize._inverse_poly_zero', 'torch'): (R3_LIST_WRITE, 'Q[:, 0] = fvals[:]'),
    ('scipy.optimize._inverse_poly_zero', 'tf'): (R3_LIST_WRITE, 'Q[:, 0] = fvals[:]'),
    ('scipy.optimize.TOMS748Solver (k=1)', 'numpy'): (R3_MAYBE_NONE_TRUTH, 'all(fs) and all(np.isfinite(fs)) and'),
    ('scipy.optimize.TOMS748Solver (k=1)', 'numpy-xla'): (R3_MAYBE_NONE_TRUTH, 'all(fs) and all(np.isfinite(fs)) and'),
    ('scipy.optimize.TOMS748Solver (k=1)', 'jax'): (JAX_RAISE, 'raise ValueError(f"Invalid x value: {a} ")'),
    ('scipy.optimize.TOMS748Solver (k=1)', 'torch'): (TORCH_RAISE, 'raise ValueError(f"Invalid x value: {a} ")'),
    ('scipy.optimize.TOMS748Solver (k=1)', 'tf'): (R3_TF_NO_TWIN, 'frs = np.frexp(self.fab)[1]'),
    ('scipy.optimize.TOMS748Solver (k=2)', 'numpy'): (R3_MAYBE_NONE_TRUTH, 'all(fs) and all(np.isfinite(fs)) and'),
    ('scipy.optimize.TOMS748Solver (k=2)', 'numpy-xla'): (R3_MAYBE_NONE_TRUTH, 'all(fs) and all(np.isfinite(fs)) and'),
    ('scipy.optimize.TOMS748Solver (k=2)', 'jax'): (JAX_RAISE, 'raise ValueError(f"Invalid x value: {a} ")'),
    ('scipy.optimize.TOMS748Solver (k=2)', 'torch'): (TORCH_RAISE, 'raise ValueError(f"Invalid x value: {a} ")'),
    ('scipy.optimize.TOMS748Solver (k=2)', 'tf'): (R3_MAYBE_NONE_TRUTH, "'fe' is None on some staged paths"),
    ('scipy.optimize.BaseQuadraticSubproblem.get_boundaries_intersections', 'numpy'): (R3_SORTED, 'return sorted([ta, tb])'),
    ('scipy.optimize.BaseQuadraticSubproblem.get_boundaries_intersections', 'numpy-xla'): (R3_SORTED, 'return sorted([ta, tb])'),
    ('scipy.optimize.BaseQuadraticSubproblem.get_boundaries_intersections', 'jax'): (R3_SORTED, 'Attempted boolean conversion of traced array with shape bool'),
    ('scipy.optimize.BaseQuadraticSubproblem.get_boundaries_intersections', 'torch'): (R3_SORTED, 'return sorted([ta, tb])'),
    ('scipy.optimize.BaseQuadraticSubproblem.get_boundaries_intersections', 'tf'): (R3_TF_ITER, 'a graph tensor is used as a Python bool at'),
    ('numpy.i0', 'numpy-xla'): (R3_VALUE_SHAPE, 'return piecewise(x, [x <= 8.0], [_i0_1, _i0_2])'),
    ('numpy.i0', 'jax'): (R3_VALUE_SHAPE, 'return piecewise(x, [x <= 8.0], [_i0_1, _i0_2])'),
    ('numpy.i0', 'torch'): (R3_TORCH_TRACE, "if x.dtype.kind == 'c':"),
    ('numpy.i0', 'tf'): (R3_TF_NDARRAY, "'DType' object has no attribute 'kind'"),
    ('numpy.polynomial.polyutils.trimcoef', 'numpy'): (R3_COMMON_TYPE, 'dtype = np.common_type(*arrays)'),
    ('numpy.polynomial.polyutils.trimcoef', 'numpy-xla'): (R3_COMMON_TYPE, 'dtype = np.common_type(*arrays)'),
    ('numpy.polynomial.polyutils.trimcoef', 'jax'): (JAX_RAISE, 'raise ValueError("tol must be non-negative")'),
    ('numpy.polynomial.polyutils.trimcoef', 'torch'): (TORCH_RAISE, 'raise ValueError("tol must be non-negative")'),
    ('numpy.polynomial.polyutils.trimcoef', 'tf'): (R3_TF_NDARRAY, "SymbolicTensor object has no attribute 'size'. "),
    ('numpy.polynomial.chebyshev.chebval', 'torch'): (R3_TORCH_TRACE, "if c.dtype.char in '?bBhHiIlLqQpP':"),
    ('numpy.polynomial.chebyshev.chebval', 'tf'): (R3_TF_NDARRAY, "'DType' object has no attribute 'char'"),
    ('colorsys.hsv_to_rgb', 'jax'): (R3_NONE, 'if i == 5:'),
    ('colorsys.hsv_to_rgb', 'torch'): (R3_NONE, 'if i == 5:'),
    ('colorsys.hsv_to_rgb', 'tf'): (R3_NONE, 'if i == 5:'),
    ('mpmath.libmp.python_trailing', 'torch'): (R3_TORCH_TRACE, 'return small_trailing[low_byte]'),
    ('mpmath.libmp.python_trailing', 'tf'): (R3_TF_NDARRAY, "unsupported operand type(s) for >>=: 'SymbolicTensor' and 'i"),
    ('mpmath.libmp.python_bitcount', 'numpy'): (R3_BIG_INT, 'bc = bisect(powers, n)'),
    ('mpmath.libmp.python_bitcount', 'numpy-xla'): (R3_BIG_INT, 'bc = bisect(powers, n)'),
    ('mpmath.libmp.python_bitcount', 'torch'): (R3_BIG_INT, 'bc = bisect(powers, n)'),
    ('mpmath.libmp.python_bitcount', 'tf'): (R3_BIG_INT, 'Python int too large to convert to C long'),
    ('mpmath.libmp.isqrt_small_python', 'numpy'): (R3_BIG_INT, 'bc = bisect(powers, n)'),
    ('mpmath.libmp.isqrt_small_python', 'numpy-xla'): (R3_BIG_INT, 'bc = bisect(powers, n)'),
    ('mpmath.libmp.isqrt_small_python', 'jax'): (R3_BIG_INT, 'An overflow was encountered while parsing an argument to a j'),
    ('mpmath.libmp.isqrt_small_python', 'torch'): (R3_BIG_INT, 'if x < _1_800:'),
    ('mpmath.libmp.isqrt_small_python', 'tf'): (R3_BIG_INT, 'Python int too large to convert to C long'),
    ('mpmath.libmp.moebius', 'numpy'): (R3_LIST_BRANCH, 'if not (n % p**2):'),
    ('mpmath.libmp.moebius', 'numpy-xla'): (R3_LIST_BRANCH, 'if not (n % p**2):'),
    ('mpmath.libmp.moebius', 'jax'): (R3_LIST_BRANCH, 'if not (n % p**2):'),
    ('mpmath.libmp.moebius', 'torch'): (R3_LIST_BRANCH, 'if not (n % p**2):'),
    ('mpmath.libmp.moebius', 'tf'): (R3_LIST_BRANCH, 'if not (n % p**2):'),

})


# The fourth round (python_stdlib4: statistics.NormalDist; numpy_financial:
# numpy-financial's whole module), on every backend.
R4_OBJECT_SWAP = ("two Python objects swapped by a staged if (NormalDist.overlap's `X, Y = Y, X` "
                  "after a tuple comparison): a graph chooses between arrays, not objects (a "
                  "StagingError naming the line)")
R4_DUNDER = ("an operator method of a user's class (NormalDist.__add__) runs unconverted, as "
             "Python's operator protocol calls it: float()/math.hypot of a staged value there "
             "(a SymbolicValueError naming the line; TensorFlow's __index__ StagingError)")
R4_ERRSTATE = ("np.errstate(divide='raise') around arithmetic on traced values: the framework's "
               "ops never raise, so nper's FloatingPointError handler would silently not run "
               "(refused: a StagingError naming the line)")
R4_ROOTS = ("np.roots (irr): eigenvalues of a companion matrix whose size depends on the values "
            "(leading zeros trimmed): not staged (a StagingError naming the line)")
BLOCKED.update({
    ("statistics.NormalDist (methods)", "jax"): (JAX_RAISE, "raise StatisticsError('sigma must be"),
    ("statistics.NormalDist (methods)", "torch"): (TORCH_RAISE, "raise StatisticsError('sigma must be"),
    ("statistics.NormalDist.overlap", "numpy"): (R4_OBJECT_SWAP, "is a different Python NormalDist"),
    ("statistics.NormalDist.overlap", "numpy-xla"): (R4_OBJECT_SWAP, "is a different Python NormalDist"),
    ("statistics.NormalDist.overlap", "jax"): (JAX_RAISE, "raise StatisticsError('sigma must be"),
    ("statistics.NormalDist.overlap", "torch"): (TORCH_RAISE, "raise StatisticsError('sigma must be"),
    ("statistics.NormalDist.overlap", "tf"): (R4_OBJECT_SWAP, "is a different Python NormalDist"),
    ("statistics.NormalDist (operators)", "numpy"): (R4_DUNDER, "cannot be converted with float()"),
    ("statistics.NormalDist (operators)", "numpy-xla"): (R4_DUNDER, "cannot be converted with float()"),
    ("statistics.NormalDist (operators)", "jax"): (JAX_RAISE, "raise StatisticsError('sigma must be"),
    ("statistics.NormalDist (operators)", "torch"): (TORCH_RAISE, "raise StatisticsError('sigma must be"),
    ("statistics.NormalDist (operators)", "tf"): (R4_DUNDER, ".__index__ of a graph tensor"),
    ("numpy_financial.nper", "numpy-xla"): (XLA_ERRSTATE, "which XLA does not have"),
    ("numpy_financial.nper", "jax"): (R4_ERRSTATE, "asks for floating-point errors to raise"),
    ("numpy_financial.nper", "torch"): (R4_ERRSTATE, "asks for floating-point errors to raise"),
    ("numpy_financial.nper", "tf"): (R4_ERRSTATE, "asks for floating-point errors to raise"),
    ("numpy_financial.irr", "numpy"): (R4_ROOTS, "numpy.roots is not supported on symbolic"),
    ("numpy_financial.irr", "numpy-xla"): (R4_ROOTS, "numpy.roots is not supported on symbolic"),
    ("numpy_financial.irr", "jax"): (R4_ROOTS, "runs as jnp.roots on the traced values"),
    ("numpy_financial.irr", "torch"): (TORCH_TRACED + ": a negative slice step, values[::-1]",
                                       "step must be greater than zero"),
    ("numpy_financial.irr", "tf"): (R4_ROOTS, "tf.experimental.numpy has no function of that name"),
    ("numpy_financial.mirr", "torch"):
        (TORCH_TRACED + ": np.arange(0, len(values)) in torch._numpy", "failed to convert"),
})



# The fifth round (properscoring: proper scoring rules, and its two numba kernels run as
# Python), on every backend.
R5_SPECIAL = ("scipy.special.ndtr on a traced tensor: PyTorch's and TensorFlow's NumPy have no "
              "scipy.special (a StagingError naming the line; JAX runs jax.scipy.special's)")
R5_NO_TWIN = ("a NumPy function the framework's NumPy lacks (np.nanmean in torch._numpy, "
              "np.rollaxis and np.unique in tf.experimental.numpy): a StagingError naming the line")
R5_SET = ("set() of the items of an array whose length the values set "
          "(set(np.unique(valid_obs)) <= {0, 1}): known only when the graph runs (a "
          "SymbolicValueError naming the line; before this round a silent wrong length)")
R5_RESULT = ("a guvectorize kernel's `result` argument written under a staged condition "
             "(result[0] = np.nan; return): its caller's array cannot see it (a StagingError: "
             "return the value instead)")
R12_HELD = ("a guvectorize kernel's `result` argument written in a staged construct under a "
            "framework whose write makes a new tensor: the caller's 'result' holds the same array "
            "and is read later (a StagingError naming it)")
R12_LOOP_RESULT = ("a guvectorize kernel's `result` argument written in a staged loop: its "
                   "caller's array cannot see it (a StagingError naming the caller's variable)")
BLOCKED.update({
    ("properscoring.crps_gaussian", "torch"): (R5_SPECIAL, "np.ndtr at"),
    ("properscoring.crps_gaussian", "tf"): (R5_SPECIAL, "np.ndtr at"),
    ("properscoring.crps_ensemble", "torch"): (R5_NO_TWIN, "np.nanmean at"),
    ("properscoring.crps_ensemble", "tf"): (R5_NO_TWIN, "np.rollaxis at"),
    ("properscoring.brier_score", "numpy"): (R5_SET, "cannot be given to len()"),
    ("properscoring.brier_score", "numpy-xla"): (R5_SET, "cannot be given to len()"),
    ("properscoring.brier_score", "jax"): (JAX_RAISE, "raise ValueError('forecasts must not be"),
    ("properscoring.brier_score", "torch"): (TORCH_RAISE, "raise ValueError('forecasts must not be"),
    ("properscoring.brier_score", "tf"): (R5_NO_TWIN, "np.unique at"),
    ("properscoring.threshold_brier_score", "numpy"): (R5_SET, "cannot be given to len()"),
    ("properscoring.threshold_brier_score", "numpy-xla"): (R5_SET, "cannot be given to len()"),
    ("properscoring.threshold_brier_score", "jax"): (JAX_RAISE, "raise ValueError('1D thresholds"),
    ("properscoring.threshold_brier_score", "torch"): (TORCH_RAISE, "raise ValueError('1D thresholds"),
    ("properscoring.threshold_brier_score", "tf"):
        (R3_TF_NDARRAY + ": a NumPy array written at a traced index", "NumPy needs the values of a graph tensor"),
    ("properscoring._crps_ensemble_gufunc", "numpy"):
        (R12_LOOP_RESULT, "'result' of drive_crps_kernel() holds the same array"),
    ("properscoring._crps_ensemble_gufunc", "numpy-xla"):
        (R12_LOOP_RESULT, "'result' of drive_crps_kernel() holds the same array"),
    ("properscoring._crps_ensemble_gufunc", "jax"):
        (R12_LOOP_RESULT, "under jax.jit the write gives 'result' a new array"),
    ("properscoring._crps_ensemble_gufunc", "torch"): (R12_HELD, "'result' holds the same array or one sharing its memory"),
    ("properscoring._crps_ensemble_gufunc", "tf"): (R12_HELD, "'result' holds the same array or one sharing its memory"),
    ("properscoring._threshold_brier_score_gufunc", "numpy"):
        (R12_LOOP_RESULT, "'result' of drive_brier_kernel() holds the same array"),
    ("properscoring._threshold_brier_score_gufunc", "numpy-xla"):
        (R12_LOOP_RESULT, "'result' of drive_brier_kernel() holds the same array"),
    ("properscoring._threshold_brier_score_gufunc", "jax"):
        (R12_LOOP_RESULT, "under jax.jit the write gives 'result' a new array"),
    ("properscoring._threshold_brier_score_gufunc", "torch"): (R12_HELD, "'result' holds the same array or one sharing its memory"),
    ("properscoring._threshold_brier_score_gufunc", "tf"): (R12_HELD, "'result' holds the same array or one sharing its memory"),
})

# The sixth round (SciPy's Kolmogorov-Smirnov pieces, _get_left_bracket, _boolrelextrema), on
# every backend.
R6_SIZE = ("an array whose length a staged value sets (np.arange(maxk, 0, -1) with maxk = "
           "int(np.ceil(16 * z / np.pi)); np.zeros([m, m]) with m = 2 * k - 1 from the value): "
           "compiled code has fixed shapes (an error naming the line)")
R6_TF_SIZE = R6_SIZE + (": tf.experimental.numpy's arange tests its graph-tensor bound as a "
                        "Python bool")
BLOCKED.update({
    ("scipy.stats._kolmogn_PelzGood", "numpy"): (R6_SIZE, "`ks = np.arange(maxk, 0, -1)`): its value"),
    ("scipy.stats._kolmogn_PelzGood", "numpy-xla"): (R6_SIZE, "`ks = np.arange(maxk, 0, -1)`): its value"),
    ("scipy.stats._kolmogn_PelzGood", "jax"): (R6_SIZE, "`ks = np.arange(maxk, 0, -1)`) runs as jnp.arange"),
    ("scipy.stats._kolmogn_PelzGood", "torch"): (R6_SIZE, "`ks = np.arange(maxk, 0, -1)`): GuardOnDataDependent"),
    ("scipy.stats._kolmogn_PelzGood", "tf"): (R6_TF_SIZE, "bool at /"),
    ("scipy.stats._kolmogn_DMTW", "numpy"): (R6_SIZE, "`H = np.zeros([m, m])`): its value"),
    ("scipy.stats._kolmogn_DMTW", "numpy-xla"): (R6_SIZE, "`H = np.zeros([m, m])`): its value"),
    ("scipy.stats._kolmogn_DMTW", "torch"): (R6_SIZE, "`H = np.zeros([m, m])`): TypeError"),
    ("scipy.stats._kolmogn_DMTW", "tf"): (R6_TF_SIZE, "(`intm = np.arange(1, m + 1)`), by code"),
    ("scipy.stats._get_left_bracket", "jax"): (JAX_RAISE, "raise FitSolverError(msg)"),
    ("scipy.stats._get_left_bracket", "torch"): (TORCH_RAISE, "raise FitSolverError(msg)"),
    ("scipy.signal._boolrelextrema", "torch"):
        ("an in-place operator of a NumPy array made in the function and a traced tensor "
         "(results &= comparator(main, plus), a NumPy bool array): a TypeError naming neither "
         "the line nor a remedy (before session 13, data.take(locs, "
         "axis=, mode=) was torch.Tensor.take's, which has no axis)",
         "unsupported operand type(s) for bitwise_and: 'numpy.ndarray' and 'Tensor' @ "
         "results &= comparator(main, plus)"),
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
