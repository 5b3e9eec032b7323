"""Deeply nested code: recursion on a thread whose stack allows it.

Conversion walks trees recursively, and a tree is as deep as the code is nested:
200 ``if ...: return`` checks in a row are 200 levels once the rest of the
function moves into each check's other branch, a 150-operand ``and`` is 150
nested lambdas, and each level costs several Python frames. Python's default
recursion limit (1000) stops that early, to keep the C stack of the thread safe.
So work that runs out of depth runs again on a thread of its own, with a large
stack and a recursion limit to match; only the rare deep function pays for it.
"""

from __future__ import annotations

import sys
import threading

# Frames the deep thread allows, and its stack: 512 MB of address space, of which
# only what the recursion touches is ever used. About 10 frames per nesting level.
_FRAMES = 60_000
_STACK_BYTES = 512 * 2**20
_LOCK = threading.Lock()  # one deep thread at a time: the recursion limit is process-wide


def call(fn, *args, deep: bool = False):
    """``fn(*args)``; if it runs out of recursion depth, again on the deep thread
    (``fn`` must be safe to run twice); at once on that thread if ``deep`` (the
    caller expects deep recursion). Raises ``RecursionError`` if even that thread
    is not deep enough."""
    if not deep:
        try:
            return fn(*args)
        except RecursionError:
            pass
    return _on_deep_thread(fn, *args)


def _on_deep_thread(fn, *args):
    outcome: dict = {}

    def run() -> None:
        try:
            outcome["value"] = fn(*args)
        except BaseException as e:  # noqa: BLE001 - re-raised in the calling thread
            outcome["error"] = e

    with _LOCK:
        limit = sys.getrecursionlimit()
        size = threading.stack_size()
        threading.stack_size(_STACK_BYTES)
        try:
            thread = threading.Thread(target=run, name="autograph-deep")
        finally:
            threading.stack_size(size)
        sys.setrecursionlimit(max(limit, _FRAMES))
        try:
            thread.start()
            thread.join()
        finally:
            sys.setrecursionlimit(limit)
    if "error" in outcome:
        raise outcome["error"]
    return outcome["value"]
