"""XFDF (ISO 19444-1) of annotations: written from FDF (and so from a PDF's
annotations); `xfdf_read` reads it back into FDF.

The annotations of a PDF go to XFDF through their FDF export (`fdf.export_fdf`),
so both formats carry the same annotations. An FDF is read with pyHanko's PDF
object reader (qpdf, behind pikepdf, insists on a page tree that an FDF has not).
Geometry stays in PDF user space, as both formats define it: `rect` and
`coords` are PDF points from the bottom-left corner of the unrotated page;
`page` counts from 0.
"""

from __future__ import annotations

import io
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from decimal import Decimal
from typing import TYPE_CHECKING

from engines.errors import EngineError
from engines.pdf.fdf import export_fdf

if TYPE_CHECKING:
    from pyhanko.pdf_utils import generic

# pyHanko is imported where an FDF is read, not here: with its dependencies it is
# ~18 MB that every web process would carry for a rarely used format.

XFDF_NS = "http://ns.adobe.com/xfdf/"
XHTML_NS = "http://www.w3.org/1999/xhtml"
MAX_ANNOTATIONS = 100_000

# Annotation flags (ISO 32000 table 165), bit 1 first, by their XFDF names.
FLAGS = (
    "invisible",
    "hidden",
    "print",
    "nozoom",
    "norotate",
    "noview",
    "readonly",
    "locked",
    "togglenoview",
    "lockedcontents",
)
# XFDF element names are the PDF subtypes in lower case, except these.
_ELEMENT_OF_SUBTYPE = {"FileAttachment": "fileattachment", "FreeText": "freetext"}
SUBTYPE_OF_ELEMENT = {
    "text": "Text",
    "link": "Link",
    "freetext": "FreeText",
    "line": "Line",
    "square": "Square",
    "circle": "Circle",
    "polygon": "Polygon",
    "polyline": "PolyLine",
    "highlight": "Highlight",
    "underline": "Underline",
    "squiggly": "Squiggly",
    "strikeout": "StrikeOut",
    "stamp": "Stamp",
    "caret": "Caret",
    "ink": "Ink",
    "fileattachment": "FileAttachment",
    "sound": "Sound",
    "redact": "Redact",
}
BORDER_STYLES = {
    "S": "solid",
    "D": "dash",
    "B": "bevelled",
    "I": "inset",
    "U": "underline",
}
# Plain attributes: PDF key → XFDF attribute, copied as text.
TEXT_KEYS = {
    "/NM": "name",
    "/T": "title",
    "/Subj": "subject",
    "/M": "date",
    "/CreationDate": "creationdate",
    "/Name": "icon",
    "/IT": "intent",
    "/Q": "justification",
    "/OverlayText": "overlay-text",
}
NUMBER_KEYS = {"/CA": "opacity", "/Rotate": "rotation"}


@dataclass
class XAnnotation:
    """One annotation between the two formats: its XFDF element and attributes."""

    element: str
    page: int
    attrs: dict[str, str] = field(default_factory=dict)
    contents: str | None = None
    richtext: str | None = None  # the XHTML of /RC
    default_appearance: str | None = None
    vertices: str | None = None  # "x,y;x,y" (polygon, polyline)
    gestures: list[str] = field(default_factory=list)  # ink strokes, "x,y;x,y"


# --- FDF → XFDF -------------------------------------------------------------------


def pdf_to_xfdf(path: str, *, file_name: str | None = None) -> bytes:
    """The annotations of the PDF at `path` (links, popups and widgets aside)."""
    return fdf_to_xfdf(export_fdf(path, file_name=file_name))


def fdf_to_xfdf(data: bytes) -> bytes:
    """An FDF file's annotations and /F (the file they annotate) as XFDF."""
    from pyhanko.pdf_utils import generic

    root = _fdf_root(data)
    annots = root.get("/Annots") or generic.ArrayObject()
    items = [_from_pdf(a.get_object()) for a in list(annots)[:MAX_ANNOTATIONS]]
    target = _plain(root.get("/F"))
    return write_xfdf(
        [a for a in items if a is not None],
        file_name=target if isinstance(target, str) else None,
    )


def _fdf_root(data: bytes) -> generic.DictionaryObject:
    from pyhanko.pdf_utils import generic
    from pyhanko.pdf_utils.misc import PdfError
    from pyhanko.pdf_utils.reader import PdfFileReader

    if not data.startswith(b"%FDF-"):
        raise EngineError("the FDF does not start with %FDF-")
    # Same length header, so every offset of the xref stays right.
    as_pdf = b"%PDF-1.7" + data[8:] if data[5:8] in (b"1.2", b"1.3", b"1.4") else data
    try:
        reader = PdfFileReader(io.BytesIO(as_pdf), strict=False)
        fdf = reader.root.get("/FDF")
    except (PdfError, ValueError, KeyError, IndexError, TypeError) as exc:
        raise EngineError(f"the FDF cannot be read: {exc}") from exc
    if not isinstance(fdf, generic.DictionaryObject):
        raise EngineError("the FDF has no /FDF dictionary")
    return fdf


def _from_pdf(annot: object) -> XAnnotation | None:
    from pyhanko.pdf_utils import generic

    if not isinstance(annot, generic.DictionaryObject):
        return None
    subtype = str(annot.get("/Subtype", "")).lstrip("/")
    page = _plain(annot.get("/Page"))
    if not subtype or not isinstance(page, int | float):
        return None
    out = XAnnotation(
        element=_ELEMENT_OF_SUBTYPE.get(subtype, subtype.lower()), page=int(page)
    )
    attrs = out.attrs
    values = {str(k): _plain(v) for k, v in annot.items()}
    for key, name in TEXT_KEYS.items():
        if isinstance(values.get(key), str):
            attrs[name] = str(values[key]).lstrip("/")
    for key, name in NUMBER_KEYS.items():
        if isinstance(values.get(key), int | float):
            attrs[name] = _num(values[key])
    for key, name in (("/Rect", "rect"), ("/QuadPoints", "coords"), ("/RD", "fringe")):
        numbers = values.get(key)
        if isinstance(numbers, list):
            attrs[name] = ",".join(_num(v) for v in numbers)
    for key, name in (("/C", "color"), ("/IC", "interior-color")):
        colour = _hex_colour(values.get(key))
        if colour:
            attrs[name] = colour
    flags = values.get("/F")
    if isinstance(flags, int):
        attrs["flags"] = ",".join(
            name for bit, name in enumerate(FLAGS) if flags & (1 << bit)
        )
    border = values.get("/BS")
    if isinstance(border, dict):
        if isinstance(border.get("/W"), int | float):
            attrs["width"] = _num(border["/W"])
        style = str(border.get("/S", "")).lstrip("/")
        if style in BORDER_STYLES:
            attrs["style"] = BORDER_STYLES[style]
    line = values.get("/L")
    if isinstance(line, list) and len(line) == 4:
        attrs["start"] = f"{_num(line[0])},{_num(line[1])}"
        attrs["end"] = f"{_num(line[2])},{_num(line[3])}"
    ends = values.get("/LE")
    if isinstance(ends, list) and len(ends) == 2:
        attrs["head"], attrs["tail"] = (str(e).lstrip("/") for e in ends)
    vertices, ink = values.get("/Vertices"), values.get("/InkList")
    if isinstance(vertices, list):
        out.vertices = _pairs(vertices)
    if isinstance(ink, list):
        out.gestures = [_pairs(s) for s in ink if isinstance(s, list)]
    contents, rc, da = values.get("/Contents"), values.get("/RC"), values.get("/DA")
    if isinstance(contents, str):
        out.contents = contents
    if isinstance(rc, bytes):
        out.richtext = rc.decode("utf-8", "replace")
    elif isinstance(rc, str):
        out.richtext = rc
    if isinstance(da, str):
        out.default_appearance = da
    return out


def _plain(value: object, depth: int = 0) -> object:
    """pyHanko's generic objects as Python values (names keep their slash)."""
    from pyhanko.pdf_utils import generic

    if depth > 16:
        return None
    if isinstance(value, generic.IndirectObject):
        value = value.get_object()
    if isinstance(value, generic.StreamObject):
        return value.data
    if isinstance(value, generic.DictionaryObject):
        return {str(k): _plain(v, depth + 1) for k, v in value.items()}
    if isinstance(value, generic.ArrayObject):
        return [_plain(v, depth + 1) for v in value]
    if isinstance(value, generic.BooleanObject):
        return bool(value)
    if isinstance(value, generic.NumberObject):
        return int(value)
    if isinstance(value, generic.FloatObject):
        return float(value)
    if isinstance(value, generic.TextStringObject | generic.NameObject):
        return str(value)
    if isinstance(value, generic.ByteStringObject):
        return bytes(value).decode("latin-1")
    return None


def _num(value: object) -> str:
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return format(Decimal(str(round(value, 4))).normalize(), "f")
    return "0"


def _pairs(values: list[object]) -> str:
    numbers = [_num(v) for v in values]
    return ";".join(
        f"{x},{y}" for x, y in zip(numbers[::2], numbers[1::2], strict=False)
    )


def _hex_colour(value: object) -> str | None:
    if not isinstance(value, list) or len(value) != 3:
        return None
    try:
        channels = [max(0, min(255, round(float(str(c)) * 255))) for c in value]
    except (TypeError, ValueError):
        return None
    return "#" + "".join(f"{c:02X}" for c in channels)


def write_xfdf(
    annotations: list[XAnnotation], *, file_name: str | None = None
) -> bytes:
    """An XFDF document holding `annotations`, in order."""
    ET.register_namespace("", XFDF_NS)
    root = ET.Element(f"{{{XFDF_NS}}}xfdf", {"xml:space": "preserve"})
    annots = ET.SubElement(root, f"{{{XFDF_NS}}}annots")
    for item in annotations:
        attrs = {"page": str(item.page), **item.attrs}
        element = ET.SubElement(annots, f"{{{XFDF_NS}}}{item.element}", attrs)
        if item.contents is not None:
            ET.SubElement(element, f"{{{XFDF_NS}}}contents").text = item.contents
        if item.richtext:
            body = _xhtml(item.richtext)
            if body is not None:
                ET.SubElement(element, f"{{{XFDF_NS}}}contents-richtext").append(body)
        if item.default_appearance is not None:
            da = ET.SubElement(element, f"{{{XFDF_NS}}}defaultappearance")
            da.text = item.default_appearance
        if item.vertices is not None:
            ET.SubElement(element, f"{{{XFDF_NS}}}vertices").text = item.vertices
        if item.gestures:
            ink = ET.SubElement(element, f"{{{XFDF_NS}}}inklist")
            for gesture in item.gestures:
                ET.SubElement(ink, f"{{{XFDF_NS}}}gesture").text = gesture
    if file_name:
        ET.SubElement(root, f"{{{XFDF_NS}}}f", {"href": file_name})
    return b'<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, "utf-8")


def _xhtml(text: str) -> ET.Element | None:
    try:
        return parse_xml(text.encode("utf-8"))
    except EngineError:
        return None  # rich text that is not XML: the plain /Contents remains


def parse_xml(data: bytes) -> ET.Element:
    # No DTD, so no entity can expand (billion laughs) or reach outside (XXE).
    if b"<!DOCTYPE" in data or b"<!ENTITY" in data:
        raise EngineError("XFDF with a DTD or entities is not accepted")
    try:
        return ET.fromstring(data)
    except ET.ParseError as exc:
        raise EngineError(f"the XFDF is not well-formed XML: {exc}") from exc
