"""E-mails become a rendered message (part 0) and their attachments (1..n)."""

from __future__ import annotations

import os
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import pytest

from engines.convert import Container, Family, LimitExceeded, Limits, detect, unpack
from engines.errors import UnsupportedDocument
from tests.convert import files
from tests.convert.helpers import pdf_text, recording_server


def _pdf(part: Any) -> str:
    """The PDF of an e-mail's message part (the part itself is its HTML)."""
    assert part.rendition is not None
    return str(part.rendition.path)


def open_mail(path: Path, tmp_path: Path, limits: Limits | None = None) -> Container:
    out = tmp_path / "parts"
    out.mkdir(exist_ok=True)
    detected = detect(str(path))
    assert detected.family is Family.MAIL
    return unpack(str(path), detected, str(out), limits or Limits())


def rich_message(remote: str) -> EmailMessage:
    message = EmailMessage()
    message["From"] = "=?utf-8?q?=C3=89lodie_Martin?= <elodie@example.org>"
    message["To"] = "bob@example.com, carol@example.com"
    message["Cc"] = "dave@example.com"
    message["Subject"] = "Quarterly figures — résumé"
    message["Date"] = "Tue, 03 Nov 2026 14:05:00 +0100"
    message.set_content("Plain alternative of the body: walnut.")
    message.add_alternative(
        "<html><head><script>document.write('SCRIPTRAN')</script></head><body>"
        "<p>Hello <b>team</b>, the <i>marigold</i> figures are in.</p>"
        '<img src="cid:logo@example.org">'
        f'<img src="{remote}" alt="tracking pixel"></body></html>',
        subtype="html",
    )
    payload = message.get_payload()
    assert isinstance(payload, list)
    html_part = payload[1]
    assert isinstance(html_part, EmailMessage)
    html_part.add_related(
        files.png_bytes("blue"), "image", "png", cid="<logo@example.org>"
    )
    message.add_attachment(
        b"%PDF-1.4 not really",
        maintype="application",
        subtype="pdf",
        filename="../../etc/report.pdf",
    )
    message.add_attachment(
        b"attached notes", maintype="text", subtype="plain", filename="notes.txt"
    )
    inner = EmailMessage()
    inner["From"], inner["Subject"] = "x@example.org", "Forwarded thing"
    inner.set_content("inner body")
    message.add_attachment(inner)
    return message


def test_a_rich_message_is_rendered_with_its_headers_and_attachments(
    tmp_path: Path,
) -> None:
    with recording_server() as server:
        path = tmp_path / "mail"
        path.write_bytes(bytes(rich_message(server.url("pixel.png"))))
        container = open_mail(path, tmp_path)

    assert server.requests == []
    assert container.kind == "mail" and container.title == "Quarterly figures — résumé"
    body, *attachments = container.parts
    assert (body.index, body.role, body.rendition is not None) == (0, "message", True)
    assert [(p.index, p.name, p.role) for p in attachments] == [
        (1, "report.pdf", "attachment"),
        (2, "notes.txt", "attachment"),
        (3, "Forwarded thing.eml", "attachment"),
    ]
    text = pdf_text(_pdf(body))
    for words in (
        "Quarterly figures — résumé",
        "Élodie Martin <elodie@example.org>",
        "bob@example.com, carol@example.com",
        "dave@example.com",
        "Tue 3 Nov 2026 14:05:00 +0100",
        "report.pdf, notes.txt, Forwarded thing.eml",
        "the marigold figures are in",
        "[tracking pixel]",
    ):
        assert words in text
    assert "walnut" not in text  # the plain alternative is not shown twice
    assert "SCRIPTRAN" not in text
    assert Path(attachments[1].path).read_bytes() == b"attached notes"
    assert detect(attachments[2].path).family is Family.MAIL  # the caller recurses


def test_the_inline_image_is_drawn_not_attached(tmp_path: Path) -> None:
    import pymupdf

    path = tmp_path / "mail"
    path.write_bytes(bytes(rich_message("http://127.0.0.1:9/x.png")))
    container = open_mail(path, tmp_path)

    with pymupdf.open(_pdf(container.parts[0])) as doc:
        assert len(doc[0].get_images()) == 1
    assert all(not p.name.endswith(".png") for p in container.parts)


def test_a_plain_text_message_keeps_its_lines(tmp_path: Path) -> None:
    message = EmailMessage()
    message["From"], message["Subject"] = "a@example.org", "Plain"
    long_line = " ".join(f"token{n}" for n in range(60))
    message.set_content(f"First line\nSecond line\n{long_line}\n", charset="iso-8859-1")
    path = tmp_path / "plain.eml"
    path.write_bytes(bytes(message))

    text = pdf_text(_pdf(open_mail(path, tmp_path).parts[0]))

    assert "First line" in text and "Second line" in text
    assert text.split().count("token59") == 1


def test_attachments_beyond_the_limit_are_left_out_with_a_note(tmp_path: Path) -> None:
    message = EmailMessage()
    message["From"], message["Subject"] = "a@example.org", "Many files"
    message.set_content("Five hundred attachments follow.")
    for n in range(500):
        message.add_attachment(
            f"file {n}".encode(), maintype="text", subtype="plain", filename=f"f{n}.txt"
        )
    path = tmp_path / "many.eml"
    path.write_bytes(bytes(message))

    container = open_mail(path, tmp_path, Limits(max_attachments=200))

    assert len(container.parts) == 201
    assert container.parts[-1].name == "f199.txt"
    assert container.notes == (
        "300 of the 500 attachments are not shown: the limit is 200 attachments per message.",
    )
    assert "300 of the 500 attachments are not shown" in pdf_text(
        _pdf(container.parts[0])
    )


@pytest.mark.parametrize(
    "raw",
    [
        # A multipart whose boundary never appears.
        b"From: a@example.org\nSubject: no boundary\nMIME-Version: 1.0\n"
        b'Content-Type: multipart/mixed; boundary="XYZ"\n\nno parts at all\n',
        # A closing boundary missing, broken base64, an unknown charset.
        b"From: a@example.org\nSubject: broken\nMIME-Version: 1.0\n"
        b'Content-Type: multipart/mixed; boundary="B"\n\n--B\n'
        b"Content-Type: text/plain; charset=x-no-such-charset\n\nbody text\n--B\n"
        b"Content-Type: application/octet-stream; name=a.bin\n"
        b"Content-Transfer-Encoding: base64\n\n@@@not base64@@@\n",
        # Headers that are not headers.
        b"From: a@example.org\nSubject: =?utf-8?b?invalid===?=\nDate: yesterday\n"
        b"Content-Type: text/plain; charset=utf-8\n\n\xff\xfe broken bytes\n",
    ],
    ids=["no-boundary", "unterminated", "bad-headers"],
)
def test_malformed_mime_gives_a_clean_result(tmp_path: Path, raw: bytes) -> None:
    path = tmp_path / "bad.eml"
    path.write_bytes(raw)

    container = open_mail(path, tmp_path)

    assert container.parts[0].rendition is not None
    assert pdf_text(_pdf(container.parts[0])).strip()


def test_a_deeply_nested_mime_tree_is_refused(tmp_path: Path) -> None:
    head = b"From: a@example.org\nSubject: deep\nMIME-Version: 1.0\n"
    body = b""
    for level in range(3000):
        body += f'Content-Type: multipart/mixed; boundary="b{level}"\n\n--b{level}\n'.encode()
    path = tmp_path / "deep.eml"
    path.write_bytes(head + body + b"Content-Type: text/plain\n\ndeep body\n")

    with pytest.raises(UnsupportedDocument, match="nested"):
        open_mail(path, tmp_path)


def test_too_many_mime_parts_are_refused(tmp_path: Path) -> None:
    parts = b"".join(b"--B\nContent-Type: text/plain\n\nx\n" for _ in range(300))
    path = tmp_path / "parts.eml"
    path.write_bytes(
        b"From: a@example.org\nSubject: parts\nMIME-Version: 1.0\n"
        b'Content-Type: multipart/mixed; boundary="B"\n\n' + parts + b"--B--\n"
    )

    with pytest.raises(LimitExceeded, match="more than 100 MIME parts"):
        open_mail(path, tmp_path, Limits(max_mime_parts=100))


def test_an_outlook_message_is_rendered_with_its_attachments(tmp_path: Path) -> None:
    path = files.make_msg(
        tmp_path / "message",
        subject="Lunch plans zeppelin",
        body="Plain body zeppelin.",
        html='<p>HTML body with <b>saffron</b> <img src="cid:none"></p>',
        attachments=[("menu.txt", b"soup of the day"), ("..\\..\\evil.bat", b"echo")],
    )

    container = open_mail(path, tmp_path)

    assert [(p.index, p.name) for p in container.parts[1:]] == [
        (1, "menu.txt"),
        (2, "evil.bat"),
    ]
    text = pdf_text(_pdf(container.parts[0]))
    assert "Lunch plans zeppelin" in text and "HTML body with saffron" in text
    assert (
        "Alice Example <alice@example.org>" in text
        and "Tue 3 Nov 2026 13:05:00 +0000" in text
    )
    assert Path(container.parts[1].path).read_bytes() == b"soup of the day"


def test_part_files_are_named_by_the_engine_only(tmp_path: Path) -> None:
    path = tmp_path / "mail"
    path.write_bytes(bytes(rich_message("http://127.0.0.1:9/x.png")))

    container = open_mail(path, tmp_path)

    # Part 0 is the message as HTML, with its PDF beside it.
    assert sorted(os.listdir(tmp_path / "parts")) == [
        "part-0000",
        "part-0000.pdf",
        *(f"part-{n:04d}" for n in range(1, 4)),
    ]
    assert all(Path(p.path).parent == tmp_path / "parts" for p in container.parts)


def test_the_message_part_is_a_self_contained_html_page(tmp_path: Path) -> None:
    path = tmp_path / "mail"
    path.write_bytes(bytes(rich_message("http://127.0.0.1:9/x.png")))
    body = open_mail(path, tmp_path).parts[0]
    assert body.declared_type == "text/html" and body.name.endswith(".html")
    page = Path(body.path).read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>") and "<style>" in page
    # The inline image travels with the page; the remote one is never named.
    assert 'src="data:image/' in page and "127.0.0.1:9" not in page
    assert "Quarterly figures" in page
