"""How the tests compare converted source with pinned text.

The pinned texts are what ``ast.unparse`` of Python 3.11+ writes, and there they
are compared exactly. Older unparsers write the same code differently (``(s,) =``
for ``s, =``, ``lambda : x``), so on those the comments and the syntax trees are
compared instead.
"""

from __future__ import annotations

import ast
import sys


def canonical(text: str) -> str:
    if sys.version_info >= (3, 11):
        return text
    comments = [line.strip() for line in text.splitlines() if line.lstrip().startswith("#")]
    return "\n".join(comments) + "\n" + ast.dump(ast.parse(text))
