"""Sphinx configuration: the reference is generated from the installed package's docstrings
(Google style, read by napoleon), one page per public name under ``api/`` (small
hand-written pages, each with links to the guides; ``api.rst`` lists them with
autosummary); every ``>>>`` example runs under ``sphinx-build -b doctest``."""

import autograph

project = "autograph"
author = "the autograph authors"
copyright = "2026, the autograph authors"
release = version = autograph.__version__

extensions = [
    "sphinx.ext.autodoc", "sphinx.ext.autosummary", "sphinx.ext.napoleon", "sphinx.ext.doctest",
    "sphinx.ext.autosectionlabel",
]
exclude_patterns = ["_build"]

autodoc_member_order = "bysource"
# The pages under api/ are written by hand (each links to the guides): autosummary only
# makes the tables of api.rst, it writes no files.
autosummary_generate = False
# Sections are linked as :ref:`page:Title`.
autosectionlabel_prefix_document = True
autodoc_typehints = "description"
# Types are shown for the parameters a docstring describes (not for a class's private
# constructor arguments or a method's *args).
autodoc_typehints_description_target = "documented"
napoleon_google_docstring = True
napoleon_numpy_docstring = False

# Every doctest block (in these pages and in docstrings) starts from these imports.
doctest_global_setup = """
import numpy as np
import autograph as ag
"""

# Long messages are wrapped in the examples; compare them with whitespace normalised.
import doctest  # noqa: E402

doctest_default_flags = (
    doctest.ELLIPSIS | doctest.IGNORE_EXCEPTION_DETAIL | doctest.DONT_ACCEPT_TRUE_FOR_1
    | doctest.NORMALIZE_WHITESPACE
)

html_theme = "alabaster"
html_title = f"autograph {release}"


def _plural_literals(app, what, name, obj, options, lines):
    """Docstrings here write plurals of literals as ````name``s``; reST needs the
    literal to end before a letter, so escape the space: ````name``\\ s``."""
    import re

    # A literal's text starts and ends with a non-space (so the text between two
    # literals, "`` or ``", is never taken for one).
    literal = r"(?<![`\w])(``[^`\s](?:[^`]*[^`\s])?``)(?=[A-Za-z])"
    lines[:] = [re.sub(literal, r"\1\\ ", line) for line in lines]


def setup(app):
    app.connect("autodoc-process-docstring", _plural_literals)
