"""Outline (bookmarks): a given list, or one bookmark per merged source.

Pages in bookmarks count from 1 (as the wire's minPage); `level` 1 is the top.
"""

from __future__ import annotations

from dataclasses import dataclass

import pymupdf

from engines.errors import InvalidOperation
from engines.pdf.ops.fields import Fields
from engines.pdf.ops.state import RunState

MAX_BOOKMARKS = 10_000


@dataclass(frozen=True, slots=True)
class Bookmark:
    title: str
    page: int  # from 1
    level: int = 1


@dataclass(frozen=True, slots=True)
class OutlineSpec:
    """`bookmarks` None: one bookmark per merged source, titled as the source
    (the service passes them in `OpsContext.sources`). `keep_existing`: the
    outline the sources brought stays, under each source's bookmark (or after
    the given list); otherwise it is replaced."""

    bookmarks: tuple[Bookmark, ...] | None = None
    keep_existing: bool = False


def parse(f: Fields) -> OutlineSpec:
    raw = f.raw("bookmarks")
    keep = f.boolean("keepExisting", False)
    if raw is None:
        return OutlineSpec(None, keep)
    if not isinstance(raw, list) or not raw or len(raw) > MAX_BOOKMARKS:
        raise f.fail("bookmarks", f"must be a list of 1 to {MAX_BOOKMARKS} bookmarks")
    marks = []
    previous = 0
    for n, item in enumerate(raw):
        sub = Fields(item, f"{f.at('bookmarks')}[{n}]")
        title = sub.text("title", required=True) or ""
        page = sub.integer("page", 0, low=1, high=10**7)
        if not page:
            raise sub.fail("page", "is required")
        level = sub.integer("level", 1, low=1, high=previous + 1 if previous else 1)
        sub.finish()
        marks.append(Bookmark(title, page, level))
        previous = level
    return OutlineSpec(tuple(marks), keep)


def texts(spec: OutlineSpec) -> tuple[str, ...]:
    return tuple(m.title for m in spec.bookmarks or ())


def apply(doc: pymupdf.Document, spec: OutlineSpec, state: RunState, path: str) -> None:
    existing = doc.get_toc(simple=True) if spec.keep_existing else []
    if spec.bookmarks is not None:
        toc: list[list[object]] = []
        for n, mark in enumerate(spec.bookmarks):
            if mark.page > doc.page_count:
                raise InvalidOperation(
                    f"{path}.bookmarks[{n}].page",
                    f"page {mark.page} is beyond the output's {doc.page_count} pages",
                )
            toc.append([mark.level, mark.title, mark.page])
        toc += existing
    else:
        toc = _from_sources(state, existing, doc.page_count)
    doc.set_toc(toc)


def _from_sources(
    state: RunState, existing: list[list[object]], page_count: int
) -> list[list[object]]:
    """A bookmark per source; the existing entries of its pages nested under it."""
    sources = sorted(state.context.sources, key=lambda s: s.page)
    toc: list[list[object]] = []
    for n, source in enumerate(sources):
        end = sources[n + 1].page if n + 1 < len(sources) else page_count
        toc.append([1, source.title, source.page + 1])
        previous = 1
        for level, title, page in existing:
            assert isinstance(page, int) and isinstance(level, int)
            if source.page < page <= end:
                # An entry whose parent lay in another source's pages moves up.
                previous = min(level + 1, previous + 1)
                toc.append([previous, title, page])
    return toc
