"""A message rendered as a PDF: part 0 of a mail container.

The page starts with the subject and the header fields (From, To, Cc, Date)
and the list of attachments, then any note on what was left out, then the
body: the HTML body sanitised (no remote content, no scripts; inline `cid:`
images drawn from the message itself), plain bodies as wrapped text.
Labels are English (the original's default is French, configurable there;
a setting here is future work).
"""

from __future__ import annotations

from html import escape

import pymupdf
from lxml import etree
from lxml import html as lxml_html

from documents.convert.mail.message import Message
from documents.convert.markup.render import render_html
from documents.convert.markup.sanitize import clean_css, sanitize
from documents.convert.rendition import Deadline
from documents.convert.text import wrap
from documents.convert.types import Limits

# Plain bodies wrap at this many characters (URLs fit; base64 blobs break).
TEXT_COLUMNS = 100
MAIL_CSS = """
h1.subject { font-size: 15pt; margin: 0 0 6pt 0; }
table.headers { margin-bottom: 8pt; font-size: 10pt; }
table.headers th { text-align: left; color: #444; padding-right: 8pt; }
div.notes { border: 1pt solid #c60; padding: 4pt; margin: 6pt 0; font-size: 10pt; }
div.text { white-space: pre-wrap; font-size: 10pt; margin-top: 6pt; }
hr { margin: 6pt 0; }
"""


def render_message(
    message: Message,
    attachment_names: list[str],
    dest: str,
    limits: Limits,
    deadline: Deadline,
) -> None:
    """Write the message's PDF at `dest`."""
    archive = pymupdf.Archive()
    images: dict[str, str] = {}
    for number, image in enumerate(message.images, start=1):
        name = f"inline-{number}"
        archive.add(image.data, name)
        images[image.content_id] = name
    body, css = _html_body(message.html, images) if message.html else ("", "")
    texts = "".join(
        f'<div class="text">{escape(_wrapped(text))}</div>' for text in message.texts
    )
    markup = (
        "<html><body>"
        + _headers(message, attachment_names)
        + body
        + texts
        + "</body></html>"
    )
    render_html(markup, dest, limits, deadline, archive=archive, css=MAIL_CSS + css)


def _headers(message: Message, attachment_names: list[str]) -> str:
    rows = [
        ("From", message.sender),
        ("To", message.to),
        ("Cc", message.cc),
        ("Date", message.date),
    ]
    if attachment_names:
        rows.append(("Attachments", ", ".join(attachment_names)))
    cells = "".join(
        f"<tr><th>{label}</th><td>{escape(value)}</td></tr>"
        for label, value in rows
        if value
    )
    subject = escape(message.subject) if message.subject else "(no subject)"
    notes = "".join(f"<p>{escape(note)}</p>" for note in message.notes)
    return (
        f'<h1 class="subject">{subject}</h1>'
        f'<table class="headers">{cells}</table>'
        + (f'<div class="notes">{notes}</div>' if notes else "")
        + "<hr/>"
    )


def _html_body(markup: str, images: dict[str, str]) -> tuple[str, str]:
    """The sanitised HTML body's content, and its style sheets."""
    document = lxml_html.document_fromstring(sanitize(markup, images=images))
    css = "\n".join(clean_css(style.text or "") for style in document.iter("style"))
    etree.strip_elements(document, "style", "title", with_tail=False)
    body = document.find("body")
    if body is None:
        return "", css
    inner = (escape(body.text) if body.text else "") + "".join(
        etree.tostring(child, encoding="unicode", method="html") for child in body
    )
    return f"<div>{inner}</div>", css


def _wrapped(text: str) -> str:
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    return "\n".join(piece for line in lines for piece in wrap(line, TEXT_COLUMNS))
