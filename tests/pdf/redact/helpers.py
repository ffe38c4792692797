"""Helpers of the redaction tests: documents written for them, and the
independent readers (poppler's pdftotext, pikepdf) that judge what was removed."""

from __future__ import annotations

import subprocess
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pikepdf
import pymupdf

from engines.pdf import geometry, redact
from engines.pdf.annotate import apply_annotations
from engines.pdf.types import Annotation, Box, Placement, Rgb

LINES = ("alpha bravo charlie", "delta secret echo", "foxtrot golf hotel")
XMP = """<?xpacket begin="\ufeff" id="W5M0MpCehiHzreSzNTczkc9d"?>
<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF
 xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
<rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/"
 xmlns:pdf="http://ns.adobe.com/pdf/1.3/" pdf:Keywords="budget, Secret, plans">
<dc:title><rdf:Alt><rdf:li xml:lang="x-default">The secret report</rdf:li></rdf:Alt>
</dc:title></rdf:Description></rdf:RDF></x:xmpmeta>
<?xpacket end="w"?>"""


def write_lines(
    page: pymupdf.Page,
    lines: Sequence[str],
    *,
    top: float = 100,
    leading: float = 13,
    size: float = 12,
) -> None:
    for number, line in enumerate(lines):
        page.insert_text((50, top + number * leading), line, fontsize=size)


def word_box(page: pymupdf.Page, word: str) -> Box:
    """The word's first box in displayed space, as the search endpoint gives it."""
    rect = next(pymupdf.Rect(w[:4]) for w in page.get_text("words") if w[4] == word)
    return geometry.rect_to_box(geometry.page_rect_to_display(page, rect))


def line_boxes(page: pymupdf.Page) -> list[pymupdf.Rect]:
    """The page's text lines, top to bottom (unrotated page space)."""
    blocks = page.get_text("rawdict")["blocks"]
    lines = [line for block in blocks for line in block.get("lines", ())]
    return sorted((pymupdf.Rect(line["bbox"]) for line in lines), key=lambda r: r.y0)


def redaction(page: int, *boxes: Box, colour: Rgb | None = None) -> Placement:
    return Placement(
        page,
        Annotation(
            kind="RedactTextElemType",
            document_key="doc",
            page=page,
            annotation_id="r",
            coords=boxes,
            color=colour,
        ),
    )


def zone(page: int, box: Box, colour: Rgb | None = None) -> Placement:
    return Placement(
        page,
        Annotation(
            kind="RedactElemType",
            document_key="doc",
            page=page,
            annotation_id="z",
            position=box,
            interior_color=colour,
        ),
    )


def texts(removed: Sequence[redact.Removed]) -> list[str]:
    return [run.text for run in removed]


def glyph_tokens(page: pymupdf.Page) -> list[list[tuple[str, int, int]]]:
    """The page's white-space tokens, each a list of glyphs (char, origin x and y
    in hundredths of a point): a glyph keeps its origin when others go."""
    tokens: list[list[tuple[str, int, int]]] = []
    for block in page.get_text("rawdict")["blocks"]:
        for line in block.get("lines", ()):
            tokens.append([])
            for span in line["spans"]:
                for char in span["chars"]:
                    if char["c"].isspace():
                        tokens.append([])
                        continue
                    x, y = char["origin"]
                    tokens[-1].append((char["c"], round(x * 100), round(y * 100)))
    return [token for token in tokens if token]


def redact_file(src: Path, placements: list[Placement], mode: str = "burn") -> Path:
    dest = src.with_name(f"{src.stem}-redacted.pdf")
    apply_annotations(str(src), str(dest), placements, mode=mode)  # type: ignore[arg-type]
    return dest


def pdftotext(path: Path, *args: str) -> str:
    done = subprocess.run(
        ["pdftotext", *args, str(path), "-"], capture_output=True, text=True, check=True
    )
    return done.stdout


def text_lines(path: Path) -> list[str]:
    return [
        line.strip() for line in pdftotext(path, "-layout").splitlines() if line.strip()
    ]


def strings_and_streams(path: Path) -> Iterator[bytes]:
    """Every stream (decoded) and string object of the file, as bytes."""
    with pikepdf.open(path) as pdf:
        pending: list[Any] = [pdf.trailer, *pdf.objects]
        seen: set[tuple[int, int]] = set()
        while pending:
            obj = pending.pop()
            if isinstance(obj, pikepdf.Object) and obj.is_indirect:
                if obj.objgen in seen:
                    continue
                seen.add(obj.objgen)
            if isinstance(obj, pikepdf.Stream):
                try:
                    yield obj.read_bytes()
                except pikepdf.PdfError:
                    yield obj.read_raw_bytes()
            if isinstance(obj, pikepdf.Dictionary | pikepdf.Stream):
                pending.extend(obj[key] for key in obj.keys())
            elif isinstance(obj, pikepdf.Array):
                pending.extend(obj)
            elif isinstance(obj, pikepdf.String):
                yield bytes(obj)


def contains_word(path: Path, word: str) -> bool:
    forms = [word.encode("latin-1"), word.encode("utf-16-be")]
    forms += [form.lower() for form in forms] + [form.upper() for form in forms]
    raw = path.read_bytes()
    if any(form in raw for form in forms):
        return True
    return any(
        form.lower() in blob.lower()
        for blob in strings_and_streams(path)
        for form in forms
    )


# --- the document most tests redact ----------------------------------------------
