"""Every word of a message reaches part 0: Outlook messages in a legacy code
page, e-mails in Big5, HTML bodies laid out in nested tables. Judged by
pdftotext on the rendered part and by the standard library's `email`."""

from __future__ import annotations

import email
import unicodedata
from email import policy
from email.header import Header
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import pytest

from engines.convert import Limits, detect, unpack
from tests.convert.helpers import pdf_text
from tests.convert.msgfile import outlook_message

SUBJECT = "季度報告：營收成長百分之十一"
SENDER = "王小明"
BODY = "各位同事好，\n附件是本季度的財務報告，請在星期四的會議之前閱讀。\n謝謝大家。\n"
BODY_WORDS = ("各位同事好", "財務報告", "星期四的會議之前閱讀", "謝謝大家")


def _pdf(part: Any) -> str:
    """The PDF of an e-mail's message part (the part itself is its HTML)."""
    assert part.rendition is not None
    return str(part.rendition.path)


def nfkc(text: str) -> str:
    return unicodedata.normalize("NFKC", text)  # as pdf_text folds the PDF's


def message_part(tmp_path: Path, name: str, data: bytes) -> tuple[str, object]:
    source = tmp_path / name
    source.write_bytes(data)
    parts = tmp_path / f"{name}-parts"
    parts.mkdir()
    container = unpack(str(source), detect(str(source)), str(parts), Limits(timeout=60))
    body = container.parts[0]
    return pdf_text(_pdf(body)), body.rendition


@pytest.mark.parametrize(
    "internet_codepage",
    [
        pytest.param(950, id="internet-code-page-only"),
        pytest.param(None, id="no-code-page"),
    ],
)
def test_an_outlook_message_in_big5_is_read_in_big5(
    tmp_path: Path, internet_codepage: int | None
) -> None:
    data = outlook_message(
        subject=SUBJECT,
        sender=SENDER,
        to="財務部",
        body=BODY,
        encoding="big5",
        internet_codepage=internet_codepage,
    )

    text, rendition = message_part(tmp_path, "report.msg", data)

    assert nfkc(SUBJECT) in text
    assert SENDER in text
    assert all(word in text for word in BODY_WORDS)
    # Code page 950 is Microsoft's Big5 (cp950); the detector says big5.
    assert rendition.fidelity.encoding.name in ("cp950", "big5")  # type: ignore[attr-defined]


def test_an_email_in_big5_with_encoded_headers_is_read_in_big5(tmp_path: Path) -> None:
    headers = (
        f"From: {Header(SENDER, 'big5').encode()} <wang@example.com.tw>\r\n"
        "To: finance@example.com.tw\r\n"
        f"Subject: {Header(SUBJECT, 'big5').encode()}\r\n"
        "Message-ID: <big5@example.com.tw>\r\n"
        "MIME-Version: 1.0\r\n"
        "Content-Type: text/plain; charset=big5\r\n"
        "Content-Transfer-Encoding: 8bit\r\n\r\n"
    )
    data = headers.encode("ascii") + BODY.encode("big5")
    parsed = email.message_from_bytes(data, policy=policy.default)
    assert (parsed["Subject"], parsed["From"].addresses[0].display_name) == (
        SUBJECT,
        SENDER,
    )  # the standard library's reading

    text, rendition = message_part(tmp_path, "report.eml", data)

    assert nfkc(SUBJECT) in text and SENDER in text
    assert all(word in text for word in BODY_WORDS)
    encoding = rendition.fidelity.encoding  # type: ignore[attr-defined]
    assert (encoding.name, encoding.source) == ("big5", "declared")


def quoted_reply(paragraphs: int) -> str:
    """A reply quoting a message as mail clients and newsletters lay it out:
    the quoted header block in nested tables inside <blockquote><center>,
    the quoted message below it in the same outer cell."""
    quoted = "".join(
        f"<p>Quoted paragraph {n}: the quarterly figures and their notes.</p>"
        for n in range(paragraphs)
    )
    return f"""<html><body><p>Hi team, see below.</p>
<blockquote type="cite"><center>
<table width="100%" cellpadding="0"><tr><td>
  <table width="600" border="0">
    <tr><td><b>From:</b> Alice Example</td></tr>
    <tr><td><b>Subject:</b> Quarterly numbers</td></tr>
  </table>
  {quoted}
</td></tr></table>
</center></blockquote>
<p>Closing remark: thanks everyone.</p>
</body></html>"""


def test_an_html_body_quoted_in_nested_tables_is_shown_whole(tmp_path: Path) -> None:
    message = EmailMessage()
    message["From"] = "bob@example.com"
    message["To"] = "team@example.com"
    message["Subject"] = "Fwd: numbers"
    message["Message-ID"] = "<quoted@example.com>"
    message.set_content("Plain version.")
    message.add_alternative(quoted_reply(80), subtype="html")

    text, rendition = message_part(tmp_path, "quoted.eml", message.as_bytes())

    missing = [n for n in range(80) if f"Quoted paragraph {n}:" not in text]
    assert missing == []
    assert "Closing remark" in text
    assert "Alice Example" in text and "Quarterly numbers" in text
    assert rendition.page_count >= 3  # type: ignore[attr-defined]
