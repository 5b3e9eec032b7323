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
import operator
import sys
import types

import gast

from . import trees
from .runtime.staging.errors import ConversionError


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
    """The gast ``FunctionDef`` (or ``Lambda``) of ``fn``, located in its file, and
    checked to be the source ``fn``'s code was compiled from (``check_source``)."""
    code = fn.__code__
    if code.co_name == "<lambda>":
        node = _lambda_node(fn)
    else:
        node = _def_node_from_line_table(fn) or _def_node_from_inspect(fn)
    check_source(node, fn)
    return node


def _def_node_from_inspect(fn):
    code = fn.__code__
    filename = code.co_filename
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


def check_source(node, fn) -> None:
    """Refuse source that is not what ``fn``'s code was compiled from: the file
    changed after its module was imported, or two ``exec``'d sources share one
    file name. Cheap checks of the code object against the tree, none of which
    fails for the right source (checked on thousands of library functions):
    the names the code uses and the variables the source reads or assigns are
    the same; every constant of the code is one of the source's (or what the
    compiler folds them into); every line where an instruction starts is a line
    where a node starts or ends; and on Python 3.11, every instruction's position
    (line and column span) is a node's, or derived from a node's end (a method
    call's name) or the def's line. An edit that changes none of these (``<`` for
    ``>``) goes unnoticed."""
    code = fn.__code__
    if not all(part.isidentifier() for name in code.co_varnames + code.co_names
               for part in name.split(".")):  # `import a.b` names 'a.b'
        return  # compiled from a rewritten tree (pytest's asserts: @py_assert1): not comparable
    problem = _mismatch(node, code)
    if problem is not None:
        what = "lambda" if code.co_name == "<lambda>" else qualname_of(fn)
        if code.co_filename.startswith("<"):
            advice = "Two sources may have been run under this file name; give each its own (compile(source, name, ...))."
        else:
            advice = ("The file changed after its module was imported: reload the module (importlib.reload) "
                      "or restart; or a tool compiled this function's code itself and placed it there (some "
                      "decorators do): mark it with autograph.do_not_convert.")
        raise ConversionError(
            f"{code.co_filename}:{code.co_firstlineno}: cannot convert {what}: the source there is not "
            f"the code that runs ({problem}). {advice}"
        )


def _mismatch(node, code):
    """What differs between the tree ``node`` and ``code``, or None."""
    names, variables, starts, spans, ends = set(), set(), set(), set(), set()
    constants = {"return"}  # the key of a nested def's return annotation
    patterns = False  # a match statement compiles lengths and indices of its patterns
    for n, compiled in _compiled_nodes(node):
        cls = type(n)
        lineno = n.__dict__.get("lineno")
        if lineno is not None:
            end_lineno = n.end_lineno
            starts.add(lineno)
            starts.add(end_lineno)
            spans.add((lineno, end_lineno, n.col_offset, n.end_col_offset))
            if cls is gast.Attribute or cls is gast.Call:
                ends.add((end_lineno, n.end_col_offset))
        if cls is gast.Name:
            names.add(n.id)
            if compiled:  # what the compiler may leave out is not asked of the code
                variables.add(n.id)
            if type(n.ctx) is gast.Param:  # a nested def's annotations: ('x', int, 'return', int)
                constants.add(n.id)
            continue
        if cls is gast.Constant:
            constants.add(n.value)
            continue
        spelled = _identifiers(n)
        names.update(spelled)
        if cls in _NAMES_AS_CONSTANTS:  # keyword arguments, imported names, pattern attributes
            constants.update(spelled)
            if cls is gast.Import or cls is gast.ImportFrom:
                constants.update((0, getattr(n, "level", 0) or 0))
        elif cls is gast.Match:
            patterns = True
        elif cls in _FOLDABLE:
            constants.add(_folded(n))
        elif cls in _DEFINITIONS:
            constants.add(n.name)  # a class's name is a constant of the code that builds it
    used = {part for name in code.co_names for part in name.split(".")}
    missing = sorted(name for name in used | set(code.co_varnames) | set(code.co_cellvars)
                     if name not in names and not name.startswith("."))
    if missing:
        return f"its code uses {missing[0]!r}, which the source does not mention"
    unknown = sorted(variables - _all_names(code))
    if unknown:
        return f"the source uses {unknown[0]!r}, which its code does not"
    lenient_strings = bool(code.co_flags & _FUTURE_ANNOTATIONS) or sys.version_info < (3, 11)
    strings = None
    for value in _flat_constants(code.co_consts):
        if value in constants or (lenient_strings and isinstance(value, str)) or (patterns and type(value) is int):
            continue
        if isinstance(value, str):  # a piece of a format string the compiler split ('%s(%s)' % ...)
            strings = strings if strings is not None else [
                piece for c in constants if isinstance(c, str) for piece in (c, c.replace("%%", "%"))]
            if any(value in c for c in strings):
                continue
        return f"its code has the constant {value!r}, which the source does not"
    first = code.co_firstlineno
    for _, line in dis.findlinestarts(code):
        if line is not None and line not in starts and line != first:
            return f"its code has an instruction on line {line}, where the source has none"
    if sys.version_info[:2] == (3, 11):
        for position in code.co_positions():
            if None not in position and position not in spans and (position[1], position[3]) not in ends \
                    and position != (first, first, 0, 0):
                return f"its code has an instruction at line {position[0]}, column {position[2]}, where the source has none"
    return None


_FOLDABLE = (gast.UnaryOp, gast.BinOp, gast.Subscript)
_DEFINITIONS = (gast.ClassDef, gast.FunctionDef, gast.AsyncFunctionDef)
_NAMES_AS_CONSTANTS = (gast.keyword, gast.alias, gast.Import, gast.ImportFrom, gast.MatchClass)
_FUTURE_ANNOTATIONS = 0x1000000  # CO_FUTURE_ANNOTATIONS: nested annotations compile to strings


def _compiled_nodes(node):
    """(node, compiled) for the nodes of ``node`` without its decorators and
    defaults (the enclosing scope evaluates them); ``compiled`` is False where
    the compiler may leave out the variables the node uses (it may also keep
    them, and its constants): annotations (a local's is not evaluated, a
    parameter's belongs to the enclosing scope), the branch a constant test rules
    out, asserts under ``python -O``, a bare ``x: int``, and nested scopes (their
    code may be dropped as unreachable, after ``assert False``)."""
    yield node, True
    stack = [(n, True) for n in _as_list(node.body)]
    for param in node.args.posonlyargs + node.args.args + node.args.kwonlyargs + [node.args.vararg, node.args.kwarg]:
        if param is not None:
            stack.append((param, True))
    while stack:
        n, compiled = stack.pop()
        yield n, compiled
        cls = type(n)
        if compiled:
            if cls in (gast.If, gast.While, gast.IfExp) and type(n.test) is gast.Constant:
                dead = n.orelse if n.test.value else n.body
                stack.extend((d, False) for d in _as_list(dead))
                stack.append((n.test, True))
                stack.extend((live, True) for live in _as_list(n.body if n.test.value else n.orelse))
                continue
            if (cls is gast.Assert and sys.flags.optimize) or (
                    cls is gast.AnnAssign and n.value is None and type(n.target) is gast.Name):
                compiled = False
        if cls in _NESTED_SCOPES:
            compiled = False  # code of its own, which dead code elimination may drop
        for child in trees.children(n):
            live = compiled and not (
                (cls is gast.AnnAssign and child is n.annotation)
                or (cls is gast.Name and child is n.annotation)
                or (cls in (gast.FunctionDef, gast.AsyncFunctionDef) and child is n.returns))
            stack.append((child, live))


_NESTED_SCOPES = (gast.FunctionDef, gast.AsyncFunctionDef, gast.ClassDef, gast.Lambda,
                  gast.ListComp, gast.SetComp, gast.DictComp, gast.GeneratorExp)


def _as_list(value):
    return value if isinstance(value, list) else [value]


def _all_names(code) -> set:
    """Every name ``code`` and the code nested in it use (variables, globals, attributes)."""
    out = set(code.co_names) | set(code.co_varnames) | set(code.co_cellvars) | set(code.co_freevars)
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            out |= _all_names(const)
    return out


def _flat_constants(consts):
    """The numbers and strings among ``consts``, tuples and frozensets opened; not
    qualified names of nested functions (constants before 3.11)."""
    for value in consts:
        if isinstance(value, (tuple, frozenset)):
            yield from _flat_constants(value)
        elif value.__class__ in (int, float, complex, str, bytes) and not (
                value.__class__ is str and ("<locals>" in value or "<lambda>" in value)):
            yield value


_OPERATORS = {
    gast.Add: operator.add, gast.Sub: operator.sub, gast.Mult: operator.mul, gast.Div: operator.truediv,
    gast.FloorDiv: operator.floordiv, gast.Mod: operator.mod, gast.Pow: operator.pow,
    gast.LShift: operator.lshift, gast.RShift: operator.rshift, gast.BitOr: operator.or_,
    gast.BitAnd: operator.and_, gast.BitXor: operator.xor, gast.USub: operator.neg,
    gast.UAdd: operator.pos, gast.Invert: operator.invert,
}


def _folded(n):
    """The value the compiler folds the constant expression ``n`` into (``-1``,
    ``2 ** 8``, ``'-' * 20``, ``b'.'[0]``), or None when it is not one."""
    try:
        if type(n) is gast.Constant:
            return n.value
        if type(n) is gast.UnaryOp:
            value = _folded(n.operand)
            return None if value is None else _OPERATORS[type(n.op)](value)
        if type(n) is gast.BinOp:
            left, right = _folded(n.left), _folded(n.right)
            if left is None or right is None:
                return None
            if type(n.op) in (gast.Pow, gast.LShift) and isinstance(right, int) and right > 128:
                return None
            if type(n.op) is gast.Mult and any(isinstance(v, int) and v > 4096 for v in (left, right)):
                return None
            return _OPERATORS[type(n.op)](left, right)
        if type(n) is gast.Subscript and type(n.slice) is gast.Constant:
            value = _folded(n.value)
            return None if value is None else value[n.slice.value]
    except Exception:  # noqa: BLE001 - what does not fold is not a constant
        return None
    return None


def _identifiers(n):
    """The identifiers a node spells out (a variable, attribute, parameter,
    import, declaration, keyword argument, pattern capture, def or class name)."""
    cls = type(n)
    if cls is gast.Name:
        return (n.id,)
    if cls is gast.Attribute:
        return (n.attr,)
    if cls in (gast.FunctionDef, gast.AsyncFunctionDef, gast.ClassDef):
        return (n.name,)
    if cls is gast.alias:
        return (*n.name.split("."), n.asname or "")
    if cls is gast.ImportFrom:
        return tuple((n.module or "").split("."))
    if cls in (gast.Global, gast.Nonlocal):
        return tuple(n.names)
    if cls is gast.keyword:
        return (n.arg or "",)
    if cls in (gast.MatchAs, gast.MatchStar):
        return (n.name or "",)
    if cls is gast.MatchMapping:
        return (n.rest or "",)
    if cls is gast.MatchClass:
        return tuple(n.kwd_attrs)
    return ()


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
