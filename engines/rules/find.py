"""Every match of a set of rules in one PDF: its pages' text (the text layer,
the OCR layer of scans, what annotations and fields draw), its form values,
its annotations' texts, its metadata and outline.

Pages count from 0; boxes are displayed-page space (points, top-left origin).
The document is read through the text engine's cache (`engines.pdf.text`),
under its lock; nothing is written.
"""

from __future__ import annotations

import html
import time
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import pymupdf
import regex

from engines.errors import SearchError
from engines.pdf import geometry
from engines.pdf.redact.words import word_char
from engines.pdf.text.cache import load_page, mupdf_lock, open_document, page_text
from engines.pdf.text.folding import Folded
from engines.pdf.text.results import results_for_span
from engines.pdf.types import Box
from engines.rules.attached import attached_texts
from engines.rules.readings import JOINT, Readings
from engines.rules.spans import compile_rule, spans
from engines.rules.types import (
    Match,
    OutOfTime,
    Rule,
    RuleError,
    TooManyMatches,
    match_id,
)

_TAGS = regex.compile(r"<[^<>]*>")
_METADATA_KEYS = ("title", "author", "subject", "keywords", "creator", "producer")


@dataclass(frozen=True, slots=True)
class _Field:
    name: str
    value: str
    box: Box


def find_matches(
    path: str,
    rules: Sequence[Rule],
    *,
    document_key: str,
    pages: Iterable[int] | None = None,
    timeout: float = 1.0,
    limit: int | None = None,
    attachments: bool = False,
    deadline: float | None = None,
) -> list[Match]:
    """The matches of `rules` in the PDF at `path`: on `pages` (0-based; all
    when None), then in the document's own strings, and in its attached
    files when `attachments` (an order that keeps them). Ids are made with
    `document_key` (the document's id). In page order, rule by rule.

    Raises `SearchError` for a bad rule, `RuleError` (naming the rule) for a
    pattern slower than `timeout` seconds on one text, `TooManyMatches` past
    `limit` matches, `OutOfTime` past `deadline` (`time.monotonic()`), and
    the text engine's errors for a bad file."""
    compiled = [compile_rule(rule) for rule in rules]
    with mupdf_lock:
        count = open_document(path).page_count
    chosen = range(count) if pages is None else sorted(set(pages))
    found: list[Match] = []
    for number in chosen:
        found += _page_matches(path, number, rules, compiled, document_key, timeout)
        _within(found, limit)
        if deadline is not None and time.monotonic() > deadline:
            raise OutOfTime(f"the rules were still searching page {number + 1}")
    found += _document_matches(
        path, rules, compiled, document_key, timeout, attachments
    )
    _within(found, limit)
    return found


def _page_matches(
    path: str,
    number: int,
    rules: Sequence[Rule],
    compiled: Sequence[regex.Pattern[str] | str],
    key: str,
    timeout: float,
) -> list[Match]:
    text = page_text(path, number)
    fields, notes = _widgets_and_notes(path, number)
    readings = Readings(text)
    found: list[Match] = []
    for index, (rule, pattern) in enumerate(zip(rules, compiled, strict=True)):
        field_hits = []
        for field in fields:
            for start, end in _spans(
                index, rule, pattern, field.value, timeout=timeout
            ):
                place = f"field {field.name}"
                field_hits.append(field.box)
                found.append(
                    _match(key, rule, index, "field", number, (field.box,),
                           field.value, start, end, place)
                )  # fmt: skip
        seen: set[tuple[Box, ...]] = set()
        for source, folded, across in readings.of(rule):
            for start, end in _spans(
                index, rule, pattern, source, folded, timeout=timeout
            ):
                if across and JOINT not in source[start:end]:
                    continue  # found in the page's text as written already
                boxes = tuple(r.position for r in results_for_span(text, start, end))
                # A line read two ways (a lying font) gives the same match
                # twice; a field whose value matched goes whole, its drawing
                # with it.
                if not boxes or boxes in seen or _inside_any(boxes, field_hits):
                    continue
                seen.add(boxes)
                found.append(
                    _match(key, rule, index, "page", number, boxes, source,
                           start, end, "page text")
                )  # fmt: skip
        for place, box, value in notes:
            for start, end in _spans(index, rule, pattern, value, timeout=timeout):
                found.append(
                    _match(key, rule, index, "annotation", number, (box,),
                           value, start, end, place)
                )  # fmt: skip
    return found


def _within(found: Sequence[Match], limit: int | None) -> None:
    """`TooManyMatches`, naming the rule that matched most, past `limit`."""
    if limit is not None and len(found) > limit:
        counts = Counter(match.rule for match in found)
        rule = max(counts, key=lambda n: (counts[n], -n))
        raise TooManyMatches(
            rule, f"more than {limit} matches in all; narrow this rule"
        )


def _spans(
    index: int,
    rule: Rule,
    pattern: regex.Pattern[str] | str,
    text: str,
    folded: Folded | None = None,
    *,
    timeout: float,
) -> list[tuple[int, int]]:
    """`spans`, its time limit's error naming the rule by its number."""
    try:
        return spans(rule, pattern, text, folded, timeout=timeout)
    except SearchError as exc:
        raise RuleError(index, str(exc)) from exc


def _match(
    key: str,
    rule: Rule,
    index: int,
    target: str,
    page: int | None,
    boxes: tuple[Box, ...],
    source: str,
    start: int,
    end: int,
    place: str,
) -> Match:
    return Match(
        id=match_id(key, rule, target, page, place, start),
        rule=index,
        target=target,
        page=page,
        boxes=boxes,
        text=source[start:end].replace(JOINT, ""),
        offset=start,
        place=place,
        starts_word=start == 0 or not word_char(source[start - 1]),
        ends_word=end == len(source) or not word_char(source[end]),
    )


def _inside_any(boxes: Sequence[Box], holders: Sequence[Box]) -> bool:
    """Every box's centre lies in one of `holders`."""
    return bool(holders) and all(
        any(
            h.x <= b.x + b.w / 2 <= h.x + h.w and h.y <= b.y + b.h / 2 <= h.y + h.h
            for h in holders
        )
        for b in boxes
    )


def _widgets_and_notes(
    path: str, number: int
) -> tuple[list[_Field], list[tuple[str, Box, str]]]:
    """The page's form fields (text values and chosen options) and the texts
    of its annotations (contents, rich text, subject, author), with their
    boxes in displayed space."""
    fields: list[_Field] = []
    notes: list[tuple[str, Box, str]] = []
    with mupdf_lock:
        doc = open_document(path)
        if doc.xref_get_key(doc.page_xref(number), "Annots")[0] == "null":
            return fields, notes
        page = load_page(doc, number)
        for widget in page.widgets():
            box = geometry.rect_to_box(
                geometry.page_rect_to_display(page, pymupdf.Rect(widget.rect))
            )
            value = widget.field_value
            values = value if isinstance(value, list) else [value]
            for item in values:
                if isinstance(item, str) and item.strip():
                    fields.append(_Field(widget.field_name or "", item, box))
            notes += _shown_on_demand(widget, box, values)
        for annot in page.annots():
            box = geometry.rect_to_box(
                geometry.page_rect_to_display(page, pymupdf.Rect(annot.rect))
            )
            kind = annot.type[1]
            info = annot.info
            for wire, key in (("content", "/Contents"), ("subject", "/Subj"),
                              ("title", "/T")):  # fmt: skip
                if info.get(wire):
                    notes.append((f"annotation {kind} {key}", box, info[wire]))
            form, rich = doc.xref_get_key(annot.xref, "RC")
            if form == "string" and rich.strip():
                plain = html.unescape(_TAGS.sub(" ", rich))
                notes.append((f"annotation {kind} /RC", box, plain))
        for link in page.get_links():
            if link.get("uri"):
                box = geometry.rect_to_box(
                    geometry.page_rect_to_display(page, pymupdf.Rect(link["from"]))
                )
                notes.append(("annotation Link /URI", box, link["uri"]))
    return fields, notes


def _shown_on_demand(
    widget: pymupdf.Widget, box: Box, values: list[Any]
) -> list[tuple[str, Box, str]]:
    """What a viewer shows of a field only when asked: its tooltip, and the
    options of a choice it does not hold (an option may be an export value
    and a display text)."""
    name = widget.field_name or ""
    texts = [(f"field {name} /TU", widget.field_label or "")]
    for option in widget.choice_values or ():
        for text in option if isinstance(option, (list, tuple)) else (option,):
            if text not in values:
                texts.append((f"field {name} /Opt", str(text)))
    return [(place, box, text) for place, text in texts if text.strip()]


def _document_matches(
    path: str,
    rules: Sequence[Rule],
    compiled: Sequence[regex.Pattern[str] | str],
    key: str,
    timeout: float,
    attachments: bool,
) -> list[Match]:
    """Matches in the metadata (information dictionary, XMP) and the outline:
    what an Office document's properties become in its PDF rendition; and in
    the attached files when asked."""
    with mupdf_lock:
        doc = open_document(path)
        texts = [
            (f"metadata /{name.capitalize()}", value)
            for name in _METADATA_KEYS
            if (value := (doc.metadata or {}).get(name))
        ]
        xmp = doc.get_xml_metadata()
        if xmp.strip():
            texts.append(("XMP", html.unescape(_TAGS.sub(" ", xmp))))
        texts += [
            (f"outline item {n}", str(item[1]))
            for n, item in enumerate(doc.get_toc(simple=True))
        ]
        if attachments:
            texts += attached_texts(doc)
    found = []
    for index, (rule, pattern) in enumerate(zip(rules, compiled, strict=True)):
        for place, value in texts:
            for start, end in _spans(index, rule, pattern, value, timeout=timeout):
                found.append(
                    _match(key, rule, index, "document", None, (), value,
                           start, end, place)
                )  # fmt: skip
    return found
