"""Legacy formats LibreOffice reads are recognised by their bytes and
converted: an Excel 4.0 worksheet written record by record, SYLK, DIF,
Excel 2003 XML, flat OpenDocument; others recognised from their headers.
Judged by pdftotext on the rendition."""

from __future__ import annotations

import struct
from pathlib import Path
from typing import Any

import pytest

from engines.convert import Family, Limits, detect, to_pdf
from tests.convert.cfb import compound_file
from tests.convert.helpers import pdf_text

ROWS = [("Region", "Sales"), ("Northwind", 1250.5), ("Bergamot", 980.0)]


def _record(kind: int, data: bytes = b"") -> bytes:
    return struct.pack("<HH", kind, len(data)) + data


def biff_sheet(bof: int) -> bytes:
    """A worksheet in BIFF3 (BOF 0x0209) or BIFF4 (0x0409): BOF, DIMENSIONS,
    LABEL and NUMBER cells, EOF (the record layouts of Excel 3.0 and 4.0)."""
    data = _record(bof, struct.pack("<HHH", 0, 0x0010, 0))
    data += _record(0x0200, struct.pack("<HHHHH", 0, len(ROWS), 0, 2, 0))
    for row, values in enumerate(ROWS):
        for column, value in enumerate(values):
            if isinstance(value, str):
                text = value.encode("cp1252")
                cell = struct.pack("<HHHH", row, column, 0, len(text)) + text
                data += _record(0x0204, cell)
            else:
                data += _record(0x0203, struct.pack("<HHHd", row, column, 0, value))
    return data + _record(0x000A)


SYLK = (
    'ID;PWXL\r\nC;Y1;X1;K"Region"\r\nC;X2;K"Sales"\r\n'
    'C;Y2;X1;K"Northwind"\r\nC;X2;K1250.5\r\nE\r\n'
)
DIF = (
    'TABLE\r\n0,1\r\n""\r\nVECTORS\r\n0,2\r\n""\r\nTUPLES\r\n0,2\r\n""\r\n'
    'DATA\r\n0,0\r\n""\r\n-1,0\r\nBOT\r\n1,0\r\n"Region"\r\n1,0\r\n"Sales"\r\n'
    '-1,0\r\nBOT\r\n1,0\r\n"Northwind"\r\n0,1250.5\r\nV\r\n-1,0\r\nEOD\r\n'
)
EXCEL_2003 = """<?xml version="1.0"?>
<?mso-application progid="Excel.Sheet"?>
<Workbook xmlns="urn:schemas-microsoft-com:office:spreadsheet"
 xmlns:ss="urn:schemas-microsoft-com:office:spreadsheet">
 <Worksheet ss:Name="Sheet1"><Table>
  <Row><Cell><Data ss:Type="String">Region</Data></Cell>
   <Cell><Data ss:Type="String">Sales</Data></Cell></Row>
  <Row><Cell><Data ss:Type="String">Northwind</Data></Cell>
   <Cell><Data ss:Type="Number">1250.5</Data></Cell></Row>
 </Table></Worksheet>
</Workbook>
"""
FLAT_ODT = """<?xml version="1.0" encoding="UTF-8"?>
<office:document xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0"
 xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"
 office:version="1.2" office:mimetype="application/vnd.oasis.opendocument.text">
 <office:body><office:text><text:p>Region Northwind sold 1250.5</text:p></office:text></office:body>
</office:document>
"""


@pytest.mark.parametrize(
    ("name", "data", "extension"),
    [
        pytest.param("sheet4", biff_sheet(0x0409), "xls", id="excel-4.0"),
        pytest.param("sheet3", biff_sheet(0x0209), "xls", id="excel-3.0"),
        pytest.param("sheet.slk", SYLK.encode(), "slk", id="sylk"),
        pytest.param("sheet.dif", DIF.encode(), "dif", id="dif"),
        pytest.param("book.xml", EXCEL_2003.encode(), "xml", id="excel-2003-xml"),
        pytest.param("text.fodt", FLAT_ODT.encode(), "fodt", id="flat-odt"),
    ],
)
def test_a_legacy_document_is_recognised_and_converted(
    office_pool: Any, tmp_path: Path, name: str, data: bytes, extension: str
) -> None:
    source = tmp_path / name
    source.write_bytes(data)

    found = detect(str(source))
    assert (found.family, found.extension) == (Family.OFFICE, extension)
    rendition = to_pdf(
        str(source),
        found,
        str(tmp_path / "out.pdf"),
        Limits(timeout=60),
        office=office_pool,
    )

    text = pdf_text(rendition.path)
    assert "Northwind" in text and "1250.5" in text


@pytest.mark.parametrize(
    ("data", "description"),
    [
        (b"\xffWPC\x10\x00\x00\x00\x01\x0a" + b"\0" * 40, "WordPerfect document"),
        (b"\x00\x00\x02\x00\x06\x04" + b"\0" * 40, "Lotus 1-2-3 worksheet"),
        (b"\x00\x00\x1a\x00\x02\x10\x04\x00" + b"\0" * 40, "Lotus 1-2-3 worksheet"),
        (b"\x31\xbe\x00\x00\x00\xab" + b"\0" * 122, "Windows Write document"),
        (compound_file({"StarWriterDocument": b"\0" * 64}), "StarOffice text"),
        (
            compound_file({"MatOST": b"\0" * 64, "CONTENTS": b"\0" * 64}),
            "Works document",
        ),
    ],
)
def test_other_legacy_formats_are_recognised_by_their_bytes(
    tmp_path: Path, data: bytes, description: str
) -> None:
    source = tmp_path / "file.bin"
    source.write_bytes(data)

    found = detect(str(source))

    assert (found.family, found.description) == (Family.OFFICE, description)
