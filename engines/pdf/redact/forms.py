"""Annotations and form fields of the written file, after redaction.

- A widget that is on no page (its page was not copied, or redaction deleted it)
  leaves the field tree, and a field left without widgets goes: an orphan
  still carries its value and an appearance showing it.
- Button states (radio export values) naming a removed word are renamed: they
  are PDF names, which no string scrubbing sees.
- A kept annotation whose appearance still shows a removed word is removed; a
  widget loses that appearance instead, and viewers are told to draw it again
  from its (scrubbed) value.

Pages are counted from 0.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

import pikepdf
import regex
from pikepdf import Array, Dictionary, Name, Stream

from engines.pdf.fieldtree import drop_orphan_widgets
from engines.pdf.redact.marked_content import stream_text
from engines.pdf.redact.words import scrub_text

_ANNOTS, _AP, _AS = Name("/Annots"), Name("/AP"), Name("/AS")
_KIDS, _FIELDS, _PARENT = Name("/Kids"), Name("/Fields"), Name("/Parent")
_SUBTYPE, _WIDGET, _POPUP = Name("/Subtype"), Name("/Widget"), Name("/Popup")
_ACROFORM = Name("/AcroForm")
_STATES = (Name("/N"), Name("/D"), Name("/R"))


def settle_forms(
    pdf: pikepdf.Pdf, pages: Sequence[pikepdf.Page], pattern: regex.Pattern[str]
) -> None:
    """See the module: orphans, button states, appearances showing a word."""
    drop_orphan_widgets(pdf, pages)
    form = pdf.Root.get(_ACROFORM)
    redrawn = False
    for page in pages:
        annots = page.obj.get(_ANNOTS)
        if not isinstance(annots, Array):
            continue
        kept = []
        for annot in annots:
            if not isinstance(annot, Dictionary):
                kept.append(annot)
                continue
            if annot.get(_SUBTYPE) == _WIDGET:
                _rename_states(annot, pattern)
            if _appearance_shows(annot, pattern):
                if annot.get(_SUBTYPE) != _WIDGET:
                    continue
                del annot[_AP]
                redrawn = True
            kept.append(annot)
        if len(kept) != len(annots):
            gone = {a.objgen for a in annots if a.is_indirect} - {
                a.objgen for a in kept if a.is_indirect
            }
            # Their popups go with them; a reply keeps its text, not the link.
            kept = [a for a in kept if not _points_at(a, _PARENT, gone)]
            for annot in kept:
                if _points_at(annot, _POPUP, gone):
                    del annot[_POPUP]
            page.obj.Annots = Array(kept)
    if redrawn and isinstance(form, Dictionary):
        form.NeedAppearances = True


def _annots(page: Dictionary) -> Iterator[Dictionary]:
    annots = page.get(_ANNOTS)
    if isinstance(annots, Array):
        yield from (a for a in annots if isinstance(a, Dictionary))


def _points_at(annot: object, key: Name, gone: set[tuple[int, int]]) -> bool:
    if not isinstance(annot, Dictionary):
        return False
    target = annot.get(key)
    return (
        isinstance(target, Dictionary) and target.is_indirect and target.objgen in gone
    )


def _rename_states(widget: Dictionary, pattern: regex.Pattern[str]) -> None:
    """Rename the widget's appearance states naming a word, and its field's value."""
    renamed: dict[str, str] = {}
    appearances = widget.get(_AP)
    if not isinstance(appearances, Dictionary):
        return
    for which in _STATES:
        states = appearances.get(which)
        if not isinstance(states, Dictionary) or isinstance(states, Stream):
            continue
        for key in [str(k) for k in states.keys()]:
            if scrub_text(key[1:], pattern) is None:
                continue
            new = renamed.setdefault(key, f"/Choice{len(renamed) + 1}")
            states[Name(new)] = states[Name(key)]
            del states[Name(key)]
    if not renamed:
        return
    if str(widget.get(_AS)) in renamed:
        widget.AS = Name(renamed[str(widget.AS)])
    holder: object = widget
    for _ in range(32):  # the value sits on the widget or a field above it
        if not isinstance(holder, Dictionary):
            break
        for value_key in (Name("/V"), Name("/DV")):
            value = holder.get(value_key)
            if isinstance(value, Name) and str(value) in renamed:
                holder[value_key] = Name(renamed[str(value)])
        holder = holder.get(_PARENT)


def _appearance_shows(annot: Dictionary, pattern: regex.Pattern[str]) -> bool:
    appearances = annot.get(_AP)
    if not isinstance(appearances, Dictionary):
        return False
    for which in _STATES:
        entry = appearances.get(which)
        streams = (
            [entry]
            if isinstance(entry, Stream)
            else [s for s in entry.values() if isinstance(s, Stream)]
            if isinstance(entry, Dictionary)
            else []
        )
        for stream in streams:
            try:
                data = stream.read_bytes()
            except pikepdf.PdfError:
                continue
            if pattern.search(stream_text(data)):
                return True
    return False
