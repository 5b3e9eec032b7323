"""Calls go through ``ag__.converted``, so user functions called from converted
code are converted too: ``f(x)`` -> ``ag__.converted(f)(x)``.

Left as they are: calls of builtins (``print``, ``type``, ``super`` ...),
except ``range``/``enumerate``/``zip``/``len``/``hasattr``, the numeric ``min``/``max``/
``abs``/``round``/``int``/``float``/``bool``, ``str``/``repr``/``format`` (a staged
value's text, ``runtime.formatting``), and ``map``/``filter``/``sorted(key=...)``, whose
function argument is called as converted code calls it (``map(np.asarray, args)`` on
staged values, a user's lambda converted), and ``isinstance`` (a staged array stands for
an ``np.ndarray``): ``ag__.converted(range)(n)`` looks the
name up at run time, as Python does, and gives the builtin's staged-aware twin
(``ag__.range_`` ...) however the builtin was reached (``fn = range``); calls of
functions of library modules when the callee's root name resolves statically
(through the function's globals) to a library module such as ``jax`` or
``scipy`` (but ``torch.stack``/``torch.cat`` and the other ``LIST_TAKERS``, which may
be given a list a staged loop collected); and everything with ``recursive=False``.

Calls of ``numpy``'s functions (``np.sqrt(x)``, ``np.linalg.norm(v)``,
``np.add.reduce(a)``) do go through ``ag__.converted``: on a staged argument of a
backend whose values NumPy cannot take (a JAX tracer), ``runtime.numpy_calls`` hands
the call to that backend (``jax.numpy``'s function of the same name). This is the
staged body only: the Python path runs the user's own ``np.sqrt(x)``.
"""

from __future__ import annotations

import builtins
import types

import gast

from autograph import templates, transformer
from autograph.runtime.operators.calls import LIBRARY_PACKAGES
from autograph.runtime.staging.accumulate import LIST_TAKERS

STAGED_BUILTINS = frozenset({"range", "enumerate", "zip", "len", "min", "max", "abs", "round",
                             "int", "float", "bool", "divmod", "hasattr", "str", "repr",
                             "format", "any", "all", "map", "filter", "isinstance", "set",
                             "frozenset"})


# Builtins that consume a generator expression: with a staged test, called through
# ``ag__.generator_call`` (``runtime.generators``).
GENERATOR_CONSUMERS = frozenset({"any", "all", "sum", "next"})


class CallTrees(transformer.Base):
    def visit_Call(self, node):
        node = self.generic_visit(node)
        func = node.func
        if (isinstance(func, gast.Name) and func.id in GENERATOR_CONSUMERS
                and self._is_builtin(func.id) and node.args and not node.keywords
                and isinstance(node.args[0], gast.GeneratorExp)):
            call = _generator_call(func, node.args[0], node.args[1:])
            if call is not None:
                return call
        if isinstance(func, gast.Name) and func.id not in self.ctx.locals and (
                func.id in STAGED_BUILTINS
                or func.id == "sorted" and any(k.arg == "key" for k in node.keywords)):
            node.func = templates.replace_expr("ag__.converted(func)", func=func)
            return node
        if isinstance(func, gast.Name) and self._is_builtin(func.id):
            return node
        if _is_runtime_call(func) or not self.ctx.recursive:
            return node
        library = library_of(func, self.ctx)
        if library is not None and library != "numpy" and not (
                isinstance(func, gast.Attribute) and func.attr in LIST_TAKERS):
            return node
        node.func = templates.replace_expr("ag__.converted(func)", func=func)
        return node

    def _is_builtin(self, name: str) -> bool:
        if not hasattr(builtins, name) or name in self.ctx.locals:
            return False
        namespace = self.ctx.namespace
        return namespace is None or name not in namespace


def library_of(func, ctx):
    """The library package whose module ``func``'s root name is (``np.linalg.norm``:
    "numpy"), resolved through the function's globals; else None. A call this pass
    already wrapped (``ag__.converted(np.add)``) is looked at through the wrapper."""
    if isinstance(func, gast.Call) and len(func.args) == 1 and _is_runtime_call(func.func):
        func = func.args[0]
    while isinstance(func, gast.Attribute):
        func = func.value
    if not isinstance(func, gast.Name) or ctx.namespace is None or func.id in ctx.locals:
        return None
    value = ctx.namespace.get(func.id)
    if not isinstance(value, types.ModuleType):
        return None
    package = value.__name__.partition(".")[0]
    return package if package in LIBRARY_PACKAGES else None


def _generator_call(func, gen, rest):
    """``ag__.generator_call(f, iterable, lambda x: test, lambda x: element, star, *rest)``
    for ``f(element for x in iterable if test, *rest)``, or None (several ``for``s, an
    ``async for``, a target that is not a name or a flat tuple of names)."""
    if len(gen.generators) != 1 or gen.generators[0].is_async:
        return None
    comp = gen.generators[0]
    target = comp.target
    star = isinstance(target, gast.Tuple)
    names = list(target.elts) if star else [target]
    if not names or not all(isinstance(n, gast.Name) for n in names):
        return None
    if not comp.ifs:
        test = templates.constant(True)
    elif len(comp.ifs) == 1:
        test = comp.ifs[0]
    else:
        test = gast.BoolOp(op=gast.And(), values=list(comp.ifs))
    # The user's names go in as replacements, never into the template's text.
    return templates.replace_expr(
        f"ag__.generator_call(fn, iterable, lambda params: test_, lambda params: element, "
        f"star{', *rest' if rest else ''})",
        fn=func, iterable=comp.iter, params=[n.id for n in names], test_=test, element=gen.elt,
        star=templates.constant(star), rest=gast.Tuple(elts=list(rest), ctx=gast.Load()))


def _is_runtime_call(func) -> bool:
    while isinstance(func, gast.Attribute):
        func = func.value
    return isinstance(func, gast.Name) and func.id == templates.RUNTIME


def transform(node, ctx) -> None:
    transformer.transform_function(CallTrees, ctx)
