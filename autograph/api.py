"""The public API: ``convert``, ``to_graph``, ``to_code``, ``do_not_convert``."""

from __future__ import annotations

import ast
import functools
import types
from typing import Any, Callable, Optional

import gast

from . import conversion, trees
from .runtime import calls
from .runtime.calls import do_not_convert
from .runtime.errors import ConversionError

__all__ = ["convert", "to_graph", "to_code", "do_not_convert"]


def to_graph(entity: Callable, recursive: bool = True) -> Callable:
    """The converted version of a function, method, lambda, partial or callable object.

    The result behaves exactly like ``entity`` on Python values; under a trace
    (``autograph.function``, ``jax.jit``) its control flow on staged values
    becomes graph ops. With ``recursive=True`` functions it calls are converted
    too, when the calls happen in staged code.
    """
    if isinstance(entity, types.MethodType):
        return types.MethodType(to_graph(entity.__func__, recursive), entity.__self__)
    if isinstance(entity, functools.partial):
        return functools.partial(to_graph(entity.func, recursive), *entity.args, **entity.keywords)
    if isinstance(entity, (staticmethod, classmethod)):
        return type(entity)(to_graph(entity.__func__, recursive))
    if isinstance(entity, types.FunctionType):
        return conversion.convert(entity, recursive)
    call = getattr(type(entity), "__call__", None)
    if isinstance(call, types.FunctionType) and not isinstance(entity, type):
        return types.MethodType(conversion.convert(call, recursive), entity)
    raise ConversionError(
        f"cannot convert {entity!r}: autograph converts functions, methods, lambdas, "
        f"functools.partial objects and callable objects"
    )


def convert(fn: Optional[Callable] = None, *, recursive: bool = True) -> Any:
    """Decorator form of ``to_graph``: ``@convert`` or ``@convert(recursive=False)``."""
    if fn is None:
        return functools.partial(convert, recursive=recursive)
    converted = to_graph(fn, recursive)
    if isinstance(converted, types.FunctionType):
        return converted
    return functools.wraps(fn)(converted) if isinstance(converted, functools.partial) else converted


def to_code(entity: Callable, recursive: bool = True) -> str:
    """The source code of ``entity``'s staged body, as converted code runs it under a trace."""
    if isinstance(entity, (types.MethodType, staticmethod, classmethod)):
        entity = entity.__func__
    elif isinstance(entity, functools.partial):
        entity = entity.func
    elif not isinstance(entity, types.FunctionType):
        call = getattr(type(entity), "__call__", None)
        if not isinstance(call, types.FunctionType):
            raise ConversionError(f"cannot convert {entity!r}: not a Python function")
        entity = call
    entity = getattr(entity, "__wrapped__", entity) if entity.__code__ in calls.converted_codes else entity
    node = conversion.staged_source_node(entity, recursive)
    return unparse(node)


def unparse(node) -> str:
    return ast.unparse(trees.to_ast(gast.Module(body=[node], type_ignores=[]))) + "\n"


def _convert_for_calls(fn: types.FunctionType) -> types.FunctionType:
    """What ``ag__.converted`` uses: conversion that falls back to the original."""
    try:
        return conversion.convert(fn, recursive=True)
    except ConversionError as e:
        import warnings

        warnings.warn(f"autograph: calling {fn.__qualname__} unconverted: {e}", stacklevel=3)
        return fn


calls.set_converter(_convert_for_calls)
