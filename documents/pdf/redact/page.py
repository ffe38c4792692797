"""True redaction of page areas: text, images, paths and annotations under them.

Areas are `Box`es in displayed-page space (points, top-left origin of the page as
displayed, decisions §4); they are converted once, through `geometry`.
Pages are PyMuPDF pages of an open document; nothing here saves the document.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass

import pymupdf

from documents.pdf import geometry
from documents.pdf.redact.marked_content import scrub_marked_content
from documents.pdf.redact.words import spaced, words_pattern
from documents.pdf.types import Box, EngineError, Rgb

# A line that enters the area by less than this share of its height only touches
# the edge (decisions §6) and must survive.
EDGE_FRACTION = 0.25
# MuPDF's text filter tests each glyph box shrunk by a tenth of its width and
# height on every side and removes the glyph when that box meets the area at all
# (pdf_redact_text_filter, MuPDF 1.28); the narrowing below reasons with that box.
_MUPDF_SHRINK = 0.1
# Keeps a narrowed edge strictly clear of a surviving glyph's box.
_CLEARANCE = 0.01
_BLACK = Rgb(0, 0, 0)


@dataclass(frozen=True, slots=True)
class _Glyph:
    text: str
    full: pymupdf.Rect  # PyMuPDF page space (unrotated), ascender to descender
    rect: pymupdf.Rect  # `full` shrunk as MuPDF's filter shrinks it
    vertical: bool  # the line runs along the page's y axis (rotated text)
    word: int  # the number of its word on the page


def redact_page(
    page: pymupdf.Page, boxes: Sequence[tuple[Box, Rgb | None]]
) -> list[str]:
    """Truly redact `boxes` (displayed space, points) on `page`; return the words hit.

    Under each area, text is removed from the content stream, image pixels are
    blanked (a copy of the image is made, so another page sharing it keeps its
    pixels), vector paths lying fully inside are removed, and annotations, form
    widgets and links meeting the area are deleted. The area is then filled with its
    colour (black when None).

    Text is removed when it enters the area by at least `EDGE_FRACTION` of its
    height; a line of text that only touches the top or bottom edge by less stays
    whole. Along the line, MuPDF's own rule applies: a glyph goes when its box,
    narrowed by a tenth per side, meets the area.

    Alternate texts in the page's marked content (/ActualText, /Alt, /E) that
    contain a removed word are deleted: MuPDF drops the glyphs but keeps them.
    Redaction annotations the page already had are left pending, not applied.

    Returns the removed text for `scrub_document`, in page order without repeats:
    each word (glyphs between white space) that lost a glyph, whole; in scripts
    written without spaces (CJK, Thai...), only the runs of removed glyphs, since
    a "word" there is a whole line.
    """
    if not boxes:
        return []
    areas = [(_page_area(page, box), colour or _BLACK) for box, colour in boxes]
    rects = [rect for rect, _ in areas]
    glyphs = _page_glyphs(page)
    text_rects = _text_rects(glyphs, rects)
    _delete_annotations(page, rects)
    with _pending_redactions_hidden(page):
        # Two passes because images and paths go by the area the client drew
        # while text goes by the narrowed areas; MuPDF takes one set per call.
        _apply(page, rects, text=False)
        _apply(page, text_rects, text=True)
    _fill(page, [(box, colour or _BLACK) for box, colour in boxes])
    removed = _removed_text(glyphs, text_rects)
    pattern = words_pattern(removed)
    if pattern is not None:
        scrub_marked_content(page, pattern)
    return removed


def _page_area(page: pymupdf.Page, box: Box) -> pymupdf.Rect:
    if not (box.w > 0 and box.h > 0):
        raise EngineError(
            f"A redaction area must have a positive width and height (got {box})."
        )
    return geometry.display_to_page_rect(page, box)


def _page_glyphs(page: pymupdf.Page) -> list[_Glyph]:
    """Every glyph of the page with the box MuPDF's redaction filter tests, each
    numbered with its word (glyphs between white space on one line)."""
    glyphs: list[_Glyph] = []
    count = 0

    def close(word: list[tuple[str, pymupdf.Rect, bool]]) -> None:
        nonlocal count
        if word:
            glyphs.extend(
                _Glyph(c, full, _shrunk(full), vertical, count)
                for c, full, vertical in word
            )
            count += 1
            word.clear()

    for block in page.get_text("rawdict")["blocks"]:
        for line in block.get("lines", ()):
            cos, sin = line["dir"]
            vertical = abs(sin) > abs(cos)
            word: list[tuple[str, pymupdf.Rect, bool]] = []
            for span in line["spans"]:
                for char in span["chars"]:
                    if char["c"].isspace():
                        close(word)
                    else:
                        word.append((char["c"], pymupdf.Rect(char["bbox"]), vertical))
            close(word)
    return glyphs


def _shrunk(rect: pymupdf.Rect) -> pymupdf.Rect:
    dx, dy = rect.width * _MUPDF_SHRINK, rect.height * _MUPDF_SHRINK
    return pymupdf.Rect(rect.x0 + dx, rect.y0 + dy, rect.x1 - dx, rect.y1 - dy)


def _meets(glyph: pymupdf.Rect, area: pymupdf.Rect) -> bool:
    """MuPDF's test: the intersection is a valid (possibly empty) rectangle."""
    return max(glyph.x0, area.x0) <= min(glyph.x1, area.x1) and max(
        glyph.y0, area.y0
    ) <= min(glyph.y1, area.y1)


def _hits_any(glyph: pymupdf.Rect, areas: Sequence[pymupdf.Rect]) -> bool:
    return any(_meets(glyph, area) for area in areas)


def _depth(glyph: _Glyph, area: pymupdf.Rect) -> float:
    """How far the glyph's full box enters the area across its line, 0 to 1."""
    full = glyph.full
    if glyph.vertical:
        low, high, a0, a1 = full.x0, full.x1, area.x0, area.x1
    else:
        low, high, a0, a1 = full.y0, full.y1, area.y0, area.y1
    size = high - low
    if size <= 0:
        return 1.0
    return max(0.0, min(high, a1) - max(low, a0)) / size


def _text_rects(
    glyphs: Sequence[_Glyph], areas: Sequence[pymupdf.Rect]
) -> list[pymupdf.Rect]:
    """The areas narrowed so that glyphs merely touching an edge are not removed.

    Each edge moves inwards past every glyph that enters the area by less than
    `EDGE_FRACTION` of its height. Should that release a glyph that enters deeply
    (glyph boxes of very different sizes overlapping), a small area at that glyph's
    centre is added: removing too much is the safe side.
    """
    result: list[pymupdf.Rect] = []
    for area in areas:
        met = [glyph for glyph in glyphs if _meets(glyph.rect, area)]
        keep = [glyph for glyph in met if _depth(glyph, area) < EDGE_FRACTION]
        remove = [glyph for glyph in met if _depth(glyph, area) >= EDGE_FRACTION]
        narrowed = _narrow(area, keep)
        if narrowed.is_valid and not narrowed.is_empty:
            result.append(narrowed)
        else:
            narrowed = pymupdf.Rect()
        for glyph in remove:
            if narrowed.is_empty or not _meets(glyph.rect, narrowed):
                centre = glyph.rect.tl + (glyph.rect.br - glyph.rect.tl) * 0.5
                result.append(pymupdf.Rect(centre, centre) + (-0.01, -0.01, 0.01, 0.01))
    return result


def _narrow(area: pymupdf.Rect, keep: Sequence[_Glyph]) -> pymupdf.Rect:
    rect = pymupdf.Rect(area)
    centre_x = (area.x0 + area.x1) / 2
    centre_y = (area.y0 + area.y1) / 2
    for glyph in keep:
        box = glyph.rect
        if glyph.vertical:
            if (box.x0 + box.x1) / 2 < centre_x:
                rect.x0 = max(rect.x0, box.x1 + _CLEARANCE)
            else:
                rect.x1 = min(rect.x1, box.x0 - _CLEARANCE)
        elif (box.y0 + box.y1) / 2 < centre_y:
            rect.y0 = max(rect.y0, box.y1 + _CLEARANCE)
        else:
            rect.y1 = min(rect.y1, box.y0 - _CLEARANCE)
    return rect


def _delete_annotations(page: pymupdf.Page, areas: Sequence[pymupdf.Rect]) -> None:
    """Delete annotations and widgets meeting an area (MuPDF removes the links)."""
    doomed = [
        annot
        for annot in page.annots()
        if annot.type[0] != pymupdf.PDF_ANNOT_POPUP
        and any(annot.rect.intersects(area) for area in areas)
    ]
    for annot in doomed:
        page.delete_annot(annot)
    widgets = [w for w in page.widgets() if any(w.rect.intersects(a) for a in areas)]
    for widget in widgets:
        page.delete_widget(widget)


def _apply(page: pymupdf.Page, rects: Sequence[pymupdf.Rect], *, text: bool) -> None:
    if not rects:
        return
    for rect in rects:
        page.add_redact_annot(rect, fill=False, cross_out=False)
    if text:
        page.apply_redactions(
            images=pymupdf.PDF_REDACT_IMAGE_NONE,
            graphics=pymupdf.PDF_REDACT_LINE_ART_NONE,
            text=pymupdf.PDF_REDACT_TEXT_REMOVE,
        )
    else:
        page.apply_redactions(
            images=pymupdf.PDF_REDACT_IMAGE_PIXELS,
            graphics=pymupdf.PDF_REDACT_LINE_ART_REMOVE_IF_COVERED,
            text=pymupdf.PDF_REDACT_TEXT_NONE,
        )


def _fill(page: pymupdf.Page, areas: Sequence[tuple[Box, Rgb]]) -> None:
    """Paint the areas over the page content, in PDF user space.

    Not with PyMuPDF's Shape: on a rotated page whose CropBox does not start at
    the MediaBox origin it misplaces what it draws by that offset.
    """
    doc = page.parent
    operators = []
    for box, colour in areas:
        rect = geometry.display_to_pdf_rect(page, box)
        red, green, blue = colour.unit()
        operators.append(
            f"{red:.6g} {green:.6g} {blue:.6g} rg "
            f"{rect.x0:.3f} {rect.y0:.3f} {rect.width:.3f} {rect.height:.3f} re f"
        )
    page.wrap_contents()  # whatever state the content leaves, start afresh
    xref = doc.get_new_xref()
    doc.update_object(xref, "<<>>")
    doc.update_stream(xref, ("q\n" + "\n".join(operators) + "\nQ\n").encode())
    streams = [*page.get_contents(), xref]
    doc.xref_set_key(
        page.xref, "Contents", "[" + " ".join(f"{x} 0 R" for x in streams) + "]"
    )


@contextmanager
def _pending_redactions_hidden(page: pymupdf.Page) -> Iterator[None]:
    """Disguise the page's own Redact annotations: MuPDF applies every one."""
    doc = page.parent
    pending = [annot.xref for annot in page.annots(types=(pymupdf.PDF_ANNOT_REDACT,))]
    for xref in pending:
        doc.xref_set_key(xref, "Subtype", "/Square")
    try:
        yield
    finally:
        for xref in pending:
            doc.xref_set_key(xref, "Subtype", "/Redact")


def _removed_text(glyphs: Sequence[_Glyph], areas: Sequence[pymupdf.Rect]) -> list[str]:
    words: dict[int, list[tuple[str, bool]]] = {}
    for glyph in glyphs:
        words.setdefault(glyph.word, []).append(
            (glyph.text, _hits_any(glyph.rect, areas))
        )
    removed: list[str] = []
    for word in words.values():
        if not any(hit for _, hit in word):
            continue
        if all(hit for _, hit in word) or any(spaced(text) for text, _ in word):
            removed.append("".join(text for text, _ in word))
            continue
        run = ""
        for text, hit in [*word, ("", False)]:
            if hit:
                run += text
            elif run:
                removed.append(run)
                run = ""
    return list(dict.fromkeys(removed))
