"""Removal of every annotation over a redacted area, whatever its kind.

PyMuPDF lists only the subtypes it knows and never popups, so the page's /Annots
array itself is read: an unknown subtype, a stamp or a popup with its own
appearance over the area would otherwise stay (and be burnt on top of the fill).
Popups and replies (/IRT) go with the note they belong to; a reply in the area
goes with its parent without failing. Links are left to MuPDF's redaction, which
removes those meeting an area.

Areas are rectangles in PyMuPDF's page space (unrotated page, origin top-left).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pymupdf

from engines.pdf import geometry

_mupdf = pymupdf.mupdf
_ANNOTS = _mupdf.pdf_new_name("Annots")
_SUBTYPE = _mupdf.pdf_new_name("Subtype")
_RECT = _mupdf.pdf_new_name("Rect")
# Keys by which an annotation belongs to another: it goes when that one goes.
_BELONGS_TO = (_mupdf.pdf_new_name("Parent"), _mupdf.pdf_new_name("IRT"))
_POPUP = _mupdf.pdf_new_name("Popup")


def delete_annotations(page: pymupdf.Page, areas: Sequence[pymupdf.Rect]) -> None:
    """Delete every annotation and widget (not link) whose /Rect meets an area,
    with its popup, its replies and their popups."""
    pdf_page = _mupdf.pdf_page_from_fz_page(page.this)
    annots = _mupdf.pdf_dict_get(pdf_page.obj(), _ANNOTS)
    count = _mupdf.pdf_array_len(annots)
    if not count:
        return
    entries = [_mupdf.pdf_array_get(annots, i) for i in range(count)]
    doomed = {
        _mupdf.pdf_to_num(obj)
        for obj in entries
        if _mupdf.pdf_is_dict(obj)
        and _mupdf.pdf_to_name(_mupdf.pdf_dict_get(obj, _SUBTYPE)) != "Link"
        and _meets(page, obj, areas)
    }
    if not doomed:
        return
    _add_dependants(entries, doomed)
    _delete_listed(pdf_page, doomed)
    # What MuPDF does not list (popups, and whatever it skipped) leaves the
    # array by hand; the remaining entries are re-read after MuPDF's deletions.
    annots = _mupdf.pdf_dict_get(pdf_page.obj(), _ANNOTS)
    for i in reversed(range(_mupdf.pdf_array_len(annots))):
        obj = _mupdf.pdf_array_get(annots, i)
        if _mupdf.pdf_to_num(obj) in doomed:
            _mupdf.pdf_array_delete(annots, i)
        elif _mupdf.pdf_to_num(_mupdf.pdf_dict_get(obj, _POPUP)) in doomed:
            # A kept note whose popup lay over the area keeps no pointer to it.
            _mupdf.pdf_dict_del(obj, _POPUP)


def _meets(page: pymupdf.Page, obj: Any, areas: Sequence[pymupdf.Rect]) -> bool:
    rect = _mupdf.pdf_dict_get(obj, _RECT)
    if _mupdf.pdf_array_len(rect) != 4:
        return False
    x0, y0, x1, y1 = (_mupdf.pdf_array_get_real(rect, i) for i in range(4))
    pdf_rect = pymupdf.Rect(min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1))
    box = geometry.pdf_rect_to_display(page, pdf_rect)
    shown = geometry.display_to_page_rect(page, box)
    # A zero-width /Rect (some popups, notes) still sits somewhere: it meets an
    # area it lies in.
    return any(
        max(shown.x0, a.x0) <= min(shown.x1, a.x1)
        and max(shown.y0, a.y0) <= min(shown.y1, a.y1)
        for a in areas
    )


def _add_dependants(entries: Sequence[Any], doomed: set[int]) -> None:
    """Add to `doomed` the popups of doomed annotations and the annotations that
    belong to a doomed one (popups by /Parent, replies by /IRT), transitively."""
    changed = True
    while changed:
        changed = False
        for obj in entries:
            number = _mupdf.pdf_to_num(obj)
            if number in doomed:
                popup = _mupdf.pdf_dict_get(obj, _POPUP)
                linked = [popup] if _mupdf.pdf_is_indirect(popup) else []
            else:
                linked = []
                if any(
                    _mupdf.pdf_to_num(_mupdf.pdf_dict_get(obj, key)) in doomed
                    for key in _BELONGS_TO
                    if _mupdf.pdf_is_indirect(_mupdf.pdf_dict_get(obj, key))
                ):
                    doomed.add(number)
                    changed = True
            for target in linked:
                if _mupdf.pdf_to_num(target) not in doomed:
                    doomed.add(_mupdf.pdf_to_num(target))
                    changed = True


def _delete_listed(pdf_page: Any, doomed: set[int]) -> None:
    """Delete through MuPDF the doomed annotations and widgets it has loaded, so
    that its page lists (which baking and saving read) forget them too."""
    listed = []
    for first, following in (
        (_mupdf.pdf_first_annot, _mupdf.pdf_next_annot),
        (_mupdf.pdf_first_widget, _mupdf.pdf_next_widget),
    ):
        annot = first(pdf_page)
        while annot.m_internal:
            if _mupdf.pdf_to_num(_mupdf.pdf_annot_obj(annot)) in doomed:
                listed.append(annot)
            annot = following(annot)
    for annot in listed:
        _mupdf.pdf_delete_annot(pdf_page, annot)
