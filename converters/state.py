"""What ``conditionals`` and ``loops`` share: the state a construct carries, and
the functions that carry it.

A construct's state is what it assigns that is read later (``live_out``) or
inside itself before being assigned (``live_in``), minus names declared
``global``/``nonlocal``, the variables nested user functions capture (cells), and
those an exception handler or ``finally`` reads after a construct inside its
``try`` (``_landing``: they are treated as cells):
generated functions redeclare those ``global``/``nonlocal`` and assign them in
place, so closures keep seeing one shared variable, as in Python. A state
variable that may be unassigned when the construct starts gets a placeholder
first: ``x = ag__.Undefined('x')`` if it is certainly unassigned, or
``x = ag__.ldu(lambda: x, 'x')`` if only possibly.
"""

from __future__ import annotations

import gast

from autograph import templates, transformer, trees
from autograph.analysis import activity, definedness


def carried(node, ctx, parts) -> list:
    """Sorted state variables of construct ``node`` whose statements are ``parts``.
    A local list that the construct grows or shrinks in place (``out.append(x)``)
    counts as assigned: a backend then sees its length change and says so."""
    act = activity.of(parts, ctx.activities)
    written = act.writes
    if act.in_place:
        written = written | (act.in_place & _list_locals(ctx))
    live = ctx.liveness.live_out.get(node, set()) | ctx.liveness.live_in.get(node, set())
    return sorted((written & live) - ctx.globals - ctx.nonlocals - ctx.cells)


def _list_locals(ctx) -> set:
    """Locals that are lists wherever they are assigned (``out = []``, ``list(...)``)."""
    if ctx.list_locals is None:
        kinds: dict = {}
        for n in trees.walk_scope(ctx.fn_node.body):
            if isinstance(n, gast.Assign):
                for target in n.targets:
                    pairs = [(target, n.value)]
                    if isinstance(target, gast.Tuple) and isinstance(n.value, gast.Tuple) \
                            and len(target.elts) == len(n.value.elts):  # a, b = [], []
                        pairs = zip(target.elts, n.value.elts)
                    for name, value in pairs:
                        if isinstance(name, gast.Name):
                            kinds[name.id] = kinds.get(name.id, True) and _is_list(value)
            elif isinstance(n, (gast.AugAssign, gast.AnnAssign, gast.For)) and isinstance(n.target, gast.Name):
                kinds[n.target.id] = False
        ctx.list_locals = {name for name, is_list in kinds.items() if is_list} & (ctx.locals - ctx.cells)
    return ctx.list_locals


def _is_list(value) -> bool:
    """``[...]``, a list comprehension or ``list(...)``."""
    return isinstance(value, (gast.List, gast.ListComp)) or (
        isinstance(value, gast.Call) and isinstance(value.func, gast.Name)
        and value.func.id == "list")


def function(name: str, params: list, body: list, results, ctx, construct) -> gast.FunctionDef:
    """``def name(*params): body; return results`` with global/nonlocal redeclared,
    generated for ``construct`` (the If/While/For it lowers)."""
    ends_in_raise = bool(body) and isinstance(body[-1], gast.Raise)
    returns = [] if results is None or ends_in_raise else templates.replace("return results", results=results)
    (fn,) = templates.replace("def name(params):\n    body", name=name, params=params, body=body + returns)
    if ctx.globals or ctx.nonlocals or ctx.cells:
        declared = activity.writes(body)
        for kind, names in ((gast.Global, ctx.globals), (gast.Nonlocal, ctx.nonlocals | ctx.cells)):
            needed = sorted(declared & names)
            if needed:
                _Unannotated(needed).visit(fn)
                fn.body.insert(0, kind(names=needed))
    ctx.generated.add(id(fn))
    ctx.construct_of[id(fn)] = construct
    return fn


class _Unannotated(gast.NodeTransformer):
    """Python refuses an annotation of a name declared ``global`` or ``nonlocal``: the
    user's ``out: list = []`` of a local a generated function now assigns through
    ``nonlocal`` becomes ``out = []`` (a local's annotation is never evaluated), a bare
    ``out: list`` a ``pass``. Nested scopes keep theirs."""

    def __init__(self, names):
        self.names = frozenset(names)
        self.top = True

    def visit_AnnAssign(self, node):
        if not (isinstance(node.target, gast.Name) and node.target.id in self.names):
            return node
        new = gast.Pass() if node.value is None else \
            gast.Assign(targets=[node.target], value=node.value, type_comment=None)
        return gast.copy_location(new, node)

    def _scope(self, node):
        if not self.top:
            return node
        self.top = False
        return self.generic_visit(node)

    visit_FunctionDef = visit_AsyncFunctionDef = visit_ClassDef = visit_Lambda = _scope


def names_tuple(names, store: bool = False):
    ctx = gast.Store() if store else gast.Load()
    return gast.Tuple(elts=[gast.Name(id=n, ctx=type(ctx)(), annotation=None, type_comment=None) for n in names], ctx=ctx)


def labels_tuple(names, ctx):
    """How runtime errors name the state variables (``ctx.labels`` renames generated ones)."""
    return gast.Tuple(elts=[templates.constant(ctx.labels.get(n, n)) for n in names], ctx=gast.Load())


def assign_result(names, call) -> list:
    """``(names,) = call``, or just ``call`` when nothing is carried."""
    if not names:
        return [gast.Expr(value=call)]
    return templates.replace("targets = call", targets=names_tuple(names, store=True), call=call)


def _landing(ctx) -> set:
    """Variables that a construct inside a ``try`` assigns and its handlers or
    ``finally`` read. They are assigned in place, as closure cells are: when an
    exception leaves a generated function midway, what it assigned before stays
    assigned, as in Python (a backend op carries them through ``shared``)."""
    found = set()
    for node, landing in ctx.liveness.on_exception.items():
        found |= activity.writes(node) & landing
    return found - ctx.globals - ctx.nonlocals


class StagedControlFlow(transformer.Base):
    """Base of the control-flow passes: tracks the generated functions it is inside,
    to know which state variables are bound where a construct starts."""

    def __init__(self, ctx) -> None:
        super().__init__(ctx)
        # per enclosing generated function: (its parameters, what is certainly
        # assigned where the construct it lowers starts)
        self.scopes: list = []
        ctx.landing = _landing(ctx) - ctx.cells
        ctx.cells |= ctx.landing

    def visit_FunctionDef(self, node):
        if id(node) not in self.ctx.generated:
            return super().visit_FunctionDef(node)
        construct = self.ctx.construct_of.get(id(node))
        certain = self.ctx.definedness.at_entry.get(construct, (frozenset(), frozenset()))[0]
        self.scopes.append((node, activity.parameters(node.args), certain))
        try:
            return self.generic_visit(node)
        finally:
            self.scopes.pop()

    def _certain_in(self, fn, node) -> frozenset:
        """What is certainly assigned where ``node`` starts, counting only ``fn``'s
        parameters and its own statements before it (asked rarely: a variable
        assigned both before the generated function and in it)."""
        at_entry = definedness.analyze(fn, self.ctx.locals).at_entry
        return at_entry.get(node, (frozenset(), frozenset()))[0]

    def placeholders(self, node, names) -> list:
        """Statements giving the state variables of ``node`` that may be unbound
        where it starts a placeholder: ``x = ag__.Undefined('x')`` if certainly
        unassigned, ``x = ag__.ldu(lambda: x, 'x')`` (the value, or a placeholder)
        if possibly. Inside a generated function, a variable it assigns is its own
        local: bound only as a parameter or once assigned in it."""
        ctx = self.ctx
        certain, possible = ctx.definedness.at_entry.get(node, (frozenset(), frozenset()))
        certain_in_fn = None  # what the innermost generated function assigns before node, if asked
        out = []
        for name in names:
            if self.scopes:
                fn, params, outer_certain = self.scopes[-1]
                if name in params or (name in certain and name not in outer_certain):
                    continue
                if name in certain:
                    if certain_in_fn is None:
                        certain_in_fn = self._certain_in(fn, node)
                    if name in certain_in_fn:
                        continue  # assigned again in the generated function before the construct
                maybe = name in certain or name in possible
            else:
                if name in certain or name in ctx.preassigned:
                    continue
                maybe = name in possible
            if maybe:
                out.extend(templates.replace("name = ag__.ldu(lambda: name, label)", name=name, label=templates.constant(name)))
            else:
                out.extend(templates.replace("name = ag__.Undefined(label)", name=name, label=templates.constant(name)))
        return out
