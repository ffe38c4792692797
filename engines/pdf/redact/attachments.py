"""Attachments kept in a redacted output: opened, scrubbed, or the build fails.

Only when the caller asks (`keep_attachments`): the document's attached files
(its list, and the files of file-attachment annotations, which join the list)
are each opened as what they are and scrubbed of the removed words: a ZIP
archive member by member (names too), a gzip stream inflated, an e-mail header
by header and part by part, a PDF redacted where its pages show a word and
rebuilt like the output itself, text in the encoding it is written in. A file
of another kind that holds a word cannot be scrubbed: `EngineError`.
"""

from __future__ import annotations

import email
import email.policy
import gzip
import io
import os
import unicodedata
import zipfile
from collections.abc import Callable, Sequence
from email.message import EmailMessage

import pikepdf
import regex
from pikepdf import Array, Dictionary, Name, Stream, String

from engines.errors import EngineError
from engines.pdf.redact.rebuild import Cleaner
from engines.pdf.redact.strings import readings
from engines.pdf.redact.words import Removed, holds, words_pattern

MAX_DEPTH = 6
# A file inside an attached one (gzip, ZIP member) is inflated whole to be
# scrubbed: past this size it is refused, not held in memory.
MAX_OPENED_BYTES = 256 * 1024 * 1024
_MAIL_HEADERS = (b"from:", b"to:", b"subject:", b"mime-version:", b"received:")


# How an attached PDF is redacted and rebuilt: the whole pipeline again, which
# its caller passes in (engines.pdf.redact.nested), as it imports this module.
PdfScrubber = Callable[[bytes, Sequence["Removed | str"]], bytes]


def keep_attachments(
    pdf: pikepdf.Pdf,
    runs: Sequence[Removed | str],
    cleaner: Cleaner,
    scrub_pdf: PdfScrubber,
) -> Array:
    """The attached files as a flat name-tree array, each scrubbed."""
    pattern = words_pattern(runs)
    out = Array()
    for number, (name, spec) in enumerate(_attached(pdf), 1):
        data = _file_data(spec)
        if data is None:
            continue
        clean = (
            scrub_file(data, pattern, runs, 0, scrub_pdf)
            if pattern is not None
            else data
        )
        stream = pdf.make_stream(clean)
        stream.Type = Name.EmbeddedFile
        label = str(cleaner.plain(String(name))) or f"attachment-{number}"
        filename = _filename(spec, cleaner, number)
        new_spec = Dictionary(
            Type=Name.Filespec,
            F=String(filename),
            UF=String(filename),
            EF=Dictionary(F=stream, UF=stream),
        )
        description = spec.get("/Desc")
        if isinstance(description, String):
            new_spec.Desc = String(str(cleaner.plain(description)))
        out.extend([String(label), pdf.make_indirect(new_spec)])
    return out


def _attached(pdf: pikepdf.Pdf) -> list[tuple[str, Dictionary]]:
    found: list[tuple[str, Dictionary]] = []
    names = pdf.Root.get(Name.Names)
    tree = names.get("/EmbeddedFiles") if isinstance(names, Dictionary) else None
    pending: list[object] = [tree]
    while pending:
        node = pending.pop()
        if not isinstance(node, Dictionary) or len(found) > 10_000:
            continue
        items = node.get(Name.Names)
        if isinstance(items, Array):
            pairs = list(items)
            for key, spec in zip(pairs[::2], pairs[1::2], strict=False):
                if isinstance(spec, Dictionary):
                    found.append((str(key), spec))
        kids = node.get(Name.Kids)
        pending.extend(kids if isinstance(kids, Array) else [])
    for page in pdf.pages:
        annots = page.obj.get(Name.Annots)
        for annot in annots if isinstance(annots, Array) else []:
            if isinstance(annot, Dictionary) and annot.get(Name.Subtype) == Name(
                "/FileAttachment"
            ):
                attached = annot.get("/FS")
                if isinstance(attached, Dictionary):
                    found.append((f"annotation-{len(found) + 1}", attached))
    return found


def _file_data(spec: Dictionary) -> bytes | None:
    files = spec.get("/EF")
    if not isinstance(files, Dictionary):
        return None
    for key in ("/UF", "/F", "/DOS", "/Mac", "/Unix"):
        stream = files.get(key)
        if isinstance(stream, Stream):
            try:
                return stream.read_bytes()
            except pikepdf.PdfError as exc:
                raise EngineError(
                    "An attached file cannot be read to be scrubbed."
                ) from exc
    return None


def _filename(spec: Dictionary, cleaner: Cleaner, number: int) -> str:
    for key in ("/UF", "/F"):
        value = spec.get(key)
        if isinstance(value, String):
            scrubbed = str(cleaner.plain(value))
            if scrubbed == str(value):
                return scrubbed
            extension = os.path.splitext(str(value))[1]
            return f"attachment-{number}{extension if len(extension) < 8 else ''}"
    return f"attachment-{number}"


def scrub_file(
    data: bytes,
    pattern: regex.Pattern[str],
    runs: Sequence[Removed | str],
    depth: int,
    scrub_pdf: PdfScrubber,
) -> bytes:
    """`data` opened as what it is and written back without the words."""
    if depth > MAX_DEPTH:
        raise EngineError("An attached file is nested too deep to be scrubbed.")
    if data.startswith((b"PK\x03\x04", b"PK\x05\x06")):
        return _zip(data, pattern, runs, depth, scrub_pdf)
    if data.startswith(b"\x1f\x8b"):
        return gzip.compress(
            scrub_file(_gunzipped(data), pattern, runs, depth + 1, scrub_pdf)
        )
    if b"%PDF-" in data[:1024]:
        return scrub_pdf(data, runs)
    head = data[:4096].lower()
    if sum(head.startswith(h) or b"\n" + h in head for h in _MAIL_HEADERS) >= 2:
        return _mail(data, pattern, runs, depth, scrub_pdf)
    text = _text(data)
    if text is not None:
        body, codec = text
        return _scrub(body, pattern).encode(codec, "replace")
    if any(
        holds(reading, pattern) for reading in readings(data, data.decode("latin-1"))
    ):
        raise EngineError(
            "An attached file holds redacted text and is of a kind that cannot be "
            "scrubbed: redact without keeping attachments."
        )
    return data


def _gunzipped(data: bytes) -> bytes:
    try:
        with gzip.GzipFile(fileobj=io.BytesIO(data)) as opened:
            inner = opened.read(MAX_OPENED_BYTES + 1)
    except (OSError, EOFError) as exc:
        raise EngineError(
            "An attached gzip file cannot be read to be scrubbed."
        ) from exc
    if len(inner) > MAX_OPENED_BYTES:
        raise _too_large()
    return inner


def _too_large() -> EngineError:
    return EngineError(
        "An attached file inflates to more than "
        f"{MAX_OPENED_BYTES // (1024 * 1024)} MiB and cannot be scrubbed: redact "
        "without keeping attachments."
    )


def _scrub(text: str, pattern: regex.Pattern[str]) -> str:
    normal = unicodedata.normalize("NFKC", text)
    return pattern.sub("", normal) if holds(normal, pattern) else text


def _text(data: bytes) -> tuple[str, str] | None:
    """The text of `data` and its encoding, when it is text."""
    for mark, codec in (
        (b"\xef\xbb\xbf", "utf-8-sig"),
        (b"\xff\xfe", "utf-16"),
        (b"\xfe\xff", "utf-16"),
    ):
        if data.startswith(mark):
            return data.decode(codec, "replace"), codec
    if b"\x00" in data[:4096]:
        return None
    try:
        return data.decode("utf-8"), "utf-8"
    except UnicodeDecodeError:
        sample = data[:4096]
        printable = sum(32 <= b < 127 or b in (9, 10, 13) or b >= 160 for b in sample)
        if sample and printable / len(sample) > 0.9:
            return data.decode("cp1252", "replace"), "cp1252"
    return None


def _zip(
    data: bytes,
    pattern: regex.Pattern[str],
    runs: Sequence[Removed | str],
    depth: int,
    scrub_pdf: PdfScrubber,
) -> bytes:
    try:
        source = zipfile.ZipFile(io.BytesIO(data))
        members = source.infolist()
    except (zipfile.BadZipFile, OSError) as exc:
        raise EngineError(
            "An attached ZIP archive cannot be read to be scrubbed."
        ) from exc
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as target:
        for number, member in enumerate(members, 1):
            name = member.filename
            if holds(name, pattern):
                name = f"file-{number}{os.path.splitext(name)[1][:8]}"
            if member.is_dir():
                target.writestr(zipfile.ZipInfo(name), b"")
                continue
            # zipfile yields at most the size a member declares.
            if member.file_size > MAX_OPENED_BYTES:
                raise _too_large()
            content = scrub_file(
                source.read(member), pattern, runs, depth + 1, scrub_pdf
            )
            target.writestr(
                zipfile.ZipInfo(name, member.date_time), content, zipfile.ZIP_DEFLATED
            )
    return out.getvalue()


def _mail(
    data: bytes,
    pattern: regex.Pattern[str],
    runs: Sequence[Removed | str],
    depth: int,
    scrub_pdf: PdfScrubber,
) -> bytes:
    message = email.message_from_bytes(data, policy=email.policy.default)
    for part in message.walk():
        assert isinstance(part, EmailMessage)
        for key, value in list(part.items()):
            if holds(str(value), pattern):
                part.replace_header(key, _scrub(str(value), pattern).strip() or "-")
        if part.is_multipart():
            continue
        payload = part.get_payload(decode=True)
        if not isinstance(payload, bytes):
            continue
        clean = scrub_file(payload, pattern, runs, depth + 1, scrub_pdf)
        if clean == payload:
            continue
        if part.get_content_maintype() == "text":
            part.set_content(
                clean.decode("utf-8", "replace"), subtype=part.get_content_subtype()
            )
        else:
            part.set_content(
                clean,
                maintype=part.get_content_maintype(),
                subtype=part.get_content_subtype(),
                filename=part.get_filename(),
            )
    return message.as_bytes()
