"""Navigation of a PDF: its outline (bookmarks) and its named destinations.

Structure is read with pikepdf from the raw objects (PyMuPDF's outline gives
destination points in a different space for each kind of destination); points
go to displayed-page space through `geometry` (decisions §4): points, origin at
the top-left corner of the page as displayed. Pages count from 0; -1 means the
item leads to no page of this document (a web link, another file).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import pikepdf
import pymupdf

from engines.errors import EngineError
from engines.pdf.geometry import pdf_rect_to_display

# Bounds against hostile files: outline trees are walked by hand, with every
# visited object remembered, so a cycle ends the walk instead of looping.
MAX_ITEMS = 20_000
MAX_DEPTH = 64


@dataclass(frozen=True, slots=True)
class Target:
    """Where a destination leads: 0-based page (-1: none) and point, displayed space."""

    page: int
    x: float
    y: float


@dataclass(frozen=True, slots=True)
class Bookmark:
    title: str
    target: Target
    open: bool
    children: tuple[Bookmark, ...]
    named_destination: str | None = None
    file_name: str | None = None
    new_window: bool = False


@dataclass(frozen=True, slots=True)
class NamedDestination:
    name: str
    target: Target


NOWHERE = Target(page=-1, x=0.0, y=0.0)


class _Reader:
    """One open document: pikepdf for structure, PyMuPDF for page geometry."""

    def __init__(self, path: str) -> None:
        try:
            self.pdf = pikepdf.open(path)
            self.doc = pymupdf.open(path, filetype="pdf")
        except (pikepdf.PdfError, RuntimeError, OSError) as exc:
            raise EngineError(f"the document cannot be read: {exc}") from exc
        if self.doc.needs_pass:
            self.doc.authenticate("")
        self.page_of = {
            page.obj.objgen: index for index, page in enumerate(self.pdf.pages)
        }
        self._names: dict[str, object] | None = None

    def close(self) -> None:
        self.doc.close()
        self.pdf.close()

    def names(self) -> dict[str, object]:
        """Every named destination: the /Dests name tree, then the PDF 1.1 /Dests
        dictionary, name → raw destination (array or dictionary with /D)."""
        if self._names is None:
            found: dict[str, object] = {}
            tree = _get(_get(self.pdf.Root, "/Names"), "/Dests")
            if isinstance(tree, pikepdf.Dictionary):
                try:
                    for key, value in pikepdf.NameTree(tree).items():
                        found.setdefault(str(key), value)
                        if len(found) >= MAX_ITEMS:
                            break
                except (pikepdf.PdfError, ValueError, TypeError):
                    pass  # a broken name tree: keep what was read
            old = _get(self.pdf.Root, "/Dests")
            if isinstance(old, pikepdf.Dictionary):
                for key in list(old.keys())[:MAX_ITEMS]:
                    found.setdefault(key.lstrip("/"), old[key])
            self._names = found
        return self._names

    def target(self, dest: object, depth: int = 0) -> Target:
        """The page and displayed point of a destination (explicit array, name or
        string naming one, or a dictionary holding it in /D)."""
        if depth > 4:
            return NOWHERE
        if isinstance(dest, pikepdf.Name | pikepdf.String):
            named = self.names().get(_key(dest))
            return NOWHERE if named is None else self.target(named, depth + 1)
        if isinstance(dest, pikepdf.Dictionary):
            return self.target(_get(dest, "/D"), depth + 1)
        if not isinstance(dest, pikepdf.Array) or len(dest) < 2:
            return NOWHERE
        page = self._page_index(dest[0])
        if page < 0:
            return NOWHERE
        return self._point(page, str(dest[1]), [_number(v) for v in list(dest)[2:6]])

    def _page_index(self, ref: object) -> int:
        if isinstance(ref, pikepdf.Dictionary):
            return self.page_of.get(ref.objgen, -1)
        if isinstance(ref, int) and 0 <= ref < len(self.pdf.pages):
            return ref  # some writers put the page index itself
        return -1

    def _point(self, page: int, kind: str, args: list[float | None]) -> Target:
        """The top-left point a /XYZ, /FitH, /FitV, /FitR ... destination shows."""
        if kind not in ("/XYZ", "/FitH", "/FitBH", "/FitV", "/FitBV", "/FitR"):
            return Target(page=page, x=0.0, y=0.0)  # /Fit, /FitB: the whole page
        fz_page = self.doc[page]
        crop = fz_page.cropbox
        # The CropBox's top-left corner in PDF user space: where /Fit lands.
        left, top = crop.x0, fz_page.mediabox.y1 - crop.y0
        if kind == "/XYZ":
            left = args[0] if len(args) > 0 and args[0] is not None else left
            top = args[1] if len(args) > 1 and args[1] is not None else top
        elif kind in ("/FitH", "/FitBH"):
            top = args[0] if args and args[0] is not None else top
        elif kind in ("/FitV", "/FitBV"):
            left = args[0] if args and args[0] is not None else left
        elif kind == "/FitR" and len(args) >= 4:
            x0, y0, x1, y1 = (a if a is not None else 0.0 for a in args[:4])
            left, top = min(x0, x1), max(y0, y1)
        box = pdf_rect_to_display(fz_page, pymupdf.Rect(left, top, left, top))
        return Target(page=page, x=round(box.x, 3), y=round(box.y, 3))


def outline(path: str) -> list[Bookmark]:
    """The outline tree of the PDF at `path`, in order; [] when it has none.

    `open` is true when the item shows its children (a positive /Count);
    `target` is where the item leads, through a /Dest or a GoTo action;
    a GoToR action (another file) gives `file_name` and `new_window`.
    """
    reader = _Reader(path)
    try:
        root = _get(reader.pdf.Root, "/Outlines")
        seen: set[tuple[int, int]] = set()
        return list(_items(reader, _get(root, "/First"), seen, 0))
    finally:
        reader.close()


def _items(
    reader: _Reader, item: object, seen: set[tuple[int, int]], depth: int
) -> Iterator[Bookmark]:
    while isinstance(item, pikepdf.Dictionary) and depth < MAX_DEPTH:
        if item.objgen in seen or len(seen) >= MAX_ITEMS:
            return
        if item.objgen != (0, 0):
            seen.add(item.objgen)
        yield _bookmark(reader, item, seen, depth)
        item = _get(item, "/Next")


def _bookmark(
    reader: _Reader, item: pikepdf.Dictionary, seen: set[tuple[int, int]], depth: int
) -> Bookmark:
    dest = _get(item, "/Dest")
    action = _get(item, "/A")
    file_name, new_window = None, False
    if dest is None and isinstance(action, pikepdf.Dictionary):
        kind = str(_get(action, "/S") or "")
        if kind == "/GoTo":
            dest = _get(action, "/D")
        elif kind == "/GoToR":
            file_name = _file_name(_get(action, "/F"))
            new_window = bool(_get(action, "/NewWindow"))
    named = _key(dest) if isinstance(dest, pikepdf.Name | pikepdf.String) else None
    count = _number(_get(item, "/Count"))
    return Bookmark(
        title=_text(_get(item, "/Title")),
        target=reader.target(dest) if dest is not None else NOWHERE,
        open=bool(count and count > 0),
        children=tuple(_items(reader, _get(item, "/First"), seen, depth + 1)),
        named_destination=named,
        file_name=file_name,
        new_window=new_window,
    )


def named_destinations(path: str) -> list[NamedDestination]:
    """Every named destination of the PDF at `path`, sorted by name, with the page
    and displayed point it leads to (page -1 when it leads to no page)."""
    reader = _Reader(path)
    try:
        return [
            NamedDestination(name=name, target=reader.target(dest))
            for name, dest in sorted(reader.names().items())
        ]
    finally:
        reader.close()


def _get(obj: object, key: str) -> object:
    if isinstance(obj, pikepdf.Dictionary):
        try:
            return obj.get(key)
        except (pikepdf.PdfError, ValueError):
            return None
    return None


def _key(name: object) -> str:
    return str(name).lstrip("/") if isinstance(name, pikepdf.Name) else _text(name)


def _text(value: object) -> str:
    if isinstance(value, pikepdf.String):
        try:
            return str(value)
        except UnicodeDecodeError:
            return bytes(value).decode("latin-1")
    return "" if value is None else str(value)


def _number(value: object) -> float | None:
    if isinstance(value, bool) or value is None:
        return None
    try:
        return float(value)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return None


def _file_name(spec: object) -> str | None:
    if isinstance(spec, pikepdf.Dictionary):
        spec = _get(spec, "/UF") or _get(spec, "/F")
    return _text(spec) or None
