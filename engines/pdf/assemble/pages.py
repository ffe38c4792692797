"""Copying the planned pages into the output, with their annotations and fields.

Output pages are in plan order; page indexes count from 0.
"""

from __future__ import annotations

from collections.abc import Sequence

import pikepdf
from pikepdf import Array, Dictionary, Name

from engines.pdf.assemble.names import ANNOTS, SUBTYPE, WIDGET, A, S
from engines.pdf.assemble.sources import Take

# Keys by which one annotation points at another on the same page.
_ANNOTATION_REFS = (Name("/Popup"), Name("/Parent"), Name("/IRT"))

# Outputs carry no active content: scripts, launched programs, embedded files and
# media could run on opening, or keep text a redaction removed from the page.
_AA = Name("/AA")
_ACTIVE_ANNOTATIONS = frozenset(
    Name(n)
    for n in ("/FileAttachment", "/Sound", "/Movie", "/Screen", "/RichMedia", "/3D")
)
_FILE_ATTACHMENT = Name("/FileAttachment")
_ACTIVE_ACTIONS = frozenset(
    Name(n)
    for n in (
        "/JavaScript",
        "/Launch",
        "/ImportData",
        "/SubmitForm",
        "/Rendition",
        "/Sound",
        "/Movie",
        "/RichMediaExecute",
        "/GoToE",
    )
)


def _prune_resources(page: pikepdf.Page) -> None:
    # qpdf gives the page its own copy of the dictionaries before pruning,
    # so the other pages of the source keep theirs.
    try:
        page.remove_unreferenced_resources()
    except pikepdf.PdfError:
        pass  # an unparsable content stream: copy the resources whole


def copy_pages(
    out: pikepdf.Pdf, takes: Sequence[Take], *, keep_files: bool = False
) -> list[pikepdf.Page]:
    """Append every take to `out`; returns the output pages in order."""
    copied: list[pikepdf.Page] = []
    firsts: dict[tuple[int, int], pikepdf.Page] = {}
    out_form: pikepdf.AcroForm | None = None  # made on first need: it scans the file
    for take in takes:
        first = firsts.get((id(take.source), take.index))
        if first is None:
            page = take.source.pages[take.index]
            if take.source.shares_resources:
                _prune_resources(page)
            out.pages.append(page)  # qpdf copies it, and what it uses, once
            copy = _last_page(out)
            firsts[(id(take.source), take.index)] = copy
            take.source.by_index[take.index] = copy.obj
            take.source.by_objgen[page.obj.objgen] = copy.obj
            form = take.source.acroform
            if form is not None and _has_widgets(page.obj):
                out_form = out.acroform if out_form is None else out_form
                _copy_annotations(out_form, copy, page, form)
        else:
            out.pages.append(first)  # same file: pikepdf makes a new page object
            copy = _last_page(out)
            if isinstance(copy.obj.get(ANNOTS), Array):
                out_form = out.acroform if out_form is None else out_form
                _copy_annotations(out_form, copy, first, out_form)
        strip_active_content(copy.obj, keep_files=keep_files)
        copied.append(copy)
    return copied


def strip_active_content(page: Dictionary, *, keep_files: bool = False) -> None:
    """Drop a page's open/close actions, media and attachment annotations, and
    script or launch actions of its other annotations (links keep their target).
    `keep_files` keeps file attachment annotations (their files, not scripts)."""
    if _AA in page:
        del page[_AA]
    annots = page.get(ANNOTS)
    if not isinstance(annots, Array):
        return
    kept = []
    for annot in annots:
        if isinstance(annot, Dictionary):
            subtype = annot.get(SUBTYPE)
            if subtype in _ACTIVE_ANNOTATIONS and not (
                keep_files and subtype == _FILE_ATTACHMENT
            ):
                continue
            if _AA in annot:
                del annot[_AA]
            action = annot.get(A)
            if isinstance(action, Dictionary) and action.get(S) in _ACTIVE_ACTIONS:
                del annot[A]
        kept.append(annot)
    if len(kept) != len(annots):
        page[ANNOTS] = Array(kept)


def _last_page(out: pikepdf.Pdf) -> pikepdf.Page:
    # `out.pages[-1]` rebuilds the page list (O(pages)); qpdf keeps the page
    # tree of a new file flat, so the last kid is the page just appended.
    kids = out.Root.Pages.Kids
    return pikepdf.Page(kids[len(kids) - 1])


def _has_widgets(page: Dictionary) -> bool:
    annots = page.get(ANNOTS)
    return isinstance(annots, Array) and any(
        isinstance(a, Dictionary) and a.get(SUBTYPE) == WIDGET for a in annots
    )


def _copy_annotations(
    form: pikepdf.AcroForm,
    to_page: pikepdf.Page,
    from_page: pikepdf.Page,
    from_form: pikepdf.AcroForm,
) -> None:
    """Give `to_page` its own copies of `from_page`'s annotations and fields.

    qpdf copies the annotations (renaming clashing fields) but leaves links
    between them (popup <-> parent, replies) pointing at the old objects; the
    new array lines up with the one it replaces, so they are re-pointed by
    position.
    """
    before = to_page.obj.get(ANNOTS)
    old = list(before) if isinstance(before, Array) else []
    form.fix_copied_annotations(to_page, from_page, from_form)
    after = to_page.obj.get(ANNOTS)
    new = list(after) if isinstance(after, Array) else []
    if len(old) != len(new):
        return
    moved = {
        a.objgen: b
        for a, b in zip(old, new, strict=True)
        if isinstance(a, Dictionary) and a.is_indirect
    }
    for annot in new:
        if not isinstance(annot, Dictionary):
            continue
        if Name.P in annot:
            annot.P = to_page.obj
        for key in _ANNOTATION_REFS:
            target = annot.get(key)
            if isinstance(target, Dictionary) and target.is_indirect:
                replacement = moved.get(target.objgen)
                if replacement is not None:
                    annot[key] = replacement
