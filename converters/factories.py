"""Every generated function is made by a factory defined once, so compiled code grows linearly.

The control-flow passes nest a construct's generated functions in the generated
function of the construct around it: Python's scoping lets them read its
variables. The Python paths (``python_paths``) need a construct's functions in two
places: in the generated function around it (its staged path), and in the user's
frame, where the body around it runs inline when its test is a Python value.
Copying them into both places would copy everything nested under a construct once
per construct around it: code quadratic in the nesting depth, and an early exit
nests the rest of the function (``branch_exits``), so that 200 ``if ...: raise``
checks in a row are 200 levels deep. Instead, each generated function is defined
in a factory of its own, and where it was defined, its factory is called::

    def if_body(x):                          factories = [None] * 2
        z = x + 1                            def make(z):
        def if_body_2(x):            ->          def if_body_2(x):
            return (x + z,)                          return (x + z,)
        ...                                      return if_body_2
                                             factories[0] = make
                                             def make(factories):
                                                 def if_body(x):
                                                     z = x + 1
                                                     if_body_2 = factories[0](z)
                                                     ...

The factories are defined at the top of the function's staged body, all under
one name (Python's compiler copies the set of a function's locals for each
function nested in it: locals that grow with the function's size would make
compiling quadratic; ``python_paths`` likewise passes a made function straight to
the runtime call that uses it). A factory takes as parameters the variables its
function reads that belong to the generated functions around it (their
parameters and what they assign) or to the user's function, and the table if it
makes functions itself; the user's closure cells (which a nested user function
may rebind) and globals it reads as before. So a generated function's closure
still holds what the functions it makes read (the runtime looks there for the
containers a construct changes in place). Those values are passed where the function used to be
defined, just before the runtime call that uses it, and nothing assigns them in
between, except a ``:=`` in the test of an ``if`` or the iterable of a ``for``:
such a test is then evaluated first, into a variable of its own.

Nothing changes on the user's own statements: a factory only defines. The table
is a local of the staged body's function, passed to the factories that need it
(never captured), so that function gets no closure cell for it.
"""

from __future__ import annotations

import gast

from autograph import origins, templates, trees
from autograph.analysis import activity

_SCOPES = (gast.FunctionDef, gast.AsyncFunctionDef, gast.ClassDef)


class Factories:
    """The factories of one function's generated functions, and where each is called."""

    def __init__(self, ctx) -> None:
        self.ctx = ctx
        self.table = ctx.namer.new("factories")
        self.factory_name = ctx.namer.new("make")
        self.definitions_: list = []  # the factory defs, in table order
        self.made: dict = {}  # generated function name -> its def, as its factory defines it
        self._calls: dict = {}  # id of a factory call statement -> the name it assigns
        # The user function's own variables a generated function reads are passed too
        # (not closure cells: those a nested user function may rebind stay cells), so
        # a generated function's closure still holds what the functions it makes read
        # (``runtime.staging.inplace`` finds the containers a construct changes there).
        self._passed = frozenset(ctx.locals - ctx.cells)

    def lift(self, stmts: list) -> list:
        """The user scope's statements ``stmts`` with every generated def replaced by
        a call of its factory. ``stmts`` is not changed."""
        return self._block(stmts, frozenset())

    def definitions(self) -> list:
        """The table of factories, filled, to put first in the staged body. The
        factories share one name: a name per factory would make the function's
        locals grow with its size, and Python's compiler copies the set of
        enclosing locals for every nested function (quadratic)."""
        if not self.definitions_:
            return []
        stmts = templates.replace("table = [None] * size", table=self.table,
                                  size=templates.constant(len(self.definitions_)))
        for index, factory in enumerate(self.definitions_):
            stmts += [factory] + templates.replace(
                "table[index] = name", table=self.table, index=templates.constant(index), name=factory.name)
        origins.fill(stmts, self.definitions_[0])
        return stmts

    def defined_name(self, stmt):
        """The name of the generated function that statement ``stmt`` makes (a
        factory's call), or None."""
        return self._calls.get(id(stmt))

    # --- lifting ---------------------------------------------------------------------

    def _block(self, stmts: list, bound: frozenset) -> list:
        """``stmts`` of one scope, whose enclosing generated functions bind ``bound``."""
        out = []
        for stmt in stmts:
            if isinstance(stmt, gast.FunctionDef) and id(stmt) in self.ctx.generated:
                out.append(self._factory_call(stmt, bound))
            else:
                out.append(self._nested(stmt, bound))
        if bound:
            out = _tests_first(out, self)
        return out

    def _nested(self, stmt, bound: frozenset):
        """``stmt`` with the blocks of a compound statement lifted (definitions of
        the user's are other scopes: left as they are)."""
        if isinstance(stmt, _SCOPES):
            return stmt
        fields = {}
        for field in ("body", "orelse", "finalbody", "handlers", "cases"):
            block = getattr(stmt, field, None)
            if not isinstance(block, list) or not block:
                continue
            if isinstance(block[0], gast.stmt):
                fields[field] = self._block(block, bound)
            else:  # except handlers, match cases: each has a body
                fields[field] = [_copy(part, body=self._block(part.body, bound)) for part in block]
        return _copy(stmt, **fields) if fields else stmt

    def _factory_call(self, fn, bound: frozenset):
        """``name = factories[i](params, factories)`` for generated def ``fn``, whose
        factory is added to the table."""
        inner = bound | _locals(fn)
        lifted = _copy(fn, body=self._block(fn.body, inner))
        free = activity.free_reads(lifted)
        params = sorted(free & (bound | self._passed)) + ([self.table] if self.table in free else [])
        (factory,) = templates.replace(
            "def factory(params):\n    fn\n    return name",
            factory=self.factory_name, params=params, fn=lifted, name=fn.name)
        origins.fill([factory], fn)
        index = len(self.definitions_)
        self.definitions_.append(factory)
        self.ctx.generated.add(id(factory))
        self.made[fn.name] = lifted
        (call,) = templates.replace(
            "name = table[index](params)",
            name=fn.name, table=self.table, index=templates.constant(index), params=params)
        origins.fill([call], fn)
        self._calls[id(call)] = fn.name
        return call


def _locals(fn) -> frozenset:
    """What generated function ``fn`` binds: its parameters and what it assigns,
    except names it declares ``global`` or ``nonlocal``."""
    declared = activity.declared_nonlocal(fn.body)
    return frozenset((activity.parameters(fn.args) | activity.assigned(fn.body)) - declared[0] - declared[1])


def _tests_first(stmts: list, factories: Factories) -> list:
    """``stmts`` where a runtime call whose first argument (an ``if``'s test, a
    ``for``'s iterable) assigns with ``:=`` has it evaluated before the factory calls
    just before it (they pass the values of variables it may assign)."""
    out: list = []
    for stmt in stmts:
        value = getattr(stmt, "value", None)
        call = value.func if isinstance(value, gast.Call) and isinstance(value.func, gast.Call) else value
        if (isinstance(call, gast.Call) and call.args and out and factories.defined_name(out[-1]) is not None
                and activity.has_walrus(call.args[0])):
            first = len(out)
            while first > 0 and factories.defined_name(out[first - 1]) is not None:
                first -= 1
            test = factories.ctx.namer.new("test")
            (hoisted,) = templates.replace("test = value", test=test, value=call.args[0])
            origins.fill([hoisted], stmt)
            out.insert(first, hoisted)
            new_call = _copy(call, args=[templates.load(test)] + call.args[1:])
            if call is value:
                stmt = _copy(stmt, value=new_call)
            else:
                stmt = _copy(stmt, value=_copy(value, func=new_call))
        out.append(stmt)
    return out


def _copy(node, **fields):
    """A shallow copy of ``node`` with ``fields`` replaced."""
    cls = type(node)
    new = cls.__new__(cls)
    new.__dict__.update(node.__dict__)
    new.__dict__.update(fields)
    return new
