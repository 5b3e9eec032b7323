"""Pure-Python numerical code from CPython's standard library, copied verbatim
(CPython 3.11.7, PSF License Version 2; see the package docstring): colour-space
conversions that branch on their values (colorsys) and the pure-Python binary search
of bisect. They use only operators and builtins, so they run on JAX arrays as well.
Drivers are at the end.
"""
# ruff: noqa
import numpy as np

from .cases import Case


# CPython 3.11.7, Lib/colorsys.py, module constants; edits: none
ONE_THIRD = 1.0/3.0
ONE_SIXTH = 1.0/6.0
TWO_THIRD = 2.0/3.0


# CPython 3.11.7, Lib/colorsys.py, rgb_to_hls; edits: none
def rgb_to_hls(r, g, b):
    maxc = max(r, g, b)
    minc = min(r, g, b)
    sumc = (maxc+minc)
    rangec = (maxc-minc)
    l = sumc/2.0
    if minc == maxc:
        return 0.0, l, 0.0
    if l <= 0.5:
        s = rangec / sumc
    else:
        s = rangec / (2.0-maxc-minc)  # Not always 2.0-sumc: gh-106498.
    rc = (maxc-r) / rangec
    gc = (maxc-g) / rangec
    bc = (maxc-b) / rangec
    if r == maxc:
        h = bc-gc
    elif g == maxc:
        h = 2.0+rc-bc
    else:
        h = 4.0+gc-rc
    h = (h/6.0) % 1.0
    return h, l, s


# CPython 3.11.7, Lib/colorsys.py, hls_to_rgb; edits: none
def hls_to_rgb(h, l, s):
    if s == 0.0:
        return l, l, l
    if l <= 0.5:
        m2 = l * (1.0+s)
    else:
        m2 = l+s-(l*s)
    m1 = 2.0*l - m2
    return (_v(m1, m2, h+ONE_THIRD), _v(m1, m2, h), _v(m1, m2, h-ONE_THIRD))


# CPython 3.11.7, Lib/colorsys.py, _v; edits: none
def _v(m1, m2, hue):
    hue = hue % 1.0
    if hue < ONE_SIXTH:
        return m1 + (m2-m1)*hue*6.0
    if hue < 0.5:
        return m2
    if hue < TWO_THIRD:
        return m1 + (m2-m1)*(TWO_THIRD-hue)*6.0
    return m1


# CPython 3.11.7, Lib/colorsys.py, rgb_to_hsv; edits: none
def rgb_to_hsv(r, g, b):
    maxc = max(r, g, b)
    minc = min(r, g, b)
    rangec = (maxc-minc)
    v = maxc
    if minc == maxc:
        return 0.0, 0.0, v
    s = rangec / maxc
    rc = (maxc-r) / rangec
    gc = (maxc-g) / rangec
    bc = (maxc-b) / rangec
    if r == maxc:
        h = bc-gc
    elif g == maxc:
        h = 2.0+rc-bc
    else:
        h = 4.0+gc-rc
    h = (h/6.0) % 1.0
    return h, s, v


# CPython 3.11.7, Lib/bisect.py, bisect_left; edits: none (the pure-Python definition; the module replaces it with the C version from _bisect)
def bisect_left(a, x, lo=0, hi=None, *, key=None):
    """Return the index where to insert item x in list a, assuming a is sorted.

    The return value i is such that all e in a[:i] have e < x, and all e in
    a[i:] have e >= x.  So if x already appears in the list, a.insert(i, x) will
    insert just before the leftmost x already there.

    Optional args lo (default 0) and hi (default len(a)) bound the
    slice of a to be searched.
    """

    if lo < 0:
        raise ValueError('lo must be non-negative')
    if hi is None:
        hi = len(a)
    # Note, the comparison uses "<" to match the
    # __lt__() logic in list.sort() and in heapq.
    if key is None:
        while lo < hi:
            mid = (lo + hi) // 2
            if a[mid] < x:
                lo = mid + 1
            else:
                hi = mid
    else:
        while lo < hi:
            mid = (lo + hi) // 2
            if key(a[mid]) < x:
                lo = mid + 1
            else:
                hi = mid
    return lo


# ---------------------------------------------------------------------------------
# Drivers: colour components as 0-d arrays; a sorted array and a key to look up.

f64 = np.float64


def drive_rgb_to_hls(r, g, b, xp):
    return rgb_to_hls(r, g, b)


def drive_hls_to_rgb(h, l, s, xp):
    return hls_to_rgb(h, l, s)


def drive_rgb_to_hsv(r, g, b, xp):
    return rgb_to_hsv(r, g, b)


def drive_bisect_left(a, x, xp):
    return bisect_left(a, x)


_RGB = tuple(tuple(f64(v) for v in rgb) for rgb in
             ((0.2, 0.2, 0.2), (0.9, 0.3, 0.1), (0.1, 0.8, 0.3), (0.2, 0.3, 0.7)))
_SRC = "CPython 3.11.7, Lib/colorsys.py"

CASES = [
    Case("colorsys.rgb_to_hls", _SRC, drive_rgb_to_hls, _RGB),
    Case("colorsys.hls_to_rgb", _SRC, drive_hls_to_rgb,
         tuple(tuple(f64(v) for v in hls) for hls in
               ((0.3, 0.5, 0.0), (0.05, 0.3, 0.6), (0.55, 0.7, 0.4), (0.9, 0.5, 1.0)))),
    Case("colorsys.rgb_to_hsv", _SRC, drive_rgb_to_hsv, _RGB),
    Case("bisect.bisect_left", "CPython 3.11.7, Lib/bisect.py", drive_bisect_left,
         tuple((np.array([1.0, 2.0, 2.0, 5.0, 8.0, 13.0]), f64(x)) for x in (2.0, 0.5, 7.0, 20.0))),
]
