"""Helpers for order tests: post an order, read outputs with independent tools."""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Any

from documents.models import Document


def order_body(
    *details: list[dict[str, Any]],
    fmt: str = "pdf",
    annotations: list[dict[str, Any]] | None = None,
    titles: list[str | None] | None = None,
) -> dict[str, Any]:
    body: dict[str, Any] = {
        "format": fmt,
        "transformationDetails": [
            {
                "transformationElements": elements,
                **({"documentTitle": titles[n]} if titles else {}),
            }
            for n, elements in enumerate(details)
        ],
    }
    if annotations is not None:
        body["annotations"] = {"annotations": annotations}
    return body


def element(
    doc_id: str, *ranges: tuple[int, int], title: str | None = None
) -> dict[str, Any]:
    out: dict[str, Any] = {"documentId": doc_id}
    if ranges:
        out["pagesSelectionList"] = [{"minPage": a, "maxPage": b} for a, b in ranges]
    if title is not None:
        out["documentTitle"] = title
    return out


def file_path(document_id: str) -> Path:
    return Path(Document.objects.get(pk=document_id).file.path)


def pdftotext_pages(path: Path) -> list[str]:
    """Text of each page according to poppler (an extractor independent of ours)."""
    out = subprocess.run(
        ["pdftotext", "-layout", str(path), "-"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    pages = out.split("\f")
    if pages and not pages[-1].strip():
        pages = pages[:-1]
    return [" ".join(p.split()) for p in pages]


def qpdf_check(path: Path) -> None:
    result = subprocess.run(
        ["qpdf", "--check", str(path)], capture_output=True, text=True
    )
    assert result.returncode == 0, result.stdout + result.stderr
