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

from engines.pdf.redact.marked_content import stream_text
from engines.pdf.redact.words import Removed, holds, scrub_text, words_pattern

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


def scrub_document(doc: pymupdf.Document, removed: Iterable[Removed | str]) -> int:
    """Redraw (or delete) every field and annotation that shows a removed word;
    answer how many fields and annotations were rewritten or deleted and field
    values cleared.

    Field values containing a word are cleared entirely (what is left of a
    partly scrubbed value still says something); choice options naming one go.
    Words match as `words_pattern` makes them.
    """
    pattern = words_pattern(removed)
    if pattern is None:
        return 0
    changed = 0
    for number in range(doc.page_count):
        if doc.xref_get_key(doc.page_xref(number), "Annots")[0] == "null":
            continue  # loading a page costs more than this look
        page = doc[number]
        changed += _scrub_widgets(page, pattern)
        changed += _scrub_annotations(page, pattern)
    return changed + _clear_field_values(doc, pattern)


def _scrub_widgets(page: pymupdf.Page, pattern: regex.Pattern[str]) -> int:
    doomed = []
    changed = 0
    for widget in page.widgets():
        try:
            if _scrub_widget(page.parent, widget, pattern):
                changed += 1
                widget.update()
        except (RuntimeError, ValueError):
            doomed.append(widget.xref)
    # A widget whose appearance still shows a word (a signature's layers,
    # a field MuPDF cannot redraw) goes.
    pdf_page = _mupdf.pdf_page_from_fz_page(page.this)
    for widget in _listed(pdf_page, widgets=True):
        xref = _mupdf.pdf_to_num(_mupdf.pdf_annot_obj(widget))
        if xref not in doomed and _shows(page.parent, widget, xref, pattern):
            doomed.append(xref)
    if not doomed:
        return changed
    for widget in list(page.widgets()):
        if widget.xref in doomed:
            page.delete_widget(widget)
    return changed + len(doomed)


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


def _scrub_annotations(page: pymupdf.Page, pattern: regex.Pattern[str]) -> int:
    """Redraw the annotations whose appearance shows a word; delete those MuPDF
    cannot redraw, or that still show it."""
    doc = page.parent
    pdf_page = _mupdf.pdf_page_from_fz_page(page.this)
    doomed = []
    redrawn = 0
    for annot in _listed(pdf_page):
        xref = _mupdf.pdf_to_num(_mupdf.pdf_annot_obj(annot))
        if not _shows(doc, annot, xref, pattern):
            continue
        if _mupdf.pdf_annot_type(annot) in _REDRAWN:
            _scrub_texts(doc, xref, pattern)
            try:
                page.load_annot(xref).update()
            except (RuntimeError, ValueError):
                pass  # judged below by what it shows
            if not _shows(doc, annot, xref, pattern):
                redrawn += 1
                continue
        doomed.append(annot)
    for annot in doomed:
        _mupdf.pdf_delete_annot(pdf_page, annot)
    return redrawn + len(doomed)


def _listed(pdf_page: Any, *, widgets: bool = False) -> Iterator[Any]:
    first, following = (
        (_mupdf.pdf_first_widget, _mupdf.pdf_next_widget)
        if widgets
        else (_mupdf.pdf_first_annot, _mupdf.pdf_next_annot)
    )
    annot = first(pdf_page)
    while annot.m_internal:
        yield annot
        annot = following(annot)


def _shows(
    doc: pymupdf.Document, annot: Any, xref: int, pattern: regex.Pattern[str]
) -> bool:
    """Whether the annotation shows a word: its strings (nested forms
    included), or the text MuPDF reads off its appearance (through its fonts,
    CID fonts included)."""
    if _appearance_shows(doc, xref, pattern):
        return True
    try:
        drawn = _mupdf.pdf_new_display_list_from_annot(annot)
        text = _mupdf.fz_new_buffer_from_display_list(drawn, _mupdf.FzStextOptions())
        return bool(pattern.search(text.fz_buffer_extract().decode("utf-8", "replace")))
    except RuntimeError:
        return False


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
    """Whether an appearance stream of the annotation `xref`, or a form it
    draws, shows a word in its strings."""
    pending: list[int] = []
    for key in ("AP/N", "AP/D", "AP/R", "MK/I", "MK/RI", "MK/IX"):
        kind, value = doc.xref_get_key(xref, key)
        if kind in ("xref", "dict"):
            pending += [int(n) for n in regex.findall(r"(\d+) 0 R", value)]
    seen: set[int] = set()
    while pending and len(seen) < 256:
        stream = pending.pop()
        if stream in seen or not doc.xref_is_stream(stream):
            continue
        seen.add(stream)
        data = doc.xref_stream(stream)
        if data and holds(stream_text(data), pattern):
            return True
        kind, value = doc.xref_get_key(stream, "Resources/XObject")
        if kind == "xref":
            kind, value = "dict", doc.xref_object(int(value.split()[0]))
        if kind == "dict":
            pending += [int(n) for n in regex.findall(r"(\d+) 0 R", value)]
    return False


def _clear_field_values(doc: pymupdf.Document, pattern: regex.Pattern[str]) -> int:
    """/V and /DV strings of every field, widgets on no page included."""
    cleared = 0
    for field in _fields(doc):
        for key in ("V", "DV"):
            kind, value = doc.xref_get_key(field, key)
            if kind == "string" and (
                value.isspace() or scrub_text(value, pattern) is not None
            ):
                doc.xref_set_key(field, key, "()")
                cleared += not value.isspace()
    return cleared


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
