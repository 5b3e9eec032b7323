"""The differential corpus: ordinary Python functions and the inputs to run them on.

Each module of this package is plain user code. A function joins the corpus with
the ``@cases`` decorator, which lists the argument tuples to call it with and
returns the function unchanged::

    @cases((3,), (0,), (-2,), (None,))
    def sign(x): ...

Entities that are not module-level functions (lambdas, bound methods, callable
objects, ``functools.partial``, closures) join with ``case(...)``; ``factory``
builds a fresh entity for every run, so state kept on it (an object's attributes,
a closure's cells) starts equal for the original and the converted run.

``reset`` is called before every run (cases that mutate globals or shared
defaults use it); ``observe`` is called after every run and its result is
compared too (the global or closure state the case mutates). ``message=False``
compares only the exception type, for messages that are not deterministic.

``all_cases()`` imports every corpus module and returns the registered cases in
module order.
"""

from __future__ import annotations

import dataclasses
import importlib
import sys
from typing import Any, Callable

MODULES = [
    "conditionals",
    "loops",
    "break_continue",
    "returns",
    "for_else",
    "logical",
    "ternary",
    "asserts",
    "calls",
    "closures",
    "methods",
    "lambdas",
    "unconverted_constructs",
    "undefined",
    "recursion",
    "side_effects",
    "combinations",
    "branch_exits",
    "numpy_values",
    "try_jumps",
    "assignments",
    "names",
]
if sys.version_info >= (3, 10):
    MODULES.append("matching")  # `match` is a syntax error before 3.10
if sys.version_info >= (3, 12):
    MODULES.append("generics")  # `def f[T]` is a syntax error before 3.12


@dataclasses.dataclass(frozen=True)
class Call:
    """One input: positional and keyword arguments."""

    args: tuple
    kwargs: dict = dataclasses.field(default_factory=dict)

    def __repr__(self) -> str:
        parts = [repr(a) for a in self.args]
        parts += [f"{k}={v!r}" for k, v in self.kwargs.items()]
        text = ", ".join(parts)
        return f"({text[:40]}...)" if len(text) > 43 else f"({text})"


def call(*args, **kwargs) -> Call:
    """An input with keyword arguments: ``@cases(call(1, key=2))``."""
    return Call(args, kwargs)


@dataclasses.dataclass
class Case:
    module: str
    name: str
    inputs: list[Call]
    entity: Any = None
    factory: Callable[[], Any] | None = None
    reset: Callable[[], None] | None = None
    observe: Callable[[], Any] | None = None
    message: bool = True

    @property
    def id(self) -> str:
        return f"{self.module}.{self.name}"

    def make(self):
        """The entity to run (a fresh one when the case has a factory)."""
        return self.factory() if self.factory is not None else self.entity


_registry: dict[str, Case] = {}


def _module_name(qualified: str) -> str:
    return qualified.rsplit(".", 1)[-1]


def _as_call(item) -> Call:
    if isinstance(item, Call):
        return item
    if not isinstance(item, tuple):
        raise TypeError(f"corpus inputs are argument tuples, got {item!r}")
    return Call(item)


def _add(case: Case) -> None:
    # Keyed by id: re-running a decorator (e.g. a converter that re-applies
    # decorators) must not register a second copy.
    _registry.setdefault(case.id, case)


def cases(*inputs, reset=None, observe=None, message=True):
    """Register the decorated function with the given inputs; returns it as is."""

    def register(fn):
        _add(Case(
            module=_module_name(fn.__module__), name=fn.__qualname__,
            inputs=[_as_call(i) for i in inputs], entity=fn,
            reset=reset, observe=observe, message=message,
        ))
        return fn

    return register


def case(name: str, entity=None, inputs=(), *, factory=None, reset=None,
         observe=None, message=True, module: str | None = None) -> None:
    """Register a non-function entity (lambda, method, partial, callable object)."""
    if module is None:
        module = sys._getframe(1).f_globals["__name__"]
    _add(Case(
        module=_module_name(module), name=name,
        inputs=[_as_call(i) for i in inputs], entity=entity, factory=factory,
        reset=reset, observe=observe, message=message,
    ))


def all_cases() -> list[Case]:
    for name in MODULES:
        importlib.import_module(f"{__name__}.{name}")
    order = {name: i for i, name in enumerate(MODULES)}
    return sorted(_registry.values(), key=lambda c: order[c.module])
