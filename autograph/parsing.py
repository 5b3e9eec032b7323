"""Getting the source of a Python entity and parsing it into a gast tree.

Indented source (a method, a nested function) is parsed inside an ``if 1:``
block instead of being dedented: dedenting would also change the contents of
multi-line string literals. Line numbers are shifted so every node carries its
line in the user's file.
"""

from __future__ import annotations

import ast
import dis
import inspect
import linecache
import types

import gast

from . import trees
from .runtime.errors import ConversionError


def parse_source(source: str, filename: str = "<string>", first_line: int = 1) -> gast.Module:
    """Parse ``source`` (possibly indented) whose first line is ``first_line`` of ``filename``."""
    indented = source[:1].isspace() and source.lstrip()
    text = "if 1:\n" + source if indented else source
    try:
        tree = ast.parse(text, filename=filename)
    except SyntaxError as e:
        line = (e.lineno or 1) - (1 if indented else 0) + first_line - 1
        raise ConversionError(f"{filename}:{line}: syntax error: {e.msg}") from None
    ast.increment_lineno(tree, first_line - 1 - (1 if indented else 0))
    if indented:
        tree.body = tree.body[0].body
    return trees.from_ast(tree)


def function_node(fn: types.FunctionType):
    """The gast ``FunctionDef`` (or ``Lambda``) of ``fn``, located in its file."""
    code = fn.__code__
    filename = code.co_filename
    if code.co_name != "<lambda>":
        node = _def_node_from_line_table(fn)
        if node is not None:
            return node
    if code.co_name == "<lambda>":
        return _lambda_node(fn)
    try:
        lines, first_line = inspect.findsource(code)
    except (OSError, TypeError) as e:
        raise _unavailable(fn, e) from None
    block = inspect.getblock(lines[first_line:])
    tree = parse_source("".join(block), filename, first_line + 1)
    node = _find_def(tree, fn)
    if node is None:
        if filename.startswith("<"):  # exec'd code: the cached lines are some other source
            raise _unavailable(fn, "could not get source code")
        raise ConversionError(f"{filename}:{first_line + 1}: cannot find the source of {fn.__qualname__}")
    return node


def _unavailable(fn, reason) -> ConversionError:
    return ConversionError(
        f"cannot convert {fn.__qualname__}: its source code is not available ({reason}). "
        f"Define it in a file, or mark it with autograph.do_not_convert."
    )


def _find_def(tree, fn):
    for node in tree.body:
        if isinstance(node, (gast.FunctionDef, gast.AsyncFunctionDef)) and node.name == fn.__code__.co_name:
            mangle_private_names(node, qualname_of(fn))
            return node
    return None


def _def_node_from_line_table(fn):
    """The def of ``fn`` read off the lines its code spans, or None to let
    ``inspect`` find the block (its tokenizing block finder is the slowest step of
    a first conversion, and on Python < 3.11 it misreads a decorator holding a
    lambda). The block ends at the code's last line (its last instruction's end
    on 3.11+, its start before that), extended over the lines that follow it
    indented deeper than the def, blank lines and comments; then, while the text
    does not parse, one line at a time (a bracket closed at the def's indentation)."""
    code = fn.__code__
    linecache.checkcache(code.co_filename)
    lines = linecache.getlines(code.co_filename, fn.__globals__)
    first = code.co_firstlineno - 1
    if not 0 <= first < len(lines):
        return None
    head = lines[first].lstrip()
    if not head.startswith(("def ", "async ", "@")):
        return None
    indent = len(lines[first]) - len(head)
    end = _last_line(code)
    while end < len(lines):
        text = lines[end].lstrip()
        if text and not text.startswith("#") and len(lines[end]) - len(text) <= indent:
            break
        end += 1
    for end in range(end, min(end + _MORE_LINES, len(lines)) + 1):
        try:
            tree = parse_source("".join(lines[first:end]), code.co_filename, first + 1)
        except ConversionError:
            continue
        return _find_def(tree, fn)
    return None


_MORE_LINES = 8  # lines tried past the indented block before giving up to inspect


def _last_line(code) -> int:
    """The last line any instruction of ``code`` (or of code nested in it) covers."""
    if hasattr(code, "co_positions"):
        lines = [end for _, end, _, _ in code.co_positions() if end is not None]
    else:
        lines = [line for _, line in dis.findlinestarts(code) if line is not None]
    last = max(lines, default=code.co_firstlineno)
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            last = max(last, _last_line(const))
    return last


def _lambda_node(fn):
    """The lambda of ``fn`` in the statement around its line: anywhere in it (a
    continuation line, a dict literal, a call's arguments), and among several on
    one line by where its body is (3.11+: the code's positions) or by what it
    compiles to."""
    code = fn.__code__
    linecache.checkcache(code.co_filename)
    lines = linecache.getlines(code.co_filename, fn.__globals__)
    line = code.co_firstlineno
    if not 0 < line <= len(lines):
        raise _unavailable(fn, "could not get source code")
    tree = _statement_around(lines, line, code.co_filename)
    params = list(code.co_varnames[: code.co_argcount + code.co_kwonlyargcount])
    candidates = [
        node for node in trees.walk(tree)
        if isinstance(node, gast.Lambda) and node.lineno == line and _lambda_params(node) == params
    ]
    if len(candidates) > 1 and hasattr(code, "co_positions"):
        spans = set(code.co_positions())
        candidates = [n for n in candidates if (n.body.lineno, n.body.end_lineno, n.body.col_offset, n.body.end_col_offset) in spans]
    if len(candidates) > 1:
        candidates = [node for node in candidates if _same_code(node, code)]
    if len(candidates) > 1 and len({gast.dump(n) for n in candidates}) == 1:
        candidates = candidates[:1]  # the same text twice: either one is the lambda
    if not candidates:
        raise ConversionError(
            f"{code.co_filename}:{line}: cannot find the source of this lambda (the file may have "
            f"changed since it was imported). Define it with def, or reload its module."
        )
    if len(candidates) > 1:
        raise ConversionError(
            f"{code.co_filename}:{line}: cannot tell which of the {len(candidates)} lambdas on this "
            f"line to convert: they have the same parameters and compile alike. Define it with def instead."
        )
    mangle_private_names(candidates[0], qualname_of(fn))
    return candidates[0]


def _lambda_params(node) -> list:
    args = node.args
    return [a.id for a in args.posonlyargs + args.args + args.kwonlyargs]


_LOOK_BACK = 400  # lines searched above a lambda for the start of its statement


def _statement_around(lines: list, line: int, filename: str):
    """The parsed statement that contains line ``line`` (1-based): the nearest start
    at or above it, no more indented than it, from which whole lines parse."""
    indent = _indent(lines[line - 1])
    for start in range(line, max(0, line - _LOOK_BACK), -1):
        text = lines[start - 1]
        if not text.strip() or text.lstrip().startswith("#") or _indent(text) > indent:
            continue
        tree = _parse_from(lines, start, line, filename)
        if tree is not None:
            return tree
    raise ConversionError(f"{filename}:{line}: cannot parse the statement around this lambda")


def _indent(text: str) -> int:
    return len(text) - len(text.lstrip())


def _parse_from(lines: list, start: int, line: int, filename: str):
    """The tree of the shortest run of whole lines from ``start`` through ``line``
    or further that parses, or None if none does: extended only while the
    parser says the text is unfinished."""
    for end in range(line, len(lines) + 1):
        source = "".join(lines[start - 1:end])
        indented = source[:1].isspace()
        try:
            tree = ast.parse("if 1:\n" + source if indented else source, filename=filename)
        except SyntaxError as e:
            if not _unfinished(e, source):
                return None
            continue
        ast.increment_lineno(tree, start - 1 - indented)
        return trees.from_ast(tree)
    return None


_UNFINISHED = ("never closed", "EOF", "expected an indented block", "unterminated triple-quoted", "expected 'except' or 'finally'")


def _unfinished(error: SyntaxError, source: str) -> bool:
    """Whether the parser stopped because the text ends too early (an open bracket,
    a string, a decorator or a statement still expecting its block) rather than at
    an error that more lines cannot mend."""
    message = error.msg or ""
    return any(part in message for part in _UNFINISHED) or source.lstrip().startswith("@")


def _same_code(node, code) -> bool:
    """Whether the lambda ``node`` compiles to the bytecode of ``code``."""
    expression = ast.Expression(body=trees.to_ast(node))
    compiled = compile(ast.fix_missing_locations(expression), code.co_filename, "eval")
    lam = next(c for c in compiled.co_consts if hasattr(c, "co_code"))
    return lam.co_code == code.co_code and lam.co_consts == code.co_consts and lam.co_names == code.co_names


def mangle_private_names(fn_node, qualname: str) -> None:
    """Apply Python's private-name mangling (``self.__x`` -> ``self._Cls__x``) as the
    compiler did for the original: with the nearest class enclosing the function
    in ``qualname`` (a method, or a function or lambda nested in one). Converted
    code is compiled outside any class, where the compiler would not mangle."""
    owner = _owner_class(qualname)
    if owner is None:
        return
    prefix = "_" + owner.lstrip("_")

    def mangle(name: str) -> str:
        if name.startswith("__") and not name.endswith("__") and "." not in name:
            return prefix + name
        return name

    for node in trees.walk(fn_node):
        if isinstance(node, gast.Attribute):
            node.attr = mangle(node.attr)
        elif isinstance(node, gast.Name):
            node.id = mangle(node.id)


def _owner_class(qualname: str):
    """The nearest class around the last scope of ``qualname`` (``Box.m.<locals>.f``
    -> ``Box``): a part not followed by ``<locals>`` names a class. None if there
    is none, or its name is all underscores (then Python does not mangle)."""
    parts = qualname.split(".")
    for i in range(len(parts) - 2, -1, -1):
        if parts[i] != "<locals>" and parts[i + 1] != "<locals>":
            return parts[i] if parts[i].strip("_") else None
    return None


def qualname_of(fn) -> str:
    """The qualified name the compiler gave ``fn`` (3.11+: its code's, which
    decorators cannot change)."""
    return getattr(fn.__code__, "co_qualname", None) or fn.__qualname__


def source_line(filename: str, lineno: int) -> str:
    return linecache.getline(filename, lineno).strip()
