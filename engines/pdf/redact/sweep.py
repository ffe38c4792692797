"""The written file made into a redacted output: rebuilt from what it may keep.

Runs with pikepdf (qpdf) on the file MuPDF wrote, after redaction. Redacted
pages lose the text their tiling patterns and soft masks draw (`indirect`);
then the file is rebuilt from the allowlist (`rebuild`, `catalog`): pages,
the resources they draw, annotations and fields of known kinds, an outline,
named destinations, page labels, layers and metadata rebuilt from scrubbed
text. Attachments go, unless they are kept (`attachments`: opened, scrubbed).
Fields and annotations are then settled (`forms`).

Picture shadings and soft masks' images under the areas go too
(`underneath`). Pages are counted from 0.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

import pikepdf
from pikepdf import Array, Dictionary, Name

from engines.pdf.redact.attachments import PdfScrubber
from engines.pdf.redact.attachments import keep_attachments as kept_files
from engines.pdf.redact.catalog import rebuild_catalog, rebuild_info
from engines.pdf.redact.forms import settle_forms
from engines.pdf.redact.indirect import strip_indirect_text
from engines.pdf.redact.page import PageRedaction
from engines.pdf.redact.rebuild import Cleaner
from engines.pdf.redact.underneath import clear_underneath
from engines.pdf.redact.words import Removed, words_pattern
from engines.pdf.types import ScrubCounts

_REFERS = ("/Popup", "/IRT")


def sweep(
    pdf: pikepdf.Pdf,
    removed: Iterable[Removed | str],
    redacted_pages: Iterable[int] | Mapping[int, PageRedaction],
    *,
    keep_attachments: bool = False,
    scrub_pdf: PdfScrubber | None = None,
) -> ScrubCounts:
    """Rebuild `pdf` in place as a redacted output (see the module); answer
    how many copies of the removed words it rewrote.

    With `keep_attachments`, embedded files are kept, each opened and scrubbed
    (`attachments`; attached PDFs by `scrub_pdf`, `nested.scrub_attached_pdf`);
    one that cannot be raises `EngineError`.
    """
    runs = list(removed)
    pages = list(pdf.pages)
    for number in sorted(set(redacted_pages)):
        strip_indirect_text(pdf, pages[number].obj)
        if isinstance(redacted_pages, Mapping):
            areas = [_user_rect(pages[number], a) for a in redacted_pages[number].areas]
            clear_underneath(pages[number].obj, areas)
    pattern = words_pattern(runs)
    cleaner = Cleaner(pdf, pattern)
    files = None
    if keep_attachments:
        if scrub_pdf is None:
            raise ValueError("keeping attachments needs a scrub_pdf")
        files = kept_files(pdf, runs, cleaner, scrub_pdf)
    rebuild_catalog(pdf, cleaner)
    if files is not None:
        pdf.Root.Names = pdf.Root.get(Name.Names, Dictionary())
        pdf.Root.Names.EmbeddedFiles = Dictionary(Names=files)
    rebuild_info(pdf, cleaner)
    cleaner.finish()
    _drop_dangling(pages)
    if pattern is not None:
        settle_forms(pdf, pages, pattern)
    return ScrubCounts(
        strings=cleaner.strings, names=len(cleaner.renamed), streams=cleaner.streams
    )


def _user_rect(
    page: pikepdf.Page, rect: tuple[float, float, float, float]
) -> tuple[float, float, float, float]:
    """A rectangle of PyMuPDF's page space (unrotated, top-left origin of the
    CropBox, y down) in PDF user space."""
    box = page.cropbox
    left, top = float(min(box[0], box[2])), float(max(box[1], box[3]))
    x0, y0, x1, y1 = rect
    return (left + x0, top - y1, left + x1, top - y0)


def _drop_dangling(pages: list[pikepdf.Page]) -> None:
    """A kept annotation's popup or reply target that did not stay goes from it
    (pointing at it would write it again)."""
    kept: set[tuple[int, int]] = set()
    for page in pages:
        annots = page.obj.get(Name.Annots)
        if isinstance(annots, Array):
            kept.update(
                a.objgen for a in annots if isinstance(a, Dictionary) and a.is_indirect
            )
    for page in pages:
        annots = page.obj.get(Name.Annots)
        for annot in annots if isinstance(annots, Array) else []:
            if not isinstance(annot, Dictionary):
                continue
            for key in (
                *_REFERS,
                *(("/Parent",) if annot.get(Name.Subtype) == Name.Popup else ()),
            ):
                target = annot.get(key)
                if isinstance(target, Dictionary) and (
                    not target.is_indirect or target.objgen not in kept
                ):
                    del annot[key]
