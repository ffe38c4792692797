"""What a rendition kept and what it could not: the fidelity report.

Every `Rendition` carries one. It says how many pages were made, how the
text was decoded (text, HTML, CSV, a mail's body) and how sure that choice
is, which fonts the source asked for and which the PDF uses instead, and
which parts of the source are not shown (macros, links to other files,
hidden sheets, comments...). It is what an operator reads to see a bad
rendition before a client does; `to_json()` is its stored form.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

# The kinds of `SkippedPart`, in the order they are reported.
SKIPPED_KINDS = (
    "macros",  # VBA projects, Basic libraries: never run, never shown
    "external_links",  # cells or fields that refer to other files or the web
    "hidden_sheets",  # sheets hidden in the workbook: not printed
    "hidden_slides",
    "comments",  # Word, Calc and Impress comments: not printed
    "notes",  # speaker notes of slides: not printed
    "embedded_files",  # OLE objects shown as their picture only
)


@dataclass(frozen=True, slots=True)
class FontSubstitution:
    """A font the source asked for, and the one the rendition shows instead.
    `metric_compatible`: the stand-in has the same advance widths (Carlito
    for Calibri...), so lines break where the author saw them break."""

    asked: str
    used: str
    metric_compatible: bool = False


@dataclass(frozen=True, slots=True)
class SkippedPart:
    """Parts of the source the rendition does not show: `kind` (one of
    `SKIPPED_KINDS`), how many, and their names where the source has them
    (sheet names, linked files), at most a few."""

    kind: str
    count: int
    names: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class EncodingChoice:
    """How a text's bytes are decoded (see `detect.charset`).

    `name`: a Python codec name. `source`: "bom", "declared" (an HTML
    `<meta charset>`, a MIME charset, an Outlook code page), "given" (by
    the caller, unchecked), "utf-8" (the bytes are valid UTF-8), "utf-16"
    (NULs every other byte, no BOM) or "detected" (charset-normalizer).
    `confidence`: 0 to 1; 1 for a BOM or a declaration, 1 - chaos (at most
    0.99) for a guess. `language`: the
    language the decoded text reads as, when a guess names one.
    """

    name: str
    source: str
    confidence: float
    language: str | None = None


@dataclass(frozen=True, slots=True)
class Fidelity:
    """The fidelity report of one rendition.

    `pages`: pages made. `encoding`: for text, HTML, CSV and mail bodies.
    `fonts_asked`: font families the source names (OOXML/ODF packages; empty
    where it cannot be read); `fonts_used`: families embedded in the PDF;
    `substitutions`: asked fonts not in the PDF and what stands in for them.
    `skipped`: parts not shown. `notes`: anything else worth knowing, one
    sentence each.
    """

    pages: int = 0
    encoding: EncodingChoice | None = None
    fonts_asked: tuple[str, ...] = ()
    fonts_used: tuple[str, ...] = ()
    substitutions: tuple[FontSubstitution, ...] = ()
    skipped: tuple[SkippedPart, ...] = ()
    notes: tuple[str, ...] = field(default=())

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict (keys snake_case; stored as is, shown in SQL)."""
        return {
            "pages": self.pages,
            "encoding": None
            if self.encoding is None
            else {
                "name": self.encoding.name,
                "source": self.encoding.source,
                "confidence": self.encoding.confidence,
                "language": self.encoding.language,
            },
            "fonts_asked": list(self.fonts_asked),
            "fonts_used": list(self.fonts_used),
            "substitutions": [
                {
                    "asked": sub.asked,
                    "used": sub.used,
                    "metric_compatible": sub.metric_compatible,
                }
                for sub in self.substitutions
            ],
            "skipped": [
                {"kind": part.kind, "count": part.count, "names": list(part.names)}
                for part in self.skipped
            ],
            "notes": list(self.notes),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Fidelity:
        """The report `to_json()` wrote."""
        encoding = data.get("encoding")
        return cls(
            pages=int(data.get("pages", 0)),
            encoding=None if not encoding else EncodingChoice(**encoding),
            fonts_asked=tuple(data.get("fonts_asked", ())),
            fonts_used=tuple(data.get("fonts_used", ())),
            substitutions=tuple(
                FontSubstitution(**sub) for sub in data.get("substitutions", ())
            ),
            skipped=tuple(
                SkippedPart(part["kind"], part["count"], tuple(part.get("names", ())))
                for part in data.get("skipped", ())
            ),
            notes=tuple(data.get("notes", ())),
        )


__all__ = [
    "SKIPPED_KINDS",
    "EncodingChoice",
    "Fidelity",
    "FontSubstitution",
    "SkippedPart",
]
