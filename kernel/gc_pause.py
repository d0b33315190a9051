"""Pausing Python's cyclic garbage collector around a large computation that makes no cycles.

CPython frees an object when its last reference goes; the cyclic collector only finds groups of
objects that refer to each other. It runs on allocation counts, and a full collection walks every
tracked object of the process. A computation that keeps hundreds of thousands of small objects
alive for a moment (a 100,000-team table: half a million match records, a row and a list per
team) triggers several full collections, each walking the whole heap, so its cost grows faster
than its work (bench/bench_standings.py: a third of a 10,000-team recompute, and more the
bigger the rest of the heap) while finding nothing to free. Pausing the collector there is
safe: the objects are still freed by their reference counts, and any cycle made meanwhile (by
this thread or another) is found by the first collection after the pause.
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager

_lock = threading.Lock()
_depth = 0
# Whether the collector was on when the outermost pause began: a process that turned it off
# itself keeps it off.
_resume = False


@contextmanager
def cyclic_gc_paused() -> Iterator[None]:
    """The cyclic collector off for the block (nested and concurrent pauses end with the last)."""
    global _depth, _resume
    with _lock:
        if _depth == 0:
            _resume = gc.isenabled()
            gc.disable()
        _depth += 1
    try:
        yield
    finally:
        with _lock:
            _depth -= 1
            if _depth == 0 and _resume:
                gc.enable()
