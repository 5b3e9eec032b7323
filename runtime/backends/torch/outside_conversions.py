"""``k.float()``, ``k.to(torch.int64)`` in a staged branch, ``k`` a tensor from outside it,
under ``torch.compile``: a repair of PyTorch 2.13's ``FunctionalTensor``.

AOTAutograd traces a region with its tensors wrapped as ``FunctionalTensor``\\ s, under
``FunctionalTensorMode``. That class's conversion methods (``to``, and ``float``, ``long``,
``int``, ``bool``, ``double``, ``cpu``... which call it) are Python methods that first read
the running mode's ``export`` flag. Inside the graph of a ``cond`` or ``while_loop`` branch
the mode is not running (the operator functionalizes its branches another way), so a
branch that converts a tensor it reads from outside fails there (``AttributeError:
'NoneType' object has no attribute 'export'``) before the branch's tensor-function mode
(``backend._Passing``) can give it the operand standing for that tensor. ``install``
wraps ``FunctionalTensor.to``: with no such mode running it is ``torch.Tensor.to``,
which the branch's mode sees; otherwise PyTorch's own.
"""

from __future__ import annotations

import torch

from .patches import wrap_once


def install() -> None:
    """Install the wrapper once (a no-op where PyTorch lacks ``FunctionalTensor.to``)."""
    try:
        from torch._subclasses.functional_tensor import FunctionalTensor
        from torch.utils._python_dispatch import _detect_infra_mode
    except ImportError:
        return
    key = torch._C._TorchDispatchModeKey.FUNCTIONAL

    def wrap(original):
        def to(self, *args, **kwargs):
            if _detect_infra_mode(key) is None:
                return torch.Tensor.to(self, *args, **kwargs)
            return original(self, *args, **kwargs)
        return to

    wrap_once(FunctionalTensor, "to", wrap)
