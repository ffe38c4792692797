"""Attached files opened as a reader opens them, whatever they are.

A ZIP archive is opened member by member, a gzip stream is inflated, an e-mail
is read part by part (headers decoded, base64 and quoted-printable bodies
decoded, attachments opened in turn), a PDF is verified whole like the output
itself (every object, every page's text), anything else is read as text in
every encoding (`readings`). Nesting is followed `MAX_DEPTH` levels deep; a
deeper file is a leak, as it cannot be read to the end.
"""

from __future__ import annotations

import email
import email.policy
import gzip
import io
import zipfile
from collections.abc import Callable
from email.message import EmailMessage, Message

from engines.verify.needles import Needles
from engines.verify.readings import text_readings
from engines.verify.report import Found

MAX_DEPTH = 6
# An attachment that unpacks to more than this is not read to its end.
_MAX_UNPACKED = 256 * 1024 * 1024
_MAIL_HEADERS = (b"from:", b"to:", b"subject:", b"mime-version:", b"received:")

PdfReader = Callable[[bytes, Needles, str, int], None]


def read_file(
    data: bytes, needles: Needles, place: str, depth: int, read_pdf: PdfReader
) -> None:
    """Raise `Found` when `data`, opened as what it is, holds a removed run."""
    if depth > MAX_DEPTH:
        raise Found(f"{place} (nested too deep to be read)")
    if any(needles.found(text) for text in text_readings(data[:65536])):
        raise Found(place)
    if data.startswith(b"PK\x03\x04") or data.startswith(b"PK\x05\x06"):
        _read_zip(data, needles, place, depth, read_pdf)
    elif data.startswith(b"\x1f\x8b"):
        try:
            inflated = gzip.decompress(data)
        except (OSError, EOFError) as exc:
            raise Found(f"{place} (a damaged gzip stream)") from exc
        read_file(inflated, needles, place, depth + 1, read_pdf)
    elif b"%PDF-" in data[:1024]:
        read_pdf(data, needles, place, depth + 1)
    elif _looks_like_mail(data):
        _read_mail(data, needles, place, depth, read_pdf)
    elif any(needles.found(text) for text in text_readings(data)):
        raise Found(place)


def _read_zip(
    data: bytes, needles: Needles, place: str, depth: int, read_pdf: PdfReader
) -> None:
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
        members = archive.infolist()
    except (zipfile.BadZipFile, OSError) as exc:
        raise Found(f"{place} (a damaged ZIP archive)") from exc
    if sum(member.file_size for member in members) > _MAX_UNPACKED:
        raise Found(f"{place} (an archive too large to read)")
    for number, member in enumerate(members, 1):
        where = f"{place}, member {number} of a ZIP archive"
        raw_name = member.orig_filename.encode("cp437", "replace")
        if any(needles.found(t) for t in [member.filename, *text_readings(raw_name)]):
            raise Found(f"{where} (its name)")
        if member.comment and any(
            needles.found(t) for t in text_readings(member.comment)
        ):
            raise Found(f"{where} (its comment)")
        try:
            content = archive.read(member)
        except (zipfile.BadZipFile, RuntimeError, OSError, NotImplementedError) as exc:
            raise Found(f"{where} (unreadable)") from exc
        read_file(content, needles, where, depth + 1, read_pdf)
    if archive.comment and any(
        needles.found(t) for t in text_readings(archive.comment)
    ):
        raise Found(f"{place} (the archive's comment)")


def _looks_like_mail(data: bytes) -> bool:
    head = data[:4096].lower()
    return sum(head.startswith(h) or b"\n" + h in head for h in _MAIL_HEADERS) >= 2


def _read_mail(
    data: bytes, needles: Needles, place: str, depth: int, read_pdf: PdfReader
) -> None:
    message = email.message_from_bytes(data, policy=email.policy.default)
    for number, part in enumerate(message.walk(), 1):
        where = f"{place}, part {number} of an e-mail"
        for key, value in part.items():
            if needles.found(key) or needles.found(str(value)):
                raise Found(f"{where} (a header)")
        name = part.get_filename()
        if name and needles.found(name):
            raise Found(f"{where} (a file name)")
        if part.is_multipart():
            continue
        payload = _payload(part)
        if payload:
            read_file(payload, needles, where, depth + 1, read_pdf)


def _payload(part: Message | EmailMessage) -> bytes:
    try:
        decoded = part.get_payload(decode=True)
    except (ValueError, LookupError):
        decoded = None
    if isinstance(decoded, bytes):
        return decoded
    raw = part.get_payload()
    return raw.encode("utf-8", "surrogateescape") if isinstance(raw, str) else b""
