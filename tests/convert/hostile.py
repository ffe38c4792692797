"""Hostile Office files written for the tests: remote links (SSRF), macros,
entity bombs, decompression bombs, giant sheets, damaged packages."""

from __future__ import annotations

import re
import zipfile
from pathlib import Path

from tests.convert import files

_REL_EXTERNAL = 'TargetMode="External"'
_IMAGE_REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/image"
_TEMPLATE_REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/attachedTemplate"


def _link_first_image(rels: str, part: str, url: str) -> tuple[str, str]:
    """Turn the first embedded image of a part into a linked (remote) one:
    its relationship points at `url`, the blip uses r:link."""
    match = re.search(
        rf'<Relationship Id="(\w+)" Type="{re.escape(_IMAGE_REL)}"[^>]*/>', rels
    )
    assert match, "the part has no image"
    rel_id = match.group(1)
    rels = rels.replace(
        match.group(0),
        f'<Relationship Id="{rel_id}" Type="{_IMAGE_REL}" Target="{url}" {_REL_EXTERNAL}/>',
    )
    return rels, part.replace(f'r:embed="{rel_id}"', f'r:link="{rel_id}"')


def docx_with_remote_content(path: Path, base: str) -> Path:
    """A Word document that, opened by a careless converter, requests
    `base`/linked.png (a linked picture), /includepicture.png and
    /includetext.docx (fields), /template.dotx (an attached template)."""
    source = files.make_docx(
        path.with_suffix(".src"), ["Remote links", "Body words"], image=True
    )
    with zipfile.ZipFile(source) as zf:
        document = zf.read("word/document.xml").decode()
        rels = zf.read("word/_rels/document.xml.rels").decode()
        settings = zf.read("word/settings.xml").decode()
    rels, document = _link_first_image(rels, document, f"{base}/linked.png")
    fields = (
        f"<w:p><w:fldSimple w:instr=' INCLUDEPICTURE \"{base}/includepicture.png\" \\d '>"
        "<w:r><w:t>picture field</w:t></w:r></w:fldSimple></w:p>"
        f"<w:p><w:fldSimple w:instr=' INCLUDETEXT \"{base}/includetext.docx\" '>"
        "<w:r><w:t>text field</w:t></w:r></w:fldSimple></w:p>"
    )
    document = document.replace("<w:sectPr", fields + "<w:sectPr", 1)
    settings = re.sub(
        r"(<w:settings[^>]*>)", r'\1<w:attachedTemplate r:id="rIdTpl"/>', settings
    )
    if "xmlns:r=" not in settings.split(">", 2)[1]:
        settings = settings.replace(
            "<w:settings ",
            '<w:settings xmlns:r="http://schemas.openxmlformats.org/officeDocument/'
            '2006/relationships" ',
            1,
        )
    settings_rels = (
        '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Relationships '
        'xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
        f'<Relationship Id="rIdTpl" Type="{_TEMPLATE_REL}" '
        f'Target="{base}/template.dotx" {_REL_EXTERNAL}/></Relationships>'
    )
    files.rewrite_zip(
        source,
        path,
        {
            "word/document.xml": document.encode(),
            "word/_rels/document.xml.rels": rels.encode(),
            "word/settings.xml": settings.encode(),
            "word/_rels/settings.xml.rels": settings_rels.encode(),
        },
    )
    source.unlink()
    return path


def pptx_with_remote_picture(path: Path, base: str) -> Path:
    """A presentation whose picture is linked to `base`/pptx-linked.png."""
    import io

    import pptx
    from pptx.util import Inches

    deck = pptx.Presentation()
    slide = deck.slides.add_slide(deck.slide_layouts[5])
    slide.shapes.title.text = "Remote picture slide"
    slide.shapes.add_picture(io.BytesIO(files.png_bytes()), Inches(1), Inches(2))
    source = path.with_suffix(".src")
    deck.save(str(source))
    with zipfile.ZipFile(source) as zf:
        part = zf.read("ppt/slides/slide1.xml").decode()
        rels = zf.read("ppt/slides/_rels/slide1.xml.rels").decode()
    rels, part = _link_first_image(rels, part, f"{base}/pptx-linked.png")
    files.rewrite_zip(
        source,
        path,
        {
            "ppt/slides/slide1.xml": part.encode(),
            "ppt/slides/_rels/slide1.xml.rels": rels.encode(),
        },
    )
    source.unlink()
    return path


def odt_with_remote_content(path: Path, base: str) -> Path:
    """An OpenDocument text with a linked image, a section linked to a remote
    document, and a linked object."""
    body = (
        "<text:p>Remote links in OpenDocument</text:p>"
        '<text:p><draw:frame draw:name="img" svg:width="2cm" svg:height="2cm" '
        'text:anchor-type="as-char">'
        f'<draw:image xlink:href="{base}/odt-image.png" xlink:type="simple" '
        'xlink:show="embed" xlink:actuate="onLoad"/></draw:frame></text:p>'
        '<text:section text:name="Linked">'
        f'<text:section-source xlink:href="{base}/section.odt" xlink:type="simple"/>'
        "<text:p>cached section text</text:p></text:section>"
        '<text:p><draw:frame draw:name="obj" svg:width="2cm" svg:height="2cm" '
        'text:anchor-type="as-char">'
        f'<draw:object xlink:href="{base}/object.ods" xlink:type="simple" '
        'xlink:show="embed" xlink:actuate="onLoad"/></draw:frame></text:p>'
    )
    return files.make_odt(path, body)


def xlsx_with_external_data(path: Path, base: str) -> Path:
    """A workbook whose formulas call WEBSERVICE() and an external workbook."""
    return files.make_xlsx(
        path,
        [
            ["External data sheet"],
            [f'=WEBSERVICE("{base}/webservice")'],
            [f"='{base}/[remote.xlsx]Sheet1'!A1"],
            [f'=HYPERLINK("{base}/hyperlink","link")'],
        ],
    )


def rtf_with_remote_fields(path: Path, base: str) -> Path:
    extra = (
        f'{{\\field{{\\*\\fldinst INCLUDEPICTURE "{base}/rtf-picture.png" \\\\d}}'
        "{\\fldrslt picture}}\\par\n"
        f'{{\\field{{\\*\\fldinst INCLUDETEXT "{base}/rtf-text.txt"}}{{\\fldrslt text}}}}\\par\n'
    )
    return files.make_rtf(path, ["Remote fields in RTF"], extra)


MACRO_EVENTS = (
    "dom:load",
    "office:load-finished",
    "office:view-created",
    "office:layout-finished",
    "office:print",
    "office:save",
)
MACRO = """Sub Main
    Dim n As Integer
    n = FreeFile()
    Open "{marker}" For Output As #n
    Print #n, "the macro ran"
    Close #n
End Sub
"""


def odt_with_macro(path: Path, marker: Path) -> Path:
    """An OpenDocument text with a Basic macro bound to the document's load
    events; the macro writes `marker`. It is a working macro: LibreOffice
    runs it (on view-created and layout-finished) when loaded with
    MacroExecutionMode ALWAYS_EXECUTE in a profile with low macro security,
    which is how this file was checked once."""
    library = "http://openoffice.org/2000/library"
    script_lc = (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        f'<library:libraries xmlns:library="{library}" '
        'xmlns:xlink="http://www.w3.org/1999/xlink">'
        '<library:library library:name="Standard" library:link="false"/>'
        "</library:libraries>"
    )
    script_lb = (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        f'<library:library xmlns:library="{library}" library:name="Standard" '
        'library:readonly="false" library:passwordprotected="false">'
        '<library:element library:name="Module1"/></library:library>'
    )
    module = (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<script:module xmlns:script="http://openoffice.org/2000/script" '
        'script:name="Module1" script:language="StarBasic">'
        + MACRO.format(marker=marker).replace("&", "&amp;").replace("<", "&lt;")
        + "</script:module>"
    )
    # Several events: a hidden, headless load fires some and not others
    # (view-created and layout-finished do, dom:load does not).
    listeners = "".join(
        '<script:event-listener script:language="ooo:script" '
        f'script:event-name="{event}" '
        'xlink:href="vnd.sun.star.script:Standard.Module1.Main?language=Basic&amp;'
        'location=document" xlink:type="simple"/>'
        for event in MACRO_EVENTS
    )
    scripts = (
        f"<office:scripts><office:event-listeners>{listeners}"
        "</office:event-listeners></office:scripts>"
    )
    manifest = "".join(
        f'<manifest:file-entry manifest:full-path="{name}" manifest:media-type="text/xml"/>'
        for name in (
            "Basic/script-lc.xml",
            "Basic/Standard/script-lb.xml",
            "Basic/Standard/Module1.xml",
        )
    )
    return files.make_odt(
        path,
        "<text:p>A document with a macro</text:p>",
        scripts=scripts,
        extra={
            "Basic/script-lc.xml": script_lc.encode(),
            "Basic/Standard/script-lb.xml": script_lb.encode(),
            "Basic/Standard/Module1.xml": module.encode(),
        },
        manifest_extra=manifest,
    )


def docx_billion_laughs(path: Path) -> Path:
    """A Word document whose main part is an entity-expansion bomb."""
    entities = '<!ENTITY lol0 "lol">' + "".join(
        f'<!ENTITY lol{n} "{("&lol" + str(n - 1) + ";") * 10}">' for n in range(1, 10)
    )
    source = files.make_docx(path.with_suffix(".src"), ["Laughs"])
    with zipfile.ZipFile(source) as zf:
        document = zf.read("word/document.xml").decode()
    head, rest = document.split("?>", 1)
    document = f"{head}?><!DOCTYPE w:document [{entities}]>" + rest.replace(
        "Laughs", "&lol9;", 1
    )
    files.rewrite_zip(source, path, {"word/document.xml": document.encode()})
    source.unlink()
    return path


def docx_with_zip_bomb(path: Path, inflated: int = 2 * 1024**3) -> Path:
    """A Word document carrying a part that inflates from a few MB to
    `inflated` bytes (written as a stream: the test never holds it)."""
    source = files.make_docx(path.with_suffix(".src"), ["Bomb"])
    with zipfile.ZipFile(source) as zin, zipfile.ZipFile(path, "w") as zout:
        for info in zin.infolist():
            zout.writestr(info, zin.read(info.filename))
        info = zipfile.ZipInfo("word/media/image1.png")
        info.compress_type = zipfile.ZIP_DEFLATED
        zeros = bytes(1024 * 1024)
        with zout.open(info, "w", force_zip64=True) as part:
            for _ in range(inflated // len(zeros)):
                part.write(zeros)
    source.unlink()
    return path


def xlsx_with_rows(path: Path, rows: int) -> Path:
    """A workbook with `rows` rows, its sheet written as a stream by hand
    (openpyxl takes minutes for a million rows)."""
    source = files.make_xlsx(path.with_suffix(".src"), [["seed"]])
    with zipfile.ZipFile(source) as zin, zipfile.ZipFile(path, "w") as zout:
        for info in zin.infolist():
            if info.filename != "xl/worksheets/sheet1.xml":
                zout.writestr(info, zin.read(info.filename))
        info = zipfile.ZipInfo("xl/worksheets/sheet1.xml")
        info.compress_type = zipfile.ZIP_DEFLATED
        with zout.open(info, "w", force_zip64=True) as sheet:
            sheet.write(
                b'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<worksheet '
                b'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">'
                b"<sheetData>"
            )
            chunk = []
            for n in range(1, rows + 1):
                chunk.append(f'<row r="{n}"><c r="A{n}"><v>{n}</v></c></row>')
                if len(chunk) == 10000:
                    sheet.write("".join(chunk).encode())
                    chunk = []
            sheet.write("".join(chunk).encode() + b"</sheetData></worksheet>")
    source.unlink()
    return path
