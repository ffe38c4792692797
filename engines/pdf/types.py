"""Inputs and outputs of the PDF engine (frozen dataclasses, no Django)."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class Box:
    """A rectangle in displayed-page space: (x, y) is the top-left corner, points."""

    x: float
    y: float
    w: float
    h: float


@dataclass(frozen=True, slots=True)
class Point:
    x: float
    y: float


@dataclass(frozen=True, slots=True)
class Rgb:
    """A colour with 0-255 integer channels, as on the wire."""

    r: int
    g: int
    b: int

    def unit(self) -> tuple[float, float, float]:
        return (self.r / 255, self.g / 255, self.b / 255)


@dataclass(frozen=True, slots=True)
class PageLayout:
    """Displayed size (CropBox with /Rotate applied, truncated) and rotation of a page."""

    width: int
    height: int
    rotation: int


@dataclass(frozen=True, slots=True)
class DocumentInfo:
    """`scans`: 0-based pages that look scanned (images, no font), when asked for."""

    mime_type: str
    pages: tuple[PageLayout, ...]
    title: str | None = None
    scans: tuple[int, ...] = ()

    @property
    def page_count(self) -> int:
        return len(self.pages)


@dataclass(frozen=True, slots=True)
class PageRange:
    """Pages `first` to `last`, counted from 1, inclusive (the wire's minPage/maxPage)."""

    first: int
    last: int


@dataclass(frozen=True, slots=True)
class SourceElement:
    """One transformation element: a source PDF and the ranges taken from it.

    `key` identifies the source document (its id); annotations name it.
    `ranges` None means the whole document.
    """

    key: str
    path: str
    ranges: tuple[PageRange, ...] | None = None
    title: str | None = None


@dataclass(frozen=True, slots=True)
class PageOrigin:
    """Where an output page comes from: source key and 0-based source page index."""

    key: str
    page: int


@dataclass(frozen=True, slots=True)
class Annotation:
    """One annotation of the request, by its simple type name.

    `kind` is the simple name (`SquareElemType`, `RedactTextElemType`, ...);
    `page` counts from 0 and refers to the source document `document_key`.
    """

    kind: str
    document_key: str
    page: int
    annotation_id: str | None = None
    position: Box | None = None
    coords: tuple[Box, ...] = ()
    color: Rgb | None = None
    interior_color: Rgb | None = None
    opacity: float | None = None
    width: float | None = None
    contents: str | None = None
    rich_text: str | None = None
    creator: str | None = None
    creation_date: int | None = None
    icon: str | None = None
    start: Point | None = None
    end: Point | None = None
    head: str | None = None
    tail: str | None = None
    default_appearance: str | None = None
    # A redaction's text drawn inside its box (e.g. an exemption code), as
    # outlines: never extractable text, never a removed word.
    overlay_text: str | None = None


@dataclass(frozen=True, slots=True)
class Placement:
    """An annotation placed on a 0-based page of an output document."""

    page: int
    annotation: Annotation


@dataclass(frozen=True, slots=True)
class AnnotationReport:
    """What `apply_annotations` did that its caller must know.

    `removed_words`: the text redaction removed (each run of glyphs under an
    area, split at white space and punctuation), in page order without repeats.
    `redaction_verified`: True when the written output was read back and no
    removed word was found where it must not be; None when nothing was redacted.
    (A failed verification raises `RedactionLeak` instead of returning.)
    """

    removed_words: tuple[str, ...] = ()
    redaction_verified: bool | None = None
    evidence: RedactionEvidence | None = None


@dataclass(frozen=True, slots=True)
class AreaEvidence:
    """What one redaction area removed, measured on its page (0-based page of
    the output; `box` displayed space, points). A glyph, image, path,
    annotation or field under two areas counts in each.

    `glyphs`: glyphs gone from the page; `images`: image placements whose
    pixels under the area were blanked; `paths`: vector paths the area covered
    that are gone; `annotations`: annotations and links deleted; `fields`:
    form fields whose widgets were deleted; `text_hash`: a keyed hash of the
    removed glyphs' text (the caller's hasher), never the text itself."""

    page: int
    annotation_id: str | None
    box: Box
    glyphs: int = 0
    images: int = 0
    paths: int = 0
    annotations: int = 0
    fields: int = 0
    text_hash: str | None = None
    overlay: bool = False


@dataclass(frozen=True, slots=True)
class ScrubCounts:
    """Copies of removed words rewritten elsewhere in the document: strings
    (metadata, outline, annotation texts, form values...), names renamed, and
    content streams rewritten (alternate texts, marked content)."""

    strings: int = 0
    names: int = 0
    streams: int = 0


@dataclass(frozen=True, slots=True)
class VerificationEvidence:
    """What the independent check of the written output read: `pages` and
    `areas` read by PDFium, `objects` and `streams` of the file read by qpdf,
    `runs` the removed runs sought; `found` is 0 (else it raised)."""

    readers: tuple[str, ...]
    pages: int
    areas: int
    objects: int
    streams: int
    runs: int
    found: int = 0


@dataclass(frozen=True, slots=True)
class RedactionEvidence:
    """The evidence of one redacted output: every area, the copies scrubbed,
    what the verification read."""

    areas: tuple[AreaEvidence, ...]
    scrubbed: ScrubCounts
    verification: VerificationEvidence


@dataclass(frozen=True, slots=True)
class SearchQuery:
    text: str
    case_sensitive: bool = False
    accent_sensitive: bool = False
    regex: bool = False


@dataclass(frozen=True, slots=True)
class Link:
    action: str  # "URI" or "GOTO"
    destination: str
    position: Box


@dataclass(frozen=True, slots=True)
class PositionText:
    """Text on one line of a page with its exact geometry (displayed space)."""

    page: int
    position: Box
    text: str
    individual_widths: tuple[float, ...]
    font_size: float
    font: str
    paragraph_id: int
    right_to_left: bool
    rotation: int
    link: Link | None = None


@dataclass(frozen=True, slots=True)
class Fragment:
    text: str
    page: int
    end_of_line: bool
    type: str  # "DELETE" or "ADD"


@dataclass(frozen=True, slots=True)
class TextChange:
    change_type: str  # "DELETE", "ADD" or "MODIFY"
    fragments: tuple[Fragment, ...]
    left: PositionText | None
    right: PositionText | None


@dataclass(frozen=True, slots=True)
class CompareStyle:
    fuzz: float = 3.0  # colour tolerance, percent
    highlight: Rgb = field(default_factory=lambda: Rgb(255, 0, 0))
    lowlight: Rgb | None = None
