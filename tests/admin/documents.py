"""Documents that look like what people upload: reports, invoices, slides, a
rotated letter, images; plus a few real-world PDFs from the shared corpus.

Each is drawn once per test run (`cache`): the same bytes serve every data set,
and drawing them (the 40-page manual most) cost seconds per test."""

from __future__ import annotations

import io
from collections.abc import Callable
from functools import cache

import pymupdf

from tests import corpus

A4 = (595, 842)
LETTER = (612, 792)
SLIDE = (960, 540)

SENTENCES = (
    "The service turns uploaded documents into the pages each team needs.",
    "Orders select, merge, annotate and redact pages; workers run them in the background.",
    "Every figure in this report comes from the reporting views of the database.",
    "Failures are counted by category so that the operators can act on them.",
    "Thumbnails are drawn once per page and width, then served from the cache.",
    "Owners see only their own documents and orders when keys are required.",
)


def _paragraphs(page: pymupdf.Page, top: float, lines: int, width: float) -> None:
    for n in range(lines):
        page.insert_text(
            (56, top + 16 * n),
            SENTENCES[n % len(SENTENCES)],
            fontsize=10.5,
            color=(0.2, 0.2, 0.25),
        )


def _bars(
    page: pymupdf.Page,
    x: float,
    y: float,
    values: list[int],
    color: tuple[float, float, float],
) -> None:
    for n, value in enumerate(values):
        rect = pymupdf.Rect(x + n * 34, y - value, x + n * 34 + 24, y)
        page.draw_rect(rect, color=None, fill=color)
    page.draw_line((x - 6, y), (x + len(values) * 34, y), color=(0.5, 0.5, 0.5))


@cache
def report(
    title: str,
    pages: int,
    accent: tuple[float, float, float],
    size: tuple[float, float] = A4,
) -> bytes:
    doc = pymupdf.open()
    w, h = size
    for n in range(pages):
        page = doc.new_page(width=w, height=h)
        if n == 0:
            page.draw_rect(pymupdf.Rect(0, 0, w, h * 0.38), color=None, fill=accent)
            page.insert_text((56, h * 0.22), title, fontsize=30, color=(1, 1, 1))
            page.insert_text(
                (56, h * 0.22 + 34),
                "Transformsvc sample document",
                fontsize=13,
                color=(1, 1, 1),
            )
            _paragraphs(page, h * 0.46, 12, w)
            continue
        page.draw_rect(pymupdf.Rect(0, 0, w, 36), color=None, fill=accent)
        page.insert_text(
            (56, 76), f"{n}. {title} — section {n}", fontsize=17, color=accent
        )
        _paragraphs(page, 104, 14, w)
        if n % 2:
            _bars(
                page, 80, 520, [40 + (n * 37 + k * 53) % 150 for k in range(8)], accent
            )
        _paragraphs(page, 560, 12, w)
        page.insert_text(
            (w - 80, h - 30), f"page {n + 1}", fontsize=9, color=(0.5, 0.5, 0.5)
        )
    return doc.tobytes(garbage=3, deflate=True)


@cache
def invoice(number: int) -> bytes:
    doc = pymupdf.open()
    page = doc.new_page(width=A4[0], height=A4[1])
    page.insert_text((56, 80), f"INVOICE {number}", fontsize=26, color=(0.1, 0.3, 0.6))
    page.insert_text(
        (56, 110), "Acme Document Services · 12 Paper Street · Lyon", fontsize=10
    )
    page.insert_text((380, 80), "Customer: Alice Smith", fontsize=11)
    page.insert_text((380, 96), "Account: ACC-55-1042", fontsize=11)
    y = 170
    for n, (item, price) in enumerate(
        [
            ("Page assembly", 120),
            ("Redaction", 340),
            ("Annotations", 90),
            ("Storage", 25),
        ]
    ):
        page.draw_rect(
            pymupdf.Rect(56, y + n * 26 - 17, 540, y + n * 26 + 7),
            color=(0.85, 0.85, 0.9),
            fill=(0.97, 0.97, 1) if n % 2 else None,
        )
        page.insert_text((64, y + n * 26), item, fontsize=11)
        page.insert_text((470, y + n * 26), f"{price:>6} EUR", fontsize=11)
    page.insert_text(
        (380, y + 140), "Total: 575 EUR", fontsize=14, color=(0.1, 0.3, 0.6)
    )
    return doc.tobytes(garbage=3, deflate=True)


@cache
def slides(title: str, count: int) -> bytes:
    doc = pymupdf.open()
    for n in range(count):
        page = doc.new_page(width=SLIDE[0], height=SLIDE[1])
        page.draw_rect(page.rect, color=None, fill=(0.12, 0.16, 0.28))
        page.insert_text(
            (60, 110),
            f"{title}" if n == 0 else f"Slide {n + 1}",
            fontsize=40,
            color=(1, 1, 1),
        )
        for k in range(4):
            page.insert_text(
                (80, 190 + 50 * k),
                "• " + SENTENCES[(n + k) % len(SENTENCES)][:60],
                fontsize=20,
                color=(0.85, 0.9, 1),
            )
    return doc.tobytes(garbage=3, deflate=True)


@cache
def letter(rotate: int) -> bytes:
    doc = pymupdf.open()
    page = doc.new_page(width=LETTER[0], height=LETTER[1])
    page.insert_text((72, 90), "Dear Alice Smith,", fontsize=13)
    page.insert_text(
        (72, 120),
        "Your account ACC-55-1042 and your address at Secretstreet 5",
        fontsize=11,
    )
    page.insert_text(
        (72, 136), "will be removed from the copy we send to the auditors.", fontsize=11
    )
    _paragraphs(page, 170, 10, LETTER[0])
    page.insert_text((72, 360), "Kind regards, the records office", fontsize=11)
    page.set_rotation(rotate)
    return doc.tobytes(garbage=3, deflate=True)


@cache
def picture(fmt: str, hue: int) -> bytes:
    """A chart-like picture as PNG or JPEG (drawn on a page, then rendered)."""
    doc = pymupdf.open()
    page = doc.new_page(width=400, height=300)
    page.draw_rect(page.rect, color=None, fill=(0.98, 0.98, 0.96))
    colors = [(0.9, 0.4, 0.3), (0.3, 0.6, 0.9), (0.4, 0.8, 0.5), (0.95, 0.75, 0.3)]
    for n in range(10):
        value = 30 + (n * 41 + hue) % 200
        page.draw_rect(
            pymupdf.Rect(30 + n * 35, 260 - value, 55 + n * 35, 260),
            color=None,
            fill=colors[(n + hue) % 4],
        )
    page.insert_text((30, 30), f"Scanned chart {hue}", fontsize=16)
    pix = page.get_pixmap(dpi=96)
    return pix.tobytes("jpg" if fmt == "jpeg" else "png")


@cache
def tiff_pages(count: int) -> bytes | None:
    """A multi-frame TIFF (one frame per scanned page), when Pillow is there."""
    try:
        from PIL import Image
    except ImportError:
        return None
    frames = [
        Image.open(io.BytesIO(picture("png", 7 * n))).convert("RGB")
        for n in range(count)
    ]
    out = io.BytesIO()
    frames[0].save(
        out, format="TIFF", save_all=True, append_images=frames[1:], dpi=(96, 96)
    )
    return out.getvalue()


def generated() -> list[tuple[str, Callable[[], bytes | None]]]:
    return [
        (
            "Annual report 2026",
            lambda: report("Annual report 2026", 12, (0.13, 0.36, 0.62)),
        ),
        (
            "Contract Acme – Lyon",
            lambda: report("Contract Acme", 5, (0.45, 0.2, 0.5), LETTER),
        ),
        ("Invoice 1042", lambda: invoice(1042)),
        ("Invoice 1043", lambda: invoice(1043)),
        ("Quarterly slides", lambda: slides("Quarterly review", 8)),
        ("Letter to Alice (scanned, rotated)", lambda: letter(90)),
        ("Letter to Alice", lambda: letter(0)),
        ("Operations manual", lambda: report("Operations manual", 40, (0.1, 0.5, 0.4))),
        ("Chart scan", lambda: picture("png", 3)),
        ("Site photo", lambda: picture("jpeg", 11)),
        ("Fax pages", lambda: tiff_pages(3)),
    ]


CORPUS_FILES = (
    ("TraceMonkey paper", "tracemonkey.pdf"),
    ("Reference card", "refcard-a4.pdf"),
    ("Tax form 1040", "prefilled_f1040.pdf"),
    ("Three columns", "three_columns.pdf"),
    ("Page sizes", "sizes.pdf"),
    ("Rotated pages", "rotation.pdf"),
)


def from_corpus() -> list[tuple[str, bytes]]:
    if not corpus.available():
        return []
    return [
        (title, (corpus.CORPUS / name).read_bytes()) for title, name in CORPUS_FILES
    ]
