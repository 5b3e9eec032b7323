"""The ``autograph`` command: print the converted source of functions in a file.

    autograph FILE.py                 every function and method
    autograph FILE.py NAME ...        only these (``Class.method`` allowed)
    autograph - < FILE.py             read standard input
    autograph --diff FILE.py          unified diff against the original

It works from the source alone: the file is parsed, never imported or run.
Bad input prints one line and exits with status 1; there is no traceback.
"""

from __future__ import annotations

import argparse
import difflib
import sys
import types

import gast

from . import conversion, parsing, trees
from .api import unparse
from .naming import Namer
from .runtime.errors import ConversionError


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(
        prog="autograph",
        description="Print the converted (staged) source of the functions in a Python file.",
    )
    parser.add_argument("file", help="a Python source file, or - for standard input")
    parser.add_argument("names", nargs="*", help="functions or Class.method names to convert (default: all)")
    parser.add_argument("--diff", action="store_true", help="print a unified diff against the original")
    args = parser.parse_args(argv)
    try:
        out = run(args.file, args.names, args.diff)
        print(out, end="")
        if not out and not args.names and not args.diff:
            print(f"autograph: {args.file} has no functions or methods to convert", file=sys.stderr)
    except ConversionError as e:
        print(f"autograph: error: {e}", file=sys.stderr)
        return 1
    except Exception as e:  # an internal error still gets one line, not a traceback
        print(f"autograph: internal error: {type(e).__name__}: {e} (please report this)", file=sys.stderr)
        return 2
    return 0


def run(path: str, names, diff: bool) -> str:
    filename, source = _read(path)
    tree = parsing.parse_source(source, filename)
    functions = dict(_functions(tree))
    for name in names:
        if name not in functions:
            raise ConversionError(f"{filename}: no function or method named '{name}'")
    selected = names or list(functions)
    namespace = _static_namespace(tree)
    out = []
    lines = source.splitlines(keepends=True)
    for name in selected:
        node = functions[name]
        converted = _convert(node, name, namespace)
        if diff:
            original = "".join(lines[_first_line(node) - 1: node.end_lineno])
            out.extend(difflib.unified_diff(
                _dedented(original).splitlines(keepends=True), converted.splitlines(keepends=True),
                f"{filename}:{name} (original)", f"{filename}:{name} (converted)",
            ))
        else:
            out.append(f"# {filename}:{_first_line(node)}: {name}\n{converted}\n")
    return "".join(out)


def _read(path: str):
    if path == "-":
        return "<stdin>", sys.stdin.read()
    try:
        with open(path, encoding="utf-8-sig") as f:
            return path, f.read()
    except OSError as e:
        raise ConversionError(f"cannot read {path}: {e.strerror}") from None
    except UnicodeDecodeError as e:
        raise ConversionError(f"cannot read {path}: not UTF-8 text ({e.reason})") from None


def _functions(tree, prefix: str = ""):
    """(name, node) of module-level functions and of methods (``Class.method``,
    ``Outer.Inner.method``), in file order."""
    for node in tree.body:
        if isinstance(node, (gast.FunctionDef, gast.AsyncFunctionDef)):
            yield prefix + node.name, node
        elif isinstance(node, gast.ClassDef):
            yield from _functions(node, f"{prefix}{node.name}.")


def _static_namespace(tree) -> dict:
    """Module-level names, with imported modules as empty module objects, so that
    library calls and shadowed builtins are recognised without importing anything."""
    namespace: dict = {}
    for node in tree.body:
        if isinstance(node, gast.Import):
            for alias in node.names:
                bound = alias.asname or alias.name.partition(".")[0]
                namespace[bound] = types.ModuleType(alias.name if alias.asname else bound)
        elif isinstance(node, gast.ImportFrom):
            for alias in node.names:
                namespace[alias.asname or alias.name] = object()
        elif isinstance(node, (gast.FunctionDef, gast.AsyncFunctionDef, gast.ClassDef)):
            namespace[node.name] = object()
        elif isinstance(node, (gast.Assign, gast.AnnAssign, gast.AugAssign)):
            targets = node.targets if isinstance(node, gast.Assign) else [node.target]
            for target in targets:
                for n in trees.walk(target):
                    if isinstance(n, gast.Name):
                        namespace[n.id] = object()
    return namespace


def _convert(node, qualname: str, namespace: dict) -> str:
    node = trees.copy(node)
    if not conversion.convertible(node):
        node.decorator_list = []
        return unparse(node)
    parsing.mangle_private_names(node, qualname)
    uses_super = "." in qualname and any(
        isinstance(n, gast.Call) and isinstance(n.func, gast.Name) and n.func.id == "super" and not n.args
        for n in trees.walk(node)
    )
    staged = conversion.convert_function_node(node, Namer.for_tree(node), namespace, True, uses_super)
    return unparse(staged)


def _first_line(node) -> int:
    return min([node.lineno] + [d.lineno for d in node.decorator_list])


def _dedented(text: str) -> str:
    import textwrap

    return textwrap.dedent(text)


if __name__ == "__main__":
    sys.exit(main())
