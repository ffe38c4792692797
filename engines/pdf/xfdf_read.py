"""XFDF read back: an XFDF document's annotations, and the FDF file holding them.

The same element and attribute names as `xfdf` writes (geometry in PDF space,
pages from 0); an XFDF with a DTD is refused, so no entity can expand.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pikepdf

from engines.errors import EngineError
from engines.pdf.fdf import fdf_file
from engines.pdf.xfdf import (
    BORDER_STYLES,
    FLAGS,
    MAX_ANNOTATIONS,
    NUMBER_KEYS,
    SUBTYPE_OF_ELEMENT,
    TEXT_KEYS,
    XAnnotation,
    parse_xml,
)


def xfdf_to_fdf(data: bytes) -> bytes:
    """An XFDF document's annotations (and its <f href>) as an FDF file."""
    annotations, file_name = read_xfdf(data)
    return fdf_file([_to_pdf(a) for a in annotations], file_name=file_name)


def read_xfdf(data: bytes) -> tuple[list[XAnnotation], str | None]:
    """The annotations of an XFDF document and the file it names (<f href>)."""
    root = parse_xml(data)
    if _local(root.tag) != "xfdf":
        raise EngineError(f"the root element is <{_local(root.tag)}>, not <xfdf>")
    found: list[XAnnotation] = []
    file_name = None
    for child in root:
        if _local(child.tag) == "f":
            file_name = child.get("href")
        if _local(child.tag) != "annots":
            continue
        for element in list(child)[:MAX_ANNOTATIONS]:
            found.append(_from_element(element))
    return found, file_name


def _local(tag: str) -> str:
    return tag.rpartition("}")[2]


def _from_element(element: ET.Element) -> XAnnotation:
    name = _local(element.tag)
    if name not in SUBTYPE_OF_ELEMENT:
        raise EngineError(f"<{name}> is not an XFDF annotation")
    page = element.get("page", "")
    if not page.isdigit():
        raise EngineError(f"<{name}> needs a page attribute counted from 0")
    out = XAnnotation(
        element=name,
        page=int(page),
        attrs={k: v for k, v in element.attrib.items() if k != "page"},
    )
    for child in element:
        local = _local(child.tag)
        if local == "contents":
            out.contents = child.text or ""
        elif local == "contents-richtext" and len(child):
            out.richtext = ET.tostring(child[0], "unicode")
        elif local == "defaultappearance":
            out.default_appearance = child.text or ""
        elif local == "vertices":
            out.vertices = child.text or ""
        elif local == "inklist":
            out.gestures = [g.text or "" for g in child if _local(g.tag) == "gesture"]
    return out


def _to_pdf(item: XAnnotation) -> pikepdf.Dictionary:
    """The FDF dictionary of an annotation (with /Page, as an FDF has it)."""
    attrs = item.attrs
    out = pikepdf.Dictionary(
        Type=pikepdf.Name.Annot,
        Subtype=pikepdf.Name("/" + SUBTYPE_OF_ELEMENT[item.element]),
        Page=item.page,
        Rect=pikepdf.Array(_numbers(attrs.get("rect", "0,0,0,0"), 4)),
    )
    for key, name in TEXT_KEYS.items():
        if name in attrs:
            is_name = key in ("/Name", "/IT")
            out[key] = (
                pikepdf.Name("/" + attrs[name])
                if is_name
                else pikepdf.String(attrs[name])
            )
    for key, name in NUMBER_KEYS.items():
        if name in attrs:
            out[key] = _numbers(attrs[name], 1)[0]
    for key, name in (("/QuadPoints", "coords"), ("/RD", "fringe")):
        if name in attrs:
            out[key] = pikepdf.Array(_numbers(attrs[name]))
    for key, name in (("/C", "color"), ("/IC", "interior-color")):
        if attrs.get(name):
            out[key] = pikepdf.Array(_unit_colour(attrs[name]))
    if "flags" in attrs:
        words = {w.strip().lower() for w in attrs["flags"].split(",")}
        out.F = sum(1 << bit for bit, flag in enumerate(FLAGS) if flag in words)
    if "width" in attrs or "style" in attrs:
        out.BS = pikepdf.Dictionary(W=_numbers(attrs.get("width", "1"), 1)[0])
        style = {v: k for k, v in BORDER_STYLES.items()}.get(attrs.get("style", ""))
        if style:
            out.BS.S = pikepdf.Name("/" + style)
    if "start" in attrs and "end" in attrs:
        out.L = pikepdf.Array(_numbers(attrs["start"], 2) + _numbers(attrs["end"], 2))
    if "head" in attrs or "tail" in attrs:
        out.LE = pikepdf.Array(
            [pikepdf.Name("/" + attrs.get(k, "None")) for k in ("head", "tail")]
        )
    if item.vertices is not None:
        out.Vertices = pikepdf.Array(_numbers(item.vertices.replace(";", ",")))
    if item.gestures:
        out.InkList = pikepdf.Array(
            [pikepdf.Array(_numbers(g.replace(";", ","))) for g in item.gestures]
        )
    if item.contents is not None:
        out.Contents = pikepdf.String(item.contents)
    if item.richtext:
        out.RC = pikepdf.String(item.richtext)
    if item.default_appearance is not None:
        out.DA = pikepdf.String(item.default_appearance)
    return out


def _numbers(text: str, count: int | None = None) -> list[float]:
    try:
        values = [float(v) for v in text.replace(" ", "").split(",") if v]
    except ValueError as exc:
        raise EngineError(f"{text!r} is not a list of numbers") from exc
    if count is not None and len(values) != count:
        raise EngineError(f"{text!r} should hold {count} numbers")
    return values


def _unit_colour(text: str) -> list[float]:
    hex_digits = text.lstrip("#")
    if len(hex_digits) != 6:
        raise EngineError(f"colour {text!r} is not #RRGGBB")
    try:
        return [round(int(hex_digits[i : i + 2], 16) / 255, 4) for i in (0, 2, 4)]
    except ValueError as exc:
        raise EngineError(f"colour {text!r} is not #RRGGBB") from exc
