"""FDF export of the annotations a PDF carries (the `pdf-fdf` format's companion)."""

from __future__ import annotations

from decimal import Decimal

import pikepdf

from engines.errors import EngineError

# Keys that point at other objects of the PDF (its pages, popups, parents, the
# appearance streams and their resources): an FDF stands alone, so a viewer
# rebuilds these from the annotation's own properties.
_DROPPED_KEYS = frozenset(
    {"/P", "/Popup", "/Parent", "/IRT", "/AP", "/AS", "/StructParent", "/OC"}
)
_SKIPPED_SUBTYPES = frozenset({"/Link", "/Popup", "/Widget"})
_MAX_DEPTH = 16  # annotation values are shallow; deeper means a reference cycle


def export_fdf(pdf_path: str, *, file_name: str | None = None) -> bytes:
    """The annotations of the PDF at `pdf_path` as an FDF 1.2 file.

    Every markup annotation is included (links, popups and form widgets are not),
    with `/Page` = its 0-based page index and its own keys, appearance streams
    left out. `file_name`, when given, becomes the FDF's `/F` (the PDF it
    annotates).
    """
    try:
        pdf = pikepdf.open(pdf_path)
    except (pikepdf.PdfError, OSError) as exc:
        raise EngineError(f"The annotated document cannot be read: {exc}") from exc
    with pdf:
        annotations = [
            _annotation(annot, index)
            for index, page in enumerate(pdf.pages)
            for annot in _page_annotations(page)
        ]
    return _fdf_file(annotations, file_name)


def _page_annotations(page: pikepdf.Page) -> list[pikepdf.Dictionary]:
    annots = page.obj.get("/Annots")
    if not isinstance(annots, pikepdf.Array):
        return []
    return [
        annot
        for annot in annots
        if isinstance(annot, pikepdf.Dictionary)
        and str(annot.get("/Subtype", "")) not in _SKIPPED_SUBTYPES
    ]


def _annotation(annot: pikepdf.Dictionary, page: int) -> bytes:
    entries = [b"/Page " + str(page).encode()]
    for key in sorted(annot.keys()):
        if key in _DROPPED_KEYS or key == "/Page":
            continue
        value = _value(annot[key], 0)
        if value is not None:
            entries.append(_name(key) + b" " + value)
    return b"<<" + b" ".join(entries) + b">>"


def _value(obj: object, depth: int) -> bytes | None:
    """PDF syntax for a direct copy of `obj`; None for what cannot stand alone."""
    if depth > _MAX_DEPTH:
        return None
    if isinstance(obj, pikepdf.Stream):
        # Only rich text (/RC) may be a stream in an annotation; carry its text.
        return _string(obj.read_bytes())
    if isinstance(obj, pikepdf.Dictionary):
        items = (
            (_name(key), _value(obj[key], depth + 1))
            for key in sorted(obj.keys())
            if key not in _DROPPED_KEYS
        )
        return (
            b"<<" + b" ".join(k + b" " + v for k, v in items if v is not None) + b">>"
        )
    if isinstance(obj, pikepdf.Array):
        values = [_value(item, depth + 1) for item in obj]
        return b"[" + b" ".join(v for v in values if v is not None) + b"]"
    if isinstance(obj, pikepdf.Name):
        return _name(str(obj))
    if isinstance(obj, pikepdf.String):
        return _string(bytes(obj))
    if isinstance(obj, bool):
        return b"true" if obj else b"false"
    if isinstance(obj, int):
        return str(obj).encode()
    if isinstance(obj, Decimal | float):
        return format(Decimal(str(obj)).normalize(), "f").encode()
    if obj is None:
        return b"null"
    return None


def _name(name: str) -> bytes:
    return pikepdf.Name(name).unparse()


def _string(data: bytes) -> bytes:
    # Hex strings need no escaping and keep UTF-16 text byte for byte.
    return b"<" + data.hex().encode() + b">"


def _fdf_file(annotations: list[bytes], file_name: str | None) -> bytes:
    refs = " ".join(f"{number} 0 R" for number in range(2, len(annotations) + 2))
    fdf = b"<</Annots [" + refs.encode() + b"]"
    if file_name:
        fdf += b" /F " + _string(file_name.encode("utf-8"))
    bodies = [b"<</FDF " + fdf + b">>>>", *annotations]
    out = bytearray(b"%FDF-1.2\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for number, body in enumerate(bodies, start=1):
        offsets.append(len(out))
        out += f"{number} 0 obj\n".encode() + body + b"\nendobj\n"
    xref_at = len(out)
    out += f"xref\n0 {len(bodies) + 1}\n0000000000 65535 f \n".encode()
    out += b"".join(f"{offset:010d} 00000 n \n".encode() for offset in offsets)
    out += f"trailer\n<</Root 1 0 R /Size {len(bodies) + 1}>>\n".encode()
    out += f"startxref\n{xref_at}\n%%EOF\n".encode()
    return bytes(out)


def fdf_file(
    annotations: list[pikepdf.Dictionary], *, file_name: str | None = None
) -> bytes:
    """An FDF 1.2 file of annotation dictionaries given directly (each with its
    0-based `/Page`), e.g. read from XFDF; values are written as direct objects."""
    bodies = []
    for annot in annotations:
        page = int(annot.get("/Page", 0))
        entries = [b"/Page " + str(page).encode()]
        for key in sorted(annot.keys()):
            if key == "/Page":
                continue
            value = _value(annot[key], 0)
            if value is not None:
                entries.append(_name(key) + b" " + value)
        bodies.append(b"<<" + b" ".join(entries) + b">>")
    return _fdf_file(bodies, file_name)
