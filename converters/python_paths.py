"""Each lowered construct gets a Python path that runs its body inline.

After the control-flow pass, a branch or loop body is a generated function the
user's function calls. On Python values that function's frame would sit between
the user's function and the code of the body, where the original has none: a
body that looks at its caller (``sys._getframe(1)``, ``warnings.warn(...,
stacklevel=2)``, ``logging``'s ``stacklevel``, ``inspect.stack()``) would see the
user's function instead of its caller, and recursion would spend a frame per
body. This pass, run on the compiled code only (``to_code`` shows the lowered
form), gives every construct of the function's own scope a path in which its
body's statements run in the user's frame::

    def if_body(y): ...                     cond = x > 0
    def else_body(y): ...                   if ag__.staged(cond):
    (y,) = ag__.branch(x > 0, if_body,  ->      (y,) = ag__.branch(cond, factories[0](),
           else_body, ('y',))(y)                        factories[1](), ('y',))(y)
                                            elif cond:
                                                <if_body's statements>
                                            else:
                                                <else_body's statements>

The generated functions are made by factories (``factories``), called only on
the staged path: a backend calls the functions, its frames are unavoidable
there. A ``for`` runs its body's statements in the loop ``ag__.for_loop`` drives
(which still gets the body function: a backend, or a break flag that turns
staged, needs it); a ``while`` evaluates its test inline and hands the loop to
the backend, with its current state, when the test is staged. The bodies
inlined are copies of the generated functions' statements in which nested
constructs get the same treatment; each generated function is compiled once,
in its factory, so the code grows linearly with the function. All Python paths
keep their test in one variable (``cond``): the function's locals do not grow
with its size.

An ``assert`` becomes Python's own ``assert`` on a Python test, so its message
is evaluated in the user's frame too. (The user's frame, for the staged body, is the
frame of the function the staged body is compiled as, named as the user's function:
``conversion._staged_function``.)

A body is inlined only when it assigns the names it carries as the function's
own locals would: always, since carried names are the same variables in both
places, cells and ``global``/``nonlocal`` names are declared in the function
itself, and jumps were lowered to flags before. A generated body that returns
anywhere but at its end (none does today) keeps its function.
"""

from __future__ import annotations

import gast

from autograph import origins, templates, trees

from . import factories, item_assignments


def transform(stmts: list, ctx) -> list:
    """The statements ``stmts`` of the function's own scope with every lowered
    construct given its inline Python path, and each generated function made by a
    factory (``factories``). ``stmts`` is not changed: the result is made of new
    lists and statements that share the unchanged parts (a node may appear in
    several places of it; ``trees.to_ast`` makes each its own)."""
    made = factories.Factories(ctx)
    ctx = _Paths(ctx, made)
    body = _block(made.lift(stmts), ctx)
    return made.definitions() + body


class _Paths:
    """The conversion's context, and the factories of its generated functions."""

    def __init__(self, ctx, made) -> None:
        self.namer = ctx.namer
        self.factories = made
        # The variable every Python path keeps its test in: one for all (a test is
        # not read again once its construct has chosen a path), so the function's
        # locals do not grow with its size.
        self.cond = ctx.namer.new("cond")
        self.item_value = ctx.namer.new("value")  # and the value and index of an item write
        self.item_index = ctx.namer.new("index")
        self.item_read = ctx.namer.new("item")
        self.item_holder = ctx.namer.new("holder")


def _block(stmts: list, ctx) -> list:
    out: list = []
    i = 0
    while i < len(stmts):
        stmt = stmts[i]
        runtime_call = _runtime_call(stmt)
        if runtime_call == "branch":
            out = _branch(stmt, out, ctx)
        elif runtime_call == "assert_stmt":
            out.extend(_assert(stmt, ctx))
        elif runtime_call in ("setitem", "augitem"):
            out.extend((_setitem if runtime_call == "setitem" else _augitem)(stmt, ctx))
        elif runtime_call in ("setitem_attr", "setitem_into"):
            out.extend(_held_item(stmt, runtime_call == "setitem_attr", ctx))
        elif runtime_call in ("for_loop", "while_loop") and i + 1 < len(stmts) and isinstance(stmts[i + 1], gast.For):
            unpack = stmts[i + 2] if i + 2 < len(stmts) and _reads_loop_state(stmts[i + 2], stmt) else None
            replaced = (_for if runtime_call == "for_loop" else _while)(stmt, stmts[i + 1], unpack, out, ctx)
            if replaced is not None:
                out = replaced
                i += 3 if unpack is not None else 2
                continue
            out.append(stmt)
        else:
            out.append(_nested_blocks(stmt, ctx))
        i += 1
    return out


def _nested_blocks(stmt, ctx):
    """``stmt`` with the blocks of a compound statement (``try``, ``with``,
    ``match`` ...) processed; definitions are other scopes and stay as they are."""
    if isinstance(stmt, (gast.FunctionDef, gast.AsyncFunctionDef, gast.ClassDef)):
        return stmt
    fields = {}
    for field in ("body", "orelse", "finalbody", "handlers", "cases"):
        block = getattr(stmt, field, None)
        if not isinstance(block, list) or not block:
            continue
        if isinstance(block[0], gast.stmt):
            fields[field] = _block(block, ctx)
        else:  # except handlers, match cases: each has a body
            fields[field] = [_with_body(part, ctx) for part in block]
    if not fields:
        return stmt
    new = _shallow_copy(stmt)
    new.__dict__.update(fields)
    return new


def _with_body(part, ctx):
    new = _shallow_copy(part)
    new.body = _block(part.body, ctx)
    return new


def _shallow_copy(node):
    cls = type(node)
    new = cls.__new__(cls)
    new.__dict__.update(node.__dict__)
    return new


# --- recognising the lowered forms ---------------------------------------------------

def _runtime_call(stmt):
    """``branch`` for ``... = ag__.branch(...)(...)``, ``for_loop``/``while_loop`` for
    ``loop = ag__.for_loop(...)``, ``setitem``/``augitem`` for ``x =
    ag__.setitem(x, ...)``, ``assert_stmt`` for ``ag__.assert_stmt(...)``,
    ``setitem_attr``/``setitem_into`` for ``ag__.setitem_attr(...)``; otherwise None."""
    value = stmt.value if isinstance(stmt, (gast.Assign, gast.Expr)) else None
    if isinstance(value, gast.Call) and isinstance(value.func, gast.Call) and _is_runtime(value.func.func, "branch"):
        return "branch"
    if isinstance(stmt, gast.Expr) and isinstance(value, gast.Call):
        for name in ("assert_stmt", "setitem_attr", "setitem_into"):
            if _is_runtime(value.func, name):
                return name
    if isinstance(stmt, gast.Assign) and isinstance(value, gast.Call):
        for name in ("for_loop", "while_loop", "setitem", "augitem"):
            if _is_runtime(value.func, name):
                return name
    return None


def _is_runtime(func, name: str) -> bool:
    return (isinstance(func, gast.Attribute) and func.attr == name and isinstance(func.value, gast.Name)
            and func.value.id == templates.RUNTIME)


def _reads_loop_state(stmt, loop_assign) -> bool:
    """Whether ``stmt`` is ``(names,) = loop.state`` for the loop ``loop_assign`` makes."""
    value = getattr(stmt, "value", None)
    return (isinstance(stmt, gast.Assign) and isinstance(value, gast.Attribute) and value.attr == "state"
            and isinstance(value.value, gast.Name) and value.value.id == loop_assign.targets[0].id)


def _take_made(out: list, names, ctx) -> dict:
    """Remove the statements making the generated functions ``names`` (their
    factories' calls) from ``out``: {name: the factory call}, for the runtime call
    that uses each once (no local variable: locals that grow with the function
    make Python's compiler quadratic)."""
    made = {}
    for j in range(len(out) - 1, -1, -1):
        if len(made) == len(names):
            break
        name = ctx.factories.defined_name(out[j])
        if name in names:
            made[name] = out.pop(j).value
    return made


def _made_in(node, made: dict):
    """``node``, a runtime call, with each generated function it names replaced by
    the call of its factory in ``made`` (copied where changed)."""
    if isinstance(node, gast.Name):
        return made.get(node.id, node)
    if isinstance(node, list):
        return [_made_in(item, made) for item in node]
    if not isinstance(node, (gast.Call, gast.keyword, gast.Tuple)):
        return node
    new = _shallow_copy(node)
    for field in ("func", "args", "keywords", "value", "elts"):
        if hasattr(node, field):
            setattr(new, field, _made_in(getattr(node, field), made))
    return new


def _find_def(out: list, name, ctx):
    """The def of generated function ``name`` if ``out`` makes it, else None."""
    for stmt in reversed(out):
        if ctx.factories.defined_name(stmt) == name:
            return ctx.factories.made[name]
    return None


def _inline_body(fn, ctx):
    """The statements of generated function ``fn`` to run in the user's frame (its
    nested constructs given their Python paths too), and the value it
    returns at its end (None if it ends in a ``raise``); None if it cannot be
    inlined."""
    body = [s for s in fn.body if not isinstance(s, (gast.Global, gast.Nonlocal))]
    results = None
    if body and isinstance(body[-1], gast.Return):
        results = body[-1].value
        body = body[:-1]
    if any(isinstance(n, gast.Return) for n in trees.scope_statements(body)):
        return None
    return (_block(body, ctx) or [gast.Pass()]), results


# --- the three forms -------------------------------------------------------------------

# Whether the test ``cond`` is staged: a bool (most tests) is ruled out without a call.
_STAGED = "cond is not True and cond is not False and ag__.staged(cond)"


def _branch(stmt, out: list, ctx) -> list:
    call = stmt.value.func
    body_name = call.args[1].id
    orelse = call.args[2]
    orelse_name = orelse.id if isinstance(orelse, gast.Name) else None
    body_fn = _find_def(out, body_name, ctx)
    orelse_fn = _find_def(out, orelse_name, ctx) if orelse_name else None
    if body_fn is None or (orelse_name and orelse_fn is None):
        out.append(stmt)
        return out
    inline = _inline_body(body_fn, ctx)
    inline_else = _inline_body(orelse_fn, ctx) if orelse_fn is not None else ([], None)
    if inline is None or inline_else is None:
        out.append(stmt)
        return out
    made = _take_made(out, {name for name in _shared_names(call) + [orelse_name, body_name] if name}, ctx)
    cond = ctx.cond
    staged_call = _made_in(call, made)
    staged_call.args[0] = templates.load(cond)
    staged_stmt = _shallow_copy(stmt)
    staged_stmt.value = _shallow_copy(stmt.value)
    staged_stmt.value.func = staged_call
    new = templates.replace(
        f"cond = test\nif {_STAGED}:\n    staged\nelif cond:\n    body\nelse:\n    orelse",
        cond=cond, test=call.args[0], staged=[staged_stmt], body=inline[0], orelse=inline_else[0],
    )
    if not inline_else[0]:
        new[1].orelse[0].orelse = []
    origins.fill(new, stmt)
    out.extend(new)
    return out


def _assert(stmt, ctx) -> list:
    """``ag__.assert_stmt(test, lambda: msg)`` -> Python's own ``assert cond, msg``
    when the test is a Python value (the message evaluated in the user's frame)."""
    call = stmt.value
    cond = ctx.cond
    staged = _shallow_copy(call)
    staged.args = [templates.load(cond)] + call.args[1:]
    check = gast.Assert(test=templates.load(cond), msg=call.args[1].body if len(call.args) > 1 else None)
    new = templates.replace(f"cond = test\nif {_STAGED}:\n    staged\nelse:\n    check",
                            cond=cond, test=call.args[0], staged=[gast.Expr(value=staged)], check=[check])
    origins.fill(new, stmt)
    return new


def _setitem(stmt, ctx) -> list:
    """``x = ag__.setitem(x, index, value)`` -> Python's own ``x[index] = value`` when
    none of them is staged: the write's caller (what ``__setitem__`` sees, what a
    traceback shows) is the user's frame, as in the original, and the value is
    evaluated first, as Python does."""
    target, index, value = stmt.value.args
    new = templates.replace(
        "value_ = value\nindex_ = index\n"
        "if ag__.staged(target) or ag__.staged(index_) or ag__.staged(value_):\n"
        "    target = ag__.setitem(target, index_, value_)\n"
        "else:\n    target[index_] = value_",
        value_=ctx.item_value, value=value, index_=ctx.item_index, index=index, target=target.id)
    origins.fill(new, stmt)
    return new


def _augitem(stmt, ctx) -> list:
    """``x = ag__.augitem(x, index, '+=', value)`` -> Python's own ``x[index] += value``
    when none of them is staged (see ``_setitem``), in Python's order: the index, the
    item read, the value, the in-place operator, the write. A staged target or index goes
    to the runtime before the read; a staged value (into a NumPy array, say) after it."""
    target, index, op, value = stmt.value.args
    item = ctx.item_read
    update = gast.AugAssign(target=gast.Name(id=item, ctx=gast.Store(), annotation=None, type_comment=None),
                            op=item_assignments.AUG_OPERATORS[op.value](), value=templates.load(ctx.item_value))
    new = templates.replace(
        "index_ = index\n"
        "if ag__.staged(target) or ag__.staged(index_):\n"
        "    target = ag__.augitem(target, index_, op, value)\n"
        "else:\n"
        "    item_ = target[index_]\n"
        "    value_ = value\n"
        "    if ag__.staged(value_):\n"
        "        item_ = None\n"  # (the item read is not a view the write leaves behind)
        "        target = ag__.augitem(target, index_, op, value_)\n"
        "    else:\n"
        "        update\n"
        "        target[index_] = item_",
        index_=ctx.item_index, index=index, target=target.id, op=op, value=value,
        item_=item, value_=ctx.item_value, update=[update])
    origins.fill(new, stmt)
    return new


def _held_item(stmt, attribute: bool, ctx) -> list:
    """``ag__.setitem_attr(obj, 'name', holder, index, value)`` (``attribute``) or
    ``ag__.setitem_into(holder, index, value)``, the operator last for ``op=`` -> Python's
    own ``holder[index] = value`` (``op=``) when none of them is staged, in Python's order
    (see ``_setitem`` and ``_augitem``), ``holder`` evaluated once."""
    call = stmt.value
    lead, rest = call.args[:2 if attribute else 0], call.args[2 if attribute else 0:]
    holder, index, value = rest[:3]
    op = rest[3] if len(rest) > 3 else None

    def staged_call(value_node):  # (assigned to the holder's variable: no later read)
        return templates.replace("holder_ = call", holder_=ctx.item_holder, call=gast.Call(
            func=call.func, keywords=[], args=lead + [templates.load(ctx.item_holder),
                                                      templates.load(ctx.item_index),
                                                      value_node] + ([op] if op else [])))[0]

    if op is None:
        new = templates.replace(
            "value_ = value\nholder_ = holder\nindex_ = index\n"
            "if ag__.staged(holder_) or ag__.staged(index_) or ag__.staged(value_):\n"
            "    staged\n"
            "else:\n    holder_[index_] = value_",
            value_=ctx.item_value, value=value, holder_=ctx.item_holder, holder=holder,
            index_=ctx.item_index, index=index, staged=[staged_call(templates.load(ctx.item_value))])
    else:
        update = gast.AugAssign(target=gast.Name(id=ctx.item_read, ctx=gast.Store(), annotation=None,
                                                 type_comment=None),
                                op=item_assignments.AUG_OPERATORS[op.value](),
                                value=templates.load(ctx.item_value))
        new = templates.replace(
            "holder_ = holder\nindex_ = index\n"
            "if ag__.staged(holder_) or ag__.staged(index_):\n"
            "    staged\n"
            "else:\n"
            "    item_ = holder_[index_]\n"
            "    value_ = value\n"
            "    if ag__.staged(value_):\n"
            "        item_ = None\n"
            "        staged_value\n"
            "    else:\n"
            "        update\n"
            "        holder_[index_] = item_",
            holder_=ctx.item_holder, holder=holder, index_=ctx.item_index, index=index,
            item_=ctx.item_read, value_=ctx.item_value, value=value, update=[update],
            staged=[staged_call(value)], staged_value=[staged_call(templates.load(ctx.item_value))])
    origins.fill(new, stmt)
    return new


def _shared_names(call) -> list:
    """The getter and setter names of a ``shared=(get, set, labels)`` keyword."""
    for keyword in call.keywords:
        if keyword.arg == "shared":
            return [keyword.value.elts[1].id, keyword.value.elts[0].id]
    return []


def _for(assign, loop_stmt, unpack, out: list, ctx):
    """``loop = ag__.for_loop(...)``; ``for itr in loop: loop.state = body(itr, *loop.state)``."""
    body_fn = _find_def(out, assign.value.args[1].id, ctx)
    if body_fn is None:
        return None
    inline = _inline_body(body_fn, ctx)
    if inline is None:
        return None
    body, results = inline
    item = body_fn.args.args[0].id
    if results is not None:
        body = body + templates.replace("loop.state = results", loop=assign.targets[0].id, results=results)
    (loop,) = templates.replace("for item in loop:\n    body", item=item, loop=assign.targets[0].id, body=body)
    origins.fill(loop, loop_stmt)
    call = assign.value
    names = {n.id for n in call.args[1:] if isinstance(n, gast.Name)} | set(_shared_names(call))
    assign = _shallow_copy(assign)
    assign.value = _made_in(call, _take_made(out, names, ctx))
    out += [assign, loop] + ([unpack] if unpack is not None else [])
    return out


def _while(assign, loop_stmt, unpack, out: list, ctx):
    """``loop = ag__.while_loop(test, body, state, labels)``; ``for state in loop:
    loop.state = body(*state)`` -> the test and body inline, the backend's loop
    from the current state when the test is staged (the generated functions are
    defined there)."""
    call = assign.value
    test_fn = _find_def(out, call.args[0].id, ctx)
    body_fn = _find_def(out, call.args[1].id, ctx)
    if test_fn is None or body_fn is None or not isinstance(test_fn.body[-1], gast.Return):
        return None
    inline = _inline_body(body_fn, ctx)
    if inline is None:
        return None
    cond = ctx.cond
    made = _take_made(out, set(_shared_names(call) + [call.args[1].id, call.args[0].id]), ctx)
    handover = _made_in(call, made)  # the functions made only when needed
    handover.func = templates.replace_expr("ag__.while_from")
    handover.args = [templates.load(cond)] + handover.args
    if unpack is not None:
        staged = templates.replace("targets = call", targets=unpack.targets[0], call=handover)
    else:
        staged = [gast.Expr(value=handover)]
    (loop,) = templates.replace(
        f"while True:\n    cond = test\n    if {_STAGED}:\n        staged\n        break\n"
        "    if not cond:\n        break\n    body",
        cond=cond, test=test_fn.body[-1].value, staged=staged, body=inline[0],
    )
    origins.fill(loop, loop_stmt)
    out.append(loop)
    return out
