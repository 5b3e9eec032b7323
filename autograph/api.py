"""The public API: ``convert``, ``to_graph``, ``to_code``, ``do_not_convert``."""

from __future__ import annotations

import ast
import functools
import inspect
import sys
import types
from typing import Any, Callable, Optional, TypeVar, overload

import gast

from . import conversion, deep, templates, trees
from .naming import Namer
from .runtime.operators import calls
from .runtime.operators.calls import do_not_convert
from .runtime.staging import backend as backends
from .runtime.staging.errors import ConversionError
from .runtime.staging.progress import logger
from .runtime.staging.source_text import SourceText

__all__ = ["convert", "to_graph", "to_code", "do_not_convert"]

F = TypeVar("F", bound=Callable[..., Any])

_KINDS = "autograph converts functions, methods, lambdas, functools.partial objects and callable objects"


def to_graph(entity: F, recursive: bool = True) -> F:
    """Convert a function so its control flow can become graph operations.

    On Python values the result behaves exactly like ``entity``; under a trace
    (``autograph.function``, ``jax.jit``, ``torch.compile`` or ``torch.export``,
    ``tf.function``) its ``if``, ``while`` and ``for`` on staged values become
    graph ops. Conversions are cached: converting the same function again costs a
    dictionary lookup, and converting a converted function returns it.

    Args:
        entity: A function, nested function or closure, lambda, method (bound,
            unbound, static or class method), ``functools.partial`` or callable
            object; or a Keras layer or model, whose ``call`` (and that of every
            user-defined layer in it) is converted in place; or a PyTorch
            ``nn.Module``, whose ``forward`` is converted in place.
        recursive: Also convert the user functions ``entity`` calls, when the
            calls happen in staged code.

    Returns:
        The converted callable, of the same kind as ``entity`` (a bound method
        for a bound method, a ``functools.partial`` for a partial); a Keras layer
        or model, or a PyTorch module, is returned itself.

    Raises:
        ConversionError: ``entity`` is not one of the kinds above (a builtin,
            a class), or its source code is not available.

    Example:
        >>> import autograph as ag
        >>> def sign(x):
        ...     return 1 if x > 0 else -1
        >>> ag.to_graph(sign)(-3)
        -1
    """
    if isinstance(entity, types.MethodType):
        return types.MethodType(to_graph(entity.__func__, recursive), entity.__self__)  # type: ignore[return-value]
    if isinstance(entity, functools.partial):
        return functools.partial(to_graph(entity.func, recursive), *entity.args, **entity.keywords)  # type: ignore[return-value]
    if isinstance(entity, (staticmethod, classmethod)):
        return type(entity)(to_graph(entity.__func__, recursive))  # type: ignore[return-value]
    if isinstance(entity, types.FunctionType):
        return _entry_point(conversion.convert(entity, recursive))  # type: ignore[return-value]
    if _is_keras_layer(entity):
        return _convert_layers(entity, recursive)
    for backend in backends.present():  # a PyTorch module: its forward converted
        converted = backend.convert_object(entity, _ToGraph(recursive))
        if converted is not None:
            return converted
    call = calls.call_method(type(entity)) if not isinstance(entity, type) else None
    if isinstance(call, staticmethod) and isinstance(call.__func__, types.FunctionType):
        return conversion.convert(call.__func__, recursive)  # type: ignore[return-value]
    if isinstance(call, classmethod) and isinstance(call.__func__, types.FunctionType):
        return types.MethodType(conversion.convert(call.__func__, recursive), type(entity))  # type: ignore[return-value]
    if isinstance(call, types.FunctionType):
        return types.MethodType(conversion.convert(call, recursive), entity)  # type: ignore[return-value]
    raise ConversionError(f"cannot convert {entity!r}: {_KINDS}")


class _ToGraph:
    """``to_graph`` with ``recursive`` fixed: what a converted PyTorch module keeps to
    convert its forward again when it is copied or loaded (a lambda would not pickle)."""

    def __init__(self, recursive: bool) -> None:
        self.recursive = recursive

    def __call__(self, fn):
        return to_graph(fn, self.recursive)


def _entry_point(fn: types.FunctionType) -> types.FunctionType:
    """``fn`` (converted) goes to the user: tell the frameworks that need to know."""
    for backend in backends.present():
        backend.entry_point(fn)
    return fn


def _is_keras_layer(entity: Any) -> bool:
    return not isinstance(entity, type) and hasattr(entity, "call") and any(
        (c.__module__ or "").partition(".")[0] in ("keras", "tf_keras")
        and c.__name__ == "Layer" for c in type(entity).__mro__)


def _convert_layers(layer: Any, recursive: bool) -> Any:
    """A Keras layer or model with the ``call`` of each of its user-defined layers (itself
    and nested ones) converted in place: Keras calls ``self.call`` from ``__call__``, and
    everything else (weights, ``fit``, ``predict``, ``save``) stays Keras's. A ``call``
    that is a ``tf.function`` stays one, around the converted function (with TensorFlow's
    own AutoGraph off)."""
    nested = getattr(layer, "_flatten_layers", None)
    for each in nested(include_self=True, recursive=True) if nested else [layer]:
        call = inspect.getattr_static(each, "call")
        python_function = getattr(call, "python_function", None)
        fn = python_function or call
        if not isinstance(fn, types.FunctionType) or fn.__module__.partition(".")[0] in (
                "keras", "tf_keras"):
            continue  # Keras's own call: no control flow of the user's to convert
        bound = types.MethodType(conversion.convert(fn, recursive), each)
        if python_function is not None:
            tf = sys.modules["tensorflow"]
            bound = tf.function(bound, autograph=False,
                                jit_compile=getattr(call, "_jit_compile", None))
        each.call = bound
    return layer


@overload
def convert(fn: F, *, recursive: bool = True) -> F: ...
@overload
def convert(fn: None = None, *, recursive: bool = True) -> Callable[[F], F]: ...


def convert(fn: Optional[F] = None, *, recursive: bool = True) -> Any:
    """Decorator form of ``to_graph``: ``@convert`` or ``@convert(recursive=False)``.

    Args:
        fn: The function to convert; omitted when options are given.
        recursive: Also convert the user functions ``fn`` calls in staged code.

    Returns:
        The converted function (see ``to_graph``), or, called with options
        only, a decorator that converts.

    Raises:
        ConversionError: ``fn`` cannot be converted (see ``to_graph``).

    Example:
        >>> import autograph as ag
        >>> @ag.convert
        ... def collatz_steps(n):
        ...     steps = 0
        ...     while n != 1:
        ...         n = n // 2 if n % 2 == 0 else 3 * n + 1
        ...         steps += 1
        ...     return steps
        >>> collatz_steps(27)
        111
    """
    if fn is None:
        return functools.partial(convert, recursive=recursive)
    converted = to_graph(fn, recursive)
    if isinstance(converted, types.FunctionType):
        return converted
    return functools.wraps(fn)(converted) if isinstance(converted, functools.partial) else converted


def to_code(entity: Callable[..., Any], recursive: bool = True) -> str:
    """The converted source code of ``entity``: what runs under a trace.

    The text is valid Python in which control flow calls the ``ag__``
    operators. It is a ``str``; in IPython and Jupyter it displays as
    highlighted code.

    Args:
        entity: Any callable ``to_graph`` accepts (for a method, partial or
            callable object, the code of the underlying function; for an
            ``autograph.function``, of the function it was made from, its
            ``python_function``).
        recursive: As for ``to_graph``.

    Returns:
        The source of the converted function's staged body, ending in a newline.

    Raises:
        ConversionError: ``entity`` is not a Python function (a builtin, a
            partial of a builtin), or its source code is not available.

    Example:
        >>> import autograph as ag
        >>> def absolute(x):
        ...     return x if x > 0 else -x
        >>> print(ag.to_code(absolute))
        def absolute(x):
            return ag__.choose(x > 0, lambda: x, lambda: -x)()
        <BLANKLINE>
    """
    function = _function_of(entity)
    if calls.made_by_conversion(function.__code__):
        function = getattr(function, "__wrapped__", function)
    node = conversion.staged_source_node(function, recursive)
    try:
        return deep.call(unparse, node)
    except RecursionError:
        code = function.__code__
        raise conversion.too_deep(code.co_filename, code.co_firstlineno, function.__qualname__) from None


def _function_of(entity: Any) -> types.FunctionType:
    """The Python function whose code ``to_code`` shows for ``entity``: an
    ``autograph.function`` shows the user's function (its ``python_function``)."""
    inner = entity
    wrapped = getattr(type(inner), "python_function", None) is None and \
        getattr(inner, "python_function", None)
    if callable(wrapped) and not isinstance(inner, (types.FunctionType, type)):
        inner = wrapped
    if isinstance(inner, (types.MethodType, staticmethod, classmethod)):
        inner = inner.__func__
    elif isinstance(inner, functools.partial):
        inner = inner.func
    elif not isinstance(inner, types.FunctionType) and not isinstance(inner, type):
        call = getattr(type(inner), "__call__", None)
        if isinstance(call, types.FunctionType):
            inner = call
    if isinstance(inner, types.FunctionType):
        return inner
    what = "not a Python function" if inner is entity else f"{inner!r} is not a Python function"
    raise ConversionError(f"cannot convert {entity!r}: {what}")


def unparse(node: Any) -> SourceText:
    """Source text of a converted def, as ``to_code`` and the CLI show it.

    A nested function keeps both bodies in the compiled code (it may be called
    on Python values); the text shows only its staged body, as for the top-level
    function.
    """
    node = _shown(node, node)
    runtime = Namer.for_tree(node).new("ag__")  # the user's own ``ag__`` keeps its name
    module = trees.to_ast(gast.Module(body=[node], type_ignores=[]), names={templates.RUNTIME: runtime})
    return SourceText(ast.unparse(module) + "\n")


def _shown(node: Any, top: Any, memo: Optional[dict] = None) -> Any:
    """``node`` as the text shows it: nested converted defs with only their
    lowered staged statements (the compiled code also has their original body,
    and each construct's inline Python path, which shares nodes: ``memo`` visits
    each node once). Shares what it does not change."""
    if memo is None:
        memo = {}
    if isinstance(node, list):
        return [_shown(item, top, memo) for item in node]
    if not isinstance(node, gast.AST) or isinstance(node, (gast.expr_context, gast.operator)):
        return node
    done = memo.get(id(node))
    if done is not None:
        return done
    if "shown_as" in node.__dict__:  # a statement the text shows as the user wrote it
        memo[id(node)] = shown = _shown(node.shown_as, top, memo)
        return shown
    nested = node is not top and isinstance(node, (gast.FunctionDef, gast.AsyncFunctionDef))
    fields = {name: _shown(getattr(node, name), top, memo) for name in node._fields
              if hasattr(node, name) and not (nested and name == "body")}
    if nested:
        fields["body"] = [part for stmt in node.body for part in
                          (_shown(getattr(stmt, "staged_form", stmt.orelse), top, memo) if _is_dispatch(stmt)
                           else [_shown(stmt, top, memo)])]
    new = type(node).__new__(type(node))
    new.__dict__.update(node.__dict__)
    new.__dict__.update(fields)
    memo[id(node)] = new
    return new


_WRITTEN = {templates.RUNTIME: "ag__"}


def _is_dispatch(stmt: Any) -> bool:
    """Whether ``stmt`` is the ``if <python mode>: original else: staged`` of a converted def."""
    return isinstance(stmt, gast.If) and isinstance(stmt.test, gast.BoolOp) and \
        ast.unparse(trees.to_ast(stmt.test, names=_WRITTEN)) == conversion._MODE_TEST


def _convert_for_calls(fn: types.FunctionType) -> types.FunctionType:
    """What ``ag__.converted`` uses: conversion that falls back to the original, and
    says so once, on the ``autograph`` logger at WARNING (shown on stderr unless
    ``logging`` is set up otherwise), as TensorFlow's AutoGraph does: a Python
    warning would become an exception in code run with warnings as errors, and
    change what the calling code does."""
    try:
        return conversion.convert(fn, recursive=True)
    except ConversionError as e:
        logger.warning("autograph: calling %s unconverted: %s", fn.__qualname__, e)
        return fn


calls.set_converter(_convert_for_calls)
