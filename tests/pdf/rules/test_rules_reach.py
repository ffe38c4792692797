"""Preset rules reach a value however the page prints it: wrapped at a line's
end (at its "@", after a hyphen, between a card's groups), set in two fonts,
on a rotated page, in a form field's value, in a note's text. Each document is
redacted as an order does (found by `engines.rules`, areas redacted, copies
scrubbed) and its output read by pdftotext, mutool, qpdf and a pikepdf walk
(`judges.findings`): every piece of the value is gone, the other words stay.
"""

from __future__ import annotations

import io
import time
import zipfile
from collections.abc import Callable
from email.message import EmailMessage
from pathlib import Path

import pymupdf
import pytest

from engines.pdf.annotate import apply_annotations
from engines.pdf.redact import Removed
from engines.pdf.types import Annotation, Placement
from engines.rules import OutOfTime, Rule, TooManyMatches, find_matches
from tests.pdf.redaction import judges

RULES = [
    Rule("preset", "email"),
    Rule("preset", "card"),
    Rule("preset", "url"),
    Rule("text", "Zanzibar"),
    Rule("regex", r"Kilimanjaro\s+Trading"),
    Rule("preset", "iban"),
    Rule("preset", "phone"),
]
OTHERS = ("Alpha", "bravo", "charlie", "delta", "echo", "foxtrot")


def _others(page: pymupdf.Page) -> None:
    page.insert_text((40, 270), " ".join(OTHERS), fontsize=11)


def wrapped(doc: pymupdf.Document) -> list[str]:
    """Three values broken over two lines, as a narrow column breaks them."""
    page = doc.new_page(width=400, height=300)
    for n, line in enumerate([
        "Please charge the card 4111 1111",
        "1111 1111 for the order today.",
        "Write to jane.roe@",
        "mailhost.example about it,",
        "or to the desk at desk.one@exam-",
        "pleco.example next week.",
    ]):  # fmt: skip
        page.insert_text((40, 40 + 16 * n), line, fontsize=11)
    _others(page)
    return ["4111 1111", "1111 1111", "jane.roe", "mailhost", "desk.one", "pleco"]


def numbers_wrapped(doc: pymupdf.Document) -> list[str]:
    """Numbers a line breaks after one of their dashes or between groups;
    a telephone preset does not take the groups of an IBAN for a number."""
    page = doc.new_page(width=400, height=300)
    for n, line in enumerate([
        "Charge 4111-1111-",
        "1111-1111 and pay to IBAN DE89 3704 0044",
        "0532 0130 00 before Friday.",
    ]):  # fmt: skip
        page.insert_text((40, 40 + 16 * n), line, fontsize=11)
    _others(page)
    return ["4111-1111", "1111-1111", "DE89", "0532 0130"]


def hyphenated(doc: pymupdf.Document) -> list[str]:
    """Words a justified column hyphenated at a line's end, found by a text
    rule and by a regular expression."""
    page = doc.new_page(width=400, height=300)
    for n, line in enumerate([
        "The shipment reached the port of Zanzi-",
        "bar by the usual route, and Kiliman-",
        "jaro Trading paid the well-",
        "known agent.",
    ]):  # fmt: skip
        page.insert_text((40, 40 + 16 * n), line, fontsize=11)
    _others(page)
    return ["Zanzi", "bar by", "Kiliman", "jaro"]


def two_fonts(doc: pymupdf.Document) -> list[str]:
    """An address whose name is set in one font and the rest in another."""
    page = doc.new_page(width=400, height=300)
    x = 40.0
    for piece, font in (("Mail ", "helv"), ("mary", "tiro"),
                        (".major@corp.example", "cour"), (" today", "helv")):  # fmt: skip
        page.insert_text((x, 60), piece, fontsize=11, fontname=font)
        x += pymupdf.get_text_length(piece, font, 11)
    _others(page)
    return ["mary", "major@corp"]


def rotated(doc: pymupdf.Document) -> list[str]:
    """A landscape page: the page is turned, its text written along it."""
    page = doc.new_page(width=300, height=400)
    page.set_rotation(90)
    page.insert_text((40, 60), "Card 5555 5555 5555 4444 and", fontsize=11)
    page.insert_text((40, 80), "mail lee.kim@turned.example today", fontsize=11)
    _others(page)
    return ["5555 5555", "lee.kim"]


def field_value(doc: pymupdf.Document) -> list[str]:
    """A form field whose value is an address."""
    page = doc.new_page(width=400, height=300)
    widget = pymupdf.Widget()
    widget.field_name, widget.field_type = "contact", pymupdf.PDF_WIDGET_TYPE_TEXT
    widget.rect = pymupdf.Rect(40, 40, 300, 60)
    widget.field_value = "sam.fox@fields.example"
    page.add_widget(widget)
    _others(page)
    return ["sam.fox"]


def note_text(doc: pymupdf.Document) -> list[str]:
    """A sticky note and a free text box naming an address and a card."""
    page = doc.new_page(width=400, height=300)
    page.add_text_annot((360, 20), "ask ana.lu@notes.example first")
    box = page.add_freetext_annot(
        pymupdf.Rect(40, 100, 360, 130), "Paid with 3782 822463 10005"
    )
    box.update()
    _others(page)
    return ["ana.lu", "822463"]


def hidden_values(doc: pymupdf.Document) -> list[str]:
    """Values a viewer shows on demand, not on the page: a choice field's
    options, a field's tooltip, the targets of links whose text says
    something else."""
    page = doc.new_page(width=400, height=300)
    page.insert_text((40, 60), "Write to the desk or read the case file", fontsize=11)
    choice = pymupdf.Widget()
    choice.field_name, choice.field_type = "pick", pymupdf.PDF_WIDGET_TYPE_COMBOBOX
    choice.rect = pymupdf.Rect(40, 150, 300, 170)
    choice.choice_values = ["none", "opt.one@choices.example"]
    choice.field_value = "none"
    page.add_widget(choice)
    memo = pymupdf.Widget()
    memo.field_name, memo.field_type = "memo", pymupdf.PDF_WIDGET_TYPE_TEXT
    memo.rect = pymupdf.Rect(40, 200, 300, 220)
    memo.field_value, memo.field_label = "ok", "ask tip.two@tooltip.example"
    page.add_widget(memo)
    for rect, uri in (((40, 48, 140, 62), "mailto:link.three@uri.example"),
                      ((200, 48, 330, 62), "https://secret-case.example/file/12")):  # fmt: skip
        page.insert_link(
            {"kind": pymupdf.LINK_URI, "from": pymupdf.Rect(rect), "uri": uri}
        )
    _others(page)
    return ["opt.one", "tip.two", "link.three", "secret-case"]


BUILDERS: dict[str, Callable[[pymupdf.Document], list[str]]] = {
    "hidden_values": hidden_values,
    "hyphenated": hyphenated,
    "numbers_wrapped": numbers_wrapped,
    "wrapped": wrapped,
    "two_fonts": two_fonts,
    "rotated": rotated,
    "field_value": field_value,
    "note_text": note_text,
}


@pytest.fixture(scope="module")
def built(
    tmp_path_factory: pytest.TempPathFactory,
) -> dict[str, tuple[Path, list[str]]]:
    folder = tmp_path_factory.mktemp("rules-reach")
    out = {}
    for name, build in BUILDERS.items():
        doc = pymupdf.open()
        pieces = build(doc)
        path = folder / f"{name}.pdf"
        doc.save(path)
        out[name] = (path, pieces)
    return out


def _redact(path: Path, *, attachments: bool = False) -> Path:
    found = find_matches(str(path), RULES, document_key="doc", attachments=attachments)
    placements = [
        Placement(
            m.page,
            Annotation("RedactTextElemType", "doc", m.page, m.id, coords=m.boxes),
        )
        for m in found
        if m.is_area and m.page is not None
    ]
    out = path.with_name(f"{path.stem}-out.pdf")
    report = apply_annotations(
        str(path),
        str(out),
        placements,
        mode="burn",
        keep_attachments=attachments,
        scrub=[Removed(m.text, m.starts_word, m.ends_word) for m in found],
    )
    assert report.redaction_verified is True
    return out


@pytest.mark.parametrize("name", sorted(BUILDERS))
def test_every_piece_of_the_value_is_gone_from_the_output(
    built: dict[str, tuple[Path, list[str]]], name: str
) -> None:
    path, pieces = built[name]
    for piece in pieces:
        assert judges.findings(path, piece), piece  # there before
    out = _redact(path)
    for piece in pieces:
        assert judges.findings(out, piece) == [], piece
    assert judges.surviving_share(out, 0, OTHERS) >= 0.9


def test_a_rule_matching_past_the_limit_stops_naming_the_rule(tmp_path: Path) -> None:
    """A pattern that matches every letter would make an area of each: the
    search stops at the limit instead of listing them all."""
    doc = pymupdf.open()
    for _ in range(3):
        doc.new_page().insert_text((40, 60), " ".join(OTHERS), fontsize=11)
    path = tmp_path / "letters.pdf"
    doc.save(path)
    rules = [Rule("preset", "email"), Rule("regex", "[a-z]")]
    assert len(find_matches(str(path), rules, document_key="d", limit=99)) == 99
    with pytest.raises(TooManyMatches) as caught:
        find_matches(str(path), rules, document_key="d", limit=50)
    assert caught.value.rule == 1 and caught.value.code == "over_limit"
    assert "more than 50 matches" in str(caught.value)


def test_kept_attachments_are_searched_too(tmp_path: Path) -> None:
    """An order that keeps the attached files (`keepAttachments`) delivers
    them: the rules read them as the service opens them (text, ZIP members,
    e-mail parts, their descriptions), and what they find is scrubbed."""
    doc = pymupdf.open()
    doc.new_page().insert_text((40, 60), " ".join(OTHERS), fontsize=11)
    doc.embfile_add(
        "notes.txt", b"contact att.one@files.example", desc="by desc.two@files.example"
    )
    bundle = io.BytesIO()
    with zipfile.ZipFile(bundle, "w") as archive:
        archive.writestr("inner/readme.txt", "ask zip.three@files.example")
    doc.embfile_add("bundle.zip", bundle.getvalue())
    mail = EmailMessage()
    mail["From"], mail["Subject"] = "hr@files.example", "Offer"
    mail.set_content("Card 4111 1111 1111 1111 of mail.four@files.example")
    mail.add_attachment(
        "signed by sig.five@files.example".encode("utf-16"),
        maintype="text", subtype="plain", filename="sig.txt",
    )  # fmt: skip
    doc.embfile_add("offer.eml", mail.as_bytes())
    path = tmp_path / "attached.pdf"
    doc.save(path)
    pieces = ["att.one", "desc.two", "zip.three", "mail.four", "4111 1111", "sig.five"]
    for piece in pieces:
        assert judges.findings(path, piece), piece
    found = find_matches(str(path), RULES, document_key="d", attachments=True)
    assert {m.target for m in found} == {"document"}
    assert all(m.place.startswith("attached file ") for m in found)
    assert not any("files.example" in m.place for m in found)  # no text in places
    out = _redact(path, attachments=True)
    for piece in pieces:
        assert judges.findings(out, piece) == [], piece
    assert judges.surviving_share(out, 0, OTHERS) >= 0.9


def test_the_line_after_a_value_ending_a_line_is_not_taken_into_it(
    tmp_path: Path,
) -> None:
    """A line that ends with a whole address ("…/") and a next one that
    starts a sentence: the address is found alone."""
    doc = pymupdf.open()
    page = doc.new_page(width=400, height=300)
    for n, line in enumerate([
        "Available at https://example.org/reports/",
        "Accessed on the first of May, from the site of",
        "www.court.example/-",
        "Hearings are listed there.",
    ]):  # fmt: skip
        page.insert_text((40, 40 + 16 * n), line, fontsize=11)
    path = tmp_path / "ends.pdf"
    doc.save(path)
    found = find_matches(str(path), RULES, document_key="d")
    assert sorted(m.text for m in found) == [
        "https://example.org/reports/", "www.court.example/-"]  # fmt: skip


def test_a_search_past_its_deadline_stops(tmp_path: Path) -> None:
    """A dry run answers while its client waits: rules slow on every page
    (each under the per-text limit) stop at a deadline for the whole search."""
    doc = pymupdf.open()
    for _ in range(3):
        doc.new_page().insert_text((40, 60), " ".join(OTHERS), fontsize=11)
    path = tmp_path / "slow.pdf"
    doc.save(path)
    rules = [Rule("text", "bravo")]
    assert len(find_matches(str(path), rules, document_key="d", deadline=None)) == 3
    with pytest.raises(OutOfTime) as caught:
        find_matches(str(path), rules, document_key="d", deadline=time.monotonic())
    assert caught.value.code == "over_limit"


def test_a_number_broken_after_its_dash_is_found_whole(tmp_path: Path) -> None:
    doc = pymupdf.open()
    page = doc.new_page(width=400, height=300)
    for n, line in enumerate(
        ["SSN 536-22-", "1234 and IBAN DE89 3704 0044", "0532 0130 00."]
    ):
        page.insert_text((40, 40 + 16 * n), line, fontsize=11)
    path = tmp_path / "dash.pdf"
    doc.save(path)
    rules = [Rule("preset", "ssn"), Rule("preset", "phone"), Rule("preset", "iban")]
    found = find_matches(str(path), rules, document_key="d")
    assert [(m.rule, m.text) for m in found] == [
        (0, "536-22-1234"), (2, "DE89 3704 0044 0532 0130 00")]  # fmt: skip
