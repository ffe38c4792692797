"""Numbered source PDFs, and outputs read by tools other than the code under test:
page text by poppler's pdftotext, geometry by pdfinfo, validity by `qpdf --check`.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pymupdf


def _numbered(path: Path, label: str, pages: int, *, links: bool = False) -> str:
    """A PDF whose page n (1-based) reads "doc <label> page <n>"."""
    doc = pymupdf.open()
    for n in range(1, pages + 1):
        page = doc.new_page(width=400, height=300)
        page.insert_text((40, 60), f"doc {label} page {n}", fontsize=14)
    if links:
        for n in range(pages - 1):  # page n links to page n+1 (0-based)
            doc[n].insert_link(
                {
                    "kind": pymupdf.LINK_GOTO,
                    "page": n + 1,
                    "from": pymupdf.Rect(40, 40, 200, 70),
                }
            )
        doc[0].insert_link(
            {
                "kind": pymupdf.LINK_URI,
                "uri": "https://example.org/",
                "from": pymupdf.Rect(40, 100, 200, 120),
            }
        )
    doc.save(str(path))
    doc.close()
    return str(path)


def _texts(path: str) -> list[str]:
    """The text of every page, by pdftotext (pages split on form feeds)."""
    out = subprocess.run(
        ["pdftotext", "-layout", path, "-"], capture_output=True, check=True, text=True
    ).stdout
    return [" ".join(page.split()) for page in out.split("\f")[:-1]]


def _page_text(path: str, number: int) -> str:
    """Text of page `number` (1-based), by pdftotext."""
    out = subprocess.run(
        ["pdftotext", "-f", str(number), "-l", str(number), path, "-"],
        capture_output=True,
        check=True,
        text=True,
    ).stdout
    return out


def _qpdf_check(path: str) -> None:
    done = subprocess.run(["qpdf", "--check", path], capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr


def _geometry(path: str) -> list[dict[str, str]]:
    """Per page (in order): pdfinfo's rot, size, MediaBox and CropBox lines."""
    out = subprocess.run(
        ["pdfinfo", "-f", "1", "-l", "100000", "-box", path],
        capture_output=True,
        check=True,
        text=True,
    ).stdout
    pages: dict[int, dict[str, str]] = {}
    for line in out.splitlines():
        found = re.match(r"Page\s+(\d+)\s+(size|rot|MediaBox|CropBox):\s+(.*)", line)
        if found:
            pages.setdefault(int(found[1]), {})[found[2]] = " ".join(found[3].split())
    return [pages[n] for n in sorted(pages)]
