"""Outlook messages (.msg), read with extract-msg.

The body is the HTML body when there is one (extract-msg also recovers
HTML encapsulated in an RTF body), else the plain body. Attachments shown by
`cid:` in the HTML are drawn inline; the others are parts. An attached
Outlook message is one attachment, exported as a .msg file of its own.
"""

from __future__ import annotations

import codecs
import logging
import re
from datetime import datetime
from typing import Any

import extract_msg
from extract_msg.encoding import lookupCodePage
from extract_msg.enums import AttachmentType

from engines.convert.detect.charset import choose_encoding, guess_encoding
from engines.convert.fidelity import EncodingChoice
from engines.convert.mail.message import Attachment, InlineImage, Message
from engines.convert.types import UnsupportedDocument

_CID = re.compile(r"""cid:([^"'\s>)]+)""", re.IGNORECASE)
# Property ids of the code pages ([MS-OXPROPS]) and the 8-bit strings that
# tell an undeclared one (subject, body, sender's name).
_MESSAGE_CODEPAGE, _INTERNET_CPID = "3FFD0003", "3FDE0003"
_SAMPLED = ("__substg1.0_0037001E", "__substg1.0_1000001E", "__substg1.0_0C1A001E")
_SKIPPED = (AttachmentType.BROKEN, AttachmentType.UNSUPPORTED, AttachmentType.UNKNOWN)

# extract-msg logs every oddity of a file at WARNING; they are the file's.
logging.getLogger("extract_msg").setLevel(logging.ERROR)


def read_msg(path: str) -> Message:
    """The message in the Outlook file at `path`."""
    msg = _open(path)
    encoding = _string_encoding(msg)
    if encoding is not None and encoding.name != _codec(msg.stringEncoding):
        msg.close()  # extract-msg chose its default: read again in ours
        msg = _open(path, encoding.name)
    try:
        message = _message(msg)
        message.encoding = encoding
        return message
    except UnsupportedDocument:
        raise
    except Exception as exc:
        raise UnsupportedDocument(
            "the Outlook message cannot be read (its content is damaged)"
        ) from exc
    finally:
        msg.close()


def _open(path: str, encoding: str | None = None) -> Any:
    try:
        return extract_msg.openMsg(
            path, delayAttachments=False, overrideEncoding=encoding
        )
    except Exception as exc:  # extract-msg and olefile raise many kinds
        raise UnsupportedDocument(
            "the Outlook message cannot be read (it is damaged or of an "
            "unsupported kind)"
        ) from exc


def _string_encoding(msg: Any) -> EncodingChoice | None:
    """How the message's 8-bit strings are encoded; None when they are
    UTF-16 (a Unicode store). PR_MESSAGE_CODEPAGE says it (extract-msg reads
    it); without it, PR_INTERNET_CPID, the code page the message was sent
    in; without either, the detector on the subject and body. extract-msg
    alone would read them as ISO-8859-15."""
    try:
        if msg.areStringsUnicode:
            return None
        page = msg.getPropertyVal(_MESSAGE_CODEPAGE)
        if page is None:
            page = msg.getPropertyVal(_INTERNET_CPID)
        if isinstance(page, int):
            return EncodingChoice(_codec(lookupCodePage(page)), "declared", 1.0)
    except Exception:  # an unknown code page, a damaged property stream
        pass
    sample = b"\n".join(_raw_string(msg, stream) for stream in _SAMPLED)
    return choose_encoding(sample) if sample.strip() else None


def _codec(name: str) -> str:
    """Python's name of a codec: extract-msg registers some of its own
    ("windows-950"), which Python has under another name ("cp950")."""
    if name.lower().startswith("windows-"):
        name = "cp" + name[len("windows-") :]
    try:
        return codecs.lookup(name).name
    except LookupError:
        return name


def _raw_string(msg: Any, stream: str) -> bytes:
    try:
        data = msg.getStream(stream)
    except Exception:
        return b""
    return data.rstrip(b"\0") if isinstance(data, bytes) else b""


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
