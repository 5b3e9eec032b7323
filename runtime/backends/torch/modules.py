"""``ag.convert(module)``: a module whose ``forward`` is its conversion.

The conversion is set on the instance as a method bound to the module, whose function is
one made per class's forward (``forward_of``) rather than a closure over the module,
so that what users do with modules keeps meaning what it did:

- ``copy.deepcopy(model)`` (an EMA or teacher copy) gives a module whose forward runs the
  copy's parameters (a closure would go on running the original's);
- ``inspect.signature(model.forward)`` is forward's, without ``self``;
- converting the module again changes nothing;
- ``torch.compile`` of many converted modules in one process: dynamo starts at the frame
  of the bound forward, whose ``self`` is the module, and counts its recompiles per module
  as for an unconverted forward (an object holding the module, or a closure, had every
  instance share one count: the ninth converted module compiled was "recompile limit
  exceeded").

``pickle``/``torch.save`` of the module store a bound method by its name: a loaded
module has the class's own forward (convert it again).

``torch.compile(module)`` has dynamo start at the frame of forward: the forward dynamo reads
calls the converted function as a non-strict region (one per class's forward), passing
``self.training`` so that dynamo guards on it.
"""

from __future__ import annotations

import inspect
import types
import weakref

_FORWARDS: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()  # function -> ours


_CONVERTED = "_autograph_converted_forward"  # marks the functions ``forward_of`` makes


def forward_of(function, convert):
    """The function a converted module's ``forward`` is bound to: calls the conversion of
    ``function`` (the class's forward) on the module as PyTorch's non-strict region."""
    ours = _FORWARDS.get(function)
    if ours is not None:
        return ours
    region = _region(convert(function))

    def forward(self, *args, **kwargs):
        return region(self, self.training, *args, **kwargs)

    forward.__name__, forward.__qualname__ = function.__name__, function.__qualname__
    forward.__doc__, forward.__module__ = function.__doc__, function.__module__
    forward.__signature__ = inspect.signature(function)
    setattr(forward, _CONVERTED, True)
    _FORWARDS[function] = forward
    return forward


def convert_forward(module, convert):
    """Set ``module.forward`` to the conversion of its class's forward; ``module``."""
    forward = module.forward
    function = getattr(forward, "__func__", None)
    if getattr(forward, "__self__", None) is not module or function is None:
        raise TypeError(f"ag.convert: the forward of {type(module).__name__} is not a method")
    if not getattr(function, _CONVERTED, False):
        module.forward = types.MethodType(forward_of(function, convert), module)
    return module


def _region(converted):
    """The non-strict region that calls ``converted`` (made once per class's forward:
    ``forward_of`` keeps what it makes)."""
    import torch

    from . import region_boundary, region_sizes

    def region(module, training, *args, **kwargs):
        return converted(module, *args, **kwargs)

    _named_as(region, converted)
    region_sizes.install()
    region_boundary.install()
    region_boundary.run_as_python(region.__code__)
    region = torch._dynamo.nonstrict_trace(region)
    region_sizes.regions.add(region)  # kept alive by the forward that calls it (_FORWARDS)
    return region


def _named_as(region, function) -> None:
    """Have ``region`` (a module's converted ``forward``, called with ``self.training``
    after the module) go by ``function``'s name and parameter names in messages."""
    region.__name__, region.__qualname__ = function.__name__, function.__qualname__
    try:
        params = list(inspect.signature(function).parameters.values())
        training = inspect.Parameter("_autograph_training", inspect.Parameter.POSITIONAL_ONLY)
        if params and params[0].kind in (inspect.Parameter.POSITIONAL_ONLY,
                                         inspect.Parameter.POSITIONAL_OR_KEYWORD):
            first = params[0].replace(kind=inspect.Parameter.POSITIONAL_ONLY)
            region.__signature__ = inspect.Signature([first, training, *params[1:]])
    except (TypeError, ValueError):  # no signature to read: arguments named by position
        return
