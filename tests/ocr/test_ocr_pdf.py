"""OCR of scanned pages: the invisible text layer, read by the rest of the engine.

Words are judged against the typeset page the scan was made from (its boxes by
poppler's `pdftotext -bbox`), and the output is read back with poppler too.
"""

from __future__ import annotations

import hashlib
import subprocess
from pathlib import Path

import numpy as np
import pikepdf
import pymupdf
import pytest

from engines.ocr import OcrOptions, OcrUnavailable, ocr_pdf, page_need
from engines.pdf import geometry, text
from engines.pdf.compare import text_diff
from engines.pdf.layout import image_to_pdf
from engines.pdf.types import SearchQuery
from tests.ocr import accuracy
from tests.ocr.scans import Scan, overlap, pdftotext

ENGLISH = OcrOptions(languages=("eng",))


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def pixels(path: Path, page: int = 0) -> np.ndarray:
    with pymupdf.open(path) as doc:
        pixmap = doc[page].get_pixmap(dpi=72, colorspace=pymupdf.csGRAY)
        return np.frombuffer(pixmap.samples, np.uint8).copy()


def test_a_scan_becomes_searchable_with_boxes_on_the_scanned_words(
    scanned_pdf: Path, scan: Scan, text_page: Path, tmp_path: Path
) -> None:
    out = tmp_path / "ocr.pdf"
    report = ocr_pdf(str(scanned_pdf), str(out), ENGLISH)
    assert report.pages_ocred == (0,) and report.complete
    assert report.words > 50
    # A 300 dpi scan is read at 200 dpi (2.25 times fewer pixels to recognise)
    # and finds every word all the same.
    assert scan.dpi == 300 and report.pages[0].dpi == pytest.approx(200)
    # Every known word is found where it is on the scan, its box on the word.
    known = accuracy.poppler_words(text_page, 0)
    score = accuracy.score(str(out), 0, scan, known)
    assert score.recall >= 0.97, score.missed
    assert score.box_share >= 0.9
    [hit] = text.search_page(str(out), 0, SearchQuery("Northwind"))
    assert hit.text == "Northwind" and sum(hit.individual_widths) == pytest.approx(
        hit.position.w, abs=0.01
    )


def test_the_text_layer_is_invisible_and_the_source_untouched(
    scanned_pdf: Path, tmp_path: Path
) -> None:
    before = sha256(scanned_pdf)
    out = tmp_path / "ocr.pdf"
    ocr_pdf(str(scanned_pdf), str(out), ENGLISH)
    assert sha256(scanned_pdf) == before
    assert np.array_equal(pixels(out), pixels(scanned_pdf))
    assert "Northwind Traders" in pdftotext(out)
    subprocess.run(["qpdf", "--check", str(out)], check=True, capture_output=True)


def test_words_are_text_of_the_page_content_not_of_a_form(
    scanned_pdf: Path, tmp_path: Path
) -> None:
    """Redaction removes text from the page's own content streams: the layer
    must not hide in a form XObject."""
    out = tmp_path / "ocr.pdf"
    ocr_pdf(str(scanned_pdf), str(out), ENGLISH)
    with pikepdf.open(out) as pdf:
        page = pdf.pages[0]
        content = b"".join(
            stream.read_bytes()
            for stream in (
                page.Contents
                if isinstance(page.Contents, pikepdf.Array)
                else [page.Contents]
            )
        )
        assert b"3 Tr" in content and b" Tj" in content
        forms = [
            x
            for x in page.Resources.get("/XObject", {}).values()
            if x.Subtype == "/Form"
        ]
        assert forms == []


def test_lines_and_the_text_diff_read_the_layer(
    scanned_pdf: Path, text_page: Path, tmp_path: Path
) -> None:
    out = tmp_path / "ocr.pdf"
    ocr_pdf(str(scanned_pdf), str(out), ENGLISH)
    lines = [line.text for line in text.page_lines(str(out), 0)]
    assert any(line.startswith("The quarterly report shows") for line in lines)
    assert all(line.rotation == 0 for line in text.page_lines(str(out), 0))
    # Against the typeset original, the OCR'd scan differs in few words.
    changes = text_diff(str(text_page), str(out))
    words = len(pdftotext(text_page).split())
    assert len(changes) <= words * 0.03, changes


@pytest.mark.parametrize("rotation", [90, 180, 270])
def test_boxes_are_in_displayed_space_on_rotated_pages_with_a_cropbox_offset(
    scan: Scan, text_page: Path, tmp_path: Path, rotation: int
) -> None:
    """The scan placed so that the page, displayed with /Rotate and an offset
    CropBox, looks like the upright original."""
    width, height = scan.size
    if rotation in (90, 270):  # the unrotated page lies the other way
        width, height = height, width
    doc = pymupdf.open()
    page = doc.new_page(width=width + 100, height=height + 60)
    page.set_cropbox(pymupdf.Rect(70, 25, 70 + width, 25 + height))
    page.set_rotation(rotation)
    page.insert_image(page.rect, stream=scan.png())
    name = page.get_images(full=True)[0][7]
    # The image drawn over the displayed page, upright: its unit square's top
    # left corner at the displayed page's top left.
    shown = geometry.display_to_pdf_matrix(page)
    height_shown, width_shown = page.rect.height, page.rect.width
    matrix = pymupdf.Matrix(width_shown, 0, 0, -height_shown, 0, height_shown) * shown
    numbers = " ".join(f"{v:.4f}" for v in tuple(matrix))
    doc.update_stream(page.get_contents()[0], f"q {numbers} cm /{name} Do Q".encode())
    src = tmp_path / "rotated.pdf"
    doc.save(src)
    out = tmp_path / "ocr.pdf"
    report = ocr_pdf(str(src), str(out), ENGLISH)
    assert report.pages_ocred == (0,)
    known = [w for w in accuracy.poppler_words(text_page, 0) if w[0] == "Northwind"]
    [hit] = text.search_page(str(out), 0, SearchQuery("Northwind"))
    assert overlap(hit.position, scan.to_scan(known[0][1])) >= 0.5
    assert hit.rotation == 0


def test_auto_reads_scans_only_and_always_never_doubles_text(
    scanned_pdf: Path, scan: Scan, text_page: Path, tmp_path: Path
) -> None:
    both = tmp_path / "both.pdf"
    with pymupdf.open(text_page) as doc:
        doc.insert_pdf(pymupdf.open(scanned_pdf))
        # A page with no text and a photo on a fifth of it: not a scan.
        photo = doc.new_page(width=595, height=842)
        photo.insert_image(pymupdf.Rect(100, 100, 350, 500), stream=scan.png())
        doc.save(both)
    with pymupdf.open(both) as doc:
        assert [page_need(p, "auto").ocr for p in doc] == [False, True, False]
        assert [page_need(p, "never").ocr for p in doc] == [False, False, False]
    out = tmp_path / "auto.pdf"
    report = ocr_pdf(str(both), str(out), ENGLISH)
    assert (report.pages_ocred, report.pages_skipped) == ((1,), (0, 2))
    always = tmp_path / "always.pdf"
    report = ocr_pdf(
        str(both), str(always), OcrOptions(languages=("eng",), mode="always")
    )
    assert report.pages_ocred == (0, 1, 2)
    # The typeset page kept its own words, once each.
    assert len(text.search_page(str(always), 0, SearchQuery("Northwind"))) == 1
    assert len(text.search_page(str(always), 1, SearchQuery("Northwind"))) == 1
    never = tmp_path / "never.pdf"
    report = ocr_pdf(str(both), str(never), OcrOptions(mode="never"))
    assert report.pages_ocred == () and never.read_bytes() == both.read_bytes()


def test_a_second_run_on_the_output_reads_nothing_again(
    scanned_pdf: Path, tmp_path: Path
) -> None:
    first, second = tmp_path / "first.pdf", tmp_path / "second.pdf"
    ocr_pdf(str(scanned_pdf), str(first), ENGLISH)
    report = ocr_pdf(str(first), str(second), ENGLISH)
    assert report.pages_ocred == () and report.pages_skipped == (0,)
    assert len(text.search_page(str(second), 0, SearchQuery("Northwind"))) == 1


@pytest.mark.parametrize("kind", ["PNG", "JPEG", "TIFF", "GIF"])
def test_uploaded_images_are_read_through_their_pdf_rendition(
    scan: Scan, tmp_path: Path, kind: str
) -> None:
    from PIL import Image

    image = tmp_path / f"scan.{kind.lower()}"
    Image.fromarray(scan.pixels, "L").save(image, kind, dpi=(scan.dpi, scan.dpi))
    rendition = tmp_path / "rendition.pdf"
    image_to_pdf(str(image), str(rendition))
    out = tmp_path / "ocr.pdf"
    report = ocr_pdf(str(rendition), str(out), ENGLISH)
    assert report.pages_ocred == (0,)
    assert text.search_page(str(out), 0, SearchQuery("Northwind Traders"))


def test_a_missing_language_is_refused_before_any_work(
    scanned_pdf: Path, tmp_path: Path
) -> None:
    with pytest.raises(
        OcrUnavailable, match="OCR language xyz is not installed"
    ) as err:
        ocr_pdf(
            str(scanned_pdf), str(tmp_path / "out.pdf"), OcrOptions(languages=("xyz",))
        )
    assert "/" not in str(err.value)
    assert not (tmp_path / "out.pdf").exists()


FRENCH = (
    "La Commission européenne a présenté mercredi un ensemble de propositions "
    "destinées à renforcer la protection des données personnelles des citoyens. "
    "Les associations de consommateurs ont salué cette initiative, mais elles "
    "estiment que les contrôles restent insuffisants dans plusieurs pays.",
    "Le Parlement doit encore examiner le projet avant la fin de l'année, et les "
    "négociations avec les États membres s'annoncent difficiles pour la présidence.",
)


def test_a_french_scan_is_read_in_french_and_keeps_its_accents(tmp_path: Path) -> None:
    from tests.ocr.scans import scan_page, text_pdf

    source = text_pdf(tmp_path / "fr.pdf", FRENCH)
    with pymupdf.open(source) as doc:
        scanned = scan_page(doc[0], 300, noise=6).pdf(tmp_path / "scan.pdf")
    out = tmp_path / "ocr.pdf"
    report = ocr_pdf(str(scanned), str(out))  # the default candidate languages
    assert report.languages[0] == "fra"
    assert report.pages[0].languages == ("fra",)
    # (Capitals lose their accents now and then: "États" reads "Etats".)
    for word in ("européenne", "négociations", "présidence", "contrôles"):
        hits = text.search_page(str(out), 0, SearchQuery(word, accent_sensitive=True))
        assert hits, word
