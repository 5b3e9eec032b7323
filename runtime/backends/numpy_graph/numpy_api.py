"""Which NumPy functions a graph may call, and what the compiler may assume of them.

Tracing records a call only for functions listed here; anything else raises an
error naming the function, instead of silently doing something wrong. The sets
also tell the optimizer what a function's result is: a freshly allocated array
(its buffer may be reused once dead), or possibly a view of an argument.
"""

from __future__ import annotations

import numpy as np

_NAMES = """
abs absolute add all allclose amax amin angle any append arange arccos arccosh arcsin
arcsinh arctan arctan2 arctanh argmax argmin argsort around array array_equal array_split
asarray ascontiguousarray atleast_1d atleast_2d atleast_3d average bincount bitwise_and
bitwise_not bitwise_or bitwise_xor broadcast_arrays broadcast_to cbrt ceil choose clip
column_stack concatenate conj conjugate copy copysign cos cosh count_nonzero cross cumprod
cumsum deg2rad degrees diag diagonal diff divide divmod dot dsplit dstack einsum empty_like
equal exp exp2 expand_dims expm1 eye fabs flatnonzero flip fliplr flipud float_power floor
floor_divide fmax fmin fmod full full_like gcd greater greater_equal heaviside hsplit hstack
hypot identity imag inner invert isclose isfinite isinf isnan isneginf isposinf kron lcm
ldexp left_shift less less_equal linspace log log10 log1p log2 logaddexp logaddexp2
logical_and logical_not logical_or logical_xor matmul max maximum mean median meshgrid min
minimum mod moveaxis multiply nan_to_num nanmax nanmean nanmin nansum ndim negative
nextafter nonzero not_equal ones ones_like outer pad percentile positive power prod ptp
quantile rad2deg radians ravel real reciprocal remainder repeat reshape right_shift rint roll
rollaxis rot90 round searchsorted shape sign signbit sin sinc sinh size sort split sqrt square
squeeze stack std subtract sum swapaxes take take_along_axis tan tanh tensordot tile trace
transpose tril triu true_divide trunc unique var vdot vsplit vstack where zeros zeros_like
argwhere cumulative_sum cumulative_prod extract compress select piecewise interp
linalg.norm linalg.inv linalg.det linalg.solve linalg.eigh linalg.eigvalsh linalg.svd
linalg.qr linalg.cholesky linalg.pinv linalg.matrix_power linalg.slogdet linalg.matrix_rank
linalg.lstsq linalg.eig linalg.eigvals linalg.multi_dot linalg.vector_norm linalg.matrix_norm
fft.fft fft.ifft fft.rfft fft.irfft fft.fft2 fft.ifft2 fft.fftn fft.ifftn fft.fftshift
fft.ifftshift
"""


def _resolve(name: str):
    obj = np
    for part in name.split("."):
        obj = getattr(obj, part, None)
        if obj is None:
            return None
    return obj


SUPPORTED: dict = {}
for _name in _NAMES.split():
    _fn = _resolve(_name)
    if _fn is not None:
        SUPPORTED[_fn] = "numpy." + _name

# Functions whose output shape depends on the values of their inputs.
DATA_DEPENDENT = {_resolve(n) for n in ["nonzero", "argwhere", "flatnonzero", "unique", "extract", "compress"]}
DATA_DEPENDENT.discard(None)

# Functions (besides ufuncs and operators) that always return newly allocated arrays.
FRESH = {_resolve(n) for n in ["concatenate", "stack", "vstack", "hstack", "dstack", "column_stack", "where", "zeros_like", "ones_like", "full_like", "empty_like", "copy", "clip", "cumsum", "cumprod", "sort", "argsort", "tile", "repeat", "outer", "matmul", "dot", "inner", "cross", "kron", "sum", "mean", "prod", "std", "var", "max", "min", "amax", "amin", "argmax", "argmin", "any", "all", "round", "around"]}
FRESH.discard(None)

# ndarray methods a graph may call; the second set returns new arrays.
METHODS = set(["all", "any", "argmax", "argmin", "argpartition", "argsort", "searchsorted", "astype", "clip", "conj", "conjugate", "copy", "cumprod", "cumsum", "diagonal", "dot", "flatten", "item", "max", "mean", "min", "nonzero", "prod", "ptp", "ravel", "repeat", "reshape", "round", "squeeze", "std", "sum", "swapaxes", "take", "tolist", "trace", "transpose", "var"])
FRESH_METHODS = set(["astype", "copy", "cumsum", "cumprod", "flatten", "sum", "mean", "prod", "max", "min", "std", "var", "clip"])

# ndarray attributes a graph may read (``shape``, ``dtype`` ... are static, see Tensor).
ATTRIBUTES = {"T", "real", "imag", "mT"}


def lookup(fn):
    """The public name of a supported function, or None."""
    try:
        return SUPPORTED.get(fn)
    except TypeError:
        return None
