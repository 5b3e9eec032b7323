"""Which objects are the user's own state: objects of the user's classes (not of the
runtime, NumPy or a framework, not installed in site-packages) and the user's classes
themselves. The in-place tracker (``inplace``) follows their attributes as state of a
staged construct; ``kept`` puts back the attributes a failed trace changed."""

from __future__ import annotations

import sys
import types

NOT_USER = ("builtins", "numpy", "jax", "jaxlib", "autograph", "torch", "tensorflow")


def user_object(obj) -> bool:
    """An instance of a user's class, with a ``__dict__`` (or the runtime's own in-place
    state, ``accumulate.Growing``)."""
    cls = type(obj)
    if getattr(cls, "restorable", False):
        return True
    module = cls.__module__ or ""
    if module.partition(".")[0] in NOT_USER or not getattr(cls, "__dictoffset__", 0):
        return False
    if isinstance(obj, (type, types.ModuleType, types.FunctionType, types.MethodType)):
        return False
    return _not_installed(module)


def user_class(obj) -> bool:
    """A class the user defined (``Box`` of ``Box.count += 1``)."""
    if not isinstance(obj, type):
        return False
    module = obj.__module__ or ""
    return module.partition(".")[0] not in NOT_USER and _not_installed(module)


def _not_installed(module: str) -> bool:
    path = getattr(sys.modules.get(module), "__file__", None) or ""
    return "site-packages" not in path
