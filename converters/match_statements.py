"""``match`` statements whose patterns compare values become ``if`` chains.

    match x:                         subject = x
        case 0:                      if subject == 0:
            a()                          a()
        case 1 | 2 as n:     ->      elif subject == 1 or subject == 2:
            b(n)                         n = subject
        case None:                       b(n)
            c()                      elif subject is None:
        case _:                          c()
            d()                      else:
                                         d()

A literal or dotted-name value pattern is ``subject == value``, ``None`` / ``True``
/ ``False`` are ``subject is value``, an or-pattern is the ``or`` of its
alternatives, ``_`` and a bare name always match, and every name a pattern binds
(``case n``, ``... as n``) is bound to the subject itself: these patterns never
take the subject apart. That is exactly what Python does, in its order: the
subject is evaluated once (into a fresh variable), the alternatives are tried
left to right until one matches, the names are bound, then the guard is
evaluated; a failed guard leaves its names bound and goes on with the next case.
The ``if``s made here are lowered by the later passes like the user's own, so a
staged subject or guard becomes a graph cond.

A guard goes into the ``if`` when its case binds nothing (``if subject == 1 and
guard:``), after the bindings otherwise; then, unless the case is the last, a flag
says whether the guard passed, and the body (its names bound again, to the same
value: so that a staged branch need not carry them) and the following cases are
the two branches of ``if matched:``. The variables the cases assign thus meet in
one ``if``, as the user wrote them.

A ``match`` with a sequence, mapping or class pattern in any case is left as it
is, whole: it works on Python values as before (a staged subject there is the
``TypeError`` of a tensor used as a Python bool, which names the ``case``). When
its cases test the subject with a class pattern, the subject goes through
``ag__.class_pattern_subject``, which refuses a staged value whose Python type is
not its array's (``runtime.patterns``): such a match would silently take another
case than on arrays.

Runs first, on the function's own scope (nested functions run the pipeline
themselves); it only looks at statements, so a function without ``match`` costs
one walk over its statement lists. Guarantees: no ``Match`` whose patterns are
all of the kinds above remains. Python 3.9 has no ``match``: nothing to do.
"""

from __future__ import annotations

import gast

from autograph import origins, templates
from autograph.analysis.definedness import irrefutable

_VALUE_PATTERNS = (gast.MatchValue, gast.MatchSingleton, gast.MatchAs, gast.MatchOr)
_BLOCKS = ("body", "orelse", "finalbody", "handlers")
_SCOPES = (gast.FunctionDef, gast.AsyncFunctionDef, gast.ClassDef)


def transform(node, ctx) -> None:
    node.body = _block(node.body, ctx)


def _block(stmts: list, ctx) -> list:
    """``stmts`` with every convertible ``match`` in them lowered (the same list
    object when there is none)."""
    out = None
    for i, stmt in enumerate(stmts):
        if type(stmt) is gast.Match:
            for case in stmt.cases:
                case.body = _block(case.body, ctx)
            if all(_by_value(case.pattern) for case in stmt.cases):
                if out is None:
                    out = stmts[:i]
                out.extend(_lowered(stmt, ctx))
                continue
            if any(_tests_class(case.pattern) for case in stmt.cases):
                call = templates.replace_expr("ag__.class_pattern_subject(s)", s=stmt.subject)
                origins.fill(call, stmt.subject)
                stmt.subject = call
        elif not isinstance(stmt, _SCOPES):
            for field in _BLOCKS:
                inner = getattr(stmt, field, None)
                if inner:
                    setattr(stmt, field, _block(inner, ctx))
        if out is not None:
            out.append(stmt)
    return stmts if out is None else out


def _by_value(pattern) -> bool:
    """Whether ``pattern`` only compares the subject as a whole (never takes it apart)."""
    if not isinstance(pattern, _VALUE_PATTERNS):
        return False
    if isinstance(pattern, gast.MatchAs):
        return pattern.pattern is None or _by_value(pattern.pattern)
    if isinstance(pattern, gast.MatchOr):
        return all(_by_value(p) for p in pattern.patterns)
    return True


def _tests_class(pattern) -> bool:
    """Whether ``pattern`` tests the subject itself with a class pattern."""
    if isinstance(pattern, gast.MatchClass):
        return True
    if isinstance(pattern, gast.MatchAs):
        return pattern.pattern is not None and _tests_class(pattern.pattern)
    if isinstance(pattern, gast.MatchOr):
        return any(_tests_class(p) for p in pattern.patterns)
    return False


def _lowered(match, ctx) -> list:
    subject = ctx.namer.new("subject")
    start = templates.replace("subject = value", subject=subject, value=match.subject)
    origins.fill(start, match)
    return start + _cases(match.cases, subject, ctx)


def _cases(cases: list, subject: str, ctx) -> list:
    """The statements that try ``cases`` in order."""
    if not cases:
        return []
    case = cases[0]
    rest = _cases(cases[1:], subject, ctx)
    test, always = _test(case.pattern, subject), irrefutable(case.pattern)
    names = list(dict.fromkeys(_bound_names(case.pattern)))
    binds = _binds(names, subject)
    guard, body = case.guard, case.body
    out = []
    if always and test is not None:  # `case 1 | _`: the alternatives before `_` are still tried
        out.append(_if(test, [gast.Pass()]))
        test = None
    if guard is None:
        if test is None:  # an irrefutable case is the last one
            out.extend(binds + body)
        else:
            out.append(_if(test, binds + body, rest))
    elif test is None:
        out.extend(binds + [_if(guard, body, rest)])
    elif not binds:
        out.append(_if(gast.BoolOp(op=gast.And(), values=[test, guard]), body, rest))
    elif not rest:
        out.append(_if(test, binds + [_if(guard, body)]))
    else:
        matched = ctx.namer.new("matched")
        out.extend(templates.replace("matched = False", matched=matched))
        passed = templates.replace("matched = True", matched=matched)
        out.append(_if(test, binds + [_if(guard, passed)]))
        out.append(_if(templates.load(matched), _binds(names, subject) + body, rest))
    origins.fill(out, case.pattern)
    return out


def _binds(names: list, subject: str) -> list:
    return [templates.replace("name = subject", name=name, subject=subject)[0] for name in names]


def _if(test, body: list, orelse: list = ()) -> gast.If:
    return gast.If(test=test, body=body, orelse=list(orelse))


def _test(pattern, subject: str):
    """The test of ``pattern`` on ``subject``, or None for one that needs none (``_``,
    a bare name). An irrefutable or-pattern has one: ``1 | _`` tries ``1`` first."""
    if isinstance(pattern, gast.MatchValue):
        return templates.replace_expr("subject == value", subject=subject, value=pattern.value)
    if isinstance(pattern, gast.MatchSingleton):
        value = templates.constant(pattern.value)
        return templates.replace_expr("subject is value", subject=subject, value=value)
    if isinstance(pattern, gast.MatchAs):
        return None if pattern.pattern is None else _test(pattern.pattern, subject)
    tests = [t for t in (_test(p, subject) for p in pattern.patterns) if t is not None]  # MatchOr
    if not tests:
        return None
    return tests[0] if len(tests) == 1 else gast.BoolOp(op=gast.Or(), values=tests)


def _bound_names(pattern):
    """The names ``pattern`` binds (each to the subject: these patterns never take it apart)."""
    if isinstance(pattern, gast.MatchAs):
        if pattern.pattern is not None:
            yield from _bound_names(pattern.pattern)
        if pattern.name is not None:
            yield pattern.name
    elif isinstance(pattern, gast.MatchOr):
        yield from _bound_names(pattern.patterns[0])  # every alternative binds the same names
