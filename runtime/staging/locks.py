"""The lock around Python's own parser and compiler, shared by conversion and the
graph engine's code generation.

CPython 3.11 keeps a process-wide recursion counter while it turns parsed trees
into ``ast`` objects and back; two threads parsing or compiling trees at once can
corrupt it ("SystemError: AST constructor recursion depth mismatch"). Everything
autograph parses or compiles from a tree does so holding ``AST_LOCK``. It is
reentrant: conversion holds it throughout, and converting never waits on another
thread.
"""

from __future__ import annotations

import threading

AST_LOCK = threading.RLock()
