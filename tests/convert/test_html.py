"""HTML pages render without running scripts or fetching anything."""

from __future__ import annotations

import base64
from pathlib import Path

import pymupdf

from engines.convert import Limits, detect, to_pdf
from engines.convert.markup import sanitize
from tests.convert.files import png_bytes
from tests.convert.helpers import pdf_text, recording_server


def convert(tmp_path: Path, markup: str, codec: str = "utf-8") -> Path:
    source, dest = tmp_path / "page.html", tmp_path / "page.pdf"
    source.write_bytes(markup.encode(codec))
    to_pdf(str(source), detect(str(source)), str(dest), Limits(timeout=30))
    return dest


def test_a_page_renders_its_text(tmp_path: Path) -> None:
    pdf = convert(
        tmp_path,
        "<!DOCTYPE html><html><head><title>T</title></head><body>"
        "<h1>Harbour report</h1><p>The <b>lantern</b> meadow.</p>"
        "<table><tr><td>cellone</td><td>celltwo</td></tr></table>"
        "<ul><li>first item</li></ul><pre>  pre  formatted</pre></body></html>",
    )

    text = pdf_text(pdf)
    for words in (
        "Harbour report",
        "lantern meadow",
        "cellone",
        "first item",
        "formatted",
    ):
        assert words in text


def test_nothing_remote_is_fetched_and_no_script_runs(tmp_path: Path) -> None:
    with recording_server() as server:
        markup = f"""<!DOCTYPE html><html><head>
            <link rel="stylesheet" href="{server.url("link.css")}">
            <style>@import url("{server.url("import.css")}");
              body {{ background: url({server.url("bg.png")}); }}</style>
            <script src="{server.url("script.js")}"></script>
            <script>document.write("SCRIPTRAN")</script>
            <meta http-equiv="refresh" content="0; url={server.url("refresh")}">
            <base href="{server.url("base/")}">
            </head><body onload="fetch('{server.url("onload")}')">
            <p>Visible paragraph</p>
            <img src="{server.url("img.png")}" alt="remote picture">
            <img srcset="{server.url("srcset.png")} 2x" src="relative.png">
            <iframe src="{server.url("frame.html")}"></iframe>
            <object data="{server.url("object.swf")}"></object>
            <video poster="{server.url("poster.png")}"></video>
            <div style="background-image: url('{server.url("inline.png")}')">styled</div>
            <svg><image href="{server.url("svg.png")}"/></svg>
            </body></html>"""
        text = pdf_text(convert(tmp_path, markup))

    assert server.requests == []
    assert "Visible paragraph" in text and "[remote picture]" in text
    assert "SCRIPTRAN" not in text


def test_data_uri_images_are_drawn(tmp_path: Path) -> None:
    uri = "data:image/png;base64," + base64.b64encode(png_bytes("green")).decode()

    pdf = convert(tmp_path, f"<html><body><p>pic</p><img src='{uri}'></body></html>")

    with pymupdf.open(str(pdf)) as doc:
        assert len(doc[0].get_images()) == 1


def test_a_legacy_page_is_read_in_its_declared_charset(tmp_path: Path) -> None:
    markup = (
        '<html><head><meta charset="windows-1252"></head>'
        "<body><p>Crème brûlée à la française, s'il vous plaît.</p></body></html>"
    )

    text = pdf_text(convert(tmp_path, markup, "cp1252"))

    assert "Crème brûlée à la française" in text


def test_sanitize_drops_handlers_and_javascript_links() -> None:
    clean = sanitize(
        '<a href="javascript:alert(1)" onclick="x()">a</a>'
        '<a href="https://example.org/">b</a><form action="/x"><input value="v">'
        "<p>kept</p></form>"
    )

    assert "javascript" not in clean and "onclick" not in clean
    assert 'href="https://example.org/"' in clean
    assert "<input" not in clean and "<form" not in clean and "kept" in clean


def test_deeply_nested_markup_is_flattened(tmp_path: Path) -> None:
    markup = "<div>" * 5000 + "deep words" + "</div>" * 5000

    assert "deep words" in pdf_text(convert(tmp_path, markup))


def test_many_pages_of_html(tmp_path: Path) -> None:
    body = "".join(
        f"<p>Paragraph number {n} of the long page.</p>" for n in range(3000)
    )

    pdf = convert(tmp_path, f"<html><body>{body}</body></html>")

    text = pdf_text(pdf)
    assert "Paragraph number 0 of" in text and "Paragraph number 2999 of" in text
