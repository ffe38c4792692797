"""The documents people browse, as queries: what they uploaded (parts of
containers, renditions and results of orders on demand), formats named as people
know them (docx, eml, zip...), titles matched by words, not a phrase. Read by the
admin's documents list and by `GET /documents`."""

from __future__ import annotations

from collections.abc import Sequence

from django.db.models import Q, QuerySet

from documents.formats import mime_of
from documents.models import Document

# Each filter entry: label → the short format names it holds (documents.formats).
FORMAT_NAMES: dict[str, tuple[str, ...]] = {
    "pdf": ("pdf",),
    "docx": ("docx", "docm", "dotx"),
    "doc": ("doc",),
    "xlsx": ("xlsx", "xlsm"),
    "xls": ("xls",),
    "pptx": ("pptx", "pptm"),
    "ppt": ("ppt",),
    "odt · ods · odp": ("odt", "ods", "odp", "odg"),
    "rtf": ("rtf",),
    "txt · csv": ("txt", "csv"),
    "html": ("html",),
    "eml": ("eml",),
    "msg": ("msg",),
    "zip": ("zip",),
    "png": ("png",),
    "jpg": ("jpg",),
    "tiff": ("tiff",),
    "fdf · xfdf": ("fdf", "xfdf"),
}
_MEDIA = ("video/", "audio/")


def _mimes(names: Sequence[str]) -> list[str]:
    return [m for m in (mime_of(name) for name in names) if m]


def format_mimes(name: str) -> list[str]:
    """The MIME types of a short format name, with its family (`docx` → docx,
    docm, dotx); empty for a name no document has."""
    return _mimes(FORMAT_NAMES.get(name, (name,)))


def documents_listed(
    qs: QuerySet[Document],
    *,
    show: str = "uploaded",
    formats: Sequence[str] = (),
    words: str = "",
) -> QuerySet[Document]:
    """`qs` narrowed to what a list shows, of `formats` (short names), matching
    `words` (see search), newest first."""
    qs = qs.filter(SHOWN[show][1])
    if formats:
        qs = qs.filter(mime_type__in=[m for n in formats for m in format_mimes(n)])
    return search(qs, words).order_by("-created_at", "-pk")


def format_match(label: str) -> Q | None:
    """The documents of the format entry `label` (on the mime_type index)."""
    if label in FORMAT_NAMES:
        return Q(mime_type__in=_mimes(FORMAT_NAMES[label]))
    if label == "audio · video":
        return Q(mime_type__startswith=_MEDIA[0]) | Q(mime_type__startswith=_MEDIA[1])
    if label == "other":
        known = [m for names in FORMAT_NAMES.values() for m in _mimes(names)]
        return ~Q(mime_type__in=known) & ~(
            Q(mime_type__startswith=_MEDIA[0]) | Q(mime_type__startswith=_MEDIA[1])
        )
    return None


UPLOADED = Q(
    origin__in=[Document.Origin.UPLOAD, Document.Origin.URL],
    parent__isnull=True,
    rendition_of__isnull=True,
)
# What a list shows: key → (label, query).
SHOWN: dict[str, tuple[str, Q]] = {
    "part": ("Parts of containers", Q(parent__isnull=False)),
    "rendition": (
        "Renditions (PDF of an Office file...)",
        Q(rendition_of__isnull=False),
    ),
    "result": (
        "Results of orders",
        Q(origin=Document.Origin.RESULT, rendition_of__isnull=True),
    ),
    "layout": ("Registered from a layout", Q(origin=Document.Origin.LAYOUT)),
    "uploaded": ("Uploaded by people", UPLOADED),
    "all": ("Every document", Q()),
}


def title_words(words: Sequence[str]) -> Q:
    """Titles holding every word, in any case and any order."""
    match = Q()
    for word in words:
        match &= Q(title__icontains=word)
    return match


def search(queryset: QuerySet[Document], term: str) -> QuerySet[Document]:
    """A document id (or its first characters), words of its title, or its
    SHA-256."""
    term = term.strip()
    if not term:
        return queryset
    match = title_words(term.split()) | Q(pk__startswith=term)
    if len(term) == 64:
        match |= Q(sha256=term.lower())
    return queryset.filter(match)
