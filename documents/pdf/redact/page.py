"""True redaction of page areas: text, images, paths and annotations under them.

Areas are `Box`es in displayed-page space (points, top-left origin of the page as
displayed, decisions §4); they are converted once, through `geometry`.
Pages are PyMuPDF pages of an open document; nothing here saves the document.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any, NamedTuple

import pymupdf

from documents.pdf import collector, geometry
from documents.pdf.redact.marked_content import scrub_marked_content
from documents.pdf.redact.words import spaced, words_pattern
from documents.pdf.types import Box, EngineError, Rgb

# PyMuPDF's bindings of MuPDF's C API (redactions are applied through them).
_mupdf = pymupdf.mupdf

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

# rawdict's flags without its image blocks: they carry each image's bytes, and
# on a scanned page with a text layer cost 20 to 300 times the text itself. (An
# image drawn between two glyphs no longer splits their line in two.)
_TEXT_ONLY = pymupdf.TEXTFLAGS_RAWDICT & ~pymupdf.TEXT_PRESERVE_IMAGES
# (x0, y0, x1, y1) in PyMuPDF page space. Glyph boxes stay plain floats: a page
# has thousands of glyphs, and a pymupdf.Rect costs microseconds to make.
Rect4 = tuple[float, float, float, float]


class _Glyph(NamedTuple):
    # A named tuple, not a frozen dataclass: made in less than half the time,
    # and the lines near the areas hold hundreds of glyphs per page.
    text: str
    full: Rect4  # PyMuPDF page space (unrotated), ascender to descender
    rect: Rect4  # `full` shrunk as MuPDF's filter shrinks it
    vertical: bool  # the line runs along the page's y axis (rotated text)
    word: tuple[int, int]  # (line, word on that line): unique, in page order


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
    floats = [_rect4(rect) for rect in rects]
    with collector.paused():
        text_rects, removed = _text_plan(page, floats)
    _delete_annotations(page, rects)
    with _pending_redactions_hidden(page):
        if text_rects == floats:
            # No area was narrowed: one MuPDF pass removes all three.
            _apply(page, floats, text=True, images_and_paths=True)
        else:
            # Two passes because images and paths go by the area the client
            # drew while text goes by the narrowed areas; MuPDF takes one set
            # per call.
            _apply(page, floats, text=False, images_and_paths=True)
            _apply(page, text_rects, text=True, images_and_paths=False)
    _fill(page, [(box, colour or _BLACK) for box, colour in boxes])
    pattern = words_pattern(removed)
    if pattern is not None:
        scrub_marked_content(page, pattern)
    return removed


def _text_plan(
    page: pymupdf.Page, areas: Sequence[Rect4]
) -> tuple[list[Rect4], list[str]]:
    """The text areas (`_text_rects`) and the removed words (`_removed_text`).

    The page's extracted text is freed on return: see `collector`.
    """
    text = _PageText(page)
    text_rects = _text_rects(text, areas)
    return text_rects, _removed_text(text, text_rects)


def _page_area(page: pymupdf.Page, box: Box) -> pymupdf.Rect:
    if not (box.w > 0 and box.h > 0):
        raise EngineError(
            f"A redaction area must have a positive width and height (got {box})."
        )
    return geometry.display_to_page_rect(page, box)


def _rect4(bbox: Sequence[float]) -> Rect4:
    """A pymupdf.Rect or an extracted bbox as plain floats."""
    x0, y0, x1, y1 = bbox
    return (x0, y0, x1, y1)


class _PageText:
    """The page's text lines from one extraction; their glyphs made on demand.

    Only the lines near an area are looked at glyph by glyph: PyMuPDF makes a
    line's box the union of its glyph boxes, so a line whose box meets no area
    has no glyph that meets one (and a word never spans two lines).
    """

    def __init__(self, page: pymupdf.Page) -> None:
        blocks = page.get_text("rawdict", flags=_TEXT_ONLY)["blocks"]
        self._lines = [
            (_rect4(line["bbox"]), line)
            for block in blocks
            for line in block.get("lines", ())
        ]
        self._glyphs: dict[int, list[_Glyph]] = {}

    def lines_meeting(
        self, areas: Sequence[Rect4]
    ) -> Iterator[tuple[list[_Glyph], list[Rect4]]]:
        """Each line whose box meets one of `areas`, in page order: its glyphs and
        the areas its box meets (the only ones its glyphs can meet)."""
        for number, (bbox, line) in enumerate(self._lines):
            near = [area for area in areas if _meets(bbox, area)]
            if not near:
                continue
            glyphs = self._glyphs.get(number)
            if glyphs is None:
                glyphs = self._glyphs[number] = _line_glyphs(line, number)
            yield glyphs, near


def _line_glyphs(line: dict[str, Any], number: int) -> list[_Glyph]:
    """The glyphs of one extracted line with the box MuPDF's redaction filter
    tests, each numbered with its word (glyphs between white space)."""
    cos, sin = line["dir"]
    vertical = abs(sin) > abs(cos)
    glyphs: list[_Glyph] = []
    word = (number, 0)
    in_word = False
    for span in line["spans"]:
        for char in span["chars"]:
            text = char["c"]
            if text.isspace():
                if in_word:
                    word = (number, word[1] + 1)
                    in_word = False
                continue
            in_word = True
            full = _rect4(char["bbox"])
            glyphs.append(_Glyph(text, full, _shrunk(full), vertical, word))
    return glyphs


def _shrunk(rect: Rect4) -> Rect4:
    x0, y0, x1, y1 = rect
    dx, dy = max(0, x1 - x0) * _MUPDF_SHRINK, max(0, y1 - y0) * _MUPDF_SHRINK
    return (x0 + dx, y0 + dy, x1 - dx, y1 - dy)


def _meets(glyph: Rect4, area: Rect4) -> bool:
    """MuPDF's test: the intersection is a valid (possibly empty) rectangle."""
    return max(glyph[0], area[0]) <= min(glyph[2], area[2]) and max(
        glyph[1], area[1]
    ) <= min(glyph[3], area[3])


def _meeting(glyphs: Sequence[_Glyph], area: Rect4) -> list[bool]:
    """`_meets(glyph.rect, area)` for each glyph, written out with comparisons
    only (the same test on numbers): it runs for every glyph near an area."""
    ax0, ay0, ax1, ay1 = area
    if not (ax0 <= ax1 and ay0 <= ay1):
        return [False] * len(glyphs)
    return [
        x0 <= x1 and x0 <= ax1 and ax0 <= x1 and y0 <= y1 and y0 <= ay1 and ay0 <= y1
        for x0, y0, x1, y1 in [glyph.rect for glyph in glyphs]
    ]


def _depth(glyph: _Glyph, area: Rect4) -> float:
    """How far the glyph's full box enters the area across its line, 0 to 1."""
    x0, y0, x1, y1 = glyph.full
    if glyph.vertical:
        low, high, a0, a1 = x0, x1, area[0], area[2]
    else:
        low, high, a0, a1 = y0, y1, area[1], area[3]
    size = high - low
    if size <= 0:
        return 1.0
    return max(0.0, min(high, a1) - max(low, a0)) / size


def _text_rects(text: _PageText, areas: Sequence[Rect4]) -> list[Rect4]:
    """The areas narrowed so that glyphs merely touching an edge are not removed.

    Each edge moves inwards past every glyph that enters the area by less than
    `EDGE_FRACTION` of its height. Should that release a glyph that enters deeply
    (glyph boxes of very different sizes overlapping), a small area at that glyph's
    centre is added: removing too much is the safe side.
    """
    result: list[Rect4] = []
    for area in areas:
        met = [
            (glyph, _depth(glyph, area))
            for glyphs, _ in text.lines_meeting([area])
            for glyph, meets in zip(glyphs, _meeting(glyphs, area), strict=True)
            if meets
        ]
        keep = [glyph for glyph, depth in met if depth < EDGE_FRACTION]
        remove = [glyph for glyph, depth in met if depth >= EDGE_FRACTION]
        narrowed: Rect4 | None = _narrow(area, keep)
        if narrowed[0] < narrowed[2] and narrowed[1] < narrowed[3]:
            result.append(narrowed)
        else:
            narrowed = None
        for glyph in remove:
            if narrowed is None or not _meets(glyph.rect, narrowed):
                x0, y0, x1, y1 = glyph.rect
                x, y = x0 + (x1 - x0) * 0.5, y0 + (y1 - y0) * 0.5
                result.append((x - 0.01, y - 0.01, x + 0.01, y + 0.01))
    return result


def _narrow(area: Rect4, keep: Sequence[_Glyph]) -> Rect4:
    x0, y0, x1, y1 = area
    centre_x = (area[0] + area[2]) / 2
    centre_y = (area[1] + area[3]) / 2
    for glyph in keep:
        bx0, by0, bx1, by1 = glyph.rect
        if glyph.vertical:
            if (bx0 + bx1) / 2 < centre_x:
                x0 = max(x0, bx1 + _CLEARANCE)
            else:
                x1 = min(x1, bx0 - _CLEARANCE)
        elif (by0 + by1) / 2 < centre_y:
            y0 = max(y0, by1 + _CLEARANCE)
        else:
            y1 = min(y1, by0 - _CLEARANCE)
    return (x0, y0, x1, y1)


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


def _apply(
    page: pymupdf.Page, rects: Sequence[Rect4], *, text: bool, images_and_paths: bool
) -> None:
    """Redact `rects`: text, and/or image pixels and the paths they cover.

    MuPDF is called directly: PyMuPDF's `apply_redactions` adds a scan of the
    page's annotations and an overlay step that has nothing to draw here (no
    redaction has a fill; `_fill` paints the areas).
    """
    if not rects:
        return
    for rect in rects:
        page.add_redact_annot(pymupdf.Rect(rect), fill=False, cross_out=False)
    options = _mupdf.PdfRedactOptions()
    options.black_boxes = 0
    options.text = (
        pymupdf.PDF_REDACT_TEXT_REMOVE if text else pymupdf.PDF_REDACT_TEXT_NONE
    )
    if images_and_paths:
        options.image_method = pymupdf.PDF_REDACT_IMAGE_PIXELS
        options.line_art = pymupdf.PDF_REDACT_LINE_ART_REMOVE_IF_COVERED
    else:
        options.image_method = pymupdf.PDF_REDACT_IMAGE_NONE
        options.line_art = pymupdf.PDF_REDACT_LINE_ART_NONE
    pdf_page = _mupdf.pdf_page_from_fz_page(page.this)
    _mupdf.pdf_redact_page(pdf_page.doc(), pdf_page, options)


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


def _removed_text(text: _PageText, areas: Sequence[Rect4]) -> list[str]:
    """The words (or unspaced runs) that lose a glyph to `areas`, the text areas.

    Lines are looked up by these areas, not the client's: a centre mark of
    `_text_rects` may reach past its area into a neighbouring line.
    """
    words: dict[tuple[int, int], list[tuple[str, bool]]] = {}
    for glyphs, near in text.lines_meeting(areas):
        hits = _meeting(glyphs, near[0])
        for area in near[1:]:
            hits = [a or b for a, b in zip(hits, _meeting(glyphs, area), strict=True)]
        for glyph, hit in zip(glyphs, hits, strict=True):
            words.setdefault(glyph.word, []).append((glyph.text, hit))
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
