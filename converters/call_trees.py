"""Calls go through ``ag__.converted``, so user functions called from converted
code are converted too: ``f(x)`` -> ``ag__.converted(f)(x)``.

Left as they are: calls of builtins (``print``, ``isinstance``, ``super`` ...),
except ``range``/``enumerate``/``zip``/``len`` and the numeric ``min``/``max``/
``abs``/``round``/``int``/``float``/``bool``: ``ag__.converted(range)(n)`` looks the
name up at run time, as Python does, and gives the builtin's staged-aware twin
(``ag__.range_`` ...) however the builtin was reached (``fn = range``); calls of
functions of library modules when the callee's root name resolves statically
(through the function's globals) to a library module such as ``numpy`` (but
``np.asarray``/``np.array`` go through ``ag__.converted``, which stages them); and
everything with ``recursive=False``.
"""

from __future__ import annotations

import builtins
import types

import gast

from autograph import templates, transformer
from autograph.runtime.calls import LIBRARY_PACKAGES

STAGED_BUILTINS = frozenset({"range", "enumerate", "zip", "len", "min", "max", "abs", "round",
                             "int", "float", "bool"})
# Library functions that take staged values apart (``np.asarray``): called through
# ``ag__.converted``, which stages them (``runtime.numeric_builtins``).
STAGED_LIBRARY = frozenset({"asarray", "array", "asanyarray", "ascontiguousarray", "errstate"})


class CallTrees(transformer.Base):
    def visit_Call(self, node):
        node = self.generic_visit(node)
        func = node.func
        if isinstance(func, gast.Name) and func.id in STAGED_BUILTINS and func.id not in self.ctx.locals:
            node.func = templates.replace_expr("ag__.converted(func)", func=func)
            return node
        if isinstance(func, gast.Name) and self._is_builtin(func.id):
            return node
        if _is_runtime_call(func) or not self.ctx.recursive:
            return node
        if self._is_library(func) and not (isinstance(func, gast.Attribute)
                                           and func.attr in STAGED_LIBRARY):
            return node
        node.func = templates.replace_expr("ag__.converted(func)", func=func)
        return node

    def _is_builtin(self, name: str) -> bool:
        if not hasattr(builtins, name) or name in self.ctx.locals:
            return False
        namespace = self.ctx.namespace
        return namespace is None or name not in namespace

    def _is_library(self, func) -> bool:
        while isinstance(func, gast.Attribute):
            func = func.value
        if not isinstance(func, gast.Name) or self.ctx.namespace is None:
            return False
        if func.id in self.ctx.locals:
            return False
        value = self.ctx.namespace.get(func.id)
        return isinstance(value, types.ModuleType) and (
            value.__name__.partition(".")[0] in LIBRARY_PACKAGES
        )


def _is_runtime_call(func) -> bool:
    while isinstance(func, gast.Attribute):
        func = func.value
    return isinstance(func, gast.Name) and func.id == templates.RUNTIME


def transform(node, ctx) -> None:
    transformer.transform_function(CallTrees, ctx)
