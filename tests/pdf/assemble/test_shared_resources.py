"""The output stays small: what sources share (pages, fonts, images) is written once,
and what no output page uses is left behind.
"""

from __future__ import annotations

import os
import random
import subprocess
from pathlib import Path

import pikepdf
import pymupdf

from engines.pdf.assemble import assemble
from engines.pdf.types import PageRange, SourceElement
from tests.pdf.assemble.helpers import _qpdf_check, _texts


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
