"""`assemble`: one PDF written from the planned pages of its sources.

A `PageRange` counts from 1, inclusive; the returned `PageOrigin.page` from 0.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from contextlib import ExitStack

import pikepdf

from engines.errors import EngineError
from engines.pdf.assemble.dedupe import share_font_programs
from engines.pdf.assemble.layers import carry_layers
from engines.pdf.assemble.links import settle_links
from engines.pdf.assemble.outline import carry_outlines
from engines.pdf.assemble.pages import copy_pages
from engines.pdf.assemble.sources import Source, plan
from engines.pdf.fieldtree import drop_orphan_widgets
from engines.pdf.types import PageOrigin, SourceElement


def assemble(
    elements: Sequence[SourceElement], dest: str, *, keep_attachments: bool = False
) -> list[PageOrigin]:
    """Write at `dest` one PDF made of the elements' pages, in order.

    Attached files are left behind unless `keep_attachments`: then the files
    attached to the copied pages and to each source document come along.

    For each element its ranges (`PageRange`, 1-based, inclusive) are taken in
    the order given; ranges may repeat or overlap; `ranges=None` takes the whole
    document. Returns, for each output page in order, where it comes from:
    `PageOrigin(key=element.key, page=<0-based source page>)`, so annotations
    can follow their source page.

    Sources encrypted with an empty user password are read; the output is never
    encrypted. Raises `EngineError` when a source cannot be read, a range lies
    outside its document, or the selection is empty; `dest` is not written
    then.
    """
    if not elements:
        raise EngineError("there is nothing to assemble: no transformation element")
    with ExitStack() as stack:
        sources: dict[str, Source] = {}
        try:
            takes = list(plan(elements, sources, stack))
            if not takes:
                raise EngineError("the page selection is empty")
            out = stack.enter_context(pikepdf.new())
            pages = copy_pages(out, takes, keep_files=keep_attachments)
            if keep_attachments:
                _carry_attachments(out, sources.values())
            settle_links(pages, takes)
            carry_outlines(out, takes)
            carry_layers(out, sources.values())
            # A field whose widgets lie on several pages came with all of them.
            drop_orphan_widgets(out, pages)
            if len(sources) > 1:  # within one source qpdf already shares them
                share_font_programs(out)
            # pikepdf writes through a temporary file: a failure leaves `dest`
            # as it was.
            _save(out, dest, sources.values())
        except pikepdf.PdfError as exc:
            raise EngineError(
                f"could not assemble the PDF: {_describe(exc, sources.values())}"
            ) from exc
        except OSError as exc:
            raise EngineError(
                f"could not write the assembled PDF: {exc.strerror or exc}"
            ) from exc
    return [take.origin for take in takes]


def _carry_attachments(out: pikepdf.Pdf, sources: Iterable[Source]) -> None:
    """The files attached to the sources (their document-level list), each
    under its own name, a repeated name numbered."""
    for source in sources:
        for name, spec in source.pdf.attachments.items():
            unique, n = name, 1
            while unique in out.attachments:
                n += 1
                unique = f"{n}-{name}"
            out.attachments[unique] = pikepdf.AttachedFileSpec(
                out, spec.get_file().read_bytes(), filename=unique
            )


def _save(out: pikepdf.Pdf, dest: str, sources: Iterable[Source]) -> None:
    versions = [s.pdf.pdf_version for s in sources]
    # The copied pages may use features of the newest source's version.
    newest = max(versions, key=_version_key, default="1.3")
    out.save(dest, min_version=newest)


def _version_key(version: str) -> tuple[int, ...]:
    try:
        return tuple(int(part) for part in version.split("."))
    except ValueError:
        return (0,)


def _describe(exc: Exception, sources: Iterable[Source]) -> str:
    message = str(exc)
    for source in sources:
        message = message.replace(source.path, f"document {source.label!r}")
    return message
