"""mpmath's integer helpers, copied verbatim (mpmath 1.3.0, BSD-3-Clause, Copyright (c)
2005-2023 Fredrik Johansson and mpmath contributors; see the package docstring): the
pure-Python fallbacks of ``mpmath/libmp/libintmath.py`` (used when gmpy is absent):
trailing zero bits by a table lookup and a shift loop, the bit size by bisect, the
floor square root by Newton's iteration on integers, Euclid's gcd and the Moebius
function by trial division. They loop and branch on integer values. Drivers at the end.
"""
# ruff: noqa
import math
from bisect import bisect

import numpy as np

from .cases import Case

# mpmath 1.3.0, mpmath/libmp/backend.py: xrange is range on Python 3; edits: none
xrange = range


# mpmath 1.3.0, mpmath/libmp/libintmath.py, small_trailing; edits: none
small_trailing = [0] * 256
for j in range(1,8):
    small_trailing[1<<j::1<<(j+1)] = [j] * (1<<(7-j))


# mpmath 1.3.0, mpmath/libmp/libintmath.py, python_trailing; edits: none
def python_trailing(n):
    """Count the number of trailing zero bits in abs(n)."""
    if not n:
        return 0
    low_byte = n & 0xff
    if low_byte:
        return small_trailing[low_byte]
    t = 8
    n >>= 8
    while not n & 0xff:
        n >>= 8
        t += 8
    return t + small_trailing[n & 0xff]


# mpmath 1.3.0, mpmath/libmp/libintmath.py, python_bitcount; edits: none
def python_bitcount(n):
    """Calculate bit size of the nonnegative integer n."""
    bc = bisect(powers, n)
    if bc != 300:
        return bc
    bc = int(math.log(n, 2)) - 4
    return bc + bctable[n>>bc]


# mpmath 1.3.0, mpmath/libmp/libintmath.py, powers, bctable (bitcount is python_bitcount
# without gmpy); edits: none
powers = [1<<_ for _ in range(300)]
bitcount = python_bitcount
bctable = [bitcount(n) for n in range(1024)]


# mpmath 1.3.0, mpmath/libmp/libintmath.py, module constants; edits: none
_1_800 = 1<<800
_1_600 = 1<<600
_1_400 = 1<<400
_1_200 = 1<<200
_1_100 = 1<<100
_1_50 = 1<<50


# mpmath 1.3.0, mpmath/libmp/libintmath.py, isqrt_small_python; edits: none
def isqrt_small_python(x):
    """
    Correctly (floor) rounded integer square root, using
    division. Fast up to ~200 digits.
    """
    if not x:
        return x
    if x < _1_800:
        # Exact with IEEE double precision arithmetic
        if x < _1_50:
            return int(x**0.5)
        # Initial estimate can be any integer >= the true root; round up
        r = int(x**0.5 * 1.00000000000001) + 1
    else:
        bc = bitcount(x)
        n = bc//2
        r = int((x>>(2*n-100))**0.5+2)<<(n-50)  # +2 is to round up
    # The following iteration now precisely computes floor(sqrt(x))
    # See e.g. Crandall & Pomerance, "Prime Numbers: A Computational
    # Perspective"
    while 1:
        y = (r+x//r)>>1
        if y >= r:
            return r
        r = y


# mpmath 1.3.0, mpmath/libmp/libintmath.py, gcd; edits: none
def gcd(*args):
    a = 0
    for b in args:
        if a:
            while b:
                a, b = b, a % b
        else:
            a = b
    return a


# mpmath 1.3.0, mpmath/libmp/libintmath.py, moebius; edits: none
def moebius(n):
    """
    Evaluates the Moebius function which is `mu(n) = (-1)^k` if `n`
    is a product of `k` distinct primes and `mu(n) = 0` otherwise.

    TODO: speed up using factorization
    """
    n = abs(int(n))
    if n < 2:
        return n
    factors = []
    for p in xrange(2, n+1):
        if not (n % p):
            if not (n % p**2):
                return 0
            if not sum(p % f for f in factors):
                factors.append(p)
    return (-1)**len(factors)


# ---------------------------------------------------------------------------------
# Drivers: the libmp routines on 0-d int64 arrays (what mpmath's MPZ would be), values
# that take different branches.

_I = np.int64


def drive_trailing(n, xp):
    return python_trailing(n)


def drive_isqrt(x, xp):
    return isqrt_small_python(x)


def drive_gcd(a, b, c, xp):
    return gcd(a, b, c)


def drive_moebius(n, xp):
    return moebius(n)


def drive_bitcount(n, xp):
    return python_bitcount(n)


_SRC = "mpmath 1.3.0, mpmath/libmp/libintmath.py"
CASES = [
    Case("mpmath.libmp.python_trailing", _SRC, drive_trailing,
         tuple((_I(n),) for n in (0, 12, 1 << 20, 3 << 41))),
    Case("mpmath.libmp.python_bitcount", _SRC, drive_bitcount,
         tuple((_I(n),) for n in (0, 1, 1000, 1 << 40))),
    Case("mpmath.libmp.isqrt_small_python", _SRC, drive_isqrt,
         tuple((_I(n),) for n in (0, 17, 10 ** 12, (1 << 52) + 12345))),
    Case("mpmath.libmp.gcd", _SRC, drive_gcd,
         tuple(tuple(_I(v) for v in row) for row in ((12, 18, 27), (0, 14, 21), (7, 0, 0),
                                                      (1071, 462, 0)))),
    Case("mpmath.libmp.moebius", _SRC, drive_moebius,
         tuple((_I(n),) for n in (1, 30, 12, 7))),
]
