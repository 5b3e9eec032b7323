"""Text of code that notebooks show as highlighted code, not as an escaped string.

``autograph.to_code`` and ``str(concrete.graph)`` return a ``SourceText``: a
``str`` (equal to the plain text and usable wherever a string is) that IPython
and Jupyter display as a block of highlighted Python when it is the last value
of a cell. Highlighting uses Pygments when it can be imported; without it the
HTML is a plain ``<pre>`` block. Nothing here is needed outside a notebook.
"""

from __future__ import annotations

import html
from typing import Any


class SourceText(str):
    """A ``str`` of Python source that IPython/Jupyter display as highlighted code."""

    __slots__ = ()

    def _repr_html_(self) -> str:
        try:
            from pygments import highlight
            from pygments.formatters import HtmlFormatter
            from pygments.lexers import PythonLexer
        except ImportError:
            return f"<pre>{html.escape(str(self))}</pre>"
        return highlight(str(self), PythonLexer(), HtmlFormatter(noclasses=True))

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:
        """A terminal IPython prints the code itself, line by line."""
        printer.text(str(self).rstrip("\n"))
