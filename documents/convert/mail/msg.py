"""Outlook messages (.msg), read with extract-msg.

The body is the HTML body when there is one (extract-msg also recovers
HTML encapsulated in an RTF body), else the plain body. Attachments shown by
`cid:` in the HTML are drawn inline; the others are parts. An attached
Outlook message is one attachment, exported as a .msg file of its own.
"""

from __future__ import annotations

import logging
import re
from datetime import datetime
from typing import Any

import extract_msg
from extract_msg.enums import AttachmentType

from documents.convert.detect.textual import guess_encoding
from documents.convert.mail.message import Attachment, InlineImage, Message
from documents.convert.types import UnsupportedDocument

_CID = re.compile(r"""cid:([^"'\s>)]+)""", re.IGNORECASE)
_SKIPPED = (AttachmentType.BROKEN, AttachmentType.UNSUPPORTED, AttachmentType.UNKNOWN)

# extract-msg logs every oddity of a file at WARNING; they are the file's.
logging.getLogger("extract_msg").setLevel(logging.ERROR)


def read_msg(path: str) -> Message:
    """The message in the Outlook file at `path`."""
    try:
        msg = extract_msg.openMsg(path, delayAttachments=False)
    except Exception as exc:  # extract-msg and olefile raise many kinds
        raise UnsupportedDocument(
            "the Outlook message cannot be read (it is damaged or of an "
            "unsupported kind)"
        ) from exc
    try:
        return _message(msg)
    except UnsupportedDocument:
        raise
    except Exception as exc:
        raise UnsupportedDocument(
            "the Outlook message cannot be read (its content is damaged)"
        ) from exc
    finally:
        msg.close()


def _message(msg: Any) -> Message:
    message = Message(
        sender=_text_of(getattr(msg, "sender", None)),
        to=_text_of(getattr(msg, "to", None)),
        cc=_text_of(getattr(msg, "cc", None)),
        date=_date(getattr(msg, "date", None)),
        subject=_text_of(getattr(msg, "subject", None)),
    )
    html = _html(msg)
    if html:
        message.html = html
    else:
        body = _text_of(getattr(msg, "body", None), keep_lines=True)
        if body:
            message.texts.append(body)
    shown = {cid.lower() for cid in _CID.findall(message.html or "")}
    for attachment in getattr(msg, "attachments", []):
        _place(attachment, message, shown)
    return message


def _html(msg: Any) -> str | None:
    try:
        data = msg.htmlBody
    except Exception:  # an RTF body that cannot be de-encapsulated
        return None
    if not data:
        return None
    if isinstance(data, str):
        return data
    return bytes(data).decode(guess_encoding(bytes(data)) or "utf-8", errors="replace")


def _place(attachment: Any, message: Message, shown: set[str]) -> None:
    kind = getattr(attachment, "type", AttachmentType.UNKNOWN)
    name = _name(attachment)
    if kind in _SKIPPED:
        message.notes.append(f"the attachment {name or '(unnamed)'} could not be read")
        return
    data = attachment.data
    if kind == AttachmentType.MSG or not isinstance(data, bytes | bytearray):
        try:
            exported = data.exportBytes()
        except Exception:
            message.notes.append(
                f"the attached message {name or '(unnamed)'} could not be extracted"
            )
            return
        subject = _text_of(getattr(data, "subject", None))
        message.attachments.append(
            Attachment(
                name or (f"{subject}.msg" if subject else None),
                bytes(exported),
                "application/vnd.ms-outlook",
            )
        )
        return
    content_id = _text_of(getattr(attachment, "contentId", None)).strip("<>").lower()
    mime = _text_of(getattr(attachment, "mimetype", None)) or None
    if content_id and content_id in shown:
        message.images.append(InlineImage(content_id, bytes(data)))
        return
    message.attachments.append(Attachment(name, bytes(data), mime))


def _name(attachment: Any) -> str | None:
    for attribute in ("longFilename", "shortFilename", "displayName", "name"):
        value = _text_of(getattr(attachment, attribute, None))
        if value:
            return value
    return None


def _date(value: Any) -> str:
    if isinstance(value, datetime):
        return f"{value:%a} {value.day} {value:%b %Y %H:%M:%S %z}".strip()
    return _text_of(value)


def _text_of(value: Any, *, keep_lines: bool = False) -> str:
    if value is None:
        return ""
    text = str(value).replace("\x00", "")
    return text if keep_lines else " ".join(text.split())
