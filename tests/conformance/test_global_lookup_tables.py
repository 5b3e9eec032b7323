"""A module's lookup table indexed by a staged value, as Python indexes it.

Numerical code keeps small tables at module level and indexes them with a value it
computed (mpmath's ``small_trailing[n & 0xff]``: the trailing zero bits of a byte).
Eagerly the index is a Python or NumPy integer; staged it is a traced one, which a
Python list cannot take. A global (or closure variable) list or tuple indexed by a
staged value is the same select among its stacked items that a local list gets;
a dict, or a table indexed by a Python value, is indexed as it is.
"""

import numpy as np

TRAILING = [0, 0, 1, 0, 2, 0, 1, 0]  # trailing zero bits of 0..7 (0 for 0)
SCALES = (0.5, 1.0, 2.0, 4.0)
NAMES = {0: "zero", 1: "one"}


def trailing_bits(n):
    if n & 7:
        return TRAILING[n & 7]
    return 3 + TRAILING[(n // 8) % 8]


def scaled(x, k):
    return x * SCALES[k % 4]


def with_python_keys(x, k):
    return x + len(NAMES[k]) + TRAILING[k + 2]


def closure_table(x, i):
    table = [1.5, -2.0, 3.25]

    def pick(j):
        return table[j]
    return x * pick(i)


def test_a_global_list_indexed_by_a_staged_integer(backend):
    for n in (1, 4, 6, 8, 40):
        backend.check(trailing_bits, np.int64(n))


def test_a_global_tuple_indexed_by_a_staged_expression(backend):
    for k in (0, 3, 6):
        backend.check(scaled, np.float64(1.5), np.int64(k))


def test_tables_indexed_by_python_values_are_indexed_as_they_are(backend):
    backend.check(with_python_keys, np.float64(1.0), 1)


def test_a_closure_variable_table(backend):
    for i in (0, 2):
        backend.check(closure_table, np.float64(2.0), np.int64(i))
