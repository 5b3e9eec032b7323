"""The real-code corpus survives saving: each case that matches eager under
``ag.function`` (not in ``BLOCKED``) matches it again after the traced function is
saved and loaded — raises, writes into arguments, ``None`` results and all. A case
whose graph cannot be saved is in ``NOT_SAVED``, with the refusal it must give."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import autograph as ag
from realcode.harness import _compare, _copy, assert_same
from realcode.test_realcode import BLOCKED, CASES

NOT_SAVED = {
    # SciPy's BracketError carries the bracket as an attribute (e.data = (xa, ...)): in
    # the graph those are symbolic tensors of the trace, not values a file can hold.
    "scipy.optimize.bracket": "the raise at scipy_optimize.py:186 (`raise e`) raises a "
                              "BracketError whose attribute 'data' holds the symbolic tensor",
    # np.piecewise is given the copied module's Chebyshev functions: a file names only
    # NumPy's, math's and builtin functions.
    "numpy.i0": "names realcode.numpy_lib._i0_1, which is not NumPy's, math's or a builtin",
    # properscoring's _normcdf is scipy.special.ndtr, a ufunc that is not NumPy's.
    "properscoring.crps_gaussian": "the call of the ufunc 'ndtr' at properscoring_pieces.py:",
}


@pytest.mark.parametrize("name", [n for n in CASES if (n, "numpy") not in BLOCKED])
def test_loaded_function_matches_eager(name, tmp_path):
    case = CASES[name]
    staged = ag.function(case.driver)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for args in case.inputs:  # one graph serves every input; trace it
            try:
                staged(*_copy(args), xp=np)
            except Exception:  # noqa: BLE001 - an input that raises, as eagerly
                pass
        if name in NOT_SAVED:
            with pytest.raises(ValueError) as refused:
                staged.save(tmp_path / "case.npz")
            assert NOT_SAVED[name] in str(refused.value)
            return
        staged.save(tmp_path / "case.npz")
        loaded = ag.load(tmp_path / "case.npz")
        for args in case.inputs:
            eager_args, loaded_args = _copy(args), _copy(args)
            _compare(lambda: case.driver(*eager_args, xp=np),
                     lambda: loaded(*loaded_args, xp=np))
            assert_same(eager_args, loaded_args, "arguments after the call")
