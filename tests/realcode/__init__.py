"""Real numerical code, run staged: a corpus of functions copied verbatim from
numerical libraries, each with drivers whose inputs take different paths through one
trace (tests/realcode/test_realcode.py runs them eagerly, under ``ag.function`` and
under ``jax.jit(ag.convert(f))``, and compares).

Sources and licenses: the copied functions keep their authors' code and docstrings,
with a comment above each naming the library, version, file, function and every edit.
SciPy (BSD-3-Clause, Copyright (c) 2001-2002 Enthought, Inc. 2003, SciPy Developers),
scikit-learn (BSD-3-Clause, Copyright (c) 2007-2026 The scikit-learn developers),
statsmodels (BSD-3-Clause, Copyright (C) 2006, Jonathan E. Taylor; (c) 2006-2008 Scipy
Developers; (c) 2009-2018 statsmodels Developers),
NetworkX (BSD-3-Clause, Copyright (c) 2004-2025, NetworkX Developers), NumPy
(BSD-3-Clause, Copyright (c) 2005-2025, NumPy Developers) and mpmath (BSD-3-Clause,
Copyright (c) 2005-2023 Fredrik Johansson and mpmath contributors) allow redistribution of
source with the copyright notice, the list of conditions and the disclaimer; those
are in each project's LICENSE file, which this note points to. The CPython standard
library pieces (colorsys, bisect, statistics) are under the PSF License Version 2, Copyright (c)
2001-2023 Python Software Foundation. properscoring (``properscoring_pieces.py``, the
fifth round; The Climate Corporation) is under the Apache License 2.0, whose text is
``LICENSE-properscoring.txt`` here; the file's comments state the changes. ``our_words.py`` (the second round) copies no
code: its routines are written in our own words after the library functions and
textbook algorithms each one names.
"""
