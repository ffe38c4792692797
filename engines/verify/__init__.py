"""The check of a redacted output, by readers that share nothing with redaction.

`verify` reads the written file as other programs read it and raises
`RedactionLeak` when it still holds what was removed:

- PDFium (`pages`): no character left under an area (below its fill), no
  image pixel left there, and how often each page shows a removed run;
- qpdf (`objects`, `content`, `paint`): every object of the file, every string
  and name decoded every way a reader decodes it (`readings`), every stream
  decompressed; content streams read through their fonts (`fonts`) may hold a
  removed run only as often as their page shows it outside the areas; attached
  files opened whatever they are (`files`); soft masks and picture shadings
  under an area.

Removed runs are compared NFKC- and case-folded (`needles`). Messages name the
page, the area or the object, never the text. Pages count from 0 here and from
1 in messages. This package imports nothing from `engines.pdf.redact` (a test
holds it to that): a blind spot of the redaction is not one of its check.
"""

from __future__ import annotations

import io
from collections.abc import Mapping, Sequence

import pikepdf
import pypdfium2 as pdfium

from engines.errors import EngineError
from engines.verify.content import ContentReader, drawn_by
from engines.verify.files import read_file
from engines.verify.needles import Needles, Run
from engines.verify.objects import scan_objects
from engines.verify.pages import Area, check_page, page_text, shown_runs, to_user
from engines.verify.paint import check_painting
from engines.verify.report import Found, leak

__all__ = ["Area", "Run", "verify"]


def verify(path: str, runs: Sequence[Run], areas: Mapping[int, Sequence[Area]]) -> None:
    """Raise `RedactionLeak` when the PDF at `path` still holds a removed run
    or anything under an area; `areas` maps 0-based pages to their areas."""
    try:
        _verify(path, Needles(runs), areas, 0, top=True)
    except Found as found:
        raise leak(found.place) from None


def _verify(
    source: str | bytes,
    needles: Needles,
    areas: Mapping[int, Sequence[Area]],
    depth: int,
    *,
    top: bool,
    place: str = "",
) -> None:
    try:
        pdf = pikepdf.open(io.BytesIO(source) if isinstance(source, bytes) else source)
    except pikepdf.PdfError as exc:
        if top:
            raise EngineError("The redacted document could not be read back.") from exc
        raise Found(f"{place} (an unreadable PDF)") from exc
    document = pdfium.PdfDocument(source)
    try:
        pages = list(pdf.pages)
        texts: dict[int, str] = {}  # PDFium's reading of the pages with areas
        for number, page_areas in sorted(areas.items()):
            texts[number] = check_page(document, number, page_areas)
            crop = _crop(pages[number].obj)
            user = [to_user(area, crop) for area in page_areas]
            check_painting(pages[number].obj, user, number)
        if needles.empty:
            return
        reader = ContentReader(needles)
        drawn: set[tuple[int, int]] = set()
        for number, page in enumerate(pages):
            held: set[str] = set()
            for item in drawn_by(page.obj):
                if item.stream.is_indirect:
                    drawn.add(item.stream.objgen)
                # What a pattern or a soft mask paints is seen, not extracted:
                # on a page without areas it is the page's own to show.
                if item.kind in _PAINTED and number not in areas:
                    continue
                runs = reader.runs(item)
                if runs and item.kind == "appearance":
                    where = f"page {number + 1}, an annotation's appearance"
                    raise Found(f"{place}, {where}" if place else where)
                held |= runs
            # A run the page still shows (outside the areas) may be held by
            # its streams; any other is a copy nobody sees.
            if held and not held <= (
                shown_runs(_text(document, number, texts), needles) if top else set()
            ):
                where = f"page {number + 1}, content streams"
                raise Found(f"{place}, {where}" if place else where)

        def read(data: bytes, where: str) -> None:
            read_file(data, needles, where, depth + 1, _nested)

        scan_objects(pdf, needles, drawn, read)
    finally:
        document.close()
        pdf.close()


def _text(document: pdfium.PdfDocument, number: int, texts: dict[int, str]) -> str:
    """Page `number`'s text as `check_page` read it, else read now."""
    text = texts.get(number)
    return page_text(document, number) if text is None else text


def _nested(data: bytes, needles: Needles, place: str, depth: int) -> None:
    """An attached PDF: nothing in it may hold a removed run."""
    _verify(data, needles, {}, depth, top=False, place=place)


Crop = tuple[float, float, float, float, int]
_PAINTED = frozenset(("pattern", "mask"))


def _crop(page: pikepdf.Dictionary) -> Crop:
    box = _inherited(page, "/CropBox") or _inherited(page, "/MediaBox")
    corners = list(box) if isinstance(box, pikepdf.Array) else [0, 0, 612, 792]
    x0, y0, x1, y1 = (float(v) for v in corners[:4])
    rotation = _inherited(page, "/Rotate")
    return (
        min(x0, x1),
        min(y0, y1),
        max(x0, x1),
        max(y0, y1),
        int(rotation) % 360 if isinstance(rotation, int) else 0,
    )


def _inherited(page: pikepdf.Dictionary, key: str) -> object:
    holder: object = page
    for _ in range(64):
        if not isinstance(holder, pikepdf.Dictionary):
            return None
        if key in holder:
            return holder[key]
        holder = holder.get("/Parent")
    return None
