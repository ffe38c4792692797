"""The documents the benchmarks use, generated once under var/bench/inputs.

Full runs read octave.pdf (1,158 pages) from the shared corpus; smoke runs use a
generated 40-page stand-in, so they need no corpus.
"""

from __future__ import annotations

import functools
import os
import subprocess
from collections.abc import Callable
from pathlib import Path

import pikepdf
import pymupdf

from bench.bench_assemble import make_document
from bench.bench_compare import make_edited_copy
from tests.corpus import CORPUS

SECRET = "ACCT-4711-0815"


class Inputs:
    """Paths of the inputs, each made on first use and kept for later runs."""

    def __init__(self, root: Path, *, smoke: bool) -> None:
        self.root = root
        self.smoke = smoke
        root.mkdir(parents=True, exist_ok=True)

    def _made(self, name: str, make: Callable[[Path], object]) -> Path:
        path = self.root / name
        if not path.exists():
            partial = path.with_name(path.name + ".part")
            make(partial)
            os.replace(partial, path)
        return path

    @property
    def has_octave(self) -> bool:
        return self.smoke or (CORPUS / "octave.pdf").is_file()

    def octave(self) -> Path:
        """octave.pdf, or in a smoke run a generated text document of 40 pages."""
        if not self.smoke:
            return CORPUS / "octave.pdf"
        return self._made(
            "octave-standin.pdf", lambda p: make_document(str(p), "S", 40)
        )

    def octave_edited(self) -> Path:
        """octave.pdf with 20 words replaced on pages spread over it (4 in a smoke run)."""
        edits = 4 if self.smoke else 20
        return self._made(
            f"octave-edited-{edits}.pdf",
            lambda p: make_edited_copy(self.octave(), p, edits=edits),
        )

    def manual(self) -> Path:
        """A 2,415-page manual: octave.pdf twice and its first 99 pages (qpdf
        --pages; in a smoke run the 40-page stand-in twice)."""
        source = str(self.octave())
        extra = [source, "1-99"] if not self.smoke else []
        name = "manual-80p.pdf" if self.smoke else "manual-2415p.pdf"
        return self._made(
            name,
            lambda p: subprocess.run(
                ["qpdf", "--empty", "--pages", source, source, *extra, "--", str(p)],
                check=True,
            ),
        )

    def manual_edited(self) -> Path:
        """The manual with 20 words replaced on pages spread over it (4 in a smoke run)."""
        edits = 4 if self.smoke else 20
        return self._made(
            f"{self.manual().stem}-edited-{edits}.pdf",
            lambda p: make_edited_copy(self.manual(), p, edits=edits),
        )

    def merge_parts(self, count: int, pages: int) -> list[Path]:
        return [
            self._made(
                f"merge-{pages}p-{n:02d}.pdf",
                functools.partial(_make_part, label=f"D{n}", pages=pages),
            )
            for n in range(count)
        ]

    def report(self, pages: int) -> Path:
        """A generated report-like document of `pages` pages (fonts, an image)."""
        return self._made(
            f"report-{pages}p.pdf", lambda p: make_document(str(p), "R", pages)
        )

    def redaction_document(self) -> Path:
        """10 pages, each with three lines holding SECRET among other text."""
        return self._made("redaction-10p.pdf", _redaction_document)

    def small(self, n: int) -> Path:
        """A 3-page document of a few lines per page (the throughput orders)."""
        return self._made(f"small-{n}.pdf", lambda p: _small(p, n))

    def word(self) -> Path:
        """A Word file of about 100 KB (17 pages laid out): text, a table, a picture."""
        from bench.bench_convert import make_document  # python-docx

        return self._made("word-100k.docx", make_document)

    def large(self, megabytes: int) -> Path:
        """A PDF of about `megabytes` MB, made of incompressible image streams."""
        return self._made(f"large-{megabytes}mb.pdf", lambda p: _large(p, megabytes))


def pick_word(page: pymupdf.Page) -> str:
    """A word of at least 6 letters from the middle of the page (a search target)."""
    words = page.get_text("words", sort=False)
    for word in words[len(words) // 2 :] + words[: len(words) // 2]:
        if len(word[4]) >= 6 and word[4].isalpha():
            return str(word[4])
    raise ValueError(f"page {page.number} has no word to search for")


def _redaction_document(dest: Path) -> None:
    doc = pymupdf.open()
    filler = "The quarterly statement lists the transfers of the account holder. "
    for number in range(1, 11):
        page = doc.new_page()
        page.insert_text((72, 72), f"Statement page {number}", fontsize=16)
        lines = []
        for n in range(40):
            if n in (5, 17, 29):
                day = f"2026-03-0{n % 9 + 1}"
                lines.append(
                    f"Transfer {number}.{n} to {SECRET} of 1,250.00 EUR on {day}"
                )
            else:
                lines.append(f"{number}.{n} {filler[: 60 + n % 20]}")
        page.insert_text((72, 100), lines, fontsize=10)
    doc.save(str(dest), garbage=3, deflate=True)
    doc.close()


def _small(dest: Path, n: int) -> None:
    doc = pymupdf.open()
    for number in range(1, 4):
        page = doc.new_page()
        page.insert_text(
            (72, 100),
            [
                f"Small document {n}, page {number}",
                "A short letter of a few lines.",
                "Regards",
            ],
            fontsize=12,
        )
    doc.save(str(dest), garbage=3, deflate=True)
    doc.close()


def _large(dest: Path, megabytes: int) -> None:
    # Raw (unfiltered) random samples: no compressor can shrink them, so the file
    # is as big as promised and the service cannot get away with less I/O.
    side = 1024
    image_bytes = side * side * 3
    pages = max(1, -(-megabytes * 2**20 // image_bytes))
    pdf = pikepdf.new()
    for _ in range(pages):
        image = pikepdf.Stream(pdf, os.urandom(image_bytes))
        image.Type = pikepdf.Name.XObject
        image.Subtype = pikepdf.Name.Image
        image.Width, image.Height = side, side
        image.ColorSpace = pikepdf.Name.DeviceRGB
        image.BitsPerComponent = 8
        content = pikepdf.Stream(pdf, b"q 595 0 0 595 0 123 cm /Im0 Do Q")
        page = pikepdf.Dictionary(
            Type=pikepdf.Name.Page,
            MediaBox=[0, 0, 595, 842],
            Contents=content,
            Resources=pikepdf.Dictionary(XObject=pikepdf.Dictionary(Im0=image)),
        )
        pdf.pages.append(pikepdf.Page(page))
    pdf.save(
        str(dest),
        compress_streams=False,
        stream_decode_level=pikepdf.StreamDecodeLevel.none,
    )


def _make_part(path: Path, *, label: str, pages: int) -> None:
    make_document(str(path), label, pages)
