"""True redaction of OCR'd scans: the engine's redaction over searched words
removes the invisible text AND blanks the scan's pixels under the area.

An attacker's view is taken: the text of the output by poppler, every image of
the output extracted (poppler's pdfimages for what the page draws, pikepdf for
every image object, patterns included) and read again by Tesseract, and a new
OCR pass over the output. Each case first checks that the unredacted OCR output
does reveal the word that way, so a pass is not vacuous.
"""

from __future__ import annotations

import io
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path

import pikepdf
import pymupdf
import pytest
from PIL import Image

from engines.ocr import OcrOptions, ocr_pdf, tesseract
from engines.pdf import text
from engines.pdf.annotate import apply_annotations
from engines.pdf.types import Annotation, Box, Placement, SearchQuery
from tests.ocr import kinds
from tests.ocr.scans import Scan, pdftotext, scan_page

ENGLISH = OcrOptions(languages=("eng",))
SECRET = "Northwind"


@pytest.fixture(scope="module")
def small_scan(text_page: Path) -> Scan:
    """The text page at 150 dpi: the word stays readable, the tests fast."""
    with pymupdf.open(text_page) as doc:
        return scan_page(doc[0], 150, noise=4)


def images(path: Path, workdir: Path) -> Iterator[Image.Image]:
    """Every image of the PDF as a grey picture: what the page draws (inline
    images included), then every image object the file holds."""
    prefix = workdir / f"{path.stem}-img"
    # TIFF, not PNG: the same pixels, without poppler's PNG compression (seconds
    # for a page-sized scan, most of each case's time).
    subprocess.run(["pdfimages", "-tiff", str(path), str(prefix)], check=True)
    for written in sorted(workdir.glob(f"{prefix.name}-*.tif")):
        with Image.open(written) as image:
            yield image.convert("L")
    with pikepdf.open(path) as pdf:
        for obj in pdf.objects:
            if isinstance(obj, pikepdf.Stream) and obj.get("/Subtype") == "/Image":
                try:
                    yield pikepdf.PdfImage(obj).as_pil_image().convert("L")
                except (pikepdf.PdfError, NotImplementedError):
                    continue  # JBIG2 without jbig2dec: pdfimages read it above


def readable_in_images(path: Path, workdir: Path, word: str, where: Box) -> bool:
    """Whether Tesseract reads `word` in an image of the PDF, around `where`
    (displayed points; every image here covers the page)."""
    with pymupdf.open(path) as doc:
        page_width, page_height = doc[0].rect.width, doc[0].rect.height
    for image in images(path, workdir):
        if image.width < 100 or image.height < 100:
            continue  # masks of a few pixels, nothing to read
        sx, sy = image.width / page_width, image.height / page_height
        # The line the word is on and its neighbours: a fraction of the page,
        # read in a fraction of the time.
        crop = image.crop(
            (
                max(0, int((where.x - 60) * sx)),
                max(0, int((where.y - 2 * where.h) * sy)),
                min(image.width, int((where.x + where.w + 60) * sx)),
                min(image.height, int((where.y + 3 * where.h) * sy)),
            )
        )
        out = io.BytesIO()
        crop.save(out, "PPM")
        words = tesseract.recognise(
            out.getvalue(), languages=("eng",), dpi=72 * sx, timeout=60
        )
        if any(word.lower() in w.text.lower() for w in words):
            return True
    return False


def redact(src: Path, dest: Path, boxes: tuple[Box, ...], *, zone: bool) -> None:
    if zone:
        placements = [
            Placement(0, Annotation("RedactElemType", "doc", 0, position=box))
            for box in boxes
        ]
    else:
        placements = [
            Placement(0, Annotation("RedactTextElemType", "doc", 0, coords=boxes))
        ]
    apply_annotations(str(src), str(dest), placements, mode="burn")


def check_true_redaction(
    source: bytes,
    tmp_path: Path,
    word: str = SECRET,
    *,
    zone: bool = False,
    kept: str = "acquisition",
) -> None:
    """Redact `word` where search finds it; `kept` must stay searchable."""
    scanned, ocred, redacted = (
        tmp_path / "scan.pdf",
        tmp_path / "ocr.pdf",
        tmp_path / "redacted.pdf",
    )
    scanned.write_bytes(source)
    report = ocr_pdf(str(scanned), str(ocred), ENGLISH)
    assert report.pages_ocred == (0,) or report.pages_skipped == (0,)  # had text
    hits = text.search_page(str(ocred), 0, SearchQuery(word))
    assert hits, f"OCR did not read {word!r}"
    where = hits[0].position
    assert readable_in_images(ocred, tmp_path, word, where), (
        "the control reveals nothing"
    )
    redact(ocred, redacted, tuple(hit.position for hit in hits), zone=zone)
    assert word.lower() not in pdftotext(redacted).lower()
    assert not readable_in_images(redacted, tmp_path, word, where)
    # The rest of the page is still there and searchable.
    text.clear_cache()
    assert text.search_page(str(redacted), 0, SearchQuery(kept))


PageMaker = Callable[[Scan], bytes]


def _direct(builder: kinds.Builder) -> PageMaker:
    return lambda scan: kinds.page_with(scan, builder)


def _in_form(builder: kinds.Builder) -> PageMaker:
    return lambda scan: kinds.page_with(scan, builder, in_form=True)


CASES: dict[str, PageMaker] = {
    **{name: _direct(builder) for name, builder in kinds.KINDS.items()},
    "grey-in-form": _in_form(kinds.grey),
    "jpeg-in-form": _in_form(kinds.jpeg),
    "ccitt-in-form": _in_form(kinds.ccitt),
    "inline": kinds.inline_page,
}


@pytest.mark.parametrize("kind", sorted(CASES))
def test_text_redaction_over_ocr_words_removes_text_and_pixels(
    small_scan: Scan, tmp_path: Path, kind: str
) -> None:
    check_true_redaction(CASES[kind](small_scan), tmp_path)


def test_zone_redaction_over_ocr_words_removes_text_and_pixels(
    small_scan: Scan, tmp_path: Path
) -> None:
    check_true_redaction(kinds.page_with(small_scan, kinds.jpeg), tmp_path, zone=True)


def test_redaction_blanks_a_scan_painted_as_a_pattern_fill(
    small_scan: Scan, tmp_path: Path
) -> None:
    check_true_redaction(kinds.pattern_page(small_scan), tmp_path)


def test_a_new_ocr_pass_over_the_redacted_output_does_not_find_the_word(
    small_scan: Scan, tmp_path: Path
) -> None:
    check_true_redaction(kinds.page_with(small_scan, kinds.grey), tmp_path)
    again = tmp_path / "again.pdf"
    report = ocr_pdf(
        str(tmp_path / "redacted.pdf"),
        str(again),
        OcrOptions(languages=("eng",), mode="always"),
    )
    assert report.pages_ocred == (0,)
    text.clear_cache()
    assert text.search_page(str(again), 0, SearchQuery(SECRET)) == []
    assert SECRET not in pdftotext(again)


@pytest.mark.corpus
@pytest.mark.parametrize("name", ["cardinal.pdf", "sandwich.pdf"])
def test_real_jbig2_and_ccitt_scans_are_truly_redacted(
    corpus: Path, tmp_path: Path, name: str
) -> None:
    """cardinal.pdf's pages are JBIG2 scans without text; sandwich.pdf is the
    same brochure as a CCITT scan with an older OCR layer (read as it is)."""
    with pymupdf.open(corpus / name) as doc:
        doc.select([0])
        first_page = doc.tobytes()
    check_true_redaction(first_page, tmp_path, "Simultaneously", kept="LinnSequencer")


def test_an_ocr_line_keeps_every_word_but_the_two_redacted(
    text_page: Path, tmp_path: Path
) -> None:
    """A 200 dpi scan (turned, blurred, noisy): two recognised words of one
    line redacted by their search positions; every other word of the text
    layer stays (the invisible glyphs of a neighbour must not go with them)."""
    with pymupdf.open(text_page) as doc:
        scan = scan_page(doc[0], 200, skew=-1.0, blur=0.8, noise=6)
    scanned, ocred, redacted = (tmp_path / n for n in ("s.pdf", "o.pdf", "r.pdf"))
    scan.pdf(scanned)
    ocr_pdf(str(scanned), str(ocred), ENGLISH)
    with pymupdf.open(ocred) as doc:
        before = [w[4] for w in doc[0].get_text("words")]
        lines: dict[tuple[int, int], list[str]] = {}
        for word in doc[0].get_text("words"):
            lines.setdefault((word[5], word[6]), []).append(word[4])
    line = max(lines.values(), key=len)
    targets = [line[2], line[3]]  # two neighbours in the middle of the line
    hits = [
        hit
        for target in targets
        for hit in text.search_page(str(ocred), 0, SearchQuery(target))
    ]
    redact(ocred, redacted, tuple(hit.position for hit in hits), zone=False)
    with pymupdf.open(redacted) as doc:
        after = [w[4] for w in doc[0].get_text("words")]
    lost = [w for w in before if w not in after]
    assert lost and all(any(t in w for t in targets) for w in lost), lost
