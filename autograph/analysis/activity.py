"""Reads and writes of names, per statement or expression, within one scope.

Nested functions, lambdas, classes and comprehensions are separate scopes: a
nested function definition *assigns* its name and *reads* the names it uses from
the enclosing scope; a comprehension reads its free names (and a walrus inside
it assigns in the enclosing scope, as in Python).
"""

from __future__ import annotations

import gast

from autograph import trees

_SCOPES = (gast.FunctionDef, gast.AsyncFunctionDef, gast.Lambda, gast.ClassDef)
_COMPREHENSIONS = (gast.ListComp, gast.SetComp, gast.DictComp, gast.GeneratorExp)
# Node types _visit does more for than visit their children.
_SPECIAL = frozenset({
    *_SCOPES, *_COMPREHENSIONS, gast.AugAssign, gast.Import, gast.ImportFrom, gast.ExceptHandler,
    gast.MatchAs, gast.MatchStar, gast.MatchMapping, gast.Global, gast.Nonlocal,
})


class Activity:
    __slots__ = ("attribute_writes", "in_place", "nested_reads", "reads", "writes")

    def __init__(self, nested_reads: bool = True) -> None:
        self.reads: set = set()
        self.writes: set = set()
        self.attribute_writes: set = set()  # "a.b.c" for assignments to attribute chains over a name
        self.in_place: set = set()  # names whose list-changing method is taken (x.append)
        # Whether the names nested functions, lambdas and classes read from this scope
        # count as reads (a walk of each nested body): not when only the writes are asked.
        self.nested_reads = nested_reads


# List methods that change the list in place (its length, or its items' order).
LIST_MUTATORS = frozenset({"append", "extend", "insert", "pop", "remove", "clear"})


def of(nodes, memo=None) -> Activity:
    """Names read and assigned by ``nodes`` (a node or a list), nested scopes opaque.

    ``memo`` (a dict the caller keeps) remembers the activity of each statement
    visited, for a pass that asks about a construct and then about the constructs
    nested in it (linear instead of size x depth); valid while those statements
    are not changed."""
    act = Activity()
    for node in nodes if isinstance(nodes, list) else [nodes]:
        if memo is not None and isinstance(node, gast.stmt):
            _merge(act, _statement(node, memo))
        else:
            _visit(node, act)
    return act


def _statement(node, memo) -> Activity:
    """The activity of statement ``node``, its blocks' statements looked up in ``memo``."""
    hit = memo.get(id(node))
    if hit is not None and hit[0] is node:
        return hit[1]
    act = Activity()
    if isinstance(node, _SCOPES) or not any(field in _BLOCKS for field in node._fields):
        _visit(node, act)
    else:
        for name in trees.node_fields(type(node)):
            value = getattr(node, name, None)
            for item in value if type(value) is list else [value]:
                if isinstance(item, gast.stmt):
                    _merge(act, _statement(item, memo))
                elif isinstance(item, (gast.ExceptHandler, gast.match_case)):
                    head = [item.type, item.name] if isinstance(item, gast.ExceptHandler) else [item.pattern, item.guard]
                    for part in head:
                        if part is not None:
                            _visit(part, act)
                    for stmt in item.body:
                        _merge(act, _statement(stmt, memo))
                elif isinstance(item, gast.AST):
                    _visit(item, act)
    memo[id(node)] = (node, act)  # (the node too: its id stays its own)
    return act


_BLOCKS = frozenset({"body", "orelse", "finalbody", "handlers", "cases"})


def _merge(act: Activity, other: Activity) -> None:
    act.reads |= other.reads
    act.writes |= other.writes
    act.attribute_writes |= other.attribute_writes
    act.in_place |= other.in_place


def reads(nodes) -> set:
    return of(nodes).reads


def writes(nodes) -> set:
    act = Activity(nested_reads=False)
    for node in nodes if isinstance(nodes, list) else [nodes]:
        _visit(node, act)
    return act.writes


def _visit(node, act: Activity) -> None:
    cls = type(node)
    if cls is gast.Name:
        if type(node.ctx) is gast.Load:
            act.reads.add(node.id)
        else:  # Store, Del, Param
            act.writes.add(node.id)
        return
    if cls not in _SPECIAL:
        if cls is gast.Attribute:
            if type(node.ctx) is gast.Store:
                dotted = _dotted(node)
                if dotted is not None:
                    act.attribute_writes.add(dotted)
            elif node.attr in LIST_MUTATORS and type(node.value) is gast.Name:
                act.in_place.add(node.value.id)
        for child in trees.children(node):
            _visit(child, act)
        return
    if isinstance(node, (gast.FunctionDef, gast.AsyncFunctionDef, gast.ClassDef)):
        for dec in node.decorator_list:
            _visit(dec, act)
        if not isinstance(node, gast.ClassDef):
            _visit_defaults(node.args, act)
        if act.nested_reads:
            act.reads |= free_reads(node)
        act.writes.add(node.name)
        return
    if isinstance(node, gast.Lambda):
        _visit_defaults(node.args, act)
        if act.nested_reads:
            act.reads |= free_reads(node)
        return
    if isinstance(node, _COMPREHENSIONS):
        inner = _comprehension_activity(node)
        act.reads |= inner.reads
        act.writes |= inner.writes
        return
    if isinstance(node, gast.AugAssign) and isinstance(node.target, gast.Name):
        act.reads.add(node.target.id)
    if isinstance(node, (gast.Import, gast.ImportFrom)):
        for alias in node.names:
            if alias.name != "*":
                act.writes.add((alias.asname or alias.name).partition(".")[0])
        return
    if isinstance(node, gast.ExceptHandler) and node.name is not None:
        _visit(node.name, act)
    if isinstance(node, (gast.MatchAs, gast.MatchStar)) and node.name:
        act.writes.add(node.name)
    if isinstance(node, gast.MatchMapping) and node.rest:
        act.writes.add(node.rest)
    if isinstance(node, (gast.Global, gast.Nonlocal)):
        return
    for child in trees.children(node):
        _visit(child, act)


def assigned(stmts) -> set:
    """The names ``stmts`` assign in their own scope: ``writes`` without the reads,
    so a nested function counts by its name only, without a walk of its body."""
    names: set = set()
    stack = list(stmts)
    while stack:
        node = stack.pop()
        cls = type(node)
        if cls is gast.Name:
            if type(node.ctx) is not gast.Load:
                names.add(node.id)
        elif cls in _SPECIAL:
            if isinstance(node, (gast.FunctionDef, gast.AsyncFunctionDef, gast.ClassDef)):
                names.add(node.name)
            elif isinstance(node, _COMPREHENSIONS):
                names |= _walrus_targets(node)
            elif isinstance(node, (gast.Import, gast.ImportFrom)):
                names |= {(a.asname or a.name).partition(".")[0] for a in node.names if a.name != "*"}
            elif isinstance(node, (gast.MatchAs, gast.MatchStar)) and node.name:
                names.add(node.name)
            elif isinstance(node, gast.MatchMapping) and node.rest:
                names.add(node.rest)
            if not isinstance(node, (*_SCOPES, *_COMPREHENSIONS, gast.Import, gast.ImportFrom)):
                stack.extend(trees.children(node))
        else:
            stack.extend(trees.children(node))
    return names


def _dotted(node):
    """``a.b.c`` for an attribute chain over a name, else None."""
    parts = []
    while isinstance(node, gast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, gast.Name):
        return None
    return ".".join([node.id] + parts[::-1])


def _visit_defaults(args, act: Activity) -> None:
    for default in args.defaults + [d for d in args.kw_defaults if d is not None]:
        _visit(default, act)


def _comprehension_activity(node) -> Activity:
    """Free reads of a comprehension, and walrus targets (they bind outside it)."""
    act = Activity()
    bound: set = set()
    for gen in node.generators:
        gen_act = of(gen.iter)
        act.reads |= gen_act.reads - bound
        act.writes |= _walrus_targets(gen.iter)
        bound |= writes(gen.target)
        for cond in gen.ifs:
            act.reads |= reads(cond) - bound
            act.writes |= _walrus_targets(cond)
    elts = [node.key, node.value] if isinstance(node, gast.DictComp) else [node.elt]
    for elt in elts:
        act.reads |= reads(elt) - bound
        act.writes |= _walrus_targets(elt)
    return act


def _walrus_targets(node) -> set:
    return {n.target.id for n in trees.walk(node) if isinstance(n, gast.NamedExpr)}


def free_reads(scope) -> set:
    """Names a nested function/lambda/class reads from enclosing scopes."""
    if isinstance(scope, gast.Lambda):
        body = [scope.body]
    else:
        body = scope.body
    inner = of(body)
    local = set(inner.writes)
    declared_outer = set()
    for node in trees.scope_statements(body):
        if isinstance(node, gast.Global):
            declared_outer |= set(node.names)
        elif isinstance(node, gast.Nonlocal):
            declared_outer |= set(node.names)
            inner.reads |= set(node.names)
    if not isinstance(scope, gast.ClassDef):
        local |= parameters(scope.args)
    return (inner.reads - (local - declared_outer)) | (inner.writes & declared_outer)


def parameters(args) -> set:
    names = [a.id for a in args.posonlyargs + args.args + args.kwonlyargs]
    for extra in (args.vararg, args.kwarg):
        if extra is not None:
            names.append(extra.id)
    return set(names)


def declared_nonlocal(body) -> tuple:
    """(global names, nonlocal names) declared directly in this scope."""
    glob, nonloc = set(), set()
    for node in trees.scope_statements(body):
        if isinstance(node, gast.Global):
            glob |= set(node.names)
        elif isinstance(node, gast.Nonlocal):
            nonloc |= set(node.names)
    return glob, nonloc


def has_walrus(node) -> bool:
    """Whether ``node`` assigns with ``:=`` (it must then stay in this scope, not move into a lambda)."""
    return any(isinstance(n, gast.NamedExpr) for n in trees.walk(node))


def rebound_by_nested(body) -> set:
    """Names that functions nested (at any depth) in this scope declare ``nonlocal``:
    a call made here may assign them."""
    names = set()
    for node in trees.walk_scope(body):
        if isinstance(node, (gast.FunctionDef, gast.AsyncFunctionDef, gast.Lambda, gast.ClassDef)):
            for inner in trees.walk(node):
                if isinstance(inner, gast.Nonlocal):
                    names |= set(inner.names)
    return names


def captured(body) -> set:
    """Names that nested functions and lambdas of this scope read from it (its cells)."""
    names = set()
    for node in trees.walk_scope(body):
        if isinstance(node, (gast.FunctionDef, gast.AsyncFunctionDef, gast.Lambda, gast.ClassDef)):
            names |= free_reads(node)
    return names
