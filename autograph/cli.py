"""The ``autograph`` command: print the converted source of functions in a file.

    autograph FILE.py                 every function and method
    autograph FILE.py NAME ...        only these (``Class.method``, ``outer.inner``)
    autograph - < FILE.py             read standard input
    autograph --diff FILE.py          unified diff against the original
    autograph --version

It works from the source alone: the file is parsed, never imported or run. The
source is decoded as Python decodes it (a BOM or a PEP 263 coding cookie, UTF-8
otherwise). Only the selected functions are converted, and each is printed as
soon as it is done; on a terminal, a conversion that takes more than a moment
shows its progress on standard error. Bad input prints one line and exits with
status 1; there is no traceback.
"""

from __future__ import annotations

import argparse
import ast
import difflib
import io
import os
import sys
import textwrap
import time
import tokenize
import types
from typing import Iterator, Optional, Sequence, TextIO

import gast

from . import conversion, deep, parsing, trees
from .api import unparse
from .naming import Namer
from .runtime.staging.errors import ConversionError

# The most a file or standard input may hold (a 200,000-line module is about 8 MB),
# and less where memory is short: parsing takes about this many bytes per byte of
# source (a 50 MB file of functions needs some 12 GB).
MAX_BYTES = 64 * 2**20
PARSE_MEMORY_PER_BYTE = 250
# Progress shows on a terminal once the work has taken this long (seconds).
PROGRESS_AFTER = 1.5
# Sources this large take a second or more to parse: a terminal is told first.
PARSE_NOTICE_CHARS = 2 * 2**20
_DEFS = ("FunctionDef", "AsyncFunctionDef")


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Run the command with ``argv`` (default ``sys.argv[1:]``); returns the exit status."""
    parser = argparse.ArgumentParser(
        prog="autograph",
        description="Print the converted (staged) source of the functions in a Python file.",
    )
    parser.add_argument("file", help="a Python source file, or - for standard input")
    parser.add_argument("names", nargs="*", default=[],
                        help="functions to convert: name, Class.method, outer.inner (default: all)")
    parser.add_argument("--diff", action="store_true", help="print a unified diff against the original")
    parser.add_argument("--version", action="version", version=f"autograph {_version()}")
    args = parser.parse_args(argv)
    stdout = sys.stdout
    if hasattr(stdout, "reconfigure"):
        stdout.reconfigure(errors="backslashreplace")
    progress = _Progress(sys.stderr)
    try:
        printed = False
        for chunk in convert_file(args.file, args.names, args.diff, progress):
            progress.clear()
            stdout.write(chunk)
            stdout.flush()
            printed = printed or bool(chunk)
        progress.done()
        if not printed and not args.names and not args.diff:
            print(f"autograph: {args.file} has no functions or methods to convert", file=sys.stderr)
    except ConversionError as e:
        progress.done()
        print(f"autograph: error: {e}", file=sys.stderr)
        return 1
    except BrokenPipeError:  # `autograph big.py | head`
        sys.stderr.close()
        return 1
    except MemoryError:
        progress.done()
        print(f"autograph: error: out of memory converting {args.file}; convert a smaller file, "
              f"or fewer functions of it", file=sys.stderr)
        return 1
    except Exception as e:  # an internal error still gets one line, not a traceback
        progress.done()
        print(f"autograph: internal error: {type(e).__name__}: {e} (please report this)", file=sys.stderr)
        return 2
    return 0


def run(path: str, names: Sequence[str], diff: bool) -> str:
    """The command's output for ``path`` as one string (the functions ``names``, or all)."""
    return "".join(convert_file(path, names, diff))


def convert_file(path: str, names: Sequence[str], diff: bool,
                 progress: Optional[_Progress] = None) -> Iterator[str]:
    """The output for ``path``, one function at a time.

    Every name is looked up before anything is converted, so an unknown one
    raises ``ConversionError`` before any output.
    """
    filename, source = _read(path)
    if progress is not None and len(source) > PARSE_NOTICE_CHARS:
        progress.show(f"parsing {filename} ({len(source) / 2**20:.1f} MB)")
    tree = _parse(source, filename)
    if names:
        selected = [(name, _find(tree, name, filename)) for name in names]
    else:
        selected = list(_functions(tree))
    namespace = _static_namespace(tree)
    lines = source.splitlines(keepends=True) if diff else []
    if progress is not None:
        progress.start(filename, len(selected))
    for name, node in selected:
        try:
            converted = deep.call(_convert, node, name, namespace)
        except RecursionError:
            raise conversion.too_deep(filename, _first_line(node), name) from None
        if diff:
            original = textwrap.dedent("".join(lines[_first_line(node) - 1: node.end_lineno]))
            yield "".join(difflib.unified_diff(
                original.splitlines(keepends=True), converted.splitlines(keepends=True),
                f"{filename}:{name} (original)", f"{filename}:{name} (converted)",
            ))
        else:
            yield f"# {filename}:{_first_line(node)}: {name}\n{converted}\n"
        if progress is not None:
            progress.step()


# --- reading --------------------------------------------------------------------------

def _read(path: str) -> tuple[str, str]:
    """(file name to show, source text), decoded as Python decodes source files."""
    if path == "-":
        filename, data = "<stdin>", _read_capped(sys.stdin.buffer, "standard input")
    else:
        filename = path
        try:
            with open(path, "rb") as f:
                data = _read_capped(f, path)
        except OSError as e:
            raise ConversionError(f"cannot read {path}: {e.strerror}") from None
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    except SyntaxError as e:
        if "invalid or missing encoding" not in e.msg:  # an unknown or contradictory cookie
            raise ConversionError(f"{filename}: {e.msg}") from None
        encoding = "utf-8"  # the first lines are not UTF-8: decoding says where
    try:
        text = data.decode(encoding)
    except LookupError as e:  # a cookie naming a codec that is not a text encoding (rot13)
        line = next((i for i, text in enumerate(data.splitlines()[:2], 1) if b"coding" in text), 1)
        raise ConversionError(f"{filename}:{line}: cannot read it as Python does: {e}") from None
    except UnicodeDecodeError as e:
        label = "UTF-8" if encoding in ("utf-8", "utf-8-sig") else encoding
        raise ConversionError(
            f"cannot read {filename}: not {label} text ({e.reason} at byte {e.start}); a Python "
            f"file in another encoding declares it in a '# -*- coding: NAME -*-' line"
        ) from None
    return filename, text.lstrip("\ufeff")


def _read_capped(stream, what: str) -> bytes:
    available = _available_memory()
    cap = MAX_BYTES if available is None else min(MAX_BYTES, available // PARSE_MEMORY_PER_BYTE)
    data = stream.read(cap + 1)
    if len(data) > cap:
        if cap == MAX_BYTES:
            raise ConversionError(f"{what} holds more than {MAX_BYTES // 2**20} MB; "
                                  f"autograph reads Python source files")
        raise ConversionError(
            f"{what} holds more than {cap / 2**20:.1f} MB: parsing that much source takes about "
            f"{PARSE_MEMORY_PER_BYTE} times its size in memory, more than the "
            f"{available / 2**30:.1f} GB this machine has available; convert a smaller file")
    return data


def _available_memory():
    """Bytes of memory available to this process (Linux's MemAvailable, or the free
    pages), or None if the system does not say."""
    try:
        with open("/proc/meminfo", encoding="ascii") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    try:
        return os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (AttributeError, ValueError, OSError):
        return None


def _parse(source: str, filename: str) -> ast.Module:
    """The standard ``ast`` of the whole file: functions are translated to gast one
    at a time, and only those that are converted."""
    try:
        return ast.parse(source, filename=filename)
    except (SyntaxError, ValueError) as e:
        if "null bytes" in str(e):  # a ValueError before Python 3.12
            raise ConversionError(f"{filename}: not Python source: it contains NUL bytes") from None
        raise ConversionError(f"{filename}:{e.lineno or 1}: syntax error: {e.msg}") from None


# --- finding functions ----------------------------------------------------------------

def _scope_defs(node) -> Iterator:
    """The functions and classes defined directly in ``node``'s scope, in file order
    (also inside its if/for/while/with/try blocks, not inside nested scopes)."""
    stack = list(reversed(node.body))
    while stack:
        stmt = stack.pop()
        kind = type(stmt).__name__
        if kind in _DEFS or kind == "ClassDef":
            yield stmt
            continue
        blocks = [getattr(stmt, field, None) or [] for field in ("body", "orelse", "finalbody")]
        blocks += [handler.body for handler in getattr(stmt, "handlers", ())]
        blocks += [case.body for case in getattr(stmt, "cases", ())]
        for block in reversed(blocks):
            if isinstance(block, list):
                stack.extend(reversed(block))


def _functions(tree, prefix: str = "") -> Iterator[tuple[str, object]]:
    """(name, node) of module-level functions and of methods (``Class.method``,
    ``Outer.Inner.method``), in file order; what the command converts by default.
    Works on ``ast`` and gast trees alike."""
    for node in tree.body:
        kind = type(node).__name__
        if kind in _DEFS:
            yield prefix + node.name, node
        elif kind == "ClassDef":
            yield from _functions(node, f"{prefix}{node.name}.")


def _all_names(node, prefix: str = "") -> Iterator[str]:
    """Every selectable name: functions, methods and nested functions, at any depth."""
    for child in _scope_defs(node):
        name = prefix + child.name
        if type(child).__name__ in _DEFS:
            yield name
        yield from _all_names(child, name + ".")


def _find(tree, name: str, filename: str):
    """The def that ``name`` (``f``, ``C.m``, ``outer.inner``, ``outer.<locals>.inner``)
    selects: the last definition of each part, as Python's binding would be."""
    node = tree
    for part in name.replace(".<locals>.", ".").split("."):
        found = [d for d in _scope_defs(node) if d.name == part] if node is not None else []
        node = found[-1] if found else None
    if node is None or type(node).__name__ not in _DEFS:
        close = difflib.get_close_matches(name, list(dict.fromkeys(_all_names(tree))), n=3, cutoff=0.75)
        hint = f"; did you mean {' or '.join(repr(c) for c in close)}?" if close else ""
        raise ConversionError(f"{filename}: no function or method named '{name}'{hint}")
    return node


def _static_namespace(tree) -> dict:
    """Module-level names, with imported modules as empty module objects, so that
    library calls and shadowed builtins are recognised without importing anything.
    Works on ``ast`` and gast trees alike."""
    namespace: dict = {}
    for node in tree.body:
        kind = type(node).__name__
        if kind == "Import":
            for alias in node.names:
                bound = alias.asname or alias.name.partition(".")[0]
                namespace[bound] = types.ModuleType(alias.name if alias.asname else bound)
        elif kind == "ImportFrom":
            for alias in node.names:
                namespace[alias.asname or alias.name] = object()
        elif kind in _DEFS or kind == "ClassDef":
            namespace[node.name] = object()
        elif kind in ("Assign", "AnnAssign", "AugAssign"):
            targets = node.targets if kind == "Assign" else [node.target]
            for target in targets:
                for n in ast.walk(target):
                    if type(n).__name__ == "Name":
                        namespace[n.id] = object()
    return namespace


# --- converting -----------------------------------------------------------------------

def _convert(node, qualname: str, namespace: dict) -> str:
    """The converted source of one def (an ``ast`` or gast node; left unchanged)."""
    node = trees.copy(node) if _is_gast(node) else trees.from_ast(node)
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


def _is_gast(node) -> bool:
    return type(node).__module__.startswith("gast")


def _first_line(node) -> int:
    return min([node.lineno] + [d.lineno for d in node.decorator_list])


class _Progress:
    """``converted 120/3000 functions`` on a terminal's standard error, once the
    work has taken longer than ``PROGRESS_AFTER`` seconds; nothing otherwise. The
    line is erased before each output chunk and at the end."""

    def __init__(self, stream: TextIO):
        self.stream = stream
        self.on = bool(getattr(stream, "isatty", lambda: False)())
        self.began = time.monotonic()
        self.shown = False
        self.filename, self.total, self.count = "", 0, 0

    def start(self, filename: str, total: int) -> None:
        self.filename, self.total = filename, total

    def step(self) -> None:
        self.count += 1
        if time.monotonic() - self.began > PROGRESS_AFTER:
            self.show(f"{self.filename}: converted {self.count}/{self.total} functions")

    def show(self, text: str) -> None:
        if self.on:
            self.stream.write(f"\r\x1b[Kautograph: {text}")
            self.stream.flush()
            self.shown = True

    def clear(self) -> None:
        """Erase the progress line (before output goes to the same terminal)."""
        if self.shown:
            self.stream.write("\r\x1b[K")
            self.stream.flush()
            self.shown = False

    done = clear


def _version() -> str:
    import autograph

    version = getattr(autograph, "__version__", None)
    if version is None:
        from importlib import metadata

        try:
            version = metadata.version("autograph")
        except metadata.PackageNotFoundError:
            version = "unknown"
    return version


if __name__ == "__main__":
    sys.exit(main())
