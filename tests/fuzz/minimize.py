"""Shrinks a finding's program to a small one that still differs the same way.

Greedy, on the syntax tree: remove one statement at a time, replace a compound
statement (``if``, loop, ``try``) by one of its blocks, replace an ``if`` condition by
``True``/``False``; keep any change after which the oracle still reports a difference
of the same kind (its first words: ``result[1]``, ``args[2]``, ``exception type``...).
Repeats until nothing more can go.
"""

from __future__ import annotations

import ast
import copy

from fuzz import oracles


def kind_of(why: str) -> str:
    return why.split(":")[0]


def _still_differs(source, raw, oracle, kind, seed, zero_d) -> bool:
    try:
        compile(source, "<minimize>", "exec")
        found = oracles.check_program(source, [raw], (oracle,), oracles.Report(), seed, zero_d)
    except Exception:  # noqa: BLE001 - a candidate that breaks the tester is not kept
        return False
    return any(kind_of(why) == kind for _, _, _, why, _ in found)


def _bodies(tree):
    """Every statement list in ``tree`` (each a (node, field) pair)."""
    for node in ast.walk(tree):
        for field in ("body", "orelse", "finalbody"):
            block = getattr(node, field, None)
            if isinstance(block, list) and block and isinstance(block[0], ast.stmt):
                yield node, field
        if isinstance(node, ast.Try):
            for handler in node.handlers:
                yield handler, "body"


def _candidates(tree):
    """Smaller variants of ``tree`` (fresh copies), biggest cuts first."""
    places = list(_bodies(tree))
    for p, (node, field) in enumerate(places):
        block = getattr(node, field)
        for i, stmt in enumerate(block):
            replacements = [[]]
            if isinstance(stmt, (ast.If, ast.For, ast.While, ast.Try)):
                inner = [stmt.body] + ([stmt.orelse] if stmt.orelse else [])
                if isinstance(stmt, ast.Try):
                    inner += [h.body for h in stmt.handlers] + ([stmt.finalbody] if stmt.finalbody else [])
                replacements += inner
            for new in replacements:
                candidate = copy.deepcopy(tree)
                cnode, cfield = list(_bodies(candidate))[p]
                cblock = getattr(cnode, cfield)
                cblock[i:i + 1] = copy.deepcopy(new)
                if not cblock:
                    if cfield in ("orelse", "finalbody") and not isinstance(cnode, ast.ExceptHandler):
                        setattr(cnode, cfield, [])
                        if isinstance(cnode, ast.Try) and not cnode.handlers and not cnode.finalbody:
                            continue
                    else:
                        cblock.append(ast.Pass())
                yield candidate
            if isinstance(stmt, (ast.If, ast.While)):
                for value in (True, False):
                    candidate = copy.deepcopy(tree)
                    cnode, cfield = list(_bodies(candidate))[p]
                    getattr(cnode, cfield)[i].test = ast.Constant(value)
                    yield candidate


def minimize(source: str, raw, oracle: str, seed: int = 0, why: str | None = None,
             zero_d: bool = False) -> str:
    """The smallest program found that differs on input ``raw`` under ``oracle`` as
    ``source`` does (``why``: the difference to keep; the first found by default)."""
    if why is None:
        found = oracles.check_program(source, [raw], (oracle,), oracles.Report(), seed, zero_d)
        if not found:
            return source
        why = found[0][3]
    kind = kind_of(why)
    tree = ast.parse(source)
    best = ast.unparse(tree)
    progress = True
    while progress:
        progress = False
        for candidate in _candidates(tree):
            text = ast.unparse(candidate)
            if len(text) < len(best) and _still_differs(text, raw, oracle, kind, seed, zero_d):
                tree, best, progress = candidate, text, True
                break
    return best + "\n"
