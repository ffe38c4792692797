"""Scrubbing of the redacted words from the document's other copies of its text.

Metadata, bookmarks, form fields and alternate texts of objects: what a reader or
an extraction tool shows besides the page content.
"""

from __future__ import annotations

import html
from collections.abc import Iterable, Iterator

import pymupdf
import regex

from documents.pdf.redact.words import scrub_text, words_pattern

_PLACEHOLDER_TITLE = "[redacted]"


def scrub_document(doc: pymupdf.Document, removed: Iterable[str]) -> None:
    """Remove the redacted words from the document's other copies of its text.

    Scrubs the Info dictionary (Title, Subject, Keywords, Author and any other
    string entry), the XMP metadata, outline (bookmark) titles, form field values
    and the alternate texts (/ActualText, /Alt, /E) of indirect objects such as
    structure elements. Words match case-insensitively (full Unicode case
    folding, after NFKC) and as whole words, except in scripts written without
    spaces. A bookmark whose title becomes empty is titled "[redacted]"; a field
    value that contains a word is cleared entirely.
    """
    pattern = words_pattern(removed)
    if pattern is None:
        return
    _scrub_info(doc, pattern)
    _scrub_xmp(doc, pattern)
    _scrub_outline(doc, pattern)
    _scrub_fields(doc, pattern)
    _scrub_alternate_texts(doc, pattern)


def _scrub_info(doc: pymupdf.Document, pattern: regex.Pattern[str]) -> None:
    kind, value = doc.xref_get_key(-1, "Info")
    if kind == "xref":
        info = int(value.split()[0])
        for key in doc.xref_get_keys(info):
            kind, text = doc.xref_get_key(info, key)
            if kind == "string" and (new := scrub_text(text, pattern)) is not None:
                doc.xref_set_key(info, key, pymupdf.get_pdf_str(new))
    elif kind == "dict":
        metadata = dict(doc.metadata or {})
        changed = {k: scrub_text(v, pattern) for k, v in metadata.items() if v}
        doc.set_metadata(
            {**metadata, **{k: v for k, v in changed.items() if v is not None}}
        )


def _scrub_xmp(doc: pymupdf.Document, pattern: regex.Pattern[str]) -> None:
    xml = doc.get_xml_metadata()
    if not xml:
        return

    def text_node(match: regex.Match[str]) -> str:
        new = scrub_text(html.unescape(match[1]), pattern)
        return match[0] if new is None else f">{html.escape(new, quote=False)}<"

    def attribute(match: regex.Match[str]) -> str:
        new = scrub_text(html.unescape(match[3]), pattern)
        if new is None:
            return match[0]
        return f"{match[1]}{match[2]}{html.escape(new)}{match[2]}"

    scrubbed = regex.sub(r">([^<]+)<", text_node, xml)
    scrubbed = regex.sub(r"""(\s[\w:.-]+\s*=\s*)(["'])(.*?)\2""", attribute, scrubbed)
    if scrubbed != xml:
        doc.set_xml_metadata(scrubbed)


def _scrub_outline(doc: pymupdf.Document, pattern: regex.Pattern[str]) -> None:
    for item in _outline_items(doc):
        kind, title = doc.xref_get_key(item, "Title")
        if kind == "string" and (new := scrub_text(title, pattern)) is not None:
            doc.xref_set_key(
                item, "Title", pymupdf.get_pdf_str(new or _PLACEHOLDER_TITLE)
            )


def _outline_items(doc: pymupdf.Document) -> Iterator[int]:
    root = _ref(doc, doc.pdf_catalog(), "Outlines")
    pending = [_ref(doc, root, "First")] if root else []
    seen: set[int] = set()
    while pending:
        item = pending.pop()
        if not item or item in seen:
            continue
        seen.add(item)
        yield item
        pending.extend((_ref(doc, item, "Next"), _ref(doc, item, "First")))


def _ref(doc: pymupdf.Document, xref: int, key: str) -> int:
    kind, value = doc.xref_get_key(xref, key)
    return int(value.split()[0]) if kind == "xref" else 0


def _scrub_fields(doc: pymupdf.Document, pattern: regex.Pattern[str]) -> None:
    # The value is cleared, not edited: what is left of a partly scrubbed value
    # still says something about what was redacted.
    for page in doc:
        doomed = []
        for widget in page.widgets():
            value = widget.field_value
            if not isinstance(value, str) or scrub_text(value, pattern) is None:
                continue
            try:
                # PyMuPDF ignores an empty value; a blank one rebuilds the
                # appearance stream, which still shows the old text otherwise.
                widget.field_value = " "
                widget.update()
            except (RuntimeError, ValueError):
                doomed.append(widget)
        for widget in doomed:
            page.delete_widget(widget)
    for field in _fields(doc):
        for key in ("V", "DV"):
            kind, value = doc.xref_get_key(field, key)
            if kind == "string" and (
                value.isspace() or scrub_text(value, pattern) is not None
            ):
                doc.xref_set_key(field, key, "()")


def _fields(doc: pymupdf.Document) -> Iterator[int]:
    form = doc.xref_get_key(doc.pdf_catalog(), "AcroForm")
    if form[0] == "null":
        return
    kind, value = doc.xref_get_key(doc.pdf_catalog(), "AcroForm/Fields")
    pending = _refs(value) if kind == "array" else []
    seen: set[int] = set()
    while pending:
        field = pending.pop()
        if field in seen:
            continue
        seen.add(field)
        yield field
        kind, kids = doc.xref_get_key(field, "Kids")
        if kind == "array":
            pending.extend(_refs(kids))


def _refs(array: str) -> list[int]:
    return [int(number) for number in regex.findall(r"(\d+)\s+\d+\s+R", array)]


_ALTERNATE_KEYS = ("ActualText", "Alt", "E")


def _scrub_alternate_texts(doc: pymupdf.Document, pattern: regex.Pattern[str]) -> None:
    for xref in range(1, doc.xref_length()):
        try:
            if doc.xref_is_stream(xref):
                continue
            source = doc.xref_object(xref, compressed=True)
        except RuntimeError:  # a free or broken entry of the xref table
            continue
        if not any(f"/{key}" in source for key in _ALTERNATE_KEYS):
            continue
        for key in _ALTERNATE_KEYS:
            kind, text = doc.xref_get_key(xref, key)
            if kind == "string" and scrub_text(text, pattern) is not None:
                # Deleted, not emptied: readers then fall back to the glyphs.
                doc.xref_set_key(xref, key, "null")
