"""The two entry points of the converters: `to_pdf` for a single document,
`unpack` for a container. Both take what `detect` found."""

from __future__ import annotations

from engines.convert.archive import unpack_zip
from engines.convert.images import image_to_pdf
from engines.convert.mail import unpack_mail
from engines.convert.markup import html_to_pdf
from engines.convert.office import OfficePool, office_to_pdf
from engines.convert.text import text_to_pdf
from engines.convert.types import (
    Container,
    Detected,
    Family,
    LimitExceeded,
    Limits,
    Rendition,
    UnsupportedDocument,
)

DEFAULT_LIMITS = Limits()


def to_pdf(
    path: str,
    detected: Detected,
    dest: str,
    limits: Limits = DEFAULT_LIMITS,
    *,
    office: OfficePool | None = None,
) -> Rendition:
    """Render the document at `path` (as `detect` found it) as a PDF at
    `dest`, within `limits`.

    Office documents, RTF and CSV need `office`, the process's LibreOffice
    pool; text, HTML and images are converted in this process. PDFs need no
    rendition and containers are unpacked instead (`ValueError` for both: a
    caller's mistake). A file that cannot be rendered raises
    `UnsupportedDocument` (audio and video have no pages; unknown formats),
    a conversion that fails an `EngineError` subclass, with a message for the
    user.
    """
    family = detected.family
    if family is Family.PDF or detected.is_container:
        raise ValueError(f"to_pdf() does not take a {family.value} file")
    if family is Family.OFFICE:
        return office_to_pdf(path, detected, dest, limits, office)
    if family is Family.TEXT:
        return text_to_pdf(path, detected.encoding or "utf-8", dest, limits)
    if family is Family.HTML:
        return html_to_pdf(path, detected, dest, limits)
    if family is Family.IMAGE:
        return image_to_pdf(path, detected, dest, limits)
    if family is Family.MEDIA:
        raise UnsupportedDocument(
            f"the file is {_article(detected.description)}: audio and video have "
            "no pages to show"
        )
    raise UnsupportedDocument(
        f"the file's format ({detected.mime_type}) is not one the service can "
        "convert to PDF"
    )


def unpack(
    path: str,
    detected: Detected,
    dest_dir: str,
    limits: Limits = DEFAULT_LIMITS,
    *,
    depth: int = 0,
) -> Container:
    """Open the container at `path` (an e-mail or a ZIP archive) and write
    its parts as files in `dest_dir` (an empty directory of the caller's).

    `depth` is this container's nesting level: 0 for an uploaded file, the
    parent's `depth + 1` for a container found inside another; over
    `limits.max_depth` it is refused. The caller detects and converts each
    part in turn, recursing into the parts that are containers.
    """
    if depth > limits.max_depth:
        raise LimitExceeded(
            f"containers are nested more than {limits.max_depth} levels deep; "
            "the inner ones are not opened"
        )
    if detected.family is Family.MAIL:
        return unpack_mail(path, detected, dest_dir, limits, depth)
    if detected.family is Family.ARCHIVE:
        return unpack_zip(path, dest_dir, limits, depth)
    raise ValueError(f"unpack() does not take a {detected.family.value} file")


def _article(description: str) -> str:
    return (
        f"an {description}"
        if description[:1].lower() in "aeiou"
        else f"a {description}"
    )
