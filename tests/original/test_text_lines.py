"""`text/position` lines as the original's client reads them (its smart-anchor
tests, AR-T1442): a Word form whose lines hold template anchors written in a
1 pt font, looked up as exact `positionTextList[].text` entries."""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import docx
from docx.shared import Pt

from tests.conftest import doc_url

ANCHOR_LINES = [
    "{{s1|radio|14|Datenschutz|f|JA}}",
    "{{s1|radio|14|Datenschutz|f|NEIN}}",
    "{{s1|radio|14|Einwilligung|f|JA}} Die Einwilligung wird erteilt",
    "{{s1|radio|14|Einwilligung|f|NEIN}} Die Einwilligung wird nicht erteilt",
]


def _form(path: Path) -> Path:
    """The shape of the client's TestVorlage.docx: anchors in 1 pt Arial, some
    alone on their line, some followed by the visible text of the option."""
    document = docx.Document()

    def line(*runs: tuple[str, float]) -> None:
        paragraph = document.add_paragraph()
        for text, size in runs:
            run = paragraph.add_run(text)
            run.font.size, run.font.name = Pt(size), "Arial"

    line(("{{s1|radio|14|Datenschutz|f|JA}}", 1))
    line(("      Ich stimme der DSGVO zu", 11))
    line(("{{s1|radio|14|Datenschutz|f|NEIN}}", 1))
    line(("      Ich stimme der DSGVO NICHT zu", 11))
    line(
        ("{{s1|radio|14|Einwilligung|f|JA}}", 1),
        (" ", 1),
        ("Die Einwilligung wird erteilt", 11),
    )
    line(
        ("{{s1|radio|14|Einwilligung|f|NEIN}}", 1),
        (" ", 1),
        ("Die Einwilligung wird nicht erteilt", 10),
    )
    line(("Name:\tJohn   Smith", 11))
    document.save(str(path))
    return path


def test_each_line_of_a_word_form_is_one_exact_entry(
    client: Any, converted: Callable[..., str], tmp_path: Path
) -> None:
    doc_id = converted(_form(tmp_path / "TestVorlage.docx").read_bytes())
    answer = client.get(doc_url(doc_id, "/pages/0/text/position")).json()
    entries = answer["positionTextList"]
    texts = [entry["text"] for entry in entries]
    for expected in ANCHOR_LINES:
        assert expected in texts, (expected, texts)
    # Words joined by single spaces: the tab and the run of spaces are one each.
    assert "Name: John Smith" in texts
    assert "Ich stimme der DSGVO zu" in texts
    for entry in entries:
        assert len(entry["individualWidths"]) == len(entry["text"])
        assert abs(sum(entry["individualWidths"]) - entry["position"]["w"]) < 0.01
    # Search reads the same text: each anchor is found whole, on its line.
    found = client.get(
        doc_url(doc_id, "/pages/0/text", searchText="|Datenschutz|f|JA}}")
    ).json()["searchResults"]
    assert [r["positionText"]["text"] for r in found] == ["|Datenschutz|f|JA}}"]
    # Independently, poppler reads each anchor as one word of the PDF too.
    pdf = tmp_path / "form.pdf"
    pdf.write_bytes(
        b"".join(client.get(doc_url(doc_id, "/file", format="pdf")).streaming_content)
    )
    poppler = subprocess.run(
        ["pdftotext", str(pdf), "-"], capture_output=True, text=True, check=True
    ).stdout
    # No space inside an anchor: poppler reads each as one word as well.
    words = poppler.split()
    for expected in ANCHOR_LINES:
        assert expected.split(" ", 1)[0] in words
