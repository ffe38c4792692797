"""What a document can be converted to, known before any work is queued: a
conversion that cannot be made is refused at once with the formats that can
(an Office target only from an Office document of the same kind, page formats
only from a document with pages), instead of failing later on a worker."""

from __future__ import annotations

from documents.models import Document

# Formats made from the document's pages (its PDF, or its readable rendition).
PAGE_TARGETS = ("pdf", "txt", "png", "jpg")

# What LibreOffice writes, by the kind of Office document it reads.
_WORD = frozenset({"docx", "docm", "dotx", "doc", "odt", "rtf"})
_SHEET = frozenset({"xlsx", "xlsm", "xls", "ods", "csv"})
_SLIDES = frozenset({"pptx", "pptm", "ppt", "odp"})
_OFFICE_WRITES: tuple[tuple[frozenset[str], tuple[str, ...]], ...] = (
    (_WORD, ("docx", "odt", "doc", "rtf", "html")),
    (_SHEET, ("xlsx", "ods", "xls", "csv", "html")),
    (_SLIDES, ("pptx", "odp", "ppt")),
)

# Every format a conversion can be asked for, whatever the source.
ALL_TARGETS = tuple(
    dict.fromkeys(PAGE_TARGETS + tuple(t for _, ts in _OFFICE_WRITES for t in ts))
)

# Aliases clients send for the same format.
_ALIASES = {"jpeg": "jpg", "tif": "tiff", "htm": "html", "text": "txt"}


def canonical(name: str) -> str:
    """`.JPEG` → `jpg`: the short name a format is known by."""
    wanted = name.strip().lower().lstrip(".")
    return _ALIASES.get(wanted, wanted)


def office_targets(source_format: str) -> tuple[str, ...]:
    """The Office formats LibreOffice writes from a `source_format` document."""
    for kind, writes in _OFFICE_WRITES:
        if source_format in kind:
            return writes
    return ()


def has_pages(doc: Document) -> bool:
    """Whether `doc` has pages or is being given them (its rendition under way)."""
    if doc.is_container:
        return False
    if doc.rendition_state == Document.Rendition.PENDING:
        return True
    return doc.rendition_state == Document.Rendition.READY and bool(doc.page_count)


def targets_of(doc: Document) -> tuple[str, ...]:
    """The formats `doc` converts to, its own first."""
    made = ((doc.format,) if doc.format else ()) + (
        PAGE_TARGETS if has_pages(doc) else ()
    )
    return tuple(dict.fromkeys(made + office_targets(doc.format)))


def refusal(doc: Document, fmt: str) -> str | None:
    """Why `doc` cannot be converted to `fmt`, naming what it can be; None when
    it can."""
    choices = targets_of(doc)
    if fmt in choices:
        return None
    kind = doc.format or "unknown format"
    if not choices:
        return f"document {doc.pk!r} ({kind}) cannot be converted to any format"
    why = ""
    if fmt in PAGE_TARGETS and not has_pages(doc):
        why = (
            " (a container: convert its parts)"
            if doc.is_container
            else " (it has no pages)"
        )
    return (
        f"document {doc.pk!r} ({kind}) cannot be converted to {fmt}{why}; "
        f"it converts to: {', '.join(choices)}"
    )
