"""Scrubbing, in MuPDF, of what only MuPDF can redraw: fields and annotations.

A form field or an annotation that shows a removed word in its appearance is
redrawn from its scrubbed text (MuPDF writes a new appearance stream), before
a burn turns appearances into page content; one MuPDF cannot redraw goes.
Every other copy of the words (metadata, outline, names, scripts...) is left to
`sweep`, which reads the written file whole.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

import pymupdf
import regex

from documents.pdf.redact.marked_content import stream_text
from documents.pdf.redact.words import Removed, scrub_text, words_pattern

_mupdf = pymupdf.mupdf
# Annotation kinds whose appearance MuPDF draws from their dictionary.
_REDRAWN = frozenset(
    getattr(_mupdf, f"PDF_ANNOT_{kind}")
    for kind in (
        "TEXT", "FREE_TEXT", "LINE", "SQUARE", "CIRCLE", "POLYGON", "POLY_LINE",
        "HIGHLIGHT", "UNDERLINE", "SQUIGGLY", "STRIKE_OUT", "INK", "CARET",
        "FILE_ATTACHMENT",
    )
)  # fmt: skip
_TEXT_KEYS = ("Contents", "T", "Subj")


def scrub_document(doc: pymupdf.Document, removed: Iterable[Removed | str]) -> None:
    """Redraw (or delete) every field and annotation that shows a removed word.

    Field values containing a word are cleared entirely (what is left of a
    partly scrubbed value still says something); choice options naming one go.
    Words match as `words_pattern` makes them.
    """
    pattern = words_pattern(removed)
    if pattern is None:
        return
    for number in range(doc.page_count):
        if doc.xref_get_key(doc.page_xref(number), "Annots")[0] == "null":
            continue  # loading a page costs more than this look
        page = doc[number]
        _scrub_widgets(page, pattern)
        _scrub_annotations(page, pattern)
    _clear_field_values(doc, pattern)


def _scrub_widgets(page: pymupdf.Page, pattern: regex.Pattern[str]) -> None:
    doomed = []
    for widget in page.widgets():
        try:
            if _scrub_widget(page.parent, widget, pattern):
                widget.update()
        except (RuntimeError, ValueError):
            doomed.append(widget)
    for widget in doomed:
        page.delete_widget(widget)


def _scrub_widget(
    doc: pymupdf.Document, widget: pymupdf.Widget, pattern: regex.Pattern[str]
) -> bool:
    """Scrub one widget's value, options and rich value; whether to redraw it."""
    changed = False
    kind, rich = doc.xref_get_key(widget.xref, "RV")
    if kind == "string" and scrub_text(rich, pattern) is not None:
        doc.xref_set_key(widget.xref, "RV", "null")
        changed = True
    options = widget.choice_values
    if options:
        kept = [o for o in options if not _names_word(o, pattern)]
        if len(kept) != len(options):
            widget.choice_values = kept
            changed = True
    value = widget.field_value
    if isinstance(value, str) and scrub_text(value, pattern) is not None:
        # PyMuPDF ignores an empty value; a blank one rebuilds the appearance.
        widget.field_value = " "
        changed = True
    return changed or _appearance_shows(doc, widget.xref, pattern)


def _names_word(option: Any, pattern: regex.Pattern[str]) -> bool:
    texts = option if isinstance(option, list | tuple) else [option]
    return any(
        isinstance(text, str) and scrub_text(text, pattern) is not None
        for text in texts
    )


def _scrub_annotations(page: pymupdf.Page, pattern: regex.Pattern[str]) -> None:
    """Redraw the annotations whose appearance shows a word; delete those MuPDF
    cannot redraw, or that still show it."""
    doc = page.parent
    pdf_page = _mupdf.pdf_page_from_fz_page(page.this)
    doomed = []
    for annot in _listed(pdf_page):
        xref = _mupdf.pdf_to_num(_mupdf.pdf_annot_obj(annot))
        if not _appearance_shows(doc, xref, pattern):
            continue
        if _mupdf.pdf_annot_type(annot) in _REDRAWN:
            _scrub_texts(doc, xref, pattern)
            try:
                page.load_annot(xref).update()
            except (RuntimeError, ValueError):
                pass  # judged below by what it shows
            if not _appearance_shows(doc, xref, pattern):
                continue
        doomed.append(annot)
    for annot in doomed:
        _mupdf.pdf_delete_annot(pdf_page, annot)


def _listed(pdf_page: Any) -> Iterator[Any]:
    annot = _mupdf.pdf_first_annot(pdf_page)
    while annot.m_internal:
        yield annot
        annot = _mupdf.pdf_next_annot(annot)


def _scrub_texts(doc: pymupdf.Document, xref: int, pattern: regex.Pattern[str]) -> None:
    for key in _TEXT_KEYS:
        kind, text = doc.xref_get_key(xref, key)
        if kind == "string" and (new := scrub_text(text, pattern)) is not None:
            doc.xref_set_key(xref, key, pymupdf.get_pdf_str(new))
    kind, rich = doc.xref_get_key(xref, "RC")
    if kind == "string" and scrub_text(rich, pattern) is not None:
        doc.xref_set_key(xref, "RC", "null")  # MuPDF then draws /Contents


def _appearance_shows(
    doc: pymupdf.Document, xref: int, pattern: regex.Pattern[str]
) -> bool:
    """Whether an appearance stream of the annotation `xref` shows a word."""
    for key in ("AP/N", "AP/D", "AP/R"):
        kind, value = doc.xref_get_key(xref, key)
        if kind == "xref":
            streams = [int(value.split()[0])]
        elif kind == "dict":
            streams = [int(n) for n in regex.findall(r"(\d+) 0 R", value)]
        else:
            continue
        for stream in streams:
            data = doc.xref_stream(stream) if doc.xref_is_stream(stream) else None
            if data and pattern.search(stream_text(data)):
                return True
    return False


def _clear_field_values(doc: pymupdf.Document, pattern: regex.Pattern[str]) -> None:
    """/V and /DV strings of every field, widgets on no page included."""
    for field in _fields(doc):
        for key in ("V", "DV"):
            kind, value = doc.xref_get_key(field, key)
            if kind == "string" and (
                value.isspace() or scrub_text(value, pattern) is not None
            ):
                doc.xref_set_key(field, key, "()")


def _fields(doc: pymupdf.Document) -> Iterator[int]:
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
