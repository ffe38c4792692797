"""The form field tree of a PDF (/AcroForm /Fields), kept to the widgets on pages.

A widget that no page lists (its page was not copied, or redaction deleted it)
still carries its field's value and an appearance showing it: it leaves the
tree, and a field left without any widget goes too.
"""

from __future__ import annotations

from collections.abc import Iterable

import pikepdf
from pikepdf import Array, Dictionary, Name

_ANNOTS, _KIDS, _FIELDS = Name("/Annots"), Name("/Kids"), Name("/Fields")
_SUBTYPE, _WIDGET, _RECT = Name("/Subtype"), Name("/Widget"), Name("/Rect")
_MAX_DEPTH = 32  # a field tree that loops ends here


def drop_orphan_widgets(pdf: pikepdf.Pdf, pages: Iterable[pikepdf.Page]) -> None:
    """Remove from the field tree every widget that none of `pages` lists."""
    form = pdf.Root.get(Name("/AcroForm"))
    if not isinstance(form, Dictionary) or not isinstance(form.get(_FIELDS), Array):
        return
    on_pages: set[tuple[int, int]] = set()
    for page in pages:
        annots = page.obj.get(_ANNOTS)
        if isinstance(annots, Array):
            on_pages.update(a.objgen for a in annots if isinstance(a, Dictionary))
    fields = form[_FIELDS]
    kept = [field for field in fields if _keeps_widget(field, on_pages, 0)]
    if len(kept) != len(fields):
        form[_FIELDS] = Array(kept)


def _keeps_widget(node: object, on_pages: set[tuple[int, int]], depth: int) -> bool:
    """Whether the field `node` keeps a widget on a page (its kids pruned)."""
    if not isinstance(node, Dictionary) or depth > _MAX_DEPTH:
        return False
    kids = node.get(_KIDS)
    if isinstance(kids, Array):
        kept = [kid for kid in kids if _keeps_widget(kid, on_pages, depth + 1)]
        if len(kept) != len(kids):
            node[_KIDS] = Array(kept)
        if kept:
            return True
    is_widget = node.get(_SUBTYPE) == _WIDGET or (_KIDS not in node and _RECT in node)
    return is_widget and node.is_indirect and node.objgen in on_pages
