"""The hostile corpus's cases: what each builder returns, and shared helpers.

Every builder writes one small PDF and returns a `Case`: where the secret is
shown (page, zones in displayed space), and the other words of that page,
most of which must survive. The secret is written only where redacting the
shown word must remove it, unless `scope` is "page" (then other pages keep
their own copy legitimately).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from pikepdf import Dictionary

from engines.pdf.types import Box
from tests.pdf.redaction.pdfkit import (
    HEIGHT,
    Doc,
    grown,
    width,
    word_box,
)

SECRET = "Acme"
SECRET_LINE = "Invoice for Acme sent today"
SECRET_BASELINE = 220.0
PLAIN = [
    (250.0, "Alpha bravo charlie delta echo"),
    (190.0, "foxtrot golf hotel india juliet"),
    (160.0, "kilo lima mike november oscar"),
    (130.0, "papa quebec romeo sierra tango"),
]


@dataclass(frozen=True)
class Case:
    name: str
    path: Path
    zones: tuple[Box, ...]
    others: tuple[str, ...]
    page: int = 0
    secret: str = SECRET
    # "document": the secret must be gone from the whole file; "page": from the
    # redacted page only (another page shows its own copy).
    scope: str = "document"
    notes: dict[str, object] = field(default_factory=dict)


def words(*lines: str) -> tuple[str, ...]:
    return tuple(
        w.strip(".,:;'") for line in lines for w in line.split() if SECRET not in w
    )


def standard(doc: Doc, line: str = SECRET_LINE, **page: str) -> Dictionary:
    return doc.page([*PLAIN[:1], (SECRET_BASELINE, line), *PLAIN[1:]], **page)


def secret_box(line: str = SECRET_LINE, nth: int = 0, secret: str = SECRET) -> Box:
    start = -1
    for _ in range(nth + 1):
        start = line.index(secret, start + 1)
    box = word_box(line[start:], secret, SECRET_BASELINE)
    return Box(box.x + width(line[:start]), box.y, box.w, box.h)


def pdf_rect(box: Box) -> list[float]:
    """A displayed-space box on an unrotated 400 × 300 page as an /Rect."""
    return [box.x, HEIGHT - box.y - box.h, box.x + box.w, HEIGHT - box.y]


def case(
    name: str, path: Path, doc: Doc, line: str = SECRET_LINE, **kw: object
) -> Case:
    doc.save(str(path))
    secret = str(kw.get("secret", SECRET))
    zones = kw.pop("zones") if "zones" in kw else (grown(secret_box(line, 0, secret)),)
    others = kw.pop("others") if "others" in kw else words(line, *(t for _, t in PLAIN))
    return Case(name, path, zones, others, **kw)  # type: ignore[arg-type]
