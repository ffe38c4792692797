"""Every error the engines raise, in one place, each with a stable code.

An engine error is a failure a user can act on: its message is shown as an
order's `errorMessage` or a problem's `detail`, so it names documents and pages,
never a file path nor a redacted word. The `code` is for programs: the service
maps it to an HTTP status and a report category (`transformsvc/problems.py`,
`jobs/errors.py`) without reading the English text, and `transient` says whether
trying again later can help (a converter that was down, not a damaged file).
"""

from __future__ import annotations

from typing import ClassVar


class EngineError(Exception):
    """A failure a user can act on; the message is shown as `errorMessage`."""

    code: ClassVar[str] = "engine_error"
    # Whether the same request may succeed later, unchanged.
    transient: ClassVar[bool] = False


class UnsupportedDocument(EngineError):
    """The bytes are not a document the engine can open (→ 415 at upload)."""

    code = "unsupported_document"


class EncryptedDocument(UnsupportedDocument):
    """The file is protected by a password."""

    code = "encrypted_document"


class DamagedDocument(EngineError):
    """The document opens but its content cannot be read or drawn."""

    code = "damaged_document"


class RedactionLeak(EngineError):
    """A redacted word was found again in the written output: it is not delivered.

    The message names the page (counted from 1, as a user reads it), never the
    word nor a file path: an error message is shown and logged where the secret
    must not go.
    """

    code = "redaction_unverified"


class PageOutOfRange(EngineError):
    """The page index does not exist in the document → 400."""

    code = "page_out_of_range"


class SearchError(EngineError):
    """The search pattern cannot be used (invalid, too long or too slow) → 400."""

    code = "invalid_search"


class ConversionTimeout(EngineError):
    """The conversion ran past its time limit and was stopped."""

    code = "timeout"


class ConversionFailed(EngineError):
    """The converter could not render the document (damaged, or crashed on it)."""

    code = "conversion_failed"


class ConversionImpossible(EngineError):
    """No converter makes the asked format from this document (docx → mp4)."""

    code = "conversion_impossible"


class OfficeUnavailable(EngineError):
    """The LibreOffice pool could not be started or is closed."""

    code = "converter_unavailable"
    transient = True


class OcrUnavailable(EngineError):
    """Tesseract, or a language asked for, is not installed on this machine."""

    code = "ocr_unavailable"
    transient = True


class PageTooLarge(EngineError):
    """Within the pixel cap, the page could only be drawn below MIN_DPI."""

    code = "page_too_large"


class PageTimeout(EngineError):
    """Tesseract did not finish within the page's time limit and was killed."""

    code = "timeout"


class InvalidOperation(EngineError):
    """An order operation cannot be done as asked → 400.

    `field` is the path of the offending field as the client wrote it
    (`transformationDetails[0].operations[2].opacity`), so that the service can
    name it in the problem's `errors`; the message is "<field>: <problem>".
    """

    code = "invalid_operation"

    def __init__(self, field: str, problem: str) -> None:
        super().__init__(f"{field}: {problem}")
        self.field = field
        self.problem = problem


class PasswordRequired(EngineError):
    """A protected input needs a password that was not given, or not this one.

    The message never holds the password (it is shown and logged).
    """

    code = "password_required"


def code_of(exc: BaseException) -> str | None:
    """The stable code of an engine error (None for anything else)."""
    return exc.code if isinstance(exc, EngineError) else None
