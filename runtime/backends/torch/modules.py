"""``ag.convert(module)``: a module whose ``forward`` is its conversion.

The conversion is set on the instance as a ``ConvertedForward``, an object that holds the
module and the class's forward, rather than a closure, so that what users do with modules
keeps meaning what it did:

- ``copy.deepcopy(model)`` (an EMA or teacher copy) gives a module whose forward runs the
  copy's parameters (a closure would go on running the original's);
- ``torch.save(model)`` and ``pickle`` store it: loading converts the class's forward again;
- ``inspect.signature(model.forward)`` is forward's, without ``self``;
- converting the module again changes nothing.

``torch.compile(module)`` has dynamo start at the frame of forward: the forward dynamo reads
calls the converted function as a non-strict region (one per class's forward), passing
``self.training`` so that dynamo guards on it (what a region reads is not guarded).
"""

from __future__ import annotations

import inspect
import types
import weakref

_REGIONS: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()  # converted -> region


class ConvertedForward:
    """The ``forward`` of a module ``ag.convert`` converted: calls the conversion of
    ``function`` (the class's forward) on ``module`` as PyTorch's non-strict region."""

    def __init__(self, module, function, convert) -> None:
        self.__self__, self.__wrapped__, self.convert = module, function, convert
        self.__name__, self.__qualname__ = function.__name__, function.__qualname__
        self.__doc__ = function.__doc__
        self.region = _region(convert(function))

    def __call__(self, *args, **kwargs):
        module = self.__self__
        return self.region(module, module.training, *args, **kwargs)

    def __reduce__(self):
        return ConvertedForward, (self.__self__, self.__wrapped__, self.convert)

    @property
    def __signature__(self) -> inspect.Signature:
        return inspect.signature(types.MethodType(self.__wrapped__, self.__self__))

    @property
    def __code__(self):  # torch.export reads it (where its fake tensors come from)
        return self.__wrapped__.__code__

    def __repr__(self) -> str:
        return f"<converted forward of {type(self.__self__).__name__}>"


def convert_forward(module, convert):
    """Set ``module.forward`` to the conversion of its class's forward; ``module``."""
    forward = module.forward
    if isinstance(forward, ConvertedForward) and forward.__self__ is module:
        return module
    function = getattr(forward, "__func__", None)
    if function is None or getattr(forward, "__self__", None) is not module:
        raise TypeError(f"ag.convert: the forward of {type(module).__name__} is not a method")
    module.forward = ConvertedForward(module, function, convert)
    return module


def _region(converted):
    """The non-strict region that calls ``converted`` (one per converted function)."""
    region = _REGIONS.get(converted)
    if region is not None:
        return region
    import torch

    from . import region_boundary, region_sizes

    def region(module, training, *args, **kwargs):
        return converted(module, *args, **kwargs)

    _named_as(region, converted)
    region_sizes.install()
    region_boundary.install()
    region_boundary.run_as_python(region.__code__)
    region = torch._dynamo.nonstrict_trace(region)
    region_sizes.regions.add(region)  # kept alive by _REGIONS, as long as converted
    _REGIONS[converted] = region
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
