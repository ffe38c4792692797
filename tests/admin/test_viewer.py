"""The admin's document viewer in headless Chromium, served in process by the
test client: what it draws is read back from screenshots, pixel by pixel, at
the places an independent reader (PyMuPDF's own search of the uploaded file)
says the words are; keys turn pages; a 2,415-page document loads a few images.
Screenshots are kept in var/screenshots/ for people to look at."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any
from urllib.parse import quote

import pymupdf
import pytest
from django.contrib.admin.utils import quote as admin_quote

from tests.admin import dataset
from tests.admin import documents as samples
from tests.admin.chromium import ServedChromium
from tests.admin.client_api import ClientApi
from tests.live import ROOT

OUT = ROOT / "var" / "screenshots"
Box = tuple[float, float, float, float]  # x, y, w, h
PREFIX = dataset.PREFIX

# The colours viewer.css draws, over a white page: the current search hit (orange
# at 0.5), a stored square (its interiorColor 0,128,255 at its opacity 0.5), a
# pending redaction (#111827 at 0.55).
CURRENT_HIT = (252, 185, 138)
SQUARE = (128, 192, 255)
REDACTION = (124, 128, 136)
SQUARE_BOX: Box = (80.0, 640.0, 220.0, 60.0)  # points; blank paper on page 1
REDACTED_BOX: Box = (340.0, 640.0, 180.0, 60.0)
BIG = 2415


@pytest.fixture(scope="module")
def browser() -> Iterator[ServedChromium]:
    chromium = ServedChromium(width=1400, height=900)
    try:
        yield chromium
    finally:
        chromium.client = None  # the test's database is gone: answer nothing more
        chromium.close()


def viewer_path(document_id: str, query: str = "") -> str:
    return f"/admin/documents/document/{admin_quote(document_id)}/viewer/{query}"


def big_pdf(pages: int) -> bytes:
    doc = pymupdf.open()
    for n in range(pages):
        doc.new_page(width=595, height=842).insert_text(
            (72, 90), f"Manual page {n + 1}"
        )
    return doc.tobytes(garbage=3, deflate=True)


def share(png: bytes, box: Box, rgb: tuple[int, ...]) -> float:
    """The share of the pixels inside `box` (x, y, w, h in screenshot pixels,
    2 px in from its edges) that are within 10 of `rgb` on each channel."""
    pix = pymupdf.Pixmap(png)
    x0, y0 = int(box[0]) + 2, int(box[1]) + 2
    x1, y1 = int(box[0] + box[2]) - 2, int(box[1] + box[3]) - 2
    seen = near = 0
    for y in range(y0, y1):
        for x in range(x0, x1):
            seen += 1
            near += all(
                abs(a - b) <= 10 for a, b in zip(pix.pixel(x, y)[:3], rgb, strict=True)
            )
    return near / max(1, seen)


def on_screen(browser: ServedChromium, box: Box, width_pt: float) -> Box:
    """`box` (points on the page shown) in screenshot pixels, from where the
    page's image is on screen."""
    left, top, width = browser.evaluate(
        "(r => [r.left, r.top, r.width])"
        "(document.querySelector('.ts-v-image').getBoundingClientRect())"
    )
    scale = width / width_pt
    return (left + box[0] * scale, top + box[1] * scale, box[2] * scale, box[3] * scale)


def shapes_drawn(
    browser: ServedChromium, width_pt: float, *, keep: bool
) -> dict[str, float]:
    """The share of the square's and of the redaction's colours at their places,
    the page scrolled to show them (kept in var/screenshots/ when `keep`)."""
    scale = browser.evaluate("window.tsViewer.scale()")
    browser.evaluate(f"window.tsViewer.stage.scrollTop = {SQUARE_BOX[1] * scale - 200}")
    shot = browser.screenshot()
    if keep:
        OUT.mkdir(parents=True, exist_ok=True)
        (OUT / "viewer-annotation-redaction.png").write_bytes(shot)
    return {
        "square": share(shot, on_screen(browser, SQUARE_BOX, width_pt), SQUARE),
        "redaction": share(shot, on_screen(browser, REDACTED_BOX, width_pt), REDACTION),
    }


def test_the_viewer_draws_hits_annotations_and_redactions_and_turns_pages(
    browser: ServedChromium,
    staff: Any,
    django_capture_on_commit_callbacks: Any,
) -> None:
    api = ClientApi(staff, django_capture_on_commit_callbacks)
    report = samples.report("Annual report 2026", 12, (0.13, 0.36, 0.62))
    doc = dataset.upload(api, "Annual report 2026", report)
    big = dataset.upload(api, "Operations manual, all of it", big_pdf(BIG))
    square = {
        "type": PREFIX + "SquareElemType",
        "documentId": {"id": doc},
        "page": 0,
        "position": dict(zip("xywh", SQUARE_BOX, strict=True)),
        "interiorColor": {"r": 0, "g": 128, "b": 255},
        "opacity": 0.5,
        "id": "sq-1",
    }
    status, _ = api.request(
        "PUT",
        f"/annotation?documentId={quote(doc, safe='')}",
        body={"annotations": [square]},
    )
    assert status == 200
    api.workers = False  # the redaction waits for a worker: it is pending
    zone = {
        "type": PREFIX + "RedactElemType",
        "documentId": {"id": doc},
        "page": 0,
        "position": dict(zip("xywh", REDACTED_BOX, strict=True)),
        "id": {"id": "zone-1"},
    }
    _, state = dataset.transformation(
        api, [dataset.element(doc)], annotations={"annotations": [zone]}
    )
    assert state == "QUEUED"

    # Where the words are, read by PyMuPDF from the uploaded file itself.
    pdf = pymupdf.open(stream=report)
    first_hit = pdf[0].search_for("figure")[0]
    hit_box = (first_hit.x0, first_hit.y0, first_hit.width, first_hit.height)
    width_pt = pdf[0].rect.width

    browser.client = staff
    browser.open(viewer_path(doc, "?q=figure"))
    found = browser.until(
        "(t => t.includes('hits on') && !t.includes('…') && t)"
        "(document.querySelector('.ts-v-found').textContent)"
    )
    assert found and found.startswith("1 of ") and "on 12 pages" in found, found
    assert browser.until("document.querySelector('.ts-v-image').complete")
    OUT.mkdir(parents=True, exist_ok=True)
    shot = browser.screenshot()
    (OUT / "viewer-search.png").write_bytes(shot)
    scrolled = browser.evaluate("window.tsViewer.stage.scrollTop")  # to the hit
    hit_share = share(shot, on_screen(browser, hit_box, width_pt), CURRENT_HIT)
    drawn = {"hit": hit_share, **shapes_drawn(browser, width_pt, keep=True)}
    assert drawn["hit"] > 0.4 and drawn["square"] > 0.9 and drawn["redaction"] > 0.9, (
        drawn
    )

    # The same places with nothing drawn over them are the page's own paper.
    browser.evaluate(
        "document.querySelectorAll('.ts-v-layer input').forEach(b => b.click());"
        f"window.tsViewer.run(''); window.tsViewer.stage.scrollTop = {scrolled}"
    )
    hit_share = share(
        browser.screenshot(), on_screen(browser, hit_box, width_pt), CURRENT_HIT
    )
    undrawn = {"hit": hit_share, **shapes_drawn(browser, width_pt, keep=False)}
    assert max(undrawn.values()) < 0.05, undrawn

    # Keys turn pages: the number shown and the picture change together.
    def shown() -> tuple[str, str]:
        page, src = browser.evaluate(
            "[document.querySelector('.ts-v-pageno').value,"
            " document.querySelector('.ts-v-image').getAttribute('src')]"
        )
        return str(page), str(src)

    assert shown()[0] == "1" and "/page/0.png" in shown()[1]
    for key, number in (("PageDown", 2), ("ArrowRight", 3), ("End", 12), ("Home", 1)):
        browser.press(key)
        page, src = shown()
        assert page == str(number) and f"/page/{number - 1}.png" in src, (
            key,
            page,
            src,
        )
    browser.press("PageUp")  # at the first page: stays there
    assert shown()[0] == "1"
    before = browser.evaluate("document.querySelector('.ts-v-page').offsetWidth")
    browser.evaluate("document.querySelector('.ts-v-zoom-in').click()")
    assert browser.evaluate("document.querySelector('.ts-v-page').offsetWidth") > before

    # On the document's own page the viewer takes the keys only when it has the
    # focus (Page Down scrolls that long page otherwise).
    browser.open(f"/admin/documents/document/{admin_quote(doc)}/change/")
    browser.press("PageDown")
    assert shown()[0] == "1"
    browser.evaluate("document.querySelector('.ts-v-stage').focus()")
    browser.press("PageDown")
    assert shown() == ("2", shown()[1]) and "/page/1.png" in shown()[1]

    # 2,415 pages: the strip asks only for the pictures scrolled into view.
    browser.served.clear()
    browser.open(viewer_path(big, "?page=1200"))
    browser.until("document.querySelector('.ts-v-image').complete")
    browser.evaluate("1")  # answers the requests made while the page settled
    pictures = [p for p in browser.served if "/page/" in p]
    assert 0 < len(pictures) < 40, len(pictures)
    assert any("/page/1199.png" in p for p in pictures)
    assert (
        browser.evaluate("document.querySelector('.ts-v-count').textContent")
        == f"of {BIG}"
    )
    browser.press("End")
    assert browser.until(
        f"document.querySelector('[data-page=\"{BIG - 1}\"] img').getAttribute('src')"
    )
    (OUT / "viewer-2415-pages.png").write_bytes(browser.screenshot())
    print(f"drawn {drawn}, undrawn {undrawn}, {len(pictures)} pictures of {BIG} pages")
