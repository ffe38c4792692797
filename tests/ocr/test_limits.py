"""Bad input and limits: every case ends within its limits, or with a message a
user can act on (never an internal path)."""

from __future__ import annotations

import os
import threading
import time
import zlib
from pathlib import Path

import numpy as np
import pikepdf
import pymupdf
import pytest

from engines.errors import EngineError, UnsupportedDocument
from engines.ocr import OcrOptions, OcrProgress, ocr_pdf
from engines.pdf import text
from engines.pdf.types import SearchQuery
from tests.ocr.conftest import PARAGRAPHS
from tests.ocr.scans import Scan, scan_page, text_pdf

ENGLISH = OcrOptions(languages=("eng",))


def grey_image_pdf(path: Path, pixels_side: int, dpi: float) -> Path:
    """One page showing a `pixels_side`² grey image at `dpi`: white, with dark
    bars where text would be (the stream inflates 1000-fold, rows at a time)."""
    compressor = zlib.compressobj(6)
    white = b"\xff" * pixels_side
    bars = (b"\x00" * 20 + b"\xff" * 30) * (pixels_side // 50)
    chunks = [
        compressor.compress(bars if (y // 40) % 10 == 0 and y % 40 < 25 else white)
        for y in range(pixels_side)
    ]
    chunks.append(compressor.flush())
    pdf = pikepdf.new()
    image = pikepdf.Stream(pdf, b"".join(chunks))
    image.Type, image.Subtype = pikepdf.Name.XObject, pikepdf.Name.Image
    image.Width = image.Height = pixels_side
    image.ColorSpace, image.BitsPerComponent = pikepdf.Name.DeviceGray, 8
    image.Filter = pikepdf.Name.FlateDecode
    side = pixels_side * 72 / dpi
    page = pikepdf.Dictionary(
        Type=pikepdf.Name.Page,
        MediaBox=[0, 0, side, side],
        Resources=pikepdf.Dictionary(XObject=pikepdf.Dictionary(Im0=image)),
        Contents=pikepdf.Stream(pdf, f"q {side} 0 0 {side} 0 0 cm /Im0 Do Q".encode()),
    )
    pdf.pages.append(pikepdf.Page(page))
    pdf.save(path)
    return path


def test_a_20000_pixel_square_scan_is_read_within_the_pixel_cap(tmp_path: Path) -> None:
    src = grey_image_pdf(tmp_path / "big.pdf", 20_000, dpi=300)
    began = time.monotonic()
    report = ocr_pdf(str(src), str(tmp_path / "out.pdf"), ENGLISH)
    assert time.monotonic() - began < 30
    assert report.pages_ocred == (0,)
    assert report.pages[0].dpi == pytest.approx(75, abs=1)
    [warning] = report.warnings
    assert "read at 75 dpi instead of 200 to stay within 25,000,000 pixels" in (
        warning.message
    )


def test_a_page_too_large_to_read_even_at_the_cap_is_reported_not_read(
    tmp_path: Path,
) -> None:
    # 20,000 px at 72 dpi: a 278-inch page, 18 dpi within the pixel cap.
    src = grey_image_pdf(tmp_path / "huge.pdf", 20_000, dpi=72)
    report = ocr_pdf(str(src), str(tmp_path / "out.pdf"), ENGLISH)
    assert report.pages_failed == (0,) and not report.complete
    message = report.warnings[0].message
    assert "too coarse for OCR" in message and "/" not in message.split("pixels")[0]


def test_a_page_of_pure_noise_ends_with_no_words(tmp_path: Path) -> None:
    noise = np.random.default_rng(1).integers(0, 256, (2200, 1700), dtype=np.uint8)
    Scan(noise, 200, pymupdf.Identity).pdf(tmp_path / "noise.pdf")
    report = ocr_pdf(str(tmp_path / "noise.pdf"), str(tmp_path / "out.pdf"), ENGLISH)
    assert report.pages_ocred == (0,) and report.words == 0


def _children_named(name: str) -> list[int]:
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
            with open(f"/proc/{entry}/comm") as comm:
                command = comm.read().strip()
        except OSError:
            continue
        if command == name and int(fields[1]) == os.getpid():
            found.append(int(entry))
    return found


def test_the_page_time_limit_kills_tesseract_and_the_page_is_reported(
    scanned_pdf: Path, tmp_path: Path
) -> None:
    options = OcrOptions(languages=("eng",), page_timeout=0.3)
    began = time.monotonic()
    report = ocr_pdf(str(scanned_pdf), str(tmp_path / "out.pdf"), options)
    assert time.monotonic() - began < 3
    assert report.pages_failed == (0,)
    assert report.warnings[0].message == (
        "page 0 was not read: reading it took longer than the 0.3 s limit"
    )
    assert _children_named("tesseract") == []


def test_tesseract_runs_single_threaded_in_a_process_group_of_its_own(
    scanned_pdf: Path, tmp_path: Path
) -> None:
    """Two workers on two cores must not run more than two OCR threads. Tesseract
    stays in its worker's session: a session of its own is a CPU group of its own
    under autogroup scheduling, which the OCR queue's priority would not reach."""
    seen: dict[str, object] = {}

    def watch() -> None:
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline and not seen:
            for pid in _children_named("tesseract"):
                try:  # all or nothing: a process that ended midway is skipped
                    with open(f"/proc/{pid}/environ", "rb") as environ:
                        env = environ.read().split(b"\0")
                    with open(f"/proc/{pid}/status") as status:
                        threads = next(
                            int(line.split()[1])
                            for line in status
                            if line.startswith("Threads:")
                        )
                    found = {
                        "env": env,
                        "threads": threads,
                        "group": os.getpgid(pid) == pid,
                        "session": os.getsid(pid),
                    }
                except (OSError, StopIteration):
                    continue
                seen.update(found)
                break
            time.sleep(0.02)

    watcher = threading.Thread(target=watch)
    watcher.start()
    ocr_pdf(str(scanned_pdf), str(tmp_path / "out.pdf"), ENGLISH)
    watcher.join()
    assert b"OMP_THREAD_LIMIT=1" in seen["env"]  # type: ignore[operator]
    assert seen["threads"] == 1
    assert seen["group"] is True
    assert seen["session"] == os.getsid(0)


@pytest.fixture
def three_scans(tmp_path: Path) -> Path:
    """Three small scans of a few lines: quick to read even on a busy machine."""
    source = text_pdf(tmp_path / "short.pdf", PARAGRAPHS[1:2])
    with pymupdf.open(source) as doc:
        doc[0].set_cropbox(pymupdf.Rect(0, 0, 595, 200))
        one = scan_page(doc[0], 150).pdf(tmp_path / "one.pdf")
    path = tmp_path / "three.pdf"
    with pymupdf.open() as doc:
        for _ in range(3):
            doc.insert_pdf(pymupdf.open(one))
        doc.save(path)
    return path


def test_a_long_document_is_read_page_by_page_with_progress_and_a_deadline(
    three_scans: Path, tmp_path: Path
) -> None:
    """The mechanism a 1,000-page scan relies on: progress after each page, the
    deadline leaves pages pending, a second call on the output finishes them."""
    seen: list[OcrProgress] = []
    # Far above what reading one small scan takes on a busy machine (about a
    # second), and no longer: the test waits for it to pass.
    deadline = 8.0
    began = time.monotonic()

    def slow_progress(progress: OcrProgress) -> None:
        seen.append(progress)
        if progress.done == 1:  # the first page outlasts the deadline
            time.sleep(max(0.0, deadline + 0.1 - (time.monotonic() - began)))

    first = tmp_path / "first.pdf"
    options = OcrOptions(languages=("eng",), deadline=deadline)
    report = ocr_pdf(str(three_scans), str(first), options, progress=slow_progress)
    assert report.pages_ocred == (0,) and report.pages_pending == (1, 2)
    assert not report.complete
    assert "deadline of 8 s passed" in report.warnings[0].message
    assert [(p.page, p.done, p.total) for p in seen] == [(0, 1, 3)]
    assert seen[0].words > 10
    second = tmp_path / "second.pdf"
    rest = ocr_pdf(str(first), str(second), ENGLISH, pages=report.pages_pending)
    assert rest.pages_ocred == (1, 2) and rest.complete
    for page in range(3):
        assert text.search_page(str(second), page, SearchQuery("Northwind"))


def test_a_progress_callback_that_raises_cancels_without_output(
    three_scans: Path, tmp_path: Path
) -> None:
    def cancel(progress: OcrProgress) -> None:
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        ocr_pdf(str(three_scans), str(tmp_path / "out.pdf"), ENGLISH, progress=cancel)
    assert not (tmp_path / "out.pdf").exists()


def test_unreadable_input_and_bad_options_give_messages_without_paths(
    tmp_path: Path,
) -> None:
    junk = tmp_path / "junk.pdf"
    junk.write_bytes(b"not a pdf at all")
    with pytest.raises(UnsupportedDocument) as err:
        ocr_pdf(str(junk), str(tmp_path / "out.pdf"), ENGLISH)
    assert str(tmp_path) not in str(err.value)
    with pytest.raises(EngineError, match="must not be the source"):
        ocr_pdf(str(junk), str(junk), ENGLISH)
    with pytest.raises(EngineError, match="page 5 does not exist"):
        doc = pymupdf.open()
        doc.new_page()
        doc.save(tmp_path / "one.pdf")
        ocr_pdf(
            str(tmp_path / "one.pdf"), str(tmp_path / "out.pdf"), ENGLISH, pages=[5]
        )
    for bad in ({"mode": "sometimes"}, {"page_timeout": 0}, {"max_pixels": 10}):
        with pytest.raises(EngineError):
            OcrOptions(**bad)


def test_a_turned_scan_gets_upright_words_in_displayed_space(
    scan: Scan, tmp_path: Path
) -> None:
    """A scan lying sideways on the page (fed the wrong way): Tesseract's
    orientation detection turns it; the words run along the scan's lines."""
    with pymupdf.open() as doc:
        width, height = scan.size
        page = doc.new_page(width=height, height=width)
        page.insert_image(page.rect, stream=scan.png(), rotate=90)
        doc.save(tmp_path / "sideways.pdf")
    out = tmp_path / "out.pdf"
    report = ocr_pdf(str(tmp_path / "sideways.pdf"), str(out), ENGLISH)
    assert report.pages_ocred == (0,)
    [hit] = text.search_page(str(out), 0, SearchQuery("Northwind Traders"))
    assert hit.rotation in (90, 270)
    assert hit.position.h > hit.position.w  # the words run down the page
