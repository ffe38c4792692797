"""The sources' outlines (bookmarks), carried into the output and pruned to the
pages it holds."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import pikepdf
from pikepdf import Array, Dictionary, Name, String

from engines.pdf.assemble.links import into_output, named_destination
from engines.pdf.assemble.names import (
    COUNT,
    DEST,
    FIRST,
    GOTO,
    NEXT,
    OUTLINES,
    PAGE_MODE,
    TITLE,
    URI,
    USE_OUTLINES,
    A,
    D,
    S,
)
from engines.pdf.assemble.sources import Source, Take

_MAX_OUTLINE_DEPTH = 64


@dataclass
class _Mark:
    """An outline item to write: where it leads and what it holds."""

    title: String
    dest: Array | None
    uri: String | None
    is_open: bool
    children: list[_Mark]


def carry_outlines(out: pikepdf.Pdf, takes: Sequence[Take]) -> None:
    """Give `out` the sources' outlines, pruned to the pages it holds.

    Each source's outline comes once, where the source first appears. An item
    whose page is not in the output is dropped unless it holds kept items;
    it is then kept without a destination.
    """
    marks: list[_Mark] = []
    done: set[int] = set()
    page_mode = None
    for take in takes:
        source = take.source
        if id(source) in done:
            continue
        done.add(id(source))
        outlines = source.pdf.Root.get(OUTLINES)
        if isinstance(outlines, Dictionary):
            found = _read_marks(source, outlines.get(FIRST), 0, set())
            if found and page_mode is None:
                page_mode = source.pdf.Root.get(PAGE_MODE)
            marks.extend(found)
    if not marks:
        return
    root = out.make_indirect(Dictionary(Type=OUTLINES))
    root.Count = _write_marks(out, root, marks)
    out.Root.Outlines = root
    if page_mode == USE_OUTLINES:
        out.Root.PageMode = USE_OUTLINES


def _read_marks(
    source: Source, item: object, depth: int, seen: set[tuple[int, int]]
) -> list[_Mark]:
    marks: list[_Mark] = []
    # Damaged outlines loop or nest without end: stop at a repeat, or deep down.
    while isinstance(item, Dictionary) and depth < _MAX_OUTLINE_DEPTH:
        if item.is_indirect:
            if item.objgen in seen:
                break
            seen.add(item.objgen)
        children = _read_marks(source, item.get(FIRST), depth + 1, seen)
        dest, uri = _outline_target(source, item)
        if dest is not None or uri is not None or children:
            title = item.get(TITLE)
            count = item.get(COUNT)
            marks.append(
                _Mark(
                    title=String(bytes(title) if isinstance(title, String) else b""),
                    dest=dest,
                    uri=uri,
                    is_open=isinstance(count, int) and count > 0,
                    children=children,
                )
            )
        item = item.get(NEXT)
    return marks


def _outline_target(
    source: Source, item: Dictionary
) -> tuple[Array | None, String | None]:
    """(destination in the output, URI) of an outline item; either may be None."""
    dest = item.get(DEST)
    if dest is None:
        action = item.get(A)
        if not isinstance(action, Dictionary):
            return None, None
        kind = action.get(S)
        if kind == URI:
            uri = action.get(URI)
            return None, String(bytes(uri)) if isinstance(uri, String) else None
        if kind != GOTO:
            return None, None
        dest = action.get(D)
    if isinstance(dest, (String, Name)):
        return named_destination(source, dest), None
    return into_output(source, dest), None


def _write_marks(out: pikepdf.Pdf, parent: Dictionary, marks: list[_Mark]) -> int:
    """Link `marks` under `parent`; returns how many items show when it is open."""
    items = [out.make_indirect(Dictionary(Title=m.title, Parent=parent)) for m in marks]
    visible = len(items)
    for n, (item, mark) in enumerate(zip(items, marks, strict=True)):
        if n > 0:
            item.Prev = items[n - 1]
        if n + 1 < len(items):
            item.Next = items[n + 1]
        if mark.dest is not None:
            item.Dest = mark.dest
        elif mark.uri is not None:
            item.A = Dictionary(S=URI, URI=mark.uri)
        if mark.children:
            inner = _write_marks(out, item, mark.children)
            item.Count = inner if mark.is_open else -len(mark.children)
            if mark.is_open:
                visible += inner
    parent.First = items[0]
    parent.Last = items[-1]
    return visible
