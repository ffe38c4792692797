"""Page assembly: selection, order, repeats, geometry, links, forms, errors.

Page order is checked with poppler's pdftotext, validity with `qpdf --check`,
object identity with pikepdf: tools other than the code under test.
"""

from __future__ import annotations

import os
import random
import re
import subprocess
from pathlib import Path

import pikepdf
import pymupdf
import pytest

from documents.pdf.assemble import assemble, page_count
from documents.pdf.types import EngineError, PageOrigin, PageRange, SourceElement


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


@pytest.fixture
def doc_a(tmp_path: Path) -> str:
    return _numbered(tmp_path / "a.pdf", "A", 6)


@pytest.fixture
def doc_b(tmp_path: Path) -> str:
    return _numbered(tmp_path / "b.pdf", "B", 3)


def test_selected_ranges_come_out_in_the_order_listed(
    doc_a: str, tmp_path: Path
) -> None:
    out = str(tmp_path / "out.pdf")
    ranges = (PageRange(4, 5), PageRange(1, 1), PageRange(6, 6))

    origins = assemble([SourceElement("a", doc_a, ranges)], out)

    assert _texts(out) == [
        "doc A page 4",
        "doc A page 5",
        "doc A page 1",
        "doc A page 6",
    ]
    assert origins == [
        PageOrigin("a", 3),
        PageOrigin("a", 4),
        PageOrigin("a", 0),
        PageOrigin("a", 5),
    ]
    _qpdf_check(out)


def test_whole_document_is_taken_when_no_ranges_are_given(
    doc_b: str, tmp_path: Path
) -> None:
    out = str(tmp_path / "out.pdf")

    origins = assemble([SourceElement("b", doc_b)], out)

    assert _texts(out) == ["doc B page 1", "doc B page 2", "doc B page 3"]
    assert [o.page for o in origins] == [0, 1, 2]


def test_elements_are_joined_in_order(doc_a: str, doc_b: str, tmp_path: Path) -> None:
    out = str(tmp_path / "out.pdf")
    elements = [
        SourceElement("b", doc_b),
        SourceElement("a", doc_a, (PageRange(2, 3),)),
        SourceElement("b", doc_b, (PageRange(1, 1),)),
    ]

    origins = assemble(elements, out)

    assert _texts(out) == [
        "doc B page 1",
        "doc B page 2",
        "doc B page 3",
        "doc A page 2",
        "doc A page 3",
        "doc B page 1",
    ]
    assert [(o.key, o.page) for o in origins] == [
        ("b", 0),
        ("b", 1),
        ("b", 2),
        ("a", 1),
        ("a", 2),
        ("b", 0),
    ]
    _qpdf_check(out)


def test_repeated_and_overlapping_ranges_repeat_pages_as_distinct_objects(
    doc_a: str, tmp_path: Path
) -> None:
    out = str(tmp_path / "out.pdf")
    ranges = (PageRange(1, 3), PageRange(2, 4), PageRange(2, 2))

    origins = assemble([SourceElement("a", doc_a, ranges)], out)

    assert _texts(out) == [f"doc A page {n}" for n in (1, 2, 3, 2, 3, 4, 2)]
    assert [o.page for o in origins] == [0, 1, 2, 1, 2, 3, 1]
    with pikepdf.open(out) as pdf:
        objects = [page.obj.objgen for page in pdf.pages]
    assert len(set(objects)) == len(objects)
    _qpdf_check(out)


def test_a_document_named_by_several_elements_is_copied_once(tmp_path: Path) -> None:
    source = tmp_path / "a.pdf"
    doc = pymupdf.open()
    for n in range(20):  # a photo per page: the bulk of the file
        page = doc.new_page(width=400, height=300)
        noise = random.Random(n).randbytes(80 * 80 * 3)
        photo = pymupdf.Pixmap(pymupdf.csRGB, 80, 80, noise, False)
        page.insert_image(pymupdf.Rect(20, 20, 180, 180), pixmap=photo)
        page.insert_text((200, 60), f"doc A page {n + 1}")
    doc.save(str(source), deflate=True)
    out = str(tmp_path / "out.pdf")
    elements = [SourceElement("a", str(source)) for _ in range(10)]

    origins = assemble(elements, out)

    assert len(origins) == 200
    # The repeats share contents, fonts and images: only page dictionaries
    # (a few hundred bytes each) are added.
    assert os.path.getsize(out) < 1.3 * os.path.getsize(source)
    with pikepdf.open(out) as pdf:
        photos = {
            x.objgen for page in pdf.pages for x in page.Resources.XObject.values()
        }
        assert len(photos) == 20
        assert len({page.obj.objgen for page in pdf.pages}) == 200
    _qpdf_check(out)


def test_fonts_shared_by_a_source_are_copied_once_across_elements(
    doc_a: str, tmp_path: Path
) -> None:
    out = str(tmp_path / "out.pdf")
    elements = [
        SourceElement("a", doc_a, (PageRange(1, 2),)),
        SourceElement("a", doc_a, (PageRange(3, 4),)),
    ]

    assemble(elements, out)

    with pikepdf.open(doc_a) as pdf:
        source_fonts = {f.objgen for p in pdf.pages for f in p.Resources.Font.values()}
    with pikepdf.open(out) as pdf:
        fonts = {f.objgen for p in pdf.pages for f in p.Resources.Font.values()}
    assert len(fonts) == len(source_fonts) == 1


def test_a_font_embedded_by_several_source_files_is_stored_once(tmp_path: Path) -> None:
    program = pymupdf.Font("helv").buffer  # ~33 KB, embedded as FontFile3
    paths = []
    for n in range(6):
        doc = pymupdf.open()
        page = doc.new_page()
        page.insert_font(fontname="F0", fontbuffer=program)
        page.insert_text((72, 72), f"document {n} text", fontname="F0")
        paths.append(str(tmp_path / f"src{n}.pdf"))
        doc.save(paths[-1], garbage=3, deflate=True)
    out = str(tmp_path / "merged.pdf")
    assemble([SourceElement(key=f"d{n}", path=p) for n, p in enumerate(paths)], out)
    single = os.path.getsize(paths[0])
    assert os.path.getsize(out) < 2 * single, "six copies of the font were written"
    with pikepdf.open(out) as pdf:
        descriptors = [
            o
            for o in pdf.objects
            if isinstance(o, pikepdf.Dictionary) and o.get("/Type") == "/FontDescriptor"
        ]
        programs = {d.FontFile3.objgen for d in descriptors}
    assert len(descriptors) == 6 and len(programs) == 1
    assert _texts(out) == [f"document {n} text" for n in range(6)]
    _qpdf_check(out)


def test_unused_resources_of_a_shared_resource_dictionary_are_left_behind(
    tmp_path: Path,
) -> None:
    # Ten pages share one /Resources holding ten images; each page shows one.
    source = str(tmp_path / "shared.pdf")
    with pikepdf.new() as pdf:
        images = {
            f"/Im{n}": pdf.make_stream(
                bytes([n * 20]) * (60 * 60 * 3),
                Type=pikepdf.Name.XObject,
                Subtype=pikepdf.Name.Image,
                Width=60,
                Height=60,
                ColorSpace=pikepdf.Name.DeviceRGB,
                BitsPerComponent=8,
            )
            for n in range(10)
        }
        resources = pdf.make_indirect(
            pikepdf.Dictionary(XObject=pikepdf.Dictionary(images))
        )
        for n in range(10):
            content = pdf.make_stream(f"q 60 0 0 60 20 20 cm /Im{n} Do Q".encode())
            pdf.pages.append(
                pikepdf.Page(
                    pikepdf.Dictionary(
                        Type=pikepdf.Name.Page,
                        MediaBox=[0, 0, 100, 100],
                        Resources=resources,
                        Contents=content,
                    )
                )
            )
        pdf.save(source)
    out = str(tmp_path / "out.pdf")

    assemble([SourceElement("s", source, (PageRange(3, 3), PageRange(7, 7)))], out)

    listing = subprocess.run(
        ["pdfimages", "-list", out], capture_output=True, check=True, text=True
    ).stdout.splitlines()[2:]
    assert len(listing) == 2
    with pikepdf.open(out) as pdf:
        assert [list(p.Resources.XObject.keys()) for p in pdf.pages] == [
            ["/Im2"],
            ["/Im6"],
        ]
    _qpdf_check(out)


def test_rotation_and_crop_box_survive(tmp_path: Path) -> None:
    source = tmp_path / "rotated.pdf"
    doc = pymupdf.open()
    for n in range(3):
        page = doc.new_page(width=400, height=300)
        page.insert_text((40, 60), f"page {n + 1}")
    doc[1].set_rotation(90)
    doc[2].set_cropbox(pymupdf.Rect(10, 20, 210, 220))
    doc[2].set_rotation(270)
    doc.save(str(source))
    out = str(tmp_path / "out.pdf")

    assemble([SourceElement("r", str(source), (PageRange(3, 3), PageRange(1, 3)))], out)

    before = _geometry(str(source))
    assert _geometry(out) == [before[2], before[0], before[1], before[2]]
    assert [g["rot"] for g in _geometry(out)] == ["270", "0", "90", "270"]


def test_rotation_and_boxes_inherited_from_the_page_tree_survive(
    tmp_path: Path,
) -> None:
    source = str(tmp_path / "inherited.pdf")
    with pikepdf.new() as pdf:
        for _ in range(2):
            content = pdf.make_stream(b"BT /F1 12 Tf 40 60 Td (page) Tj ET")
            pdf.pages.append(
                pikepdf.Page(
                    pikepdf.Dictionary(Type=pikepdf.Name.Page, Contents=content)
                )
            )
        tree = pdf.Root.Pages
        tree.Rotate = 90
        tree.MediaBox = [0, 0, 500, 400]
        tree.CropBox = [50, 40, 450, 360]
        for page in pdf.pages:  # only the tree says how pages look
            for key in ("/Rotate", "/MediaBox", "/CropBox"):
                if key in page.obj:
                    del page.obj[key]
        pdf.save(source)
    out = str(tmp_path / "out.pdf")

    assemble([SourceElement("i", source, (PageRange(2, 2), PageRange(1, 1)))], out)

    for shown in _geometry(out):
        assert shown["rot"] == "90"
        assert shown["MediaBox"] == "0.00 0.00 500.00 400.00"
        assert shown["CropBox"] == "50.00 40.00 450.00 360.00"
    _qpdf_check(out)


@pytest.mark.corpus
@pytest.mark.parametrize("name", ["rotation.pdf", "hello_world_rotated.pdf"])
def test_corpus_page_rotations_survive(corpus: Path, name: str, tmp_path: Path) -> None:
    source = str(corpus / name)
    count = page_count(source)
    out = str(tmp_path / "out.pdf")
    # Last page first, then the whole document: every rotation in a new place.
    ranges = (PageRange(count, count), PageRange(1, count))

    assemble([SourceElement("c", source, ranges)], out)

    before = _geometry(source)
    after = _geometry(out)
    assert after == [before[-1], *before]
    assert any(g["rot"] != "0" for g in after)
    _qpdf_check(out)


@pytest.mark.corpus
def test_scattered_pages_of_a_large_manual_keep_their_text(
    corpus: Path, tmp_path: Path
) -> None:
    source = str(corpus / "octave.pdf")
    out = str(tmp_path / "out.pdf")
    wanted = [1, 500, 1158, 500]
    ranges = tuple(PageRange(n, n) for n in wanted)

    origins = assemble([SourceElement("octave", source, ranges)], out)

    assert [o.page for o in origins] == [n - 1 for n in wanted]
    for position, number in enumerate(wanted, start=1):
        assert _page_text(out, position) == _page_text(source, number)
    assert page_count(out) == 4
    _qpdf_check(out)


@pytest.mark.corpus
def test_links_of_a_manual_lead_to_the_same_pages_or_are_dropped(
    corpus: Path, tmp_path: Path
) -> None:
    source = str(corpus / "octave.pdf")
    out = str(tmp_path / "out.pdf")
    first, last = 20, 60  # 1-based: output page i is source page i + 19

    assemble([SourceElement("octave", source, (PageRange(first, last),))], out)

    kept = dropped = 0
    with pymupdf.open(source) as src, pymupdf.open(out) as dst:
        for i in range(last - first + 1):
            expected = []
            for link in src[first - 1 + i].get_links():
                if link["kind"] in (pymupdf.LINK_GOTO, pymupdf.LINK_NAMED):
                    if not first - 1 <= link["page"] <= last - 1:
                        dropped += 1
                        continue
                    expected.append(("page", link["page"] - (first - 1)))
                else:
                    expected.append(("uri", link.get("uri")))
            got = [
                ("page", link["page"])
                if link["kind"] == pymupdf.LINK_GOTO
                else ("uri", link.get("uri"))
                for link in dst[i].get_links()
            ]
            assert got == expected, f"output page {i}"
            kept += len(got)
    assert kept > 50 and dropped > 0
    _qpdf_check(out)


def test_links_to_pages_left_out_are_dropped(tmp_path: Path) -> None:
    source = _numbered(tmp_path / "links.pdf", "L", 4, links=True)
    out = str(tmp_path / "out.pdf")

    assemble([SourceElement("l", source, (PageRange(1, 2), PageRange(4, 4)))], out)

    with pymupdf.open(out) as pdf:
        links = [
            [
                (link["kind"], link.get("page"), link.get("uri"))
                for link in page.get_links()
            ]
            for page in pdf
        ]
    assert links == [
        [
            (pymupdf.LINK_GOTO, 1, None),
            (pymupdf.LINK_URI, None, "https://example.org/"),
        ],
        [],  # it led to page 3, which is not in the output
        [],
    ]
    _qpdf_check(out)


def test_a_repeated_page_gets_its_own_annotations(tmp_path: Path) -> None:
    source = tmp_path / "noted.pdf"
    doc = pymupdf.open()
    page = doc.new_page()
    note = page.add_text_annot((100, 100), "a note")
    note.set_popup(pymupdf.Rect(200, 100, 300, 200))
    note.update()
    doc.save(str(source))
    out = str(tmp_path / "out.pdf")

    assemble([SourceElement("n", str(source), (PageRange(1, 1), PageRange(1, 1)))], out)

    with pikepdf.open(out) as pdf:
        seen = set()
        for copy in pdf.pages:
            annots = {a.Subtype: a for a in copy.obj.Annots}
            text, popup = annots[pikepdf.Name.Text], annots[pikepdf.Name.Popup]
            assert text.P.objgen == copy.obj.objgen
            assert text.Popup.objgen == popup.objgen
            assert popup.Parent.objgen == text.objgen
            seen |= {text.objgen, popup.objgen}
        assert len(seen) == 4
    _qpdf_check(out)


def test_form_fields_stay_fields_and_repeats_get_their_own_names(
    tmp_path: Path,
) -> None:
    source = tmp_path / "form.pdf"
    doc = pymupdf.open()
    page = doc.new_page()
    widget = pymupdf.Widget()
    widget.field_name = "name"
    widget.field_type = pymupdf.mupdf.PDF_WIDGET_TYPE_TEXT
    widget.rect = pymupdf.Rect(100, 100, 300, 130)
    widget.field_value = "Alice"
    page.add_widget(widget)
    doc.save(str(source))
    out = str(tmp_path / "out.pdf")

    assemble([SourceElement("f", str(source), (PageRange(1, 1), PageRange(1, 1)))], out)

    with pymupdf.open(out) as pdf:
        fields = [(w.field_name, w.field_value) for page in pdf for w in page.widgets()]
    assert len(fields) == 2
    assert len({name for name, _ in fields}) == 2
    assert {value for _, value in fields} == {"Alice"}
    _qpdf_check(out)


@pytest.mark.corpus
def test_a_source_encrypted_with_an_empty_password_gives_a_plain_output(
    corpus: Path, tmp_path: Path
) -> None:
    source = str(corpus / "r6-empty-password.pdf")
    out = str(tmp_path / "out.pdf")

    assemble([SourceElement("r6", source, (PageRange(1, 1), PageRange(1, 1)))], out)

    with pikepdf.open(out) as pdf:
        assert not pdf.is_encrypted
    text = _page_text(source, 1)
    assert text.strip()
    assert _page_text(out, 1) == text == _page_text(out, 2)
    _qpdf_check(out)


@pytest.mark.parametrize(("first", "last"), [(0, 2), (5, 9), (7, 7), (4, 2)])
def test_a_range_outside_the_document_names_document_and_range(
    doc_a: str, tmp_path: Path, first: int, last: int
) -> None:
    out = tmp_path / "out.pdf"
    elements = [
        SourceElement("good", doc_a, (PageRange(1, 1),)),
        SourceElement("doc-42", doc_a, (PageRange(first, last),)),
    ]

    with pytest.raises(EngineError) as error:
        assemble(elements, str(out))

    assert "doc-42" in str(error.value)
    assert f"{first}-{last}" in str(error.value)
    assert not out.exists()


def test_a_file_that_is_not_a_pdf_is_refused_clearly(
    doc_a: str, tmp_path: Path
) -> None:
    junk = tmp_path / "junk.pdf"
    junk.write_bytes(b"this is not a PDF at all\n" * 20)
    out = tmp_path / "out.pdf"

    with pytest.raises(EngineError, match="'junk-doc' is not a readable PDF") as error:
        assemble(
            [SourceElement("a", doc_a), SourceElement("junk-doc", str(junk))], str(out)
        )

    assert str(tmp_path) not in str(error.value)  # storage paths are not shown
    assert not out.exists()


def test_a_missing_file_is_refused_clearly(tmp_path: Path) -> None:
    with pytest.raises(EngineError, match="'gone' is missing"):
        assemble(
            [SourceElement("gone", str(tmp_path / "nope.pdf"))], str(tmp_path / "o.pdf")
        )


def test_a_password_protected_source_is_refused_clearly(
    doc_a: str, tmp_path: Path
) -> None:
    locked = str(tmp_path / "locked.pdf")
    with pikepdf.open(doc_a) as pdf:
        pdf.save(locked, encryption=pikepdf.Encryption(user="secret", owner="secret"))

    with pytest.raises(EngineError, match="'locked' is protected by a password"):
        assemble([SourceElement("locked", locked)], str(tmp_path / "o.pdf"))


def test_nothing_to_assemble_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(EngineError):
        assemble([], str(tmp_path / "o.pdf"))


def test_the_output_declares_the_newest_source_version(
    doc_a: str, tmp_path: Path
) -> None:
    newer = str(tmp_path / "newer.pdf")
    with pikepdf.open(doc_a) as pdf:
        pdf.save(newer, force_version="1.7")
    out = str(tmp_path / "out.pdf")

    assemble(
        [SourceElement("a", doc_a, (PageRange(1, 1),)), SourceElement("n", newer)], out
    )

    info = subprocess.run(
        ["pdfinfo", out], capture_output=True, check=True, text=True
    ).stdout
    assert re.search(r"PDF version:\s+1\.7", info)


def test_page_count_counts_pages(doc_a: str) -> None:
    assert page_count(doc_a) == 6


def _with_outline(path: Path, label: str, pages: int, toc: list[list[object]]) -> str:
    _numbered(path, label, pages)
    with pymupdf.open(str(path)) as doc:
        doc.set_toc(toc)
        doc.saveIncr()
    return str(path)


def test_outlines_of_merged_documents_follow_their_pages(tmp_path: Path) -> None:
    a = _with_outline(
        tmp_path / "a.pdf",
        "A",
        4,
        [[1, "A intro", 1], [1, "A part", 2], [2, "A detail", 3]],
    )
    b = _with_outline(tmp_path / "b.pdf", "B", 3, [[1, "B start", 1], [1, "B end", 3]])
    out = str(tmp_path / "out.pdf")
    elements = [
        SourceElement("a", a, (PageRange(2, 3),)),
        SourceElement("b", b),
        SourceElement("a", a, (PageRange(1, 1),)),
    ]

    assemble(elements, out)

    with pymupdf.open(out) as pdf:
        toc = pdf.get_toc()
    # A's outline once, where A first appears; each item on its page's first copy.
    assert toc == [
        [1, "A intro", 6],
        [1, "A part", 1],
        [2, "A detail", 2],
        [1, "B start", 3],
        [1, "B end", 5],
    ]
    _qpdf_check(out)


def test_outline_items_of_pages_left_out_are_dropped(tmp_path: Path) -> None:
    a = _with_outline(
        tmp_path / "a.pdf",
        "A",
        4,
        [[1, "A intro", 1], [1, "A part", 2], [2, "A detail", 3]],
    )
    out = str(tmp_path / "out.pdf")

    assemble([SourceElement("a", a, (PageRange(3, 4),))], out)

    with pymupdf.open(out) as pdf:
        toc = pdf.get_toc()
    # "A part" stays, without a page, to hold "A detail".
    assert toc == [[1, "A part", -1], [2, "A detail", 1]]
    _qpdf_check(out)


@pytest.mark.corpus
def test_the_outline_of_a_manual_is_pruned_to_the_pages_taken(
    corpus: Path, tmp_path: Path
) -> None:
    source = str(corpus / "octave.pdf")
    out = str(tmp_path / "out.pdf")
    first, last = 20, 60

    assemble([SourceElement("octave", source, (PageRange(first, last),))], out)

    with pymupdf.open(source) as pdf:
        entries = pdf.get_toc()
    expected = []
    for n, (level, title, page) in enumerate(entries):
        inside = first <= page <= last
        below = []
        for lower in entries[n + 1 :]:
            if lower[0] <= level:
                break
            below.append(lower)
        if inside or any(first <= p <= last for _, _, p in below):
            expected.append([level, title, page - first + 1 if inside else -1])
    with pymupdf.open(out) as pdf:
        assert pdf.get_toc() == expected
    assert len(expected) > 20


def test_a_field_keeps_only_its_widgets_on_copied_pages(tmp_path: Path) -> None:
    # One text field, one widget on each of two pages, both showing its value:
    # copying page 1 alone must not bring page 2's widget along in /AcroForm.
    from tests.pdf.redaction.build_forms import multi_page_field

    case = multi_page_field(tmp_path / "field.pdf")
    out = tmp_path / "out.pdf"
    assemble([SourceElement("d", str(case.path), (PageRange(1, 1),))], str(out))
    with pikepdf.open(out) as pdf:
        on_page = {annot.objgen for annot in pdf.pages[0].Annots}
        [field] = pdf.Root.AcroForm.Fields
        assert [kid.objgen for kid in field.Kids] == sorted(on_page)
        widgets = [
            obj
            for obj in pdf.objects
            if isinstance(obj, pikepdf.Dictionary) and obj.get("/Subtype") == "/Widget"
        ]
        assert len(widgets) == 1
    _qpdf_check(str(out))


def test_hidden_layers_stay_hidden(tmp_path: Path) -> None:
    from tests.pdf.redaction.build_files import optional_content

    case = optional_content(tmp_path / "layers.pdf")
    out = tmp_path / "out.pdf"
    elements = [SourceElement(key, str(case.path)) for key in ("a", "b")]
    assemble(elements, str(out))
    assert "hiddenword" not in " ".join(_texts(str(out)))
    assert "Alpha" in _texts(str(out))[1]
    with pikepdf.open(out) as pdf:
        properties = pdf.Root.OCProperties
        assert [str(layer.Name) for layer in properties.D.OFF] == ["Draft"]
        assert len(properties.OCGs) == 1
