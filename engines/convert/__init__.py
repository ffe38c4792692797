"""The converter engines: what a file is, and how it becomes a PDF.

Pure modules, no Django: `detect(path)` reads a file's format from its
bytes; `to_pdf(...)` renders a single document (Office formats through the
supervised LibreOffice pool, `OfficePool`; text, HTML and images in this
process); `unpack(...)` opens a container (e-mail, ZIP) into parts. Inputs
and outputs are the frozen dataclasses of `types.py`.
"""

from __future__ import annotations

from engines.convert.detect import detect
from engines.convert.engine import to_pdf, unpack
from engines.convert.fidelity import (
    EncodingChoice,
    Fidelity,
    FontSubstitution,
    SkippedPart,
)
from engines.convert.office import (
    OfficePool,
    PoolSettings,
    close_process_pool,
    process_pool,
)
from engines.convert.types import (
    Container,
    Detected,
    EncryptedDocument,
    Family,
    LimitExceeded,
    Limits,
    PageInfo,
    Part,
    Rendition,
)
from engines.errors import ConversionFailed, ConversionTimeout, OfficeUnavailable

__all__ = [
    "Container",
    "ConversionFailed",
    "ConversionTimeout",
    "Detected",
    "EncodingChoice",
    "EncryptedDocument",
    "Family",
    "Fidelity",
    "FontSubstitution",
    "LimitExceeded",
    "Limits",
    "OfficePool",
    "OfficeUnavailable",
    "PageInfo",
    "Part",
    "PoolSettings",
    "Rendition",
    "SkippedPart",
    "close_process_pool",
    "detect",
    "process_pool",
    "to_pdf",
    "unpack",
]
