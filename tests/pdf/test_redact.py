"""True redaction (documents/pdf/redact.py), end to end through apply_annotations.

What was removed is judged by independent tools: poppler's `pdftotext` for the
text, pikepdf (every stream decompressed, every string object) for the bytes,
`qpdf --check` for the file's structure.
"""

from __future__ import annotations

import re
import subprocess
import unicodedata
from collections import Counter
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pikepdf
import pymupdf
import pytest

from documents.pdf import geometry, redact
from documents.pdf.annotate import apply_annotations
from documents.pdf.types import Annotation, Box, EngineError, Placement, Rgb

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


@pytest.fixture
def secret_pdf(tmp_path: Path) -> Path:
    """Page 0: three tightly set lines (13 pt leading for 16.5 pt glyph boxes, so
    a word's box overlaps the lines above and below by 21 % of their height), a
    red image shared with page 1, a link and a highlight over "secret", another
    link elsewhere, a form field; "secret" is also in the Title, Author, XMP and
    an outline entry. It is saved twice, the second time incrementally."""
    document = pymupdf.open()
    page = document.new_page(width=400, height=300)
    write_lines(page, LINES)
    red = pymupdf.Pixmap(pymupdf.csRGB, pymupdf.IRect(0, 0, 50, 50), False)
    red.set_rect(red.irect, (255, 0, 0))
    image = page.insert_image(pymupdf.Rect(250, 100, 350, 200), pixmap=red)
    other = document.new_page(width=400, height=300)
    other.insert_image(pymupdf.Rect(250, 100, 350, 200), xref=image)
    other.insert_text((50, 100), "second page text", fontsize=12)
    page = document[0]
    secret = pymupdf.Rect(page.get_text("words")[4][:4])
    page.insert_link(
        {"kind": pymupdf.LINK_URI, "from": secret, "uri": "https://example.org/secret"}
    )
    page.insert_link(
        {
            "kind": pymupdf.LINK_URI,
            "from": pymupdf.Rect(50, 200, 120, 215),
            "uri": "https://example.org/kept",
        }
    )
    highlight = page.add_highlight_annot(secret)
    highlight.set_info(content="about the secret")
    highlight.update()
    field = pymupdf.Widget()
    field.field_type = pymupdf.mupdf.PDF_WIDGET_TYPE_TEXT
    field.field_name = "code"
    field.field_value = "the secret code"
    field.rect = pymupdf.Rect(50, 240, 200, 260)
    page.add_widget(field)
    document.set_metadata({"title": "The secret report", "author": "Agent SECRET"})
    document.set_xml_metadata(XMP)
    document.set_toc([[1, "Secret chapter", 1], [1, "Plain chapter", 2]])
    path = tmp_path / "secret.pdf"
    document.save(path)
    document.close()
    with pymupdf.open(path) as again:  # an earlier revision still holding it all
        again[1].insert_text((50, 150), "added later", fontsize=12)
        again.saveIncr()
    return path


def test_source_fixture_really_holds_the_word_everywhere(secret_pdf: Path) -> None:
    assert secret_pdf.read_bytes().count(b"%%EOF") == 2
    assert "secret" in pdftotext(secret_pdf)
    assert contains_word(secret_pdf, "secret")


def test_redacted_word_is_gone_and_its_line_and_neighbours_stay(
    secret_pdf: Path,
) -> None:
    with pymupdf.open(secret_pdf) as document:
        box = word_box(document[0], "secret")
    out = redact_file(secret_pdf, [redaction(0, box)])
    lines = [line.split() for line in text_lines(out)]
    assert "secret" not in pdftotext(out)
    assert lines[:3] == [
        ["alpha", "bravo", "charlie"],
        ["delta", "echo"],
        ["foxtrot", "golf", "hotel"],
    ]


def test_no_stream_or_string_of_the_output_holds_the_word(secret_pdf: Path) -> None:
    with pymupdf.open(secret_pdf) as document:
        box = word_box(document[0], "secret")
    for mode in ("burn", "live"):
        out = redact_file(secret_pdf, [redaction(0, box)], mode)
        assert not contains_word(out, "secret"), mode


def test_output_is_a_single_full_revision(secret_pdf: Path) -> None:
    with pymupdf.open(secret_pdf) as document:
        box = word_box(document[0], "secret")
    out = redact_file(secret_pdf, [redaction(0, box)])
    assert out.read_bytes().count(b"%%EOF") == 1
    check = subprocess.run(
        ["qpdf", "--check", str(out)], capture_output=True, text=True
    )
    assert check.returncode == 0, check.stdout + check.stderr


def test_metadata_xmp_outline_and_field_value_are_scrubbed(secret_pdf: Path) -> None:
    with pymupdf.open(secret_pdf) as document:
        box = word_box(document[0], "secret")
    out = redact_file(secret_pdf, [redaction(0, box)])
    info = subprocess.run(["pdfinfo", str(out)], capture_output=True, text=True).stdout
    assert re.search(r"^Title:\s+The report$", info, re.MULTILINE)
    assert re.search(r"^Author:\s+Agent$", info, re.MULTILINE)
    with pymupdf.open(out) as document:
        xmp = document.get_xml_metadata()
        toc = document.get_toc()
        values = [w.field_value for p in document for w in p.widgets()]
    assert ">The report<" in xmp
    assert 'pdf:Keywords="budget, , plans"' in xmp
    assert [entry[1] for entry in toc] == ["chapter", "Plain chapter"]
    assert values == [""]


def test_link_and_annotation_over_the_area_go_and_others_stay(secret_pdf: Path) -> None:
    with pymupdf.open(secret_pdf) as document:
        box = word_box(document[0], "secret")
    out = redact_file(secret_pdf, [redaction(0, box)], "live")
    with pymupdf.open(out) as document:
        page = document[0]
        assert [link["uri"] for link in page.get_links()] == [
            "https://example.org/kept"
        ]
        assert list(page.annots()) == []
        assert len(list(page.widgets())) == 1


def test_redaction_box_is_filled_with_its_colour(secret_pdf: Path) -> None:
    with pymupdf.open(secret_pdf) as document:
        box = word_box(document[0], "secret")
    out = redact_file(secret_pdf, [redaction(0, box, colour=Rgb(0, 200, 0))])
    with pymupdf.open(out) as document:
        pix = document[0].get_pixmap(dpi=72)
    assert pix.pixel(int(box.x + box.w / 2), int(box.y + box.h / 2)) == (0, 200, 0)


def test_zone_over_an_image_blanks_its_pixels_but_not_the_shared_copy(
    secret_pdf: Path,
) -> None:
    # The image (50 × 50 px) fills (250, 100)-(350, 200): 2 pt per pixel.
    out = redact_file(secret_pdf, [zone(0, Box(260, 110, 40, 40))])
    with pymupdf.open(out) as document:
        first = document[0].get_images(full=True)
        second = document[1].get_images(full=True)
        assert len(first) == len(second) == 1
        assert first[0][0] != second[0][0]
        redacted = pymupdf.Pixmap(document, first[0][0])
        shared = pymupdf.Pixmap(document, second[0][0])
        assert redacted.pixel(10, 10) == redacted.pixel(19, 19) == (255, 255, 255)
        assert redacted.pixel(2, 2) == redacted.pixel(30, 30) == (255, 0, 0)
        assert shared.pixel(10, 10) == (255, 0, 0)
        shown = document[0].get_pixmap(dpi=72)
    assert shown.pixel(280, 130) == (0, 0, 0)  # the zone's default fill
    assert shown.pixel(320, 180) == (255, 0, 0)


def test_vector_paths_fully_inside_go_and_crossing_paths_stay(tmp_path: Path) -> None:
    document = pymupdf.open()
    page = document.new_page(width=400, height=300)
    page.draw_rect(pymupdf.Rect(110, 110, 130, 130), color=None, fill=(0, 1, 0))
    page.draw_line((50, 120), (350, 120), color=(0, 0, 1), width=1)
    document.save(tmp_path / "paths.pdf")
    out = redact_file(tmp_path / "paths.pdf", [zone(0, Box(100, 100, 50, 50))])
    with pymupdf.open(out) as result:
        drawings = result[0].get_drawings()
    fills = [d.get("fill") for d in drawings]
    strokes = [d.get("color") for d in drawings]
    assert (0.0, 1.0, 0.0) not in fills
    assert (0.0, 0.0, 1.0) in strokes


@pytest.mark.parametrize("touched_line", [False, True])
def test_text_image_pixels_and_paths_under_one_area_all_go(
    tmp_path: Path, touched_line: bool
) -> None:
    # One area over a line of text, part of an image (1 pt per pixel) and a
    # square path; with `touched_line`, it also enters the next line by a tenth
    # of its height, so the text goes by a narrowed area and the rest by the
    # area as drawn.
    document = pymupdf.open()
    page = document.new_page(width=400, height=300)
    page.insert_text((50, 100), "alpha secret omega", fontsize=12)
    page.insert_text((50, 215), "kept line", fontsize=12)
    red = pymupdf.Pixmap(pymupdf.csRGB, pymupdf.IRect(0, 0, 100, 150), False)
    red.set_rect(red.irect, (255, 0, 0))
    page.insert_image(pymupdf.Rect(200, 80, 300, 230), pixmap=red)
    page.draw_rect(pymupdf.Rect(210, 150, 230, 170), color=None, fill=(0, 1, 0))
    kept = line_boxes(page)[1]
    bottom = kept.y0 + 0.1 * kept.height if touched_line else kept.y0 - 3
    removed = redact.redact_page(page, [(Box(40, 85, 200, bottom - 85), None)]).removed
    document.save(tmp_path / "mixed.pdf")
    assert texts(removed) == ["alpha", "secret", "omega"]
    assert text_lines(tmp_path / "mixed.pdf") == ["kept line"]
    with pymupdf.open(tmp_path / "mixed.pdf") as result:
        fills = [d.get("fill") for d in result[0].get_drawings()]
        pixels = pymupdf.Pixmap(result, result[0].get_images()[0][0])
    assert (0.0, 1.0, 0.0) not in fills
    # Pixel (x, y) covers (200 + x, 80 + y) on the page; the area starts at y 85.
    assert pixels.pixel(20, 10) == pixels.pixel(35, int(bottom) - 85) == (255,) * 3
    assert pixels.pixel(20, 1) == pixels.pixel(45, 50) == (255, 0, 0)
    assert pixels.pixel(20, int(bottom) - 75) == (255, 0, 0)


@pytest.mark.parametrize(("depth", "survives"), [(0.20, True), (0.30, False)])
def test_line_entering_the_area_by_less_than_a_quarter_survives(
    tmp_path: Path, depth: float, survives: bool
) -> None:
    # 20 pt leading: the lines' glyph boxes do not overlap; the area covers the
    # middle line and reaches `depth` of the bottom line's glyph height into it.
    document = pymupdf.open()
    page = document.new_page(width=400, height=300)
    write_lines(page, LINES, leading=20)
    middle, bottom = line_boxes(page)[1:3]
    area = pymupdf.Rect(40, middle.y0, 200, bottom.y0 + depth * bottom.height)
    box = geometry.rect_to_box(geometry.page_rect_to_display(page, area))
    removed = redact.redact_page(page, [(box, None)]).removed
    document.save(tmp_path / "touch.pdf")
    lines = text_lines(tmp_path / "touch.pdf")
    assert lines[0] == "alpha bravo charlie"
    assert ("foxtrot golf hotel" in lines) is survives
    assert texts(removed) == (
        ["delta", "secret", "echo"]
        if survives
        else ["delta", "secret", "echo", "foxtrot", "golf", "hotel"]
    )


def test_line_touching_the_top_edge_survives(tmp_path: Path) -> None:
    document = pymupdf.open()
    page = document.new_page(width=400, height=300)
    write_lines(page, LINES, leading=20)
    top, middle = line_boxes(page)[:2]
    area = pymupdf.Rect(40, top.y1 - 0.2 * top.height, 200, middle.y1)
    removed = redact.redact_page(page, [(geometry.rect_to_box(area), None)]).removed
    assert texts(removed) == ["delta", "secret", "echo"]
    assert page.get_text().split() == [
        "alpha",
        "bravo",
        "charlie",
        "foxtrot",
        "golf",
        "hotel",
    ]


@pytest.mark.parametrize(
    "area",
    [(60, 50, 160, 75), (100, 70, 250, 110), (45, 95, 300, 105), (150, 40, 170, 160)],
)
def test_reported_runs_are_the_glyphs_lost_on_overlapping_lines(
    area: tuple[float, float, float, float],
) -> None:
    # Lines of mixed sizes closer than their glyph boxes are tall: an area meets
    # the boxes of lines it does not mean to take, and must report what went:
    # for each word, the part of it that is no longer on the page.
    # (Words are read back with MuPDF: pdftotext glues overlapping lines' words.)
    names = iter(
        "amber basil cedar dune ember fjord grove heath islet jade".split() * 4
    )
    document = pymupdf.open()
    page = document.new_page(width=400, height=300)
    top = 60.0
    for number in range(8):
        size = (9, 14, 11, 22)[number % 4]
        words = [f"{next(names)}{number}" for _ in range(4)]
        page.insert_text((40 + 7 * (number % 3), top), " ".join(words), fontsize=size)
        top += size * 0.8
    before = glyph_tokens(page)
    box = geometry.rect_to_box(pymupdf.Rect(area))
    removed = redact.redact_page(page, [(box, None)]).removed
    kept = {glyph for token in glyph_tokens(page) for glyph in token}
    lost = set()
    for token in before:
        run = ""
        for glyph in [*token, None]:
            if glyph is not None and glyph not in kept:
                run += glyph[0]
            elif run:
                lost.add(run)
                run = ""
    assert removed
    assert set(texts(removed)) == lost


def test_run_cut_from_a_word_drawn_in_two_pieces_is_reported_open() -> None:
    document = pymupdf.open()
    page = document.new_page(width=300, height=200)
    page.insert_text((50, 100), "x", fontsize=12)  # the font resource
    pixels = pymupdf.Pixmap(pymupdf.csRGB, pymupdf.IRect(0, 0, 4, 4), False)
    page.insert_image(pymupdf.Rect(150, 20, 170, 40), pixmap=pixels)
    font, image = page.get_fonts()[0][4], page.get_images()[0][7]
    document.update_stream(
        page.get_contents()[0],
        f"BT /{font} 12 Tf 50 100 Td (Hel) Tj ET q 20 0 0 20 150 150 cm /{image} Do"
        f" Q BT /{font} 12 Tf 68 100 Td (lo world) Tj ET".encode(),
    )
    lo = word_box(page, "Hello")
    area = Box(lo.x + lo.w * 0.65, lo.y, lo.w * 0.3, lo.h)  # the "lo"
    [run] = redact.redact_page(page, [(area, None)]).removed
    assert run == redact.Removed("lo", starts_word=False, ends_word=True)
    assert page.get_text().split() == ["Hel", "world"]


def test_empty_area_is_an_engine_error(tmp_path: Path) -> None:
    document = pymupdf.open()
    page = document.new_page()
    with pytest.raises(EngineError, match="positive width"):
        redact.redact_page(page, [(Box(10, 10, 0, 5), None)])


def test_removed_text_is_the_runs_of_removed_glyphs_in_any_script() -> None:
    document = pymupdf.open()
    page = document.new_page(width=400, height=300)
    page.insert_text((50, 100), "我住在东京很多年", fontname="china-s", fontsize=12)
    page.insert_text((50, 130), "Confidential words", fontsize=12)
    blocks = page.get_text("rawdict")["blocks"]
    chars = [
        char
        for block in blocks
        for line in block["lines"]
        for span in line["spans"]
        for char in span["chars"]
    ]
    tokyo = pymupdf.Rect(chars[3]["bbox"]) | pymupdf.Rect(chars[4]["bbox"])
    tail = pymupdf.Rect(chars[13]["bbox"]) | pymupdf.Rect(chars[15]["bbox"])  # "den"
    areas = [(geometry.rect_to_box(rect), None) for rect in (tokyo, tail)]
    assert redact.redact_page(page, areas).removed == [
        redact.Removed("东京", starts_word=False, ends_word=False),
        redact.Removed("den", starts_word=False, ends_word=False),
    ]
    assert page.get_text().split() == ["我住在", "很多年", "Confi", "tial", "words"]


def swept_info(
    info: dict[str, str], removed: Sequence[redact.Removed | str]
) -> dict[str, str]:
    """The Info entries of a one-page PDF after `redact.sweep` of `removed`."""
    with pikepdf.new() as pdf:
        pdf.add_blank_page()
        pdf.trailer.Info = pdf.make_indirect(
            pikepdf.Dictionary({f"/{k}": pikepdf.String(v) for k, v in info.items()})
        )
        redact.sweep(pdf, removed, [])
        return {k: str(pdf.trailer.Info[f"/{k}"]) for k in info}


def test_scrubbing_matches_whole_words_with_full_case_folding() -> None:
    info = {
        "Title": "Secretary of the SECRET service",
        "Subject": "Geheimnis: Straße",
        "Keywords": "东京报告",
    }
    assert swept_info(info, ["secret,", "STRASSE", "东京", "—"]) == {
        "Title": "Secretary of the service",
        "Subject": "Geheimnis:",
        "Keywords": "报告",
    }


def test_scrubbing_follows_the_removed_run_not_the_token_it_sat_in() -> None:
    info = {
        "Title": "Acme's report for Client:Acme",
        "Subject": "Acmeology, AcmeCorp",
        "Keywords": "Bacme and Acme",
    }
    assert swept_info(info, [redact.Removed("Acme")]) == {
        "Title": "'s report for Client:",
        "Subject": "Acmeology, AcmeCorp",
        "Keywords": "Bacme and",
    }
    cut = [redact.Removed("cme", starts_word=False)]
    assert swept_info(info, cut)["Keywords"] == "Ba and A"
    assert swept_info(info, cut)["Subject"] == "Acmeology, AcmeCorp"


def test_pending_redaction_annotations_of_the_source_are_not_applied(
    tmp_path: Path,
) -> None:
    document = pymupdf.open()
    page = document.new_page(width=400, height=300)
    write_lines(page, LINES, leading=20)
    marked = page.add_redact_annot(pymupdf.Rect(page.get_text("words")[0][:4]))
    marked.update()
    document.save(tmp_path / "pending.pdf")
    out = redact_file(
        tmp_path / "pending.pdf", [redaction(0, word_box(page, "golf"))], "live"
    )
    words = pdftotext(out).split()
    assert "alpha" in words and "golf" not in words
    with pymupdf.open(out) as result:
        kinds = [annot.type[1] for annot in result[0].annots()]
    assert kinds == ["Redact"]


@pytest.mark.parametrize("rotation", [90, 270])
def test_redaction_on_a_rotated_page(tmp_path: Path, rotation: int) -> None:
    document = pymupdf.open()
    page = document.new_page(width=400, height=300)
    write_lines(page, LINES)
    page.set_rotation(rotation)
    document.save(tmp_path / "rotated.pdf")
    box = word_box(document[0], "secret")
    out = redact_file(tmp_path / "rotated.pdf", [redaction(0, box)])
    text = pdftotext(out).split()
    assert "secret" not in text
    assert text == [
        "alpha",
        "bravo",
        "charlie",
        "delta",
        "echo",
        "foxtrot",
        "golf",
        "hotel",
    ]
    with pymupdf.open(out) as result:  # the fill lands where the client saw the word
        pix = result[0].get_pixmap(dpi=72)
    assert pix.pixel(int(box.x + box.w / 2), int(box.y + box.h / 2)) == (0, 0, 0)


def test_redaction_on_a_rotated_page_with_an_offset_cropbox(tmp_path: Path) -> None:
    document = pymupdf.open()
    page = document.new_page(width=600, height=800)
    page.set_cropbox(pymupdf.Rect(50, 80, 450, 700))
    page.set_rotation(90)
    write_lines(page, LINES, top=200, leading=20)
    document.save(tmp_path / "cropped.pdf")
    box = word_box(page, "secret")
    out = redact_file(tmp_path / "cropped.pdf", [redaction(0, box)])
    words = pdftotext(out).split()
    assert sorted(words) == sorted(
        LINES[0].split() + ["delta", "echo"] + LINES[2].split()
    )
    stem = tmp_path / "poppler"
    subprocess.run(
        [
            "pdftoppm",
            "-r",
            "72",
            "-png",
            "-singlefile",
            "-cropbox",
            str(out),
            str(stem),
        ],
        check=True,
    )
    pix = pymupdf.Pixmap(f"{stem}.png")
    assert pix.pixel(int(box.x + box.w / 2), int(box.y + box.h / 2)) == (0, 0, 0)


def test_redaction_of_hebrew_words(tmp_path: Path) -> None:
    document = pymupdf.open()
    page = document.new_page(width=400, height=300)
    page.insert_htmlbox(
        pymupdf.Rect(50, 50, 350, 200),
        '<p dir="rtl" style="font-size:14pt">שלום עולם סודי מאוד</p>'
        '<p dir="rtl" style="font-size:14pt">שורה שנייה כאן</p>',
    )
    document.save(tmp_path / "hebrew.pdf")
    box = word_box(page, "סודי")
    out = redact_file(tmp_path / "hebrew.pdf", [redaction(0, box)])
    words = re.sub("[\u202a-\u202e]", "", pdftotext(out)).split()  # bidi marks
    assert "סודי" not in words
    assert {"שלום", "עולם", "מאוד", "שורה", "שנייה", "כאן"} <= set(words)


def test_redaction_of_an_arabic_word_on_one_of_four_identical_lines(
    tmp_path: Path, corpus: Path
) -> None:
    # Each line reads "اﻧﻮاع اﳋﻄﻮط اﻟﻌﺮﺑﻴﺔ" in presentation forms; the middle word
    # of the second line is made of three extracted pieces.
    source = corpus / "ArabicCIDTrueType.pdf"
    with pymupdf.open(source) as document:
        page = document[0]
        lines = page.get_text("rawdict")["blocks"]
        second = sorted(
            (line for block in lines for line in block.get("lines", ())),
            key=lambda line: line["bbox"][1],
        )[1]
        words = [
            w
            for w in page.get_text("words")
            if w[1] >= second["bbox"][1] - 1 and w[3] <= second["bbox"][3] + 1
        ]
        middle = [
            pymupdf.Rect(w[:4])
            for w in words
            if unicodedata.normalize("NFKC", w[4]) in ("ا", "خطو", "ط")
            and 350 < w[0] < 440
        ]
        area = pymupdf.Rect(middle[0])
        for piece in middle[1:]:
            area |= piece
        box = geometry.rect_to_box(geometry.page_rect_to_display(page, area))
    target = tmp_path / "arabic.pdf"
    target.write_bytes(source.read_bytes())
    out = redact_file(target, [redaction(0, box)])

    def count(text: str, word: str) -> int:
        return unicodedata.normalize("NFKC", text).count(
            unicodedata.normalize("NFKC", word)
        )

    before, after = pdftotext(source), pdftotext(out)
    assert count(before, "اﳋﻄﻮط") == 4
    assert count(after, "اﳋﻄﻮط") == 3
    assert count(after, "اﻧﻮاع") == count(after, "اﻟﻌﺮﺑﻴﺔ") == 4


def test_alternate_text_of_the_removed_glyphs_is_scrubbed(tmp_path: Path) -> None:
    document = pymupdf.open()
    page = document.new_page(width=400, height=300)
    page.insert_text((50, 100), "visible words", fontsize=12)
    document.save(tmp_path / "plain.pdf")
    with pikepdf.open(tmp_path / "plain.pdf") as pdf:
        first = pdf.pages[0]
        font = next(iter(first.Resources.Font.keys()))
        marked = (
            f"/Span <</ActualText (Topsecret) /Alt <FEFF0054006F0070007300650063"
            f"007200650074>>> BDC BT {font} 12 Tf 50 150 Td (Topsecret) Tj ET EMC"
        )
        first.contents_add(pikepdf.Stream(pdf, marked.encode()))
        pdf.save(tmp_path / "marked.pdf")
    with pymupdf.open(tmp_path / "marked.pdf") as marked_doc:
        box = word_box(marked_doc[0], "Topsecret")
    out = redact_file(tmp_path / "marked.pdf", [redaction(0, box)])
    assert "visible words" in pdftotext(out)
    assert not contains_word(out, "Topsecret")


# --- corpus ----------------------------------------------------------------------

CORPUS_CASES = {
    # file: (1-based page to cut out and redact alone, or None for the whole file,
    #        the two distinctive words to redact)
    "tracemonkey.pdf": (None, ("incrementally", "interprocedural")),
    "three_columns.pdf": (None, ("three", "two")),
    "standard_fonts.pdf": (None, ("symbol", "zapfdingbats")),
    "rotation.pdf": (None, ("landscape", "normal")),
    "freeculture.pdf": (7, ("punishable", "Marysarah")),
    "160F-2019.pdf": (None, ("supplémentaires", "gratifications")),
}


@pytest.mark.corpus
@pytest.mark.parametrize("name", sorted(CORPUS_CASES))
def test_corpus_words_are_redacted_and_the_others_stay(
    tmp_path: Path, corpus: Path, facts: dict[str, Any], name: str
) -> None:
    only_page, targets = CORPUS_CASES[name]
    source = tmp_path / name
    with pymupdf.open(corpus / name) as original:
        if only_page is None:
            source.write_bytes((corpus / name).read_bytes())
        else:
            extract = pymupdf.open()
            extract.insert_pdf(original, from_page=only_page - 1, to_page=only_page - 1)
            extract.save(source)
    listed = [
        (entry["page"], word["word"])
        for entry in facts[name]["distinctive_words"]
        if only_page is None or entry["page"] == only_page
        for word in entry["words"]
    ]
    placements = []
    with pymupdf.open(source) as document:
        for page_number, word in listed:
            if word not in targets:
                continue
            index = 0 if only_page else page_number - 1
            page = document[index]
            boxes = tuple(
                geometry.rect_to_box(geometry.page_rect_to_display(page, rect))
                for rect in page.search_for(word)
            )
            assert boxes, word
            placements.append(redaction(index, *boxes))
    assert len(placements) == 2
    before = pdftotext(source).casefold()
    text = pdftotext(redact_file(source, placements)).casefold()
    for _, word in listed:
        assert (word.casefold() in text) is (word not in targets), word
    # Nothing else went: every vanished token is (part of) a redacted word.
    lost = Counter(before.split()) - Counter(text.split())
    assert lost
    assert all(any(t.casefold() in token for t in targets) for token in lost), lost
