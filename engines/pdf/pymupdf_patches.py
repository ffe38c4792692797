"""Patches of PyMuPDF itself, each one checked against the version it fixes.

Applied by `apply()`, which the engine modules that need a patch call at import;
every patch leaves PyMuPDF alone unless the code it replaces is exactly the one
it was written for.
"""

from __future__ import annotations

import pymupdf

_TIMING_LOOP = "update_timing_test"
# The PyMuPDF versions whose Annot.update() calls the timing loop.
_TIMING_LOOP_VERSIONS = ((1, 23, 0), (1, 28, 2))
# What each patch replaced, by attribute name (tests compare the two).
replaced: dict[str, object] = {}


def apply() -> None:
    """Apply every patch that fits the installed PyMuPDF (idempotent)."""
    skip_timing_loop()


def skip_timing_loop() -> bool:
    """Turn the leftover timing loop of PyMuPDF's `Annot.update()` into a no-op.

    PyMuPDF 1.23.0 to 1.28.2 call the static method `Annot.update_timing_test()`
    from every `Annot.update()`: it sums range(30000) and returns the sum, which
    update() discards. A benchmark committed by accident (removed upstream by
    PyMuPDF PR #5087), it costs ~1 ms per update, 40 % of burning 1,000
    annotations. It takes no argument and names nothing but `range` (checked
    below on its code object), so it can read or change no state: replacing it
    changes no output. Other versions, or a method that is not that loop, are
    left alone. Returns whether the loop is (now) skipped.
    """
    loop = pymupdf.Annot.__dict__.get(_TIMING_LOOP)
    if isinstance(loop, staticmethod) and loop.__func__ is _no_timing_loop:
        return True
    code = getattr(getattr(loop, "__func__", None), "__code__", None)
    first, last = _TIMING_LOOP_VERSIONS
    if (
        first <= tuple(pymupdf.pymupdf_version_tuple)[:3] <= last
        and isinstance(loop, staticmethod)
        and code is not None
        and code.co_argcount == 0
        and code.co_names == ("range",)
    ):
        replaced[_TIMING_LOOP] = loop
        setattr(pymupdf.Annot, _TIMING_LOOP, staticmethod(_no_timing_loop))
        return True
    return False


def _no_timing_loop() -> int:
    """The loop's stand-in: update() never reads what the loop returned."""
    return 0
