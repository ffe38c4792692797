"""MuPDF's own failures on hostile or damaged content, as errors a user can act on."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import pymupdf

from engines.errors import DamagedDocument, EngineError

# MuPDF raises FzError* (limits, stack overflow, syntax) and RuntimeError subclasses
# (FileDataError ...) for content it cannot process.
MUPDF_FAILURES: tuple[type[BaseException], ...] = (
    pymupdf.mupdf.FzErrorBase,
    RuntimeError,
)

# A rendered page at most this many pixels (e.g. 4000 x 10000): MuPDF's own limit
# fails later and less clearly, and the memory is the worker's.
MAX_RENDER_PIXELS = 40_000_000


@contextmanager
def engine_failures(what: str) -> Iterator[None]:
    """Turn a MuPDF failure inside the block into an EngineError: "<what>: <reason>"."""
    try:
        yield
    except EngineError:
        raise
    except MUPDF_FAILURES as exc:
        reason = " ".join(str(exc).split())[:200] or type(exc).__name__
        raise DamagedDocument(f"{what}: {reason}") from exc


def render_scale(width_pt: float, height_pt: float, scale: float) -> float:
    """`scale` lowered so a page of that size renders within MAX_RENDER_PIXELS."""
    pixels = width_pt * scale * height_pt * scale
    if pixels <= MAX_RENDER_PIXELS:
        return scale
    return scale * (MAX_RENDER_PIXELS / pixels) ** 0.5
