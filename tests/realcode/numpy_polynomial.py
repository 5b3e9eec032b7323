"""numpy.polynomial's helpers, copied verbatim (NumPy 2.4.6, BSD-3-Clause; see the
package docstring): trimming trailing zeros from a coefficient series, where the
length of the result depends on the values. Drivers at the end.
"""
# ruff: noqa
import numpy as np

from .cases import Case


# NumPy 2.4.6, numpy/polynomial/polyutils.py, trimseq; edits: none
def trimseq(seq):
    """Remove small Poly series coefficients.

    Parameters
    ----------
    seq : sequence
        Sequence of Poly series coefficients.

    Returns
    -------
    series : sequence
        Subsequence with trailing zeros removed. If the resulting sequence
        would be empty, return the first element. The returned sequence may
        or may not be a view.

    Notes
    -----
    Do not lose the type info if the sequence contains unknown objects.

    """
    if len(seq) == 0 or seq[-1] != 0:
        return seq
    else:
        for i in range(len(seq) - 1, -1, -1):
            if seq[i] != 0:
                break
        return seq[:i + 1]


# ---------------------------------------------------------------------------------
# Drivers: the series helpers trim coefficient arrays after arithmetic.


def drive_trimseq(c, xp):
    return trimseq(c)


CASES = [
    Case("numpy.polynomial.polyutils.trimseq", "NumPy 2.4.6, numpy/polynomial/polyutils.py",
         drive_trimseq,
         ((np.array([1.0, 2.0, 3.0]),), (np.array([1.0, 2.0, 0.0]),), (np.array([1.0, 0.0, 0.0]),))),
]
