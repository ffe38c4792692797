"""Holding Python's cyclic garbage collector while MuPDF's text is analysed.

Extracting a page's characters (rawdict) makes some ten thousand small objects
(a dict and two tuples per character). Their allocation triggers collections
that walk the young objects and, now and then, every object of the process,
Django's included: a tenth of a cold page search, a third of a small redaction
order. These objects hold no cycles and are freed when the analysis returns, so
nothing is left for the collector to find once it runs again.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def paused() -> Iterator[None]:
    """No collection inside the block; the collector is left off if it was off.

    The switch is process-wide: other threads allocate without collections for
    the few milliseconds a page takes, which costs them nothing but memory that
    the next collection reclaims.
    """
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()
