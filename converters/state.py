"""What ``conditionals`` and ``loops`` share: the state a construct carries, and
the functions that carry it.

A construct's state is what it assigns that is read later (``live_out``) or
inside itself before being assigned (``live_in``), minus names declared
``global``/``nonlocal`` and the variables nested user functions capture (cells):
generated functions redeclare those ``global``/``nonlocal`` and assign them in
place, so closures keep seeing one shared variable, as in Python. A state
variable that may be unassigned when the construct starts gets a placeholder
first: ``x = ag__.Undefined('x')`` if it is certainly unassigned, or
``x = ag__.ldu(lambda: x, 'x')`` if only possibly.
"""

from __future__ import annotations

import gast

from autograph import templates, transformer
from autograph.analysis import activity


def carried(node, ctx, parts) -> list:
    """Sorted state variables of construct ``node`` whose statements are ``parts``."""
    written = activity.writes(parts)
    live = ctx.liveness.live_out.get(node, set()) | ctx.liveness.live_in.get(node, set())
    return sorted((written & live) - ctx.globals - ctx.nonlocals - ctx.cells)


def placeholders(node, names, ctx, params: set) -> list:
    """Statements giving possibly unassigned state variables a placeholder."""
    certain, possible = ctx.definedness.at_entry.get(node, (frozenset(), frozenset()))
    out = []
    for name in names:
        if name in certain or name in params or name in ctx.preassigned:
            continue
        if name in possible:
            out.extend(templates.replace("name = ag__.ldu(lambda: name, label)", name=name, label=_str(name)))
        else:
            out.extend(templates.replace("name = ag__.Undefined(label)", name=name, label=_str(name)))
    return out


def function(name: str, params: list, body: list, results, ctx) -> gast.FunctionDef:
    """``def name(*params): body; return results`` with global/nonlocal redeclared."""
    returns = [] if results is None else templates.replace("return results", results=results)
    (fn,) = templates.replace("def name(params):\n    body", name=name, params=params, body=body + returns)
    if ctx.globals or ctx.nonlocals or ctx.cells:
        declared = activity.writes(body)
        for kind, names in ((gast.Global, ctx.globals), (gast.Nonlocal, ctx.nonlocals | ctx.cells)):
            needed = sorted(declared & names)
            if needed:
                fn.body.insert(0, kind(names=needed))
    ctx.generated.add(id(fn))
    return fn


def names_tuple(names, store: bool = False):
    ctx = gast.Store() if store else gast.Load()
    return gast.Tuple(elts=[gast.Name(id=n, ctx=type(ctx)(), annotation=None, type_comment=None) for n in names], ctx=ctx)


def labels_tuple(names, ctx):
    """How runtime errors name the state variables (``ctx.labels`` renames generated ones)."""
    return gast.Tuple(elts=[_str(ctx.labels.get(n, n)) for n in names], ctx=gast.Load())


def _str(text: str):
    return gast.Constant(value=text, kind=None)


def assign_result(names, call) -> list:
    """``(names,) = call``, or just ``call`` when nothing is carried."""
    if not names:
        return [gast.Expr(value=call)]
    return templates.replace("targets = call", targets=names_tuple(names, store=True), call=call)


class StagedControlFlow(transformer.Base):
    """Base of the control-flow passes: tracks the parameters of the generated
    functions it is inside (they are always assigned, maybe with a placeholder)."""

    def __init__(self, ctx) -> None:
        super().__init__(ctx)
        self.params: list = []

    def visit_FunctionDef(self, node):
        if id(node) not in self.ctx.generated:
            return super().visit_FunctionDef(node)
        self.params.append(activity.parameters(node.args))
        try:
            return self.generic_visit(node)
        finally:
            self.params.pop()

    def stays_python(self, node, parts) -> bool:
        """A construct inside ``try`` that assigns variables the handler (or
        ``finally``) reads stays a Python statement: a body function's
        assignments would be lost when an exception leaves it midway."""
        landing = self.ctx.liveness.on_exception.get(node)
        return bool(landing) and bool(activity.writes(parts) & landing)

    def params_in_scope(self) -> set:
        return set().union(*self.params) if self.params else set()
