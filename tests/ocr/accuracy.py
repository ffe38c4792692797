"""Word recall and box overlap of OCR on scans of pages whose words are known.

Known words come from two independent sources: FACTS.json's distinctive words
(boxes from `pdftotext -bbox`, displayed points) and every word `pdftotext -bbox`
finds on the original page. A word counts as found when the engine's search on
the OCR'd scan gives a result at its place (boxes meeting); its box is good
when that result's box overlaps the known box, mapped onto the scan, by at least
half (intersection over union).
"""

from __future__ import annotations

import html
import re
import subprocess
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from engines.pdf import text
from engines.pdf.types import SearchQuery
from tests.ocr.scans import Scan, overlap

GOOD_OVERLAP = 0.5
_WORD = re.compile(
    r'<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)</word>'
)
_PUNCTUATION = "\"'“”‘’«».,;:!?()[]{}"


@dataclass
class Score:
    """Found words and good boxes, over the known words looked for."""

    known: int = 0
    found: int = 0
    good_boxes: int = 0
    missed: list[str] = field(default_factory=list)

    @property
    def recall(self) -> float:
        return self.found / self.known if self.known else 1.0

    @property
    def box_share(self) -> float:
        return self.good_boxes / self.found if self.found else 1.0

    def add(self, other: Score) -> Score:
        return Score(
            self.known + other.known,
            self.found + other.found,
            self.good_boxes + other.good_boxes,
            self.missed + other.missed,
        )


Known = tuple[str, tuple[float, float, float, float]]


def poppler_words(path: Path | str, page: int) -> list[Known]:
    """Words of a 0-based page by `pdftotext -bbox` that are worth looking for:
    three letters or more once outer punctuation is trimmed, letters only (no
    formulas, numbers or symbols, which a scan does not make into one word)."""
    xml = subprocess.run(
        [
            "pdftotext",
            "-f",
            str(page + 1),
            "-l",
            str(page + 1),
            "-bbox",
            "-cropbox",
            str(path),
            "-",
        ],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    words: list[Known] = []
    for x0, y0, x1, y1, raw in _WORD.findall(xml):
        word = html.unescape(raw).strip(_PUNCTUATION)
        if len(word) >= 3 and word.isalpha():
            words.append((word, (float(x0), float(y0), float(x1), float(y1))))
    return words


def facts_words(facts: dict[str, object], name: str, page: int) -> list[Known]:
    """FACTS.json's distinctive Latin words of a 0-based page of `name`."""
    entries = facts[name]["distinctive_words"]  # type: ignore[index]
    words: list[Known] = []
    for entry in entries:
        if entry["page"] == page + 1:
            for word in entry["words"]:
                if word.get("script") == "LATIN":
                    words.append((word["word"], tuple(word["bbox"])))
    return words


def score(path: str, page: int, scan: Scan, known: Iterable[Known]) -> Score:
    """How many `known` words the engine's search finds on the OCR'd scan at
    `path` (0-based `page`), and how many of their boxes overlap well."""
    result = Score()
    for word, bbox in known:
        result.known += 1
        truth = scan.to_scan(bbox)
        hits = text.search_page(path, page, SearchQuery(word))
        best = max((overlap(hit.position, truth) for hit in hits), default=0.0)
        if best > 0:
            result.found += 1
            result.good_boxes += best >= GOOD_OVERLAP
        else:
            result.missed.append(word)
    return result


def total(scores: Sequence[Score]) -> Score:
    out = Score()
    for item in scores:
        out = out.add(item)
    return out
