"""E-mails (EML, MSG) as containers: part 0 is the message rendered as a PDF,
parts 1..n its attachments, as files for the caller to detect and convert.

At most `limits.max_attachments` attachments become parts; the others are
left out, and the message's PDF says so (a note under its headers), as does
`Container.notes`: the body and the first attachments stay readable, and
the user knows what is missing.
"""

from __future__ import annotations

import os

from engines.convert.fidelity import Fidelity
from engines.convert.mail.eml import read_eml
from engines.convert.mail.message import Message
from engines.convert.mail.render import render_message, write_message_html
from engines.convert.names import display_name, part_path
from engines.convert.rendition import Deadline, describe
from engines.convert.types import Container, Detected, Limits, Part


def unpack_mail(
    path: str, detected: Detected, dest_dir: str, limits: Limits, depth: int
) -> Container:
    """Render the message at `path` and write its attachments in `dest_dir`."""
    deadline = Deadline(limits.timeout)
    if detected.extension == "msg":
        # Here, not at the top: extract-msg and its parsers are ~30 MB that
        # every web process would carry (they import this package to detect).
        from engines.convert.mail.msg import read_msg

        message = read_msg(path)
    else:
        message = read_eml(path, limits)
    kept = message.attachments[: limits.max_attachments]
    left_out = len(message.attachments) - len(kept)
    if left_out:
        message.notes.append(
            f"{left_out} of the {len(message.attachments)} attachments are not "
            f"shown: the limit is {limits.max_attachments} attachments per message."
        )
    names = [
        display_name(attachment.name, f"attachment-{index}")
        for index, attachment in enumerate(kept, start=1)
    ]
    body_path = part_path(dest_dir, 0)
    pdf_path = body_path + ".pdf"
    render_message(message, names, pdf_path, limits, deadline)
    write_message_html(message, names, body_path)
    rendition = describe(
        pdf_path,
        engine="mail",
        started=deadline.started,
        max_pages=limits.max_pages,
        fidelity=Fidelity(encoding=message.encoding),
    )
    parts = [
        Part(
            index=0,
            name=_body_name(message),
            path=body_path,
            size=os.path.getsize(body_path),
            role="message",
            declared_type="text/html",
            rendition=rendition,
        )
    ]
    for index, (attachment, name) in enumerate(zip(kept, names, strict=True), 1):
        target = part_path(dest_dir, index)
        with open(target, "wb") as out:
            out.write(attachment.data)
        parts.append(
            Part(
                index=index,
                name=name,
                path=target,
                size=len(attachment.data),
                role="attachment",
                declared_type=attachment.content_type,
            )
        )
    return Container(
        kind="mail",
        parts=tuple(parts),
        depth=depth,
        title=message.subject or None,
        notes=tuple(message.notes),
    )


def _body_name(message: Message) -> str:
    return display_name(
        f"{message.subject}.html" if message.subject else None, "message.html"
    )
