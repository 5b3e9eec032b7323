"""A variable a ``try``'s handler reads is carried in place (``shared``) by the staged
``if``s around and after the ``try``; assigned by a staged ternary inside a staged
``if`` after it, in the ``else`` of another staged ``if``, it still has eager's value
on every path. (A repro of the random programs, reported as an escaped-value refusal
on the NumPy engine; kept here as a regression test.)"""

import numpy as np


def handler_reads_a(a, b):
    c = a
    if 0 < a:
        a = 0 if 0 < 0 else 0
    else:
        try:
            if 0 < 0:
                a = 0
        except ZeroDivisionError:
            a += 0
            a = 0
        if a % 2:
            a = 0 if 0 < b else 1
            return 0, b, c
    return a, b, c


def test_variable_a_handler_reads(backend):
    for a, b in ((1, 1), (-1, 2), (-3, 0), (-3, 5), (0, 0)):
        backend.check(handler_reads_a, np.int32(a), np.int32(b))
        backend.check(handler_reads_a, np.array(a, np.int32), np.array(b, np.int32))
