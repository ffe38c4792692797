"""A message rendered as a PDF: part 0 of a mail container.

The page starts with the subject and the header fields (From, To, Cc, Date)
and the list of attachments, then any note on what was left out, then the
body: the HTML body sanitised (no remote content, no scripts; inline `cid:`
images drawn from the message itself), plain bodies as wrapped text.
Labels are English (the original's default is French, configurable there;
a setting here is future work).
"""

from __future__ import annotations

import base64
from html import escape

import pymupdf
from lxml import etree
from lxml import html as lxml_html

from engines.convert.mail.message import Message
from engines.convert.markup.render import render_html
from engines.convert.markup.sanitize import clean_css, sanitize
from engines.convert.rendition import Deadline
from engines.convert.text import wrap
from engines.convert.types import Limits

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
    markup, css = _markup(message, attachment_names, images)
    render_html(markup, dest, limits, deadline, archive=archive, css=MAIL_CSS + css)


def write_message_html(
    message: Message, attachment_names: list[str], dest: str
) -> None:
    """Write the message as one self-contained HTML page at `dest`: its
    headers and body as the PDF shows them, sanitised, inline images as `data:`
    URIs (what the original gives as the message part of an e-mail)."""
    images = {
        image.content_id: f"data:{_image_type(image.data)};base64,"
        + base64.b64encode(image.data).decode()
        for image in message.images
    }
    markup, css = _markup(message, attachment_names, images)
    style = escape(MAIL_CSS + css, quote=False)
    page = markup.replace(
        "<html><body>",
        '<!DOCTYPE html><html><head><meta charset="utf-8">'
        f"<title>{escape(message.subject or 'message')}</title>"
        f"<style>{style}</style></head><body>",
        1,
    )
    with open(dest, "w", encoding="utf-8") as out:
        out.write(page)


def _markup(
    message: Message, attachment_names: list[str], images: dict[str, str]
) -> tuple[str, str]:
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
    return markup, css


def _image_type(data: bytes) -> str:
    if data.startswith(b"\x89PNG"):
        return "image/png"
    if data.startswith(b"GIF8"):
        return "image/gif"
    return "image/jpeg"


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
