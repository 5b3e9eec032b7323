"""The conversion pipeline: source -> gast -> passes -> compiled function, cached.

Every converted function carries two bodies:

    def f(x):
        if ag__.mode.python or not ag__.mode.staging():
            <the original statements, untouched>
        else:
            def ag__<staged>(x):
                with ag__.keep_state():
                    <the staged statements: functional control flow>
            return ag__<staged>(x)

Nothing is tracing on the common path, so a call runs the user's own statements
at full Python speed; under a trace (the graph engine, ``jax.jit``) the staged
body runs, and on Python values it behaves exactly like the original too (the
differential tests force it to prove this). ``to_code`` shows the staged body.
The staged body is a function of its own (``_staged_function``) so that the
variables its generated functions read are cells of it, not of ``f``: the Python
path keeps the original's fast locals. Converted code calls the staged body's
function directly (``runtime.operators.calls``; ``runtime.staging.converted``
maps ``f``'s code to it).

The passes run in the order of ``PASSES`` on the staged body; the analyses they
need run just before the control-flow lowering. Generated code is compiled from
the AST with the user's file name and line numbers, so tracebacks point at the
user's lines.
"""

from __future__ import annotations

import ast
import copy
import gc
import os
import sys
import types
import weakref

import gast

from autograph import runtime
from autograph.analysis import activity, definedness, liveness
from autograph.converters import (
    asserts,
    branch_exits,
    break_statements,
    call_trees,
    comprehension_filters,
    conditional_expressions,
    conditionals,
    continue_statements,
    f_strings,
    finally_jumps,
    item_assignments,
    logical_expressions,
    percent_formatting,
    loops,
    match_statements,
    python_paths,
    return_statements,
    staged_choices,
    try_statements,
    variables,
)
from autograph.runtime.staging import progress
from autograph.runtime.staging.errors import ConversionError
from autograph.runtime.staging.locks import AST_LOCK

from . import deep, origins, parsing, templates, trees
from .naming import Namer
from .transformer import Context


class ControlFlow(conditionals.Conditionals, loops.Loops):
    """``if``, ``while`` and ``for`` lowered in one top-down walk, so each
    construct knows the state its enclosing generated functions receive."""


def _control_flow(node, ctx) -> None:
    origins.fill_missing(node)
    ctx.liveness = liveness.analyze(node.body, ctx.extra_tests)
    ctx.definedness = definedness.analyze(node, ctx.locals)
    ctx.activities = {}
    ControlFlow(ctx).visit(node)
    ctx.activities = {}


# The staged body's passes, in order. A ``match`` that only compares values becomes
# an ``if`` chain first (everything after treats it as the user's own ifs). A finally
# that may jump is made explicit next (the jump passes then lower its jumps like any
# other). Blocks after a branch that always leaves move into the other branch (fewer
# flags), expression-level rewrites come next, then the remaining jumps are lowered to
# flags (return before break: a return in a loop becomes a break), then control flow,
# which needs the analyses of the result.
PASSES = (
    match_statements.transform,
    finally_jumps.transform,
    branch_exits.transform,
    variables.transform,
    item_assignments.transform,
    percent_formatting.transform,
    f_strings.transform,
    call_trees.transform,
    comprehension_filters.transform,
    staged_choices.transform,
    logical_expressions.transform,
    asserts.transform,
    conditional_expressions.transform,
    try_statements.transform,
    return_statements.transform,
    break_statements.transform,
    continue_statements.transform,
    _control_flow,
)

_MODE_TEST = "ag__.mode.python or not ag__.mode.staging()"


def convertible(fn_node) -> bool:
    """Generators and coroutines run as they are: they cannot be staged."""
    if isinstance(fn_node, gast.AsyncFunctionDef):
        return False
    return not any(isinstance(n, (gast.Yield, gast.YieldFrom, gast.Await)) for n in trees.walk_scope(fn_node.body))


def convert_function_node(fn_node, namer: Namer, namespace=None, recursive: bool = True,
                          class_cell: bool = False, nested: bool = False):
    """Convert a FunctionDef in place into its two-bodied form.

    Returns the staged-only copy of the function (what ``to_code`` shows). The
    decorators of the function converted were applied already (to the object it
    was converted from); a nested function's are part of its enclosing body and
    stay (``@wraps(func)``, ``@lru_cache`` on a function defined inside).
    """
    if not nested:
        fn_node.decorator_list = []
    head, body = _split_head(fn_node)
    if class_cell:
        _explicit_super(body, fn_node)
    original = trees.copy(body)
    fn_node.body = body
    for nested in _nested_functions(body):
        if convertible(nested):
            convert_function_node(nested, namer, namespace, recursive, class_cell, nested=True)

    ctx = Context(fn_node, namer, namespace, recursive)
    ctx.globals, ctx.nonlocals = activity.declared_nonlocal(head)
    params = activity.parameters(fn_node.args)
    ctx.locals = (params | activity.writes(body)) - ctx.globals - ctx.nonlocals
    ctx.cells = activity.captured(body) & ctx.locals
    ctx.rebound_by_calls = activity.rebound_by_nested(body) & ctx.cells
    ctx.maybe_undefined = definedness.analyze(fn_node, ctx.locals).maybe_undefined_reads
    unbound = _maybe_unbound_names(body, ctx) - params - ctx.cells
    ctx.preassigned = unbound
    for run in PASSES:
        run(fn_node, ctx)
    staged = _bind_cells(fn_node.body, ctx.cells - params)
    if unbound:
        # Variables read where they may be unassigned start as placeholders, so that
        # a read from a generated function raises UnboundLocalError (through
        # ag__.ld), not the NameError of an empty closure cell.
        start = [stmt for name in sorted(unbound) for stmt in templates.replace(
            "name = ag__.Undefined(label)", name=name, label=templates.constant(name))]
        origins.fill(start, fn_node)
        staged = start + staged

    staged_only = copy.copy(fn_node)
    staged_only.body = head + staged
    if trees.equal(staged, original):
        fn_node.body = head + original
    else:
        compiled = python_paths.transform(staged, ctx)
        dual = templates.replace(f"if {_MODE_TEST}:\n    original\nelse:\n    staged",
                                 original=original, staged=_staged_function(fn_node, head, compiled, ctx))
        origins.fill(dual, fn_node)
        dual[0].staged_form = staged  # what to_code shows of a nested function
        fn_node.body = head + dual
    return staged_only


# The name of the function a converted function's staged body is compiled as (a
# local of the converted function, unbound on its Python path): no identifier, so no
# user name can be it; compiled, its code is given the user's function's name.
STAGED = "ag__<staged>"


def _staged_function(fn_node, head, compiled, ctx) -> list:
    """``def staged(params): ...`` holding the staged body ``compiled``, and the
    ``return staged(params)`` that runs it.

    The staged body's generated functions and lambdas read the user's variables: in
    the converted function's own code they would make each such variable a cell, and
    its Python path (the user's statements) would read them through cells, not as
    fast locals, and make the cells on every call. Compiled as a function of its own,
    the staged body gets those cells, and the converted function keeps the original's
    locals. Every variable of the user's function is a local of the staged function
    too (bound by a bare annotation where the staged body does not assign it itself:
    a generated function may assign it through ``nonlocal``), so that the staged
    function reads nothing of the converted function's frame but the user's own
    closure variables, which both share.

    The staged function takes the user's parameters as the user's function does
    (without defaults: it is given every one here), so that converted code can call
    it in place of the converted function (``runtime.operators.calls``), one frame
    per call as the original."""
    args = fn_node.args
    params = activity.parameters(args)
    declarations = [stmt for stmt in head if isinstance(stmt, (gast.Global, gast.Nonlocal))]
    unbound = sorted(ctx.locals - params - activity.writes(compiled))
    binds = [templates.replace("name: object", name=name)[0] for name in unbound]
    (staged, call) = templates.replace(
        "def staged():\n    declarations\n    binds\n    with ag__.keep_state():\n        body\n"
        "return staged()",
        staged=STAGED, declarations=declarations, binds=binds, body=compiled)
    staged.args = gast.arguments(
        posonlyargs=[_param(a) for a in args.posonlyargs], args=[_param(a) for a in args.args],
        vararg=_param(args.vararg), kwonlyargs=[_param(a) for a in args.kwonlyargs],
        kw_defaults=[None] * len(args.kwonlyargs), kwarg=_param(args.kwarg), defaults=[])
    call.value.args = [templates.load(a.id) for a in args.posonlyargs + args.args]
    if args.vararg is not None:
        call.value.args.append(gast.Starred(value=templates.load(args.vararg.id), ctx=gast.Load()))
    call.value.keywords = [gast.keyword(arg=a.id, value=templates.load(a.id)) for a in args.kwonlyargs]
    if args.kwarg is not None:
        call.value.keywords.append(gast.keyword(arg=None, value=templates.load(args.kwarg.id)))
    return [staged, call]


def _param(arg):
    """A parameter named as ``arg``, without its annotation (None for None)."""
    if arg is None:
        return None
    return gast.Name(id=arg.id, ctx=gast.Param(), annotation=None, type_comment=None)


def _maybe_unbound_names(body, ctx) -> set:
    marked = ctx.maybe_undefined
    names = set()
    for node in trees.walk_scope(body):
        if id(node) in marked:
            names.add(node.target.id if isinstance(node, gast.AugAssign) else node.id)
    return names


def _bind_cells(staged, cells) -> list:
    """Closure variables now assigned only inside generated functions (through
    ``nonlocal``) still need a binding in the function itself: a bare annotation
    makes one without assigning anything."""
    if not cells:
        return staged
    unbound = sorted(cells - activity.writes(staged))
    if not unbound:
        return staged
    declarations = [templates.replace("name: object", name=name)[0] for name in unbound]
    origins.fill(declarations, staged[0])
    return declarations + staged


def _split_head(fn_node):
    """(docstring and global/nonlocal declarations, the rest of the body)."""
    body = list(fn_node.body)
    head = []
    if body and isinstance(body[0], gast.Expr) and isinstance(body[0].value, gast.Constant) and isinstance(body[0].value.value, str):
        head.append(body.pop(0))
    declarations = _remove_declarations(body)
    head.extend(declarations)
    if not body:
        body = [gast.Pass()]
        origins.fill(body, fn_node)
    return head, body


def _remove_declarations(stmts) -> list:
    """Take global/nonlocal statements out of a scope's blocks (they are hoisted)."""
    found = []
    for node in list(stmts):
        if isinstance(node, (gast.Global, gast.Nonlocal)):
            stmts.remove(node)
            found.append(node)
    for node in trees.scope_statements(stmts):
        for field in ("body", "orelse", "finalbody"):
            block = getattr(node, field, None)
            if isinstance(block, list) and not isinstance(node, (gast.FunctionDef, gast.AsyncFunctionDef, gast.ClassDef)):
                for stmt in list(block):
                    if isinstance(stmt, (gast.Global, gast.Nonlocal)):
                        block.remove(stmt)
                        found.append(stmt)
                if not block and field == "body":
                    block.append(gast.Pass())
    return found


def _nested_functions(body):
    stack = list(body)
    while stack:
        node = stack.pop()
        if isinstance(node, gast.FunctionDef):
            yield node
            continue
        if isinstance(node, (gast.AsyncFunctionDef, gast.Lambda, gast.ClassDef)):
            continue
        stack.extend(trees.children(node))


def _explicit_super(body, fn_node) -> None:
    """``super()`` -> ``super(__class__, self)``: generated functions have no implicit cell."""
    args = fn_node.args.posonlyargs + fn_node.args.args
    if not args:
        return
    for node in trees.walk_scope(body):
        if isinstance(node, gast.Call) and isinstance(node.func, gast.Name) and node.func.id == "super" and not node.args:
            node.args = [
                templates.load("__class__"),
                templates.load(args[0].id),
            ]
            origins.fill(node, node)


# --- compiling a live function --------------------------------------------------

# code object -> {(file, recursive): (converted code, staged-only node)}. Code
# objects compare equal across files when their contents match, hence the file in
# the inner key. Weak: an entry goes with the last function of its code object (a
# notebook cell run again makes new ones). A miss converts under ``_convert_lock``,
# so that threads asking for the same function at once convert it once; a hit
# takes no lock.
_code_cache: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
_convert_lock = AST_LOCK  # also keeps parsing away from the graph engine's (CPython 3.11)


def convert(fn: types.FunctionType, recursive: bool = True) -> types.FunctionType:
    """The converted version of ``fn``; raises ConversionError if it cannot be. A
    function conversion made is its own conversion."""
    if runtime.calls.made_by_conversion(fn.__code__):
        return fn
    code = _cache_entry(fn, recursive)[0]
    if code is None:
        return fn
    return _function_from_code(fn, code)


def staged_source_node(fn: types.FunctionType, recursive: bool = True):
    return _cache_entry(fn, recursive)[1]


def _cache_entry(fn: types.FunctionType, recursive: bool):
    code = fn.__code__
    key = (code.co_filename, recursive)
    entry = _code_cache.get(code, {}).get(key)
    if entry is None:
        with _convert_lock:
            entries = _code_cache.setdefault(code, {})
            entry = entries.get(key)
            if entry is None:
                with progress.long_work("converting", "converted", lambda: _where(fn)):
                    entry = entries[key] = _convert_code(fn, recursive)
    return entry


def _where(fn) -> str:
    """``name (file.py:12)``: how progress lines name a function."""
    code = fn.__code__
    return f"{fn.__qualname__} ({os.path.basename(code.co_filename)}:{code.co_firstlineno})"


def _convert_code(fn, recursive: bool):
    # Conversion makes thousands of short-lived, acyclic tree nodes: with the cycle
    # collector on, a process with a large heap (TensorFlow imported: ~350k objects)
    # pays a full collection (~140 ms here) every few conversions.
    enabled = gc.isenabled()
    gc.disable()
    try:
        return deep.call(_convert_code_now, fn, recursive, deep=_long(fn.__code__))
    except RecursionError:
        code = fn.__code__
        raise too_deep(code.co_filename, code.co_firstlineno, fn.__qualname__) from None
    finally:
        if enabled:
            gc.enable()


def _long(code) -> bool:
    """Whether the function spans enough lines that its conversion may well recurse
    deeper than Python's default limit allows (long runs of early exits nest)."""
    return max((line for _, _, line in code.co_lines() if line), default=0) - code.co_firstlineno > _LONG_LINES


_LONG_LINES = 150


def too_deep(filename: str, lineno: int, name: str) -> ConversionError:
    """The refusal of a function nested deeper than conversion can go."""
    return ConversionError(
        f"{filename}:{lineno}: {name} is nested too deeply to convert (thousands of levels of "
        f"blocks or of operands); split it into functions")


def _convert_code_now(fn, recursive: bool):
    node = parsing.function_node(fn)
    namer = Namer.for_tree(node)
    is_lambda = isinstance(node, gast.Lambda)
    if is_lambda:
        node = _lambda_as_function(node, namer.new("ag__lambda"))
    if not convertible(node):
        return None, node
    class_cell = "__class__" in fn.__code__.co_freevars
    staged = convert_function_node(node, namer, fn.__globals__, recursive, class_cell)
    code = _compile(node, fn, namer)
    return code, staged


def _lambda_as_function(node, name: str):
    (fn,) = templates.replace("def name(params):\n    return body", name=name, params=[], body=node.body)
    fn.args = node.args
    origins.fill([fn], node)
    return fn


# --- the runtime, reachable under a name no user can write -------------------
#
# Generated code refers to the runtime by ``templates.RUNTIME``, a name no user
# variable can have (it is no identifier); compiled, it is a global read, and the
# converted function's globals (the user's module) hold the runtime module under
# that name. A global, not a constant: PyTorch's dynamo reads the bytecode of the
# converted function and can represent a module it reaches through a global, but
# fails at the first instruction on a module among the code's constants. So a
# converted function has no local or free variable the original lacks
# (``locals()`` is the same on its Python path), and a user variable called
# ``ag__`` is just the user's variable.


def _publish_runtime(namespace: dict) -> None:
    """Make the runtime a global of ``namespace`` (a converted function's globals)."""
    if namespace.get(templates.RUNTIME) is not runtime:
        namespace[templates.RUNTIME] = runtime


def _compile(node, fn, namer: Namer) -> types.CodeType:
    # The def is renamed inside the factory so that the function's own name stays
    # a global (or free) name in its body, as it is in the original: recursion.
    node.name = namer.new("ag__converted")
    factory_name = namer.new("ag__factory")
    (factory,) = templates.replace(
        "def factory(params):\n    fn\n    return name",
        factory=factory_name, params=list(fn.__code__.co_freevars), fn=node, name=node.name,
    )
    origins.fill([factory], node)
    module = trees.to_ast(gast.Module(body=[factory], type_ignores=[]))
    try:
        module_code = compile(module, fn.__code__.co_filename, "exec")
    except SyntaxError as e:
        raise ConversionError(f"{fn.__code__.co_filename}:{e.lineno}: generated code does not compile: {e.msg}") from None
    factory_code = _find_code(module_code, factory_name)
    code = _find_code(factory_code, node.name)
    dispatch: dict = {}
    code = _named_staged(_renamed(code, fn.__code__), dispatch)
    _register_codes(code, dispatch)
    return code


def _renamed(code, named):
    """``code`` with the name (and qualified name) of code object ``named``."""
    names = {"co_name": named.co_name}
    if sys.version_info >= (3, 11):
        names["co_qualname"] = named.co_qualname
    return code.replace(**names)


def _named_staged(code, dispatch: dict):
    """``code`` where each staged body compiled as a function of its own
    (``STAGED``) has the name of the converted function that runs it (tracebacks and
    frames name the user's function); ``dispatch`` gets each converted function's
    code that runs one -> the staged body's code."""
    consts = list(code.co_consts)
    staged = None
    for i, const in enumerate(consts):
        if isinstance(const, types.CodeType):
            new = _named_staged(const, dispatch)
            if new.co_name == STAGED:
                new = staged = _renamed(new, code)
            consts[i] = new
    if consts != list(code.co_consts):
        code = code.replace(co_consts=tuple(consts))
    if staged is not None:
        dispatch[code] = staged
    return code


def _find_code(code, name):
    """The code object of function ``name`` defined in ``code`` (directly, or inside
    the scope that a generic function's type parameters get, Python 3.12+)."""
    found = _search_code(code, name)
    if found is None:
        raise ConversionError(f"internal error: compiled code for {name} not found")
    return found


def _search_code(code, name):
    nested = [c for c in code.co_consts if isinstance(c, types.CodeType)]
    for const in nested:
        if const.co_name == name:
            return const
    for const in nested:
        if const.co_name.startswith("<generic parameters of"):
            found = _search_code(const, name)
            if found is not None:
                return found
    return None


def _register_codes(code, dispatch: dict) -> None:
    """Tell the runtime of ``code`` and the code objects in it: those that run
    converted statements, and those that choose between a Python path and the staged
    body of ``dispatch``."""
    if code in dispatch:
        runtime.calls.staged_codes[code] = dispatch[code]
    else:
        runtime.calls.converted_codes.add(code)
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            _register_codes(const, dispatch)


def _function_from_code(fn, code) -> types.FunctionType:
    cells = dict(zip(fn.__code__.co_freevars, fn.__closure__ or ()))
    closure = tuple(cells[name] for name in code.co_freevars)
    _publish_runtime(fn.__globals__)
    new = types.FunctionType(code, fn.__globals__, fn.__name__, fn.__defaults__, closure or None)
    new.__kwdefaults__ = copy.copy(fn.__kwdefaults__)
    new.__qualname__ = fn.__qualname__
    new.__module__ = fn.__module__
    new.__doc__ = fn.__doc__
    new.__annotations__ = dict(getattr(fn, "__annotations__", {}) or {})
    if hasattr(fn, "__type_params__"):  # def f[T](...), Python 3.12+
        new.__type_params__ = fn.__type_params__
    new.__dict__.update(fn.__dict__)
    new.__wrapped__ = fn
    return new
