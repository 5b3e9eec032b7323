"""Fresh names for generated variables and functions that never clash with the user's."""

from __future__ import annotations

import gast

from . import trees


class Namer:
    """Hands out names not used anywhere in the function being converted."""

    def __init__(self, used: set) -> None:
        self.used = set(used)
        self._next: dict = {}  # base -> the suffix to try first for it next time

    @classmethod
    def for_tree(cls, tree) -> "Namer":
        used = set()
        for node in trees.walk(tree):
            if isinstance(node, gast.Name):
                used.add(node.id)
            elif isinstance(node, (gast.FunctionDef, gast.AsyncFunctionDef, gast.ClassDef)):
                used.add(node.name)
            elif isinstance(node, gast.alias):
                used.add(node.asname or node.name.partition(".")[0])
            elif isinstance(node, (gast.Global, gast.Nonlocal)):
                used.update(node.names)
            elif isinstance(node, (gast.MatchAs, gast.MatchStar)) and node.name:
                used.add(node.name)
            elif isinstance(node, gast.MatchMapping) and node.rest:
                used.add(node.rest)
        return cls(used)

    def new(self, base: str) -> str:
        """``base``, or ``base_2``, ``base_3`` ...: the first not used. The suffixes
        tried for a base are not tried again (n names of one base cost O(n))."""
        i = self._next.get(base, 1)
        name = base if i == 1 else f"{base}_{i}"
        while name in self.used:
            i += 1
            name = f"{base}_{i}"
        self._next[base] = i + 1
        self.used.add(name)
        return name
