"""The PyTorch backend's side of ``numeric_builtins``: the builtins and ``math`` on
tracing tensors, as ``torch`` ops. A traced program cannot hand a Python number back
to Python, so ``int(t)``/``float(t)``/``bool(t)`` give 0-d tensors of Python's
precision (int64, float64, bool), and ``math`` functions tensors of the kind Python
returns; outside their domain they give what ``torch`` gives (NaN, inf)."""

from __future__ import annotations

import torch

from ...staging import numeric as numeric_builtins

_TWINS = {"fabs": torch.abs, "asin": torch.asin, "acos": torch.acos, "atan": torch.atan,
          "atan2": torch.atan2, "pow": torch.pow, "erf": torch.erf, "erfc": torch.erfc,
          "degrees": torch.rad2deg, "radians": torch.deg2rad, "copysign": torch.copysign,
          "fmod": torch.fmod, "hypot": torch.hypot}
_KINDS = {int: torch.int64, float: torch.float64, bool: torch.bool}


def _scalar(x) -> torch.Tensor:
    x = torch.as_tensor(x)
    if x.numel() != 1 or x.dim() != 0:
        raise TypeError("only 0-dimensional tensors can be converted to Python scalars")
    return x


def _as_python(x: torch.Tensor, kind) -> torch.Tensor:
    """``x`` as the tensor standing for a Python ``kind`` (int truncates, as ``int`` does)."""
    if kind is bool:
        return x if x.dtype == torch.bool else x != 0
    if kind is int and (x.dtype.is_floating_point):
        x = torch.trunc(x)
    return x.to(_KINDS[kind])


def numeric(name: str, args, kwargs):
    if name in ("min", "max"):
        items = numeric_builtins.python_min_max(name, args, kwargs)
        if items is None:
            return (torch.amin if name == "min" else torch.amax)(args[0])
        pair = torch.minimum if name == "min" else torch.maximum
        best = torch.as_tensor(items[0])
        for item in items[1:]:
            best = pair(best, torch.as_tensor(item))
        return best
    if name == "abs":
        return torch.abs(args[0])
    if name == "round":
        x, ndigits = args[0], (args[1:] or (kwargs.get("ndigits"),))[0]
        if ndigits is not None:
            return torch.round(x, decimals=ndigits)
        if not x.dtype.is_floating_point:
            return x
        return _as_python(torch.round(_scalar(x)), int)
    if name in ("int", "float", "bool"):
        return _as_python(_scalar(args[0]), {"int": int, "float": float, "bool": bool}[name])
    if name.startswith("math."):
        short = name[5:]
        values = [_scalar(a).to(torch.float64) if not isinstance(a, torch.Tensor) else _scalar(a)
                  for a in args]
        kind = numeric_builtins.result_kind(short)
        if kind is tuple:  # math.modf: (fractional, integral) parts
            whole = torch.trunc(values[0])
            return _as_python(values[0] - whole, float), _as_python(whole, float)
        fn = _TWINS.get(short) or getattr(torch, short)
        return _as_python(fn(*values), kind)
    if name in ("numpy.asarray", "numpy.array"):
        return _asarray(name, *args, **kwargs)
    if name in ("where", "logical_or"):
        return getattr(torch, name)(*args)
    raise TypeError(f"torch: {name}() of a traced tensor is not supported")


_MUST_COPY = (
    "Unable to avoid copy while creating an array as requested.\nIf using "
    "`np.array(obj, copy=False)` replace it with `np.asarray(obj)` to allow a copy when "
    "needed (no behavior change in NumPy 1.x).\nFor more details, see "
    "https://numpy.org/devdocs/numpy_2_0_migration_guide.html"
    "#adapting-to-changes-in-the-copy-keyword.")


def _asarray(name, obj, dtype=None, *, copy=None, ndmin=0, order=None, like=None):
    """``np.asarray``/``np.array`` with a tracing tensor in ``obj``: PyTorch's NumPy
    (``torch._numpy``) makes the array, with NumPy's dtypes; a list or tuple of tensors
    is their stack. ``np.array`` copies, as does ``copy=True``."""
    import numpy as np
    import torch._numpy as tnp

    def make(item):
        if isinstance(item, (list, tuple)):
            return tnp.stack([make(i) for i in item])
        return tnp.asarray(item)

    array = make(obj)
    if dtype is not None:
        array = array.astype(np.dtype(dtype).name)
    tensor = array.tensor
    if copy is False and not (isinstance(obj, torch.Tensor) and tensor.dtype == obj.dtype):
        raise ValueError(_MUST_COPY)  # NumPy 2's copy=False where a new array is needed
    if copy or (name == "numpy.array" and copy is None and tensor is obj):
        tensor = tensor.clone()
    for _ in range(ndmin - tensor.dim()):
        tensor = tensor.unsqueeze(0)
    return tensor
