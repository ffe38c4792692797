"""Stamps, page numbers and Bates numbers, read back by poppler (words, boxes,
pixels): at their place, in sequence, clear of redaction areas, composed with
rotate and with the redaction engine."""

from __future__ import annotations

from pathlib import Path

import pikepdf
import pymupdf
import pytest

from engines.pdf.annotate import apply_annotations
from engines.pdf.ops import OpsContext, apply_operations, parse_operations
from engines.pdf.types import Annotation, Box, Placement
from tests.pdf.ops_readers import count_pixels, pixel_at, render, words

A4 = (595.0, 842.0)
RED = {"r": 255, "g": 0, "b": 0}


def make_pdf(path: Path, pages: int, rotations: dict[int, int] | None = None) -> Path:
    doc = pymupdf.open()
    for n in range(pages):
        page = doc.new_page(width=A4[0], height=A4[1])
        page.insert_text((72, 400), f"Body of page {n + 1}", fontsize=11)
        page.set_rotation((rotations or {}).get(n, 0))
    doc.save(path)
    doc.close()
    return path


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Four A4 pages; the second is turned 90 degrees (displayed 842 x 595)."""
    folder = tmp_path_factory.mktemp("draw")
    return make_pdf(folder / "base.pdf", 4, {1: 90})


def run(src: Path, dest: Path, ops: list[dict], **context: object) -> object:
    parsed = parse_operations(ops)
    return apply_operations(str(src), str(dest), parsed, OpsContext(**context))  # type: ignore[arg-type]


def test_text_stamp_sits_at_its_anchor_on_every_page_and_is_searchable(
    base: Path, tmp_path: Path
) -> None:
    out = tmp_path / "out.pdf"
    run(
        base,
        out,
        [
            {
                "type": "stamp",
                "text": "TOPSECRET",
                "fontSize": 24,
                "color": RED,
                "opacity": 1,
                "position": "topRight",
            }
        ],
    )
    for number, page in enumerate(words(out), start=1):
        (word,) = page.find("TOPSECRET")
        # 36 pt from the top and right edges of the page as displayed.
        assert page.width - 36 - 12 < word.x1 <= page.width - 36 + 1
        assert 36 - 1 <= word.y0 < 36 + 12
        pixels = render(out, number, dpi=72)
        region = pixels.crop((int(word.x0), int(word.y0), int(word.x1), int(word.y1)))
        assert count_pixels(region, (255, 0, 0), tolerance=40) > 100


def test_rotated_translucent_watermark_on_chosen_pages_only(
    base: Path, tmp_path: Path
) -> None:
    out = tmp_path / "out.pdf"
    run(
        base,
        out,
        [
            {
                "type": "stamp",
                "text": "DRAFT",
                "fontSize": 80,
                "color": RED,
                "opacity": 0.3,
                "rotation": 45,
                "pages": [{"minPage": 3, "maxPage": 4}],
            }
        ],
    )
    # Poppler reads text turned 45 degrees letter by letter.
    pages = [p.text for p in words(out)]
    assert [set("DRAFT") <= set(p) for p in pages] == [False, False, True, True]
    # Pale red at the centre (30 % of red over white), nothing red on page 1.
    r, g, b = pixel_at(render(out, 3, dpi=72), A4[0] / 2, A4[1] / 2, dpi=72)
    assert r > 240 and 150 < g < 215 and 150 < b < 215
    assert count_pixels(render(out, 1), (255, 180, 180), tolerance=30) == 0


def test_unsearchable_tiled_stamp_draws_outlines_no_text(
    base: Path, tmp_path: Path
) -> None:
    out = tmp_path / "out.pdf"
    run(
        base,
        out,
        [
            {
                "type": "stamp",
                "text": "COPY",
                "searchable": False,
                "tiled": True,
                "fontSize": 30,
                "color": {"r": 0, "g": 0, "b": 255},
                "opacity": 1,
                "pages": [{"minPage": 1, "maxPage": 1}],
            }
        ],
    )
    assert "COPY" not in words(out)[0].text
    image = render(out, 1)
    blue = count_pixels(image, (0, 0, 255))
    assert blue > 500
    # Tiled: blue in each quarter of the page.
    w, h = image.size
    for box in ((0, 0, w // 2, h // 2), (w // 2, h // 2, w, h)):
        assert count_pixels(image.crop(box), (0, 0, 255)) > 50


def test_image_stamp_is_drawn_at_its_width(base: Path, tmp_path: Path) -> None:
    logo = tmp_path / "logo.png"
    pixmap = pymupdf.Pixmap(pymupdf.csRGB, pymupdf.IRect(0, 0, 50, 25), False)
    pixmap.set_rect(pixmap.irect, (0, 160, 0))
    pixmap.save(str(logo))
    out = tmp_path / "out.pdf"
    run(
        base,
        out,
        [
            {
                "type": "stamp",
                "image": "logo-doc",
                "width": 144,
                "opacity": 1,
                "position": "bottomLeft",
                "margin": 0,
            }
        ],
        images={"logo-doc": str(logo)},
    )
    image = render(out, 1, dpi=72)
    assert pixel_at(image, 72, A4[1] - 36, dpi=72) == (0, 160, 0)  # inside 144 x 72
    assert pixel_at(image, 150, A4[1] - 36, dpi=72) == (255, 255, 255)  # right of it
    assert pixel_at(image, 72, A4[1] - 80, dpi=72) == (255, 255, 255)  # above it


def test_bates_numbers_run_in_one_sequence_across_three_outputs(tmp_path: Path) -> None:
    sizes = (3, 4, 2)
    next_number = None
    seen = []
    for n, size in enumerate(sizes):
        src = make_pdf(tmp_path / f"in{n}.pdf", size, {1: 270})
        out = tmp_path / f"out{n}.pdf"
        report = run(
            src,
            out,
            [{"type": "bates", "prefix": "ACME-", "start": 1000}],
            bates_next=next_number,
        )
        next_number = report.bates.last + 1  # type: ignore[attr-defined]
        for page in words(out):
            (label,) = [w for w in page.words if w.text.startswith("ACME-")]
            seen.append(label.text)
            # Bottom right of the page as displayed, 24 pt from its edges.
            assert page.width - 24 - 80 < label.x0 and label.x1 <= page.width - 23
            assert page.height - 24 - 14 < label.y0 and label.y1 <= page.height - 23
    assert seen == [f"ACME-{n:06d}" for n in range(1000, 1009)]


def test_page_numbers_show_the_total_and_restart_per_output(
    base: Path, tmp_path: Path
) -> None:
    out = tmp_path / "out.pdf"
    report = run(
        base,
        out,
        [
            {
                "type": "pageNumbers",
                "prefix": "Page ",
                "suffix": " of {total}",
                "position": "top",
            }
        ],
    )
    texts = [p.text for p in words(out)]
    for n, text in enumerate(texts, start=1):
        assert f"Page {n} of 4" in text
    assert report.page_numbers.first == 1 and report.page_numbers.last == 4  # type: ignore[attr-defined]


def test_numbers_are_never_drawn_over_redaction_areas(
    base: Path, tmp_path: Path
) -> None:
    corner = Box(400, 760, 195, 82)  # page 1's bottom-right corner
    whole = Box(0, 0, 842, 595)  # all of page 2 (turned: displayed landscape)
    out = tmp_path / "out.pdf"
    report = run(
        base,
        out,
        [{"type": "bates", "prefix": "X"}],
        redaction_areas={0: [corner], 1: [whole]},
    )
    assert report.moved == (0, 1) and report.not_drawn == (1,)  # type: ignore[attr-defined]
    pages = words(out)
    (label,) = pages[0].find("X000001")
    assert label.y1 < corner.y or label.x1 < corner.x
    assert not [w for w in pages[1].words if w.text.startswith("X0")]
    # Page 2 took its number all the same: page 3 is X000003.
    assert pages[2].find("X000003")


def test_drawing_before_redaction_is_placed_for_the_final_rotation(
    base: Path, tmp_path: Path
) -> None:
    ops = parse_operations(
        [
            {"type": "rotate", "angle": 90, "pages": [{"minPage": 1, "maxPage": 1}]},
            {"type": "bates", "prefix": "R"},
        ]
    )
    half, out, once = tmp_path / "half.pdf", tmp_path / "out.pdf", tmp_path / "once.pdf"
    apply_operations(str(base), str(half), ops, stage="before_redaction")
    with pikepdf.open(half) as pdf:  # rotation not applied yet
        assert int(pdf.pages[0].obj.get("/Rotate", 0)) == 0
    apply_operations(str(half), str(out), ops, stage="after_redaction")
    apply_operations(str(base), str(once), ops)
    for path in (out, once):
        page = words(path)[0]
        assert (page.width, page.height) == (842.0, 595.0)
        (label,) = page.find("R000001")
        assert label.x1 > 842 - 30 and label.y1 > 595 - 30


def test_numbers_drawn_before_a_redaction_survive_its_verification(
    base: Path, tmp_path: Path
) -> None:
    corner = Box(450, 790, 145, 52)
    ops = parse_operations([{"type": "bates", "prefix": "DOC-"}])
    half, redacted = tmp_path / "half.pdf", tmp_path / "redacted.pdf"
    apply_operations(
        str(base),
        str(half),
        ops,
        OpsContext(redaction_areas={0: [corner]}),
        stage="before_redaction",
    )
    area = Annotation(kind="RedactElemType", document_key="d", page=0, position=corner)
    report = apply_annotations(
        str(half), str(redacted), [Placement(0, area)], mode="burn"
    )
    assert report.redaction_verified is True
    assert words(redacted)[0].find("DOC-000001")
