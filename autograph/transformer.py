"""The base of every converter pass, and the per-conversion context.

A pass sees one function scope: nested user functions and classes are opaque to
it (the pipeline converts nested functions as scopes of their own), while the
functions a pass generates (branch and loop bodies) are part of the scope and
are entered. Nodes a visit method returns get the source location of the node
they replace (``origins.fill``), so no pass has to think about locations.
"""

from __future__ import annotations

import ast

import gast

from . import origins, trees
from .naming import Namer


class Context:
    """What the passes of one function's conversion share."""

    def __init__(self, fn_node, namer: Namer, namespace=None, recursive: bool = True) -> None:
        self.fn_node = fn_node
        self.namer = namer
        self.namespace = namespace  # the function's globals, when converting a live function
        self.recursive = recursive
        self.generated: set = set()  # ids of FunctionDefs made by passes
        self.extra_tests: dict = {}  # For node -> expression: loop goes on while it is true
        self.break_loops: dict = {}  # a break flag -> the loop it leaves (break_statements)
        self.maybe_undefined: set = set()  # ids of Name loads that may be unbound
        self.locals: set = set()
        self.cells: set = set()  # locals that nested user functions or lambdas capture
        self.landing: set = set()  # cells only because an exception handler reads them (converters.state)
        self.rebound_by_calls: set = set()  # cells that nested functions declare nonlocal
        self.preassigned: set = set()  # locals given a placeholder at the top of the body
        self.globals: set = set()
        self.nonlocals: set = set()
        self.labels: dict = {}  # generated state variable -> how runtime errors name it
        self.finally_markers: dict = {}  # Try whose finally may jump -> its "jumped" marker (finally_jumps)
        self.construct_of: dict = {}  # id of a generated FunctionDef -> the If/While/For it lowers
        self.list_locals = None  # locals assigned only lists (converters.state), computed once
        self.liveness = None
        self.activities: dict = {}  # statement id -> its activity, while control flow is lowered
        self.definedness = None


_LEAF = object()  # dispatch marker: a node without fields (Load, Add, ...) is returned as is


def _method_for(transformer_class, node_class):
    method = getattr(transformer_class, "visit_" + node_class.__name__, None)
    if method is None or method is ast.NodeVisitor.visit_Constant:  # (ast's shim for visit_Num ...)
        return _LEAF if not trees.node_fields(node_class) else transformer_class.generic_visit
    return method


class Base(gast.NodeTransformer):
    """Transformer over one scope; subclasses define ``visit_<Node>`` methods.

    Visits dispatch through a per-class table (conversion walks the tree once
    per pass, so the generic walk is the hot loop of conversion).
    """

    enter_lambdas = True
    _methods: dict = {}

    def __init_subclass__(cls, **kwargs) -> None:
        super().__init_subclass__(**kwargs)
        cls._methods = {}

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx

    def visit(self, node):
        cls = type(node)
        method = self._methods.get(cls)
        if method is None:
            method = self._methods[cls] = _method_for(type(self), cls)
        if method is _LEAF:
            return node
        result = method(self, node)
        if result is not node and result is not None:
            origins.fill(result, node)
        return result

    def generic_visit(self, node):
        """Visit the children of ``node``, replacing or splicing what visits return."""
        fields = node.__dict__  # a node's fields live in its __dict__ (a missing one: None)
        for name in trees.node_fields(node.__class__):
            old = fields.get(name)
            if type(old) is list:
                new = []
                changed = False
                for item in old:
                    if isinstance(item, gast.AST):
                        result = self.visit(item)
                        if result is not item:
                            changed = True
                            if result is None:
                                continue
                            if not isinstance(result, gast.AST):
                                new.extend(result)
                                continue
                        item = result
                    new.append(item)
                if changed:
                    old[:] = new
            elif isinstance(old, gast.AST):
                replacement = self.visit(old)
                if replacement is None:
                    delattr(node, name)
                else:
                    setattr(node, name, replacement)
        return node

    def visit_FunctionDef(self, node):
        if id(node) in self.ctx.generated or node is self.ctx.fn_node:
            return self.generic_visit(node)
        return node

    def visit_AsyncFunctionDef(self, node):
        return node

    def visit_ClassDef(self, node):
        return node

    def visit_Lambda(self, node):
        return self.generic_visit(node) if self.enter_lambdas else node

    def visit_block(self, stmts: list) -> list:
        """Visit a statement list, splicing statements that visits return as lists."""
        out = []
        for stmt in stmts:
            result = self.visit(stmt)
            if isinstance(result, list):
                out.extend(result)
            elif result is not None:
                out.append(result)
        return out


def transform_function(pass_class, ctx: Context) -> None:
    """Run a pass over the body of the function being converted."""
    pass_class(ctx).visit(ctx.fn_node)
