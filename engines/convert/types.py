"""Inputs and outputs of the converter engines (frozen dataclasses, no Django).

The flow a caller follows: `detect(path)` says what a file is from its bytes;
a single document is rendered with `to_pdf(...)` into a `Rendition`; a
container (an e-mail, a ZIP archive) is opened with `unpack(...)` into a
`Container` whose parts are files the caller detects and converts in turn.
Every failure a user can act on is an `EngineError` (or its subclass
`UnsupportedDocument` when the file itself is the problem); messages never
name an internal path.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from engines.convert.fidelity import Fidelity
from engines.errors import EncryptedDocument, UnsupportedDocument


class Family(StrEnum):
    """What the engines do with a file: its family decides the converter."""

    PDF = "pdf"  # native: no conversion
    OFFICE = "office"  # word processing, spreadsheets, presentations, CSV, RTF
    TEXT = "text"  # plain text, paginated by the text engine
    HTML = "html"
    MAIL = "mail"  # a container: body (part 0) and attachments (1..n)
    ARCHIVE = "archive"  # a container: entries (1..n)
    IMAGE = "image"
    MEDIA = "media"  # audio and video: documents without pages
    UNKNOWN = "unknown"


CONTAINERS = frozenset({Family.MAIL, Family.ARCHIVE})


@dataclass(frozen=True, slots=True)
class Detected:
    """What `detect` read from a file's bytes.

    `extension` is the usual extension of the format without a dot ("docx"),
    used to name the copy LibreOffice opens (never the user's file name).
    `encoding` is a Python codec name for text-based formats (text, CSV, HTML),
    else None. `encrypted`: the file needs a password (converters refuse it).
    `description` names the format for messages ("Word document").
    """

    mime_type: str
    family: Family
    extension: str = ""
    description: str = "file"
    encoding: str | None = None
    encrypted: bool = False

    @property
    def is_container(self) -> bool:
        return self.family in CONTAINERS


@dataclass(frozen=True, slots=True)
class Limits:
    """Every bound the engines apply; each is a setting of the service.

    Sizes are bytes, times seconds. Archive limits apply to one container;
    `max_depth` bounds nesting (the uploaded container is depth 0).
    """

    timeout: float = 120.0  # one conversion (LibreOffice, text, HTML, images)
    max_pages: int = 20_000  # pages of a rendition
    max_text_bytes: int = 64 * 1024 * 1024  # text and HTML inputs
    max_image_pixels: int = 200_000_000  # one frame of an image
    max_sheet_rows: int = 100_000  # rows of all sheets of a spreadsheet
    max_package_bytes: int = 1024 * 1024 * 1024  # inflated Office package
    max_entries: int = 1_000  # files in one archive
    max_total_bytes: int = 2 * 1024 * 1024 * 1024  # inflated, one archive
    max_entry_bytes: int = 1024 * 1024 * 1024  # inflated, one entry
    max_ratio: int = 100  # inflated/compressed, above `ratio_floor` bytes
    ratio_floor: int = 64 * 1024 * 1024
    max_depth: int = 3  # containers inside containers
    max_attachments: int = 200  # more are left out, with a note in part 0
    max_mime_parts: int = 2_000  # MIME parts walked in one message


@dataclass(frozen=True, slots=True)
class PageInfo:
    """One page of a rendition: size in points, and the resolution of the
    image it shows (72 for pages that are not images)."""

    width: float
    height: float
    dpi: int = 72


@dataclass(frozen=True, slots=True)
class Rendition:
    """A PDF written by `to_pdf` at `path`; `pages[i]` is page i from 0.
    `fidelity` says what the PDF kept of the source and what it could not
    (fonts substituted, the text's encoding, parts not shown)."""

    path: str
    pages: tuple[PageInfo, ...]
    engine: str  # "libreoffice", "text", "html", "image", "mail"
    seconds: float
    fidelity: Fidelity = Fidelity()

    @property
    def page_count(self) -> int:
        return len(self.pages)


@dataclass(frozen=True, slots=True)
class Part:
    """One part of a container, written by `unpack` at `path`.

    `index` is the part's number in the child id `<parent>/<index>`: 0 for an
    e-mail's rendered message, 1..n for attachments and archive entries.
    `name` is a display name, sanitised (no directories, no control
    characters); it is never used as a path. `declared_type` is the MIME type
    a mail declared for an attachment (a hint only: detect the bytes).
    `rendition` is set for part 0 of a mail: the message is written as HTML at
    `path` (what a client reads as the message) and already as a PDF at
    `rendition.path` (what its pages are read from).
    """

    index: int
    name: str
    path: str
    size: int
    role: str  # "message", "attachment", "entry" or "folder"
    declared_type: str | None = None
    rendition: Rendition | None = None


@dataclass(frozen=True, slots=True)
class Container:
    """The parts of a mail or an archive, in order.

    `depth` is the nesting level of this container (0 = the uploaded file);
    the caller unpacks a child container with `depth + 1`. `notes` tell what
    was left out (e.g. attachments beyond the limit), also shown in part 0 of
    a mail.
    """

    kind: str  # "mail" or "archive"
    parts: tuple[Part, ...]
    depth: int = 0
    title: str | None = None
    notes: tuple[str, ...] = ()


class LimitExceeded(UnsupportedDocument):
    """The file is over one of the `Limits` (a bomb, or just too big)."""

    code = "over_limit"


__all__ = [
    "CONTAINERS",
    "Container",
    "Detected",
    "EncryptedDocument",
    "Family",
    "Fidelity",
    "LimitExceeded",
    "Limits",
    "PageInfo",
    "Part",
    "Rendition",
]
