"""RFC 822 / MIME messages (.eml), read with the standard library's `email`
package (policy `default`, which records malformed structures as defects
instead of failing on them).

The body is the part `get_body()` prefers (HTML, else plain text); its
alternatives are not attachments. Other plain-text parts without a file
name are shown after the body (mailing-list footers); images the HTML body
shows by `cid:` are drawn inline; every other leaf part is an attachment. An
attached message (message/rfc822) is one attachment, kept whole: the caller
unpacks it in turn. The walk is iterative and bounded (`max_mime_parts`),
so a hostile tree can neither exhaust the stack nor take forever.
"""

from __future__ import annotations

import codecs
import re
from email import policy
from email.message import EmailMessage
from email.message import Message as EmailPart
from email.parser import BytesParser

from engines.convert.detect.charset import choose_encoding, guess_encoding
from engines.convert.fidelity import EncodingChoice
from engines.convert.mail.message import Attachment, InlineImage, Message
from engines.convert.types import LimitExceeded, Limits, UnsupportedDocument

MAX_NESTING = 50
_CID = re.compile(r"""cid:([^"'\s>)]+)""", re.IGNORECASE)


def read_eml(path: str, limits: Limits) -> Message:
    """The message in the .eml file at `path`."""
    try:
        with open(path, "rb") as fh:
            msg = BytesParser(policy=policy.default).parse(fh)
        return _message(msg, limits)
    except RecursionError as exc:
        raise UnsupportedDocument(
            "the e-mail's MIME structure is nested too deeply to be read"
        ) from exc


def _message(msg: EmailMessage, limits: Limits) -> Message:
    message = Message(
        sender=_header(msg, "From"),
        to=_header(msg, "To"),
        cc=_header(msg, "Cc"),
        date=_date(msg),
        subject=_header(msg, "Subject"),
    )
    leaves, parents = _leaves(msg, limits)
    body = _body(msg)
    skip: set[int] = set()
    if body is not None:
        skip.add(id(body))
        skip.update(_alternatives(body, parents, leaves))
        message.encoding = _encoding(body)
        if body.get_content_type() == "text/html":
            message.html = _text(body)
        else:
            message.texts.append(_text(body))
    shown = {cid.lower() for cid in _CID.findall(message.html or "")}
    for part in leaves:
        if id(part) not in skip:
            _place(part, message, shown)
    return message


def _leaves(
    msg: EmailPart, limits: Limits
) -> tuple[list[EmailPart], dict[int, EmailPart]]:
    """Leaf parts in document order (attached messages count as leaves),
    and the parent of each part by id."""
    leaves: list[EmailPart] = []
    parents: dict[int, EmailPart] = {}
    stack: list[tuple[EmailPart, int]] = [(msg, 0)]
    seen = 0
    while stack:
        part, depth = stack.pop()
        seen += 1
        if seen > limits.max_mime_parts:
            raise LimitExceeded(
                f"the e-mail has more than {limits.max_mime_parts:,} MIME parts; "
                f"the limit is {limits.max_mime_parts:,}"
            )
        if part.get_content_type() == "message/rfc822" and part is not msg:
            leaves.append(part)
        elif part.is_multipart():
            if depth >= MAX_NESTING:
                raise UnsupportedDocument(
                    "the e-mail's MIME structure is nested more than "
                    f"{MAX_NESTING} levels deep"
                )
            children = part.get_payload()
            if isinstance(children, list):
                for child in reversed(children):
                    if isinstance(child, EmailPart):
                        parents[id(child)] = part
                        stack.append((child, depth + 1))
        else:
            leaves.append(part)
    return leaves, parents


def _alternatives(
    body: EmailPart, parents: dict[int, EmailPart], leaves: list[EmailPart]
) -> set[int]:
    """Ids of the text parts that are other versions of `body`: the text
    leaves under its nearest multipart/alternative ancestor."""
    ancestor = parents.get(id(body))
    while (
        ancestor is not None and ancestor.get_content_type() != "multipart/alternative"
    ):
        ancestor = parents.get(id(ancestor))
    if ancestor is None:
        return set()
    found: set[int] = set()
    for leaf in leaves:
        if not leaf.get_content_type().startswith("text/"):
            continue
        parent = parents.get(id(leaf))
        while parent is not None and parent is not ancestor:
            parent = parents.get(id(parent))
        if parent is ancestor:
            found.add(id(leaf))
    return found


def _body(msg: EmailMessage) -> EmailPart | None:
    try:
        return msg.get_body(preferencelist=("html", "plain"))
    except Exception:  # a malformed tree: no body, every part an attachment
        return None


def _place(part: EmailPart, message: Message, shown: set[str]) -> None:
    kind = part.get_content_type()
    disposition = part.get_content_disposition()
    name = _filename(part)
    if kind == "message/rfc822":
        message.attachments.append(_attached_message(part))
        return
    content_id = (part.get("Content-ID") or "").strip().strip("<>").lower()
    data = _payload(part)
    if content_id and content_id in shown and kind.startswith("image/"):
        message.images.append(InlineImage(content_id, data))
        return
    if kind == "text/plain" and name is None and disposition != "attachment":
        message.texts.append(_text(part))
        return
    message.attachments.append(Attachment(name, data, kind))


def _attached_message(part: EmailPart) -> Attachment:
    payload = part.get_payload()
    inner = payload[0] if isinstance(payload, list) and payload else None
    if not isinstance(inner, EmailPart):
        return Attachment(_filename(part), _payload(part), "message/rfc822")
    try:
        data = inner.as_bytes()
    except Exception:  # headers that cannot be written back as they were
        data = str(inner).encode("utf-8", "replace")
    subject = _header(inner, "Subject")
    name = _filename(part) or (f"{subject}.eml" if subject else None)
    return Attachment(name, data, "message/rfc822")


def _payload(part: EmailPart) -> bytes:
    try:
        data = part.get_payload(decode=True)
    except Exception:
        data = None
    if isinstance(data, bytes):
        return data
    raw = part.get_payload()
    return raw.encode("utf-8", "replace") if isinstance(raw, str) else b""


def _text(part: EmailPart) -> str:
    data = _payload(part)
    charset = part.get_content_charset()
    for encoding in (charset, guess_encoding(data), "utf-8"):
        if not encoding:
            continue
        try:
            return data.decode(encoding, errors="replace")
        except LookupError:  # a charset Python does not know
            continue
    return data.decode("utf-8", errors="replace")


def _encoding(part: EmailPart) -> EncodingChoice | None:
    """How `_text` decodes the part: its declared charset, else a guess."""
    charset = part.get_content_charset()
    if charset:
        try:
            return EncodingChoice(codecs.lookup(charset).name, "declared", 1.0)
        except LookupError:
            pass
    return choose_encoding(_payload(part))


def _filename(part: EmailPart) -> str | None:
    try:
        return part.get_filename() or None
    except Exception:
        return None


def _header(msg: EmailPart, name: str) -> str:
    try:
        value = msg.get(name)
    except Exception:  # a header policy default cannot parse
        return ""
    return " ".join(str(value).split()) if value is not None else ""


def _date(msg: EmailPart) -> str:
    try:
        header = msg.get("Date")
        moment = getattr(header, "datetime", None)
    except Exception:
        return ""
    if moment is not None:
        # The original server's format: EEE d MMM yyyy HH:mm:ss Z.
        return f"{moment:%a} {moment.day} {moment:%b %Y %H:%M:%S %z}".strip()
    return _header(msg, "Date")
