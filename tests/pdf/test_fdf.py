"""FDF export of live annotations (engines/pdf/fdf.py).

The FDF is read back object by object with pikepdf's parser, and its cross-reference
table is checked byte for byte, so no code of the module under test reads it.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pikepdf
import pymupdf
import pytest

from engines.errors import EngineError
from engines.pdf.annotate import apply_annotations
from engines.pdf.fdf import export_fdf
from engines.pdf.types import Annotation, Box, Placement, Point, Rgb

OBJECT = re.compile(rb"(\d+) 0 obj\n(.*?)\nendobj\n", re.DOTALL)


def parse_fdf(data: bytes) -> dict[int, pikepdf.Object]:
    """The FDF's objects by number, after checking its header, xref and trailer."""
    assert data.startswith(b"%FDF-1.2\n")
    assert data.rstrip().endswith(b"%%EOF")
    objects = {int(m[1]): m for m in OBJECT.finditer(data)}
    start = int(re.search(rb"startxref\n(\d+)\n%%EOF", data)[1])  # type: ignore[index]
    assert data[start:].startswith(b"xref\n0 ")
    entries = re.findall(rb"(\d{10}) (\d{5}) n \n", data[start:])
    assert [int(offset) for offset, _ in entries] == [
        m.start() for m in objects.values()
    ]
    trailer = f"trailer\n<</Root 1 0 R /Size {len(objects) + 1}>>\n".encode()
    assert trailer in data[start:]
    # pikepdf parses a lone object only without references: number them instead.
    return {
        number: pikepdf.Object.parse(re.sub(rb"(\d+) 0 R", rb"\1", m[2]))
        for number, m in objects.items()
    }


def annotations_of(data: bytes) -> list[Any]:
    objects = parse_fdf(data)
    refs = objects[1].FDF.Annots
    return [objects[int(ref)] for ref in refs]


@pytest.fixture
def live_pdf(tmp_path: Path) -> Path:
    document = pymupdf.open()
    for rotation in (0, 90):
        page = document.new_page(width=400, height=300)
        page.insert_link(
            {
                "kind": pymupdf.LINK_URI,
                "from": pymupdf.Rect(10, 10, 60, 30),
                "uri": "https://example.org/",
            }
        )
        page.set_rotation(rotation)
    document.save(tmp_path / "source.pdf")

    def on(page: int, kind: str, name: str, **fields: Any) -> Placement:
        return Placement(
            page,
            Annotation(
                kind=kind, document_key="d", page=page, annotation_id=name, **fields
            ),
        )

    placements = [
        on(
            0,
            "SquareElemType",
            "square-0",
            position=Box(30, 40, 80, 50),
            interior_color=Rgb(0, 0, 255),
            creator="Ann",
        ),
        on(
            0,
            "FreetextElemType",
            "free-0",
            position=Box(40, 120, 200, 40),
            rich_text='<body xmlns="http://www.w3.org/1999/xhtml"><p>Ünïcode</p></body>',
        ),
        on(1, "TextElemType", "note-1", position=Box(200, 40, 24, 24), contents="hi"),
        on(
            1,
            "LineElemType",
            "line-1",
            start=Point(20, 200),
            end=Point(220, 200),
            head="OPEN_ARROW",
            tail="NONE",
        ),
    ]
    out = tmp_path / "live.pdf"
    apply_annotations(str(tmp_path / "source.pdf"), str(out), placements, mode="live")
    return out


def test_fdf_lists_each_annotation_with_its_page_id_type_and_rect(
    live_pdf: Path,
) -> None:
    annots = annotations_of(export_fdf(str(live_pdf)))
    found = {(int(a.Page), str(a.NM), str(a.Subtype)) for a in annots}
    assert found == {
        (0, "square-0", "/Square"),
        (0, "free-0", "/FreeText"),
        (1, "note-1", "/Text"),
        (1, "line-1", "/Line"),
    }
    with pikepdf.open(live_pdf) as pdf:
        rects = {
            str(a.NM): [float(v) for v in a.Rect]
            for page in pdf.pages
            for a in page.obj.Annots
            if "/NM" in a
        }
    for annot in annots:
        assert [float(v) for v in annot.Rect] == pytest.approx(rects[str(annot.NM)])


def test_fdf_leaves_out_links_popups_and_appearance_streams(live_pdf: Path) -> None:
    data = export_fdf(str(live_pdf))
    annots = annotations_of(data)
    assert {str(a.Subtype) for a in annots}.isdisjoint({"/Link", "/Popup", "/Widget"})
    assert all("/AP" not in a and "/P" not in a for a in annots)
    assert b" R" not in data.split(b"endobj", 1)[1].split(b"xref")[0]  # no references


def test_fdf_keeps_the_annotation_text_properties(live_pdf: Path) -> None:
    annots = {str(a.NM): a for a in annotations_of(export_fdf(str(live_pdf)))}
    assert str(annots["square-0"].T) == "Ann"
    assert [float(v) for v in annots["square-0"].IC] == [0, 0, 1]
    assert str(annots["free-0"].Contents) == "Ünïcode"
    assert "Ünïcode" in str(annots["free-0"].RC)
    assert [str(n) for n in annots["line-1"].LE] == ["/None", "/OpenArrow"]


def test_fdf_names_the_pdf_it_annotates_when_told(live_pdf: Path) -> None:
    data = export_fdf(str(live_pdf), file_name="result.pdf")
    assert str(parse_fdf(data)[1].FDF.F) == "result.pdf"


def test_fdf_of_a_pdf_without_annotations_is_empty_but_valid(tmp_path: Path) -> None:
    document = pymupdf.open()
    document.new_page()
    document.save(tmp_path / "plain.pdf")
    assert annotations_of(export_fdf(str(tmp_path / "plain.pdf"))) == []


def test_fdf_of_a_file_that_is_no_pdf_is_an_engine_error(tmp_path: Path) -> None:
    (tmp_path / "junk.pdf").write_bytes(b"not a pdf at all")
    with pytest.raises(EngineError):
        export_fdf(str(tmp_path / "junk.pdf"))


@pytest.mark.corpus
def test_fdf_carries_the_source_markup_annotations(corpus: Path) -> None:
    annots = annotations_of(
        export_fdf(str(corpus / "tracemonkey-preview-comments.pdf"))
    )
    kinds = {str(a.Subtype) for a in annots}
    assert {"/Highlight", "/Ink", "/Stamp"} <= kinds
    assert all(0 <= int(a.Page) < 14 and len(a.Rect) == 4 for a in annots)
