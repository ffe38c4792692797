"""Annotations on an assembled PDF: burnt into the page content, or kept live.

Positions come in displayed-page space (points, origin at the top-left corner of
the page as displayed, /Rotate applied, decisions §4) and are converted only
through `geometry`. Output pages are counted from 0.
"""

from __future__ import annotations

import datetime as dt
import html.parser
from collections.abc import Callable, Sequence
from typing import Any, Literal

import pymupdf
import regex

from documents.pdf import geometry, redact
from documents.pdf.types import Annotation, Box, EngineError, Placement, Point, Rgb

Mode = Literal["burn", "live"]
# PyMuPDF's bindings of MuPDF's C API: annotation dictionaries are edited in place
# with them, since Document.xref_set_key prints and re-parses the whole object.
_mupdf = pymupdf.mupdf

# Wire values of a line's `head`/`tail` → PDF /LE names (via PyMuPDF's codes).
LINE_ENDINGS: dict[str, int] = {
    "NONE": pymupdf.PDF_ANNOT_LE_NONE,
    "SQUARE": pymupdf.PDF_ANNOT_LE_SQUARE,
    "CIRCLE": pymupdf.PDF_ANNOT_LE_CIRCLE,
    "DIAMOND": pymupdf.PDF_ANNOT_LE_DIAMOND,
    "OPEN_ARROW": pymupdf.PDF_ANNOT_LE_OPEN_ARROW,
    "CLOSED_ARROW": pymupdf.PDF_ANNOT_LE_CLOSED_ARROW,
    "BUTT": pymupdf.PDF_ANNOT_LE_BUTT,
    "ROPEN_ARROW": pymupdf.PDF_ANNOT_LE_R_OPEN_ARROW,
    "RCLOSED_ARROW": pymupdf.PDF_ANNOT_LE_R_CLOSED_ARROW,
    "SLASH": pymupdf.PDF_ANNOT_LE_SLASH,
}
# The icons every viewer draws for a sticky note (PDF 32000-1, 12.5.6.4).
NOTE_ICONS = ("Note", "Comment", "Key", "Help", "NewParagraph", "Paragraph", "Insert")
DEFAULT_FONT_SIZE = 12.0
_BLACK = Rgb(0, 0, 0)
_EPOCH_MS_THRESHOLD = 1e11  # larger epoch numbers are milliseconds (year > 5138 in s)
_BASE14 = {
    "helv": "Helv",
    "arial": "Helv",
    "tiro": "TiRo",
    "times": "TiRo",
    "cour": "Cour",
}


_TIMING_LOOP = "update_timing_test"


def _skip_pymupdf_timing_loop() -> None:
    """Turn the leftover timing loop of PyMuPDF's `Annot.update()` into a no-op.

    PyMuPDF 1.23.0 to 1.28.2 call the static method `Annot.update_timing_test()`
    from every `Annot.update()`: it sums range(30000) and returns the sum, which
    update() discards. A benchmark committed by accident (removed upstream by
    PyMuPDF PR #5087), it costs ~1 ms per update, 40 % of burning 1,000
    annotations. It takes no argument and names nothing but `range` (checked
    below on its code object), so it can read or change no state: replacing it
    changes no output. Other versions, or a method that is not that loop, are
    left alone.
    """
    loop = pymupdf.Annot.__dict__.get(_TIMING_LOOP)
    code = getattr(getattr(loop, "__func__", None), "__code__", None)
    if (
        (1, 23, 0) <= tuple(pymupdf.pymupdf_version_tuple)[:3] <= (1, 28, 2)
        and isinstance(loop, staticmethod)
        and code is not None
        and code.co_argcount == 0
        and code.co_names == ("range",)
    ):
        setattr(pymupdf.Annot, _TIMING_LOOP, staticmethod(_no_timing_loop))


def _no_timing_loop() -> int:
    """The loop's stand-in: update() never reads what the loop returned."""
    return 0


_skip_pymupdf_timing_loop()


def apply_annotations(
    src: str, dest: str, placements: Sequence[Placement], *, mode: Mode
) -> None:
    """Write `src` with `placements` applied to `dest`, as a full rewrite.

    `Placement.page` is a 0-based page of `src`. On each page all redactions
    (RedactElemType, RedactTextElemType) are applied first, as true redaction in
    both modes, then the other kinds in the order given.

    mode "burn": every annotation is drawn into the page content; afterwards the
    pages carry no annotation objects but their links (form widgets are kept).
    mode "live": Square, FreeText, Text and Line annotation objects with /NM (the
    annotation id), /T (creator), /Contents, colours, /CA, border, line endings,
    /CreationDate and appearance streams.

    Raises EngineError for an unknown kind, a page out of range, missing or
    invalid fields, or a PDF that cannot be read or written.
    """
    if mode not in ("burn", "live"):
        raise EngineError(f"Unknown annotation mode {mode!r}: use 'burn' or 'live'.")
    for placement in placements:
        if not _is_redaction(placement.annotation):
            _drawer(placement.annotation)
    doc = _open(src)
    try:
        removed: list[str] = []
        for number, annotations in _by_page(doc, placements).items():
            page = doc[number]
            areas = [
                area for a in annotations if _is_redaction(a) for area in _areas(a)
            ]
            removed += redact.redact_page(page, areas)
            for annotation in annotations:
                if not _is_redaction(annotation):
                    _drawer(annotation)(page, annotation, mode)
        if removed:
            redact.scrub_document(doc, removed)
        if mode == "burn":
            _burn(doc)
        _save(doc, dest)
    finally:
        doc.close()


def simple_name(type_name: str) -> str:
    """`com.vendor.viewer.annotation.api.SquareElemType` → `SquareElemType`."""
    return type_name.rsplit(".", 1)[-1]


def kind_name(annotation: Annotation) -> str:
    """The simple type name, whatever package prefix the client sent."""
    return simple_name(annotation.kind)


# --- plumbing ------------------------------------------------------------------


def _open(src: str) -> pymupdf.Document:
    try:
        doc = pymupdf.open(src)
    except (pymupdf.FileDataError, pymupdf.FileNotFoundError, RuntimeError) as exc:
        raise EngineError(f"The document to annotate cannot be read: {exc}") from exc
    if not doc.is_pdf or (doc.needs_pass and not doc.authenticate("")):
        doc.close()
        raise EngineError("The document to annotate is not a readable PDF.")
    return doc


def _save(doc: pymupdf.Document, dest: str) -> None:
    try:
        # garbage=3 drops the objects redaction replaced and merges duplicates.
        doc.save(dest, garbage=3, deflate=True)
    except (RuntimeError, ValueError) as exc:
        raise EngineError(f"The annotated document cannot be written: {exc}") from exc


def _by_page(
    doc: pymupdf.Document, placements: Sequence[Placement]
) -> dict[int, list[Annotation]]:
    pages: dict[int, list[Annotation]] = {}
    for placement in placements:
        if not 0 <= placement.page < doc.page_count:
            raise EngineError(
                f"Annotation page {placement.page} is outside the output document "
                f"(pages 0 to {doc.page_count - 1})."
            )
        pages.setdefault(placement.page, []).append(placement.annotation)
    return dict(sorted(pages.items()))


def _areas(annotation: Annotation) -> list[tuple[Box, Rgb | None]]:
    boxes = list(annotation.coords) or (
        [annotation.position] if annotation.position else []
    )
    if not boxes:
        raise EngineError(
            f"Redaction {annotation.annotation_id or ''} on page {annotation.page} "
            "has neither coords nor position."
        )
    if kind_name(annotation) == "RedactElemType":
        colour = annotation.interior_color or annotation.color
    else:
        colour = annotation.color or annotation.interior_color
    return [(box, colour) for box in boxes]


def _burn(doc: pymupdf.Document) -> None:
    doc.bake(annots=True, widgets=False)
    # Baking drops hidden annotations and popups; anything else it could not
    # turn into content (no appearance to draw) must not survive a burn either.
    for page in doc:
        for annot in list(page.annots()):
            page.delete_annot(annot)


# --- the kinds -----------------------------------------------------------------

Drawer = Callable[[pymupdf.Page, Annotation, Mode], None]


def _is_redaction(annotation: Annotation) -> bool:
    return kind_name(annotation) in _REDACTIONS


def _drawer(annotation: Annotation) -> Drawer:
    """The function drawing this kind; EngineError for a kind nobody draws."""
    try:
        return _DRAWERS[kind_name(annotation)]
    except KeyError:
        raise EngineError(
            f"Annotation type {annotation.kind!r} is not supported."
        ) from None


def _square(page: pymupdf.Page, a: Annotation, mode: Mode) -> None:
    """A rectangle whose outer edge is `position`; the border lies inside it."""
    box = _position(a)
    rect = geometry.display_to_page_rect(page, box)
    # A border wider than a third of the box would leave no inside to draw.
    border = min(_border(a), rect.width / 3, rect.height / 3) if a.color else 0.0
    inner = rect + (border / 2, border / 2, -border / 2, -border / 2)
    annot = page.add_rect_annot(inner)
    annot.set_border(width=border)
    # MuPDF pads a rectangle it is given by /RD, and draws the stroke's centre
    # line on /Rect inset by /RD, which drawing first raises to half the border.
    # Raised here already, /RD makes the padding match, so the one appearance
    # drawn puts the centre line on `inner`.
    obj = _mupdf.pdf_annot_obj(annot.this)
    _raise_rect_diff(obj, border / 2)
    annot.set_rect(inner)
    _put_colour(obj, "C", a.color)
    _put_colour(obj, "IC", a.interior_color)
    _describe(annot, a)
    annot.update()
    # MuPDF pads /Rect by at least 1 pt whatever the border; pin it to the box.
    # Its appearance is drawn in page units with /BBox equal to /Rect, so the
    # stream keeps its place when both move together.
    pdf_rect = _pdf_rect(page, box)
    _put_numbers(obj, "Rect", pdf_rect)
    _put_numbers(obj, "RD", _rounded([border / 2] * 4))
    _put_numbers(_appearance(obj), "BBox", pdf_rect)
    _identify(obj, a)


def _raise_rect_diff(obj: Any, least: float) -> None:
    """Raise each of the annotation's /RD margins to at least `least` points."""
    current = _mupdf.pdf_dict_get(obj, _mupdf.pdf_new_name("RD"))
    margins = [_mupdf.pdf_array_get_real(current, i) for i in range(4)]  # 0: none
    if min(margins) < least:
        _put_numbers(obj, "RD", [max(margin, least) for margin in margins])


def _freetext(page: pymupdf.Page, a: Annotation, mode: Mode) -> None:
    """A text box at `position`, upright on the displayed page.

    Rich text (XHTML) is kept as /RC and laid out by MuPDF's HTML engine into the
    appearance, with the default appearance's size and colour as /DS; /Contents
    gets its plain text. Burning bakes that same appearance.
    """
    box = _position(a)
    rect = geometry.display_to_page_rect(page, box)
    size, da_colour, font = _parse_default_appearance(a.default_appearance)
    colour = a.color or da_colour or _BLACK
    text = _plain_text(a.rich_text) if a.rich_text else (a.contents or "")
    annot = page.add_freetext_annot(
        rect,
        text,
        fontsize=size,
        fontname=font,
        text_color=colour.unit(),
        rotate=page.rotation,
        opacity=_opacity(a),
    )
    annot.set_border(width=_border(a, default=0.0))
    _describe(annot, a)
    obj = _mupdf.pdf_annot_obj(annot.this)
    if a.rich_text:
        _put_text(obj, "RC", a.rich_text)
        style = (
            f"font-size:{size:g}pt;color:#{colour.r:02x}{colour.g:02x}{colour.b:02x}"
        )
        _put_text(obj, "DS", style)
    annot.update()
    # MuPDF invents a callout line for every FreeText; no client asked for one.
    _mupdf.pdf_dict_put(obj, _mupdf.pdf_new_name("CL"), _mupdf.PDF_NULL)
    _identify(obj, a)


def _note(page: pymupdf.Page, a: Annotation, mode: Mode) -> None:
    """A sticky note (Text annotation) whose icon's top-left corner is at `position`.

    Live, it keeps the viewer conventions for notes (NoZoom, NoRotate: the icon
    stays upright, anchored at the top-left corner of /Rect). Burnt, its
    appearance is turned with the page and stretched to the box, so the baked icon
    fills `position` upright.
    """
    box = _position(a)
    anchor = geometry.display_to_page_point(page, Point(box.x, box.y))
    annot = page.add_text_annot(anchor, a.contents or "", icon=_icon(a.icon))
    obj = _mupdf.pdf_annot_obj(annot.this)
    if a.color:
        _put_colour(obj, "C", a.color)
    _common(annot, a)
    if mode == "burn":
        _put_numbers(obj, "Rect", _pdf_rect(page, box))
        _mupdf.pdf_dict_put_int(
            obj, _mupdf.pdf_new_name("F"), pymupdf.PDF_ANNOT_IS_PRINT
        )
        turn = page.rotation_matrix
        _put_numbers(
            _appearance(obj), "Matrix", _rounded([turn.a, turn.b, turn.c, turn.d, 0, 0])
        )
    else:
        unrotated = pymupdf.Rect(anchor.x, anchor.y, anchor.x + box.w, anchor.y + box.h)
        shown = geometry.rect_to_box(geometry.page_rect_to_display(page, unrotated))
        _put_numbers(obj, "Rect", _pdf_rect(page, shown))
    _identify(obj, a)


def _line(page: pymupdf.Page, a: Annotation, mode: Mode) -> None:
    """A line from `start` to `end`; `tail` ends it at `start`, `head` at `end`."""
    if a.start is None or a.end is None:
        raise EngineError(
            f"Line annotation {a.annotation_id or ''} needs start and end."
        )
    annot = page.add_line_annot(
        geometry.display_to_page_point(page, a.start),
        geometry.display_to_page_point(page, a.end),
    )
    annot.set_line_ends(_ending(a.tail), _ending(a.head))
    colour = a.color or _BLACK
    obj = _mupdf.pdf_annot_obj(annot.this)
    _put_colour(obj, "C", colour)
    # /IC fills closed endings (arrows, squares...), in the line's colour unless told.
    _put_colour(obj, "IC", a.interior_color or colour)
    annot.set_border(width=_border(a))
    _common(annot, a)
    _identify(obj, a)


_DRAWERS: dict[str, Drawer] = {
    "SquareElemType": _square,
    "FreetextElemType": _freetext,
    "TextElemType": _note,
    "LineElemType": _line,
}
_REDACTIONS = frozenset({"RedactElemType", "RedactTextElemType"})
# Every simple type name `apply_annotations` accepts (for request validation).
KINDS = frozenset(_DRAWERS) | _REDACTIONS


# --- fields --------------------------------------------------------------------


def _describe(annot: pymupdf.Annot, a: Annotation) -> None:
    """Opacity, author, contents and date (setting /Contents drops /RC)."""
    annot.set_opacity(_opacity(a))
    contents = _plain_text(a.rich_text) if a.rich_text else a.contents
    annot.set_info(
        content=contents,
        title=a.creator,
        creationDate=_pdf_date(a.creation_date)
        if a.creation_date is not None
        else None,
    )


def _common(annot: pymupdf.Annot, a: Annotation) -> None:
    """`_describe`, then a fresh appearance stream."""
    _describe(annot, a)
    annot.update()


def _identify(obj: Any, a: Annotation) -> None:
    """/NM = the annotation id; `obj` is the annotation's dictionary."""
    if a.annotation_id:
        _put_text(obj, "NM", a.annotation_id)


def _position(a: Annotation) -> Box:
    if a.position is None:
        raise EngineError(f"{kind_name(a)} {a.annotation_id or ''} needs a position.")
    if a.position.w <= 0 or a.position.h <= 0:
        raise EngineError(
            f"{kind_name(a)} {a.annotation_id or ''} needs a position with a positive "
            f"width and height (got {a.position})."
        )
    return a.position


def _opacity(a: Annotation) -> float:
    if a.opacity is None:
        return 1.0
    if not 0.0 <= a.opacity <= 1.0:
        raise EngineError(f"Opacity must be between 0 and 1 (got {a.opacity}).")
    return float(a.opacity)


def _border(a: Annotation, default: float = 1.0) -> float:
    if a.width is None:
        return default
    if a.width < 0:
        raise EngineError(f"A border width cannot be negative (got {a.width}).")
    return float(a.width)


def _ending(value: str | None) -> int:
    if value is None:
        return pymupdf.PDF_ANNOT_LE_NONE
    try:
        return LINE_ENDINGS[value.strip().upper()]
    except KeyError:
        known = ", ".join(LINE_ENDINGS)
        raise EngineError(
            f"Unknown line ending {value!r}; use one of {known}."
        ) from None


def _icon(value: str | None) -> str:
    for icon in NOTE_ICONS:
        if value and value.strip().lower() == icon.lower():
            return icon
    return "Note"


def _pdf_date(epoch: float) -> str:
    seconds = epoch / 1000 if abs(epoch) > _EPOCH_MS_THRESHOLD else epoch
    try:
        moment = dt.datetime.fromtimestamp(seconds, tz=dt.UTC)
    except (OverflowError, OSError, ValueError) as exc:
        raise EngineError(f"Invalid creation date {epoch}.") from exc
    return moment.strftime("D:%Y%m%d%H%M%S+00'00'")


def _pdf_rect(page: pymupdf.Page, box: Box) -> list[float]:
    rect = geometry.display_to_pdf_rect(page, box)
    return _rounded([rect.x0, rect.y0, rect.x1, rect.y1])


def _rounded(numbers: Sequence[float]) -> list[float]:
    """To 4 decimals: 1/10,000 pt is below any viewer's reach."""
    return [round(number, 4) for number in numbers]


# Dictionary edits: `obj` is a PDF dictionary (or a reference to one) of MuPDF.


def _put_numbers(obj: Any, key: str, numbers: Sequence[float]) -> None:
    """An array of reals (MuPDF keeps them as 32-bit floats, as when parsed)."""
    array = _mupdf.pdf_dict_put_array(obj, _mupdf.pdf_new_name(key), len(numbers))
    for number in numbers:
        _mupdf.pdf_array_push_real(array, number)


def _put_colour(obj: Any, key: str, colour: Rgb | None) -> None:
    """/C or /IC as `Annot.set_colors` writes it ([] for none)."""
    _put_numbers(obj, key, colour.unit() if colour else [])


def _put_text(obj: Any, key: str, text: str) -> None:
    """A text string, encoded as MuPDF encodes /Contents and /T (ASCII or UTF-16)."""
    _mupdf.pdf_dict_put_text_string(obj, _mupdf.pdf_new_name(key), text)


def _appearance(obj: Any) -> Any:
    """The annotation's normal appearance stream."""
    stream = _mupdf.pdf_dict_getp(obj, "AP/N")
    if not _mupdf.pdf_is_stream(stream):
        raise EngineError("The annotation's appearance could not be created.")
    return stream


def _parse_default_appearance(da: str | None) -> tuple[float, Rgb | None, str]:
    """Font size, colour and base-14 font of a /DA string like "/Helv 12 Tf 0 g"."""
    size, colour, font = DEFAULT_FONT_SIZE, None, "Helv"
    if not da:
        return size, colour, font
    if found := regex.search(r"/([^\s/]+)\s+([\d.]+)\s+Tf", da):
        name = found[1].lower()
        font = next((v for k, v in _BASE14.items() if name.startswith(k)), "Helv")
        size = float(found[2]) or DEFAULT_FONT_SIZE  # 0 means "fit", unsupported
    number = r"([\d.]+)\s+"
    if found := regex.search(number * 3 + r"rg\b", da):
        colour = _rgb(float(found[1]), float(found[2]), float(found[3]))
    elif found := regex.search(number * 4 + r"k\b", da):
        c, m, y, k = (float(found[i]) for i in range(1, 5))
        colour = _rgb((1 - c) * (1 - k), (1 - m) * (1 - k), (1 - y) * (1 - k))
    elif found := regex.search(number + r"g\b", da):
        colour = _rgb(*[float(found[1])] * 3)
    return size, colour, font


def _rgb(r: float, g: float, b: float) -> Rgb:
    def channel(value: float) -> int:
        return round(min(max(value, 0.0), 1.0) * 255)

    return Rgb(channel(r), channel(g), channel(b))


class _TextOf(html.parser.HTMLParser):
    """The plain text of an XHTML fragment, paragraphs and breaks as new lines."""

    _BREAKS = frozenset({"p", "div", "br", "li", "h1", "h2", "h3", "h4", "h5", "h6"})

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag.rsplit(":", 1)[-1] in self._BREAKS and self.parts:
            self.parts.append("\n")

    def handle_data(self, data: str) -> None:
        self.parts.append(data)


def _plain_text(xhtml: str) -> str:
    parser = _TextOf()
    parser.feed(xhtml)
    parser.close()
    lines = ("".join(parser.parts)).split("\n")
    return "\n".join(regex.sub(r"\s+", " ", line).strip() for line in lines).strip()
