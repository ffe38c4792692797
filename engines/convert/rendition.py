"""What every converter shares: a deadline for the in-process engines, and the
description of a written PDF as a `Rendition`."""

from __future__ import annotations

import dataclasses
import os
import time
from collections.abc import Sequence

import pymupdf

from engines.convert.fidelity import Fidelity
from engines.convert.types import LimitExceeded, PageInfo, Rendition
from engines.errors import ConversionFailed, ConversionTimeout


class Deadline:
    """The time limit of one conversion done in this process. Engines check
    it between pages (text, HTML, image frames), so a hostile input stops
    within a page's work of its limit."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.started = time.monotonic()
        self._end = self.started + seconds

    def check(self, what: str) -> None:
        if time.monotonic() > self._end:
            raise ConversionTimeout(
                f"{what} took longer than its time limit of {self.seconds:g} s"
            )

    def elapsed(self) -> float:
        return time.monotonic() - self.started


def check_page_count(count: int, max_pages: int, what: str) -> None:
    if count > max_pages:
        raise LimitExceeded(
            f"{what} would have more than {max_pages} pages; the limit is {max_pages}"
        )


def describe(
    path: str,
    *,
    engine: str,
    started: float,
    max_pages: int,
    dpis: Sequence[int] | None = None,
    fidelity: Fidelity | None = None,
) -> Rendition:
    """The `Rendition` of the PDF just written at `path` (page sizes in points,
    as MuPDF shows them). `dpis[i]` is page i's image resolution (default 72).
    `started` is the `time.monotonic()` at which the conversion began.
    `fidelity` is what the converter knows of the source; the pages and the
    fonts the PDF embeds are added here. A PDF over `max_pages` pages is
    removed and refused."""
    try:
        with pymupdf.open(path, filetype="pdf") as doc:
            if doc.page_count > max_pages:
                raise LimitExceeded(
                    f"the rendition has {doc.page_count} pages; the limit is "
                    f"{max_pages}"
                )
            if doc.page_count == 0:
                raise ConversionFailed("the document has no pages to show")
            pages = tuple(
                PageInfo(
                    width=page.rect.width,
                    height=page.rect.height,
                    dpi=dpis[number] if dpis else 72,
                )
                for number, page in enumerate(doc)
            )
            used = embedded_fonts(doc)
    except (LimitExceeded, ConversionFailed):
        remove(path)
        raise
    except Exception as exc:  # MuPDF's errors on a damaged output
        remove(path)
        raise ConversionFailed("the converter wrote an unreadable PDF") from exc
    report = dataclasses.replace(
        fidelity or Fidelity(), pages=len(pages), fonts_used=used
    )
    return Rendition(
        path=path,
        pages=pages,
        engine=engine,
        seconds=time.monotonic() - started,
        fidelity=report,
    )


def embedded_fonts(doc: pymupdf.Document) -> tuple[str, ...]:
    """The families of the fonts `doc`'s pages use, as their PostScript names
    say (subset prefix and style cut: "ABCDEF+Carlito-Bold" is "Carlito")."""
    names: set[str] = set()
    for page in doc:
        for font in page.get_fonts():
            name = font[3].split("+", 1)[-1].split(",", 1)[0]
            family = name.split("-", 1)[0] if "-" in name else name
            if family:
                names.add(family)
    return tuple(sorted(names))


def remove(path: str) -> None:
    try:
        os.remove(path)
    except FileNotFoundError:
        pass
