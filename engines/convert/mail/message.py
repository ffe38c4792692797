"""A message as the mail engine sees it, whatever its format (EML, MSG)."""

from __future__ import annotations

from dataclasses import dataclass, field

from engines.convert.fidelity import EncodingChoice


@dataclass(frozen=True, slots=True)
class Attachment:
    """A file carried by a message. `name` is as the message gives it
    (unsafe; sanitised when the part is made)."""

    name: str | None
    data: bytes
    content_type: str | None = None


@dataclass(frozen=True, slots=True)
class InlineImage:
    """An image the HTML body shows through `cid:<content_id>`."""

    content_id: str  # without "cid:" and angle brackets, lower case
    data: bytes


@dataclass(slots=True)
class Message:
    """Headers as display strings ("" when absent), the bodies, the files."""

    sender: str = ""
    to: str = ""
    cc: str = ""
    date: str = ""
    subject: str = ""
    html: str | None = None
    texts: list[str] = field(default_factory=list)  # plain bodies, in order
    attachments: list[Attachment] = field(default_factory=list)
    images: list[InlineImage] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # what was left out, and why
    encoding: EncodingChoice | None = None  # of the body (None: Unicode)
