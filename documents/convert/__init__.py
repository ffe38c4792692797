"""The converter engines: what a file is, and how it becomes a PDF.

Pure modules, no Django: `detect(path)` reads a file's format from its
bytes; `to_pdf(...)` renders a single document (Office formats through the
supervised LibreOffice pool, `OfficePool`; text, HTML and images in this
process); `unpack(...)` opens a container (e-mail, ZIP) into parts. Inputs
and outputs are the frozen dataclasses of `types.py`.
"""

from __future__ import annotations

from documents.convert.detect import detect
from documents.convert.engine import to_pdf, unpack
from documents.convert.office import (
    OfficePool,
    PoolSettings,
    close_process_pool,
    process_pool,
)
from documents.convert.types import (
    Container,
    ConversionFailed,
    ConversionTimeout,
    Detected,
    EncryptedDocument,
    Family,
    LimitExceeded,
    Limits,
    OfficeUnavailable,
    PageInfo,
    Part,
    Rendition,
)

__all__ = [
    "Container",
    "ConversionFailed",
    "ConversionTimeout",
    "Detected",
    "EncryptedDocument",
    "Family",
    "LimitExceeded",
    "Limits",
    "OfficePool",
    "OfficeUnavailable",
    "PageInfo",
    "Part",
    "PoolSettings",
    "Rendition",
    "close_process_pool",
    "detect",
    "process_pool",
    "to_pdf",
    "unpack",
]
