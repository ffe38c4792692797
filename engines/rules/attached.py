"""The texts of a PDF's attached files, for the rules of an order that keeps
them (`keepAttachments`): each file opened as the redaction opens it to scrub
it (`engines.pdf.redact.attachments`): text in its encoding, ZIP members and
their names, gzip streams, e-mail headers and parts, the pages and metadata
of an attached PDF; with each file's name and description.

Places name files by number ("attached file 2 member 1"), never by name: a
name may itself be what a rule finds. Read under the text engine's lock, as
the caller holds it; nothing is written.
"""

from __future__ import annotations

import email
import email.policy
import gzip
import io
import zipfile
from collections.abc import Callable, Iterator

import pymupdf

MAX_DEPTH = 6
# An opened file larger than this is not read (a ZIP or gzip bomb).
MAX_BYTES = 64 * 1024 * 1024
_MAIL_HEADERS = (b"from:", b"to:", b"subject:", b"mime-version:", b"received:")
Text = tuple[str, str]  # place, text


def attached_texts(doc: pymupdf.Document) -> list[Text]:
    """The texts of every file attached to `doc`: its list, then the files
    of its file-attachment annotations."""
    found: list[Text] = []
    number = 0
    for number, name in enumerate(doc.embfile_names(), 1):
        info = doc.embfile_info(name)
        found += _described(f"attached file {number}", name, info)
        found += _opened(_read(doc.embfile_get, name), f"attached file {number}", 0)
    for page in doc:
        for annot in page.annots(types=[pymupdf.PDF_ANNOT_FILE_ATTACHMENT]):
            number += 1
            info = annot.file_info
            found += _described(f"attached file {number}", "", info)
            found += _opened(_read(annot.get_file), f"attached file {number}", 0)
    return found


def _read(get: Callable[..., bytes], *args: str) -> bytes:
    """A file's bytes, or none when its stream cannot be read: a search
    answers what it can read; the redaction judges the file itself."""
    try:
        return get(*args)
    except (RuntimeError, ValueError):
        return b""


def _described(place: str, name: str, info: dict[str, str]) -> list[Text]:
    names = {name, info.get("filename", ""), info.get("ufilename", "")}
    return [(f"{place} name", n) for n in sorted(names) if n.strip()] + (
        [(f"{place} description", info["description"])]
        if (info.get("description") or "").strip()
        else []
    )


def _opened(data: bytes, place: str, depth: int) -> list[Text]:
    """The texts of one file, opened as what it is."""
    if depth > MAX_DEPTH or len(data) > MAX_BYTES:
        return []
    if data.startswith((b"PK\x03\x04", b"PK\x05\x06")):
        return list(_zip(data, place, depth))
    if data.startswith(b"\x1f\x8b"):
        try:
            inner = gzip.GzipFile(fileobj=io.BytesIO(data)).read(MAX_BYTES + 1)
        except (OSError, EOFError):
            return []
        return _opened(inner, place, depth + 1)
    if b"%PDF-" in data[:1024]:
        return _pdf(data, place)
    head = data[:4096].lower()
    if sum(head.startswith(h) or b"\n" + h in head for h in _MAIL_HEADERS) >= 2:
        return list(_mail(data, place, depth))
    text = _text(data)
    return [(place, text)] if text else []


def _zip(data: bytes, place: str, depth: int) -> Iterator[Text]:
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except zipfile.BadZipFile:
        return
    with archive:
        for number, member in enumerate(archive.infolist(), 1):
            where = f"{place} member {number}"
            yield f"{where} name", member.filename
            if member.is_dir() or member.file_size > MAX_BYTES:
                continue
            try:
                content = archive.read(member)
            except (zipfile.BadZipFile, RuntimeError, OSError):
                continue  # encrypted or damaged: the scrubber refuses it
            yield from _opened(content, where, depth + 1)


def _mail(data: bytes, place: str, depth: int) -> Iterator[Text]:
    message = email.message_from_bytes(data, policy=email.policy.default)
    for number, part in enumerate(message.walk()):
        where = f"{place} part {number}"
        yield f"{where} headers", "\n".join(f"{k}: {v}" for k, v in part.items())
        if part.is_multipart():
            continue
        payload = part.get_payload(decode=True)
        if isinstance(payload, bytes):
            yield from _opened(payload, where, depth + 1)


def _pdf(data: bytes, place: str) -> list[Text]:
    try:
        inner = pymupdf.open(stream=data, filetype="pdf")
    except (RuntimeError, ValueError):
        return []
    with inner:
        texts = [
            (f"{place} page {n + 1}", page.get_text()) for n, page in enumerate(inner)
        ]
        texts += [
            (f"{place} metadata", value)
            for value in (inner.metadata or {}).values()
            if isinstance(value, str) and value.strip()
        ]
    return texts


def _text(data: bytes) -> str | None:
    """`data` decoded when it is text: a byte-order mark's encoding, UTF-8,
    else CP1252 when nearly every byte is printable."""
    for mark, codec in (
        (b"\xef\xbb\xbf", "utf-8-sig"),
        (b"\xff\xfe", "utf-16"),
        (b"\xfe\xff", "utf-16"),
    ):
        if data.startswith(mark):
            return data.decode(codec, "replace")
    if b"\x00" in data[:4096]:
        return None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        sample = data[:4096]
        printable = sum(32 <= b < 127 or b in (9, 10, 13) or b >= 160 for b in sample)
        if sample and printable / len(sample) > 0.9:
            return data.decode("cp1252", "replace")
    return None
