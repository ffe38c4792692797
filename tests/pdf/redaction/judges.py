"""Independent judges of a redacted PDF: does the secret survive anywhere?

Each judge reads the output its own way: poppler (pdftotext), MuPDF's command
line (mutool draw -F txt, a different MuPDF than the engine's), qpdf's QDF form
(every stream uncompressed), a pikepdf walk of every object (strings decoded,
streams decompressed), the file's raw bytes, and the engine's own search.
Page numbers count from 0.
"""

from __future__ import annotations

import email
import email.policy
import io
import subprocess
import tempfile
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pikepdf

from engines.pdf.text import clear_cache, search_page
from engines.pdf.types import SearchQuery


def pdftotext(path: Path, page: int | None = None) -> str:
    pages = [] if page is None else ["-f", str(page + 1), "-l", str(page + 1)]
    return subprocess.run(
        ["pdftotext", *pages, str(path), "-"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout


def mutool_text(path: Path, page: int | None = None) -> str:
    pages = [] if page is None else [str(page + 1)]
    done = subprocess.run(
        ["mutool", "draw", "-q", "-F", "txt", "-o", "-", str(path), *pages],
        capture_output=True,
        check=True,
    )
    return done.stdout.decode("utf-8", "replace")


def qdf_bytes(path: Path) -> bytes:
    with tempfile.TemporaryDirectory() as scratch:
        out = Path(scratch) / "qdf.pdf"
        subprocess.run(
            ["qpdf", "--qdf", "--object-streams=disable", str(path), str(out)],
            capture_output=True,
            check=False,  # qpdf exits 3 on warnings; the file is written
        )
        return out.read_bytes()


def pikepdf_blobs(path: Path, page: int | None = None) -> Iterator[bytes]:
    """Every string (decoded as text and as bytes) and every stream (decoded),
    of the whole file or of what page `page` draws and carries."""
    skip = {"/Parent", "/P", "/Prev", "/Next", "/Dest", "/D", "/First", "/Last"}
    with pikepdf.open(path) as pdf:
        if page is None:
            pending: list[Any] = [pdf.trailer, *pdf.objects]
        else:
            pending = [pdf.pages[page].obj]
        seen: set[tuple[int, int]] = set()
        while pending:
            obj = pending.pop()
            if isinstance(obj, pikepdf.Object) and obj.is_indirect:
                if obj.objgen in seen:
                    continue
                seen.add(obj.objgen)
            if isinstance(obj, pikepdf.Stream):
                try:
                    yield obj.read_bytes()
                except pikepdf.PdfError:
                    yield obj.read_raw_bytes()
            if isinstance(obj, pikepdf.Dictionary | pikepdf.Stream):
                for key in obj.keys():
                    yield key.encode()
                    if page is None or key not in skip:
                        pending.append(obj[key])
            elif isinstance(obj, pikepdf.Array):
                pending.extend(obj)
            elif isinstance(obj, pikepdf.String):
                yield bytes(obj)
                yield str(obj).encode("utf-8", "replace")
            elif isinstance(obj, pikepdf.Name):
                yield str(obj).encode()


# PDFDocEncoding's letters above 0x7F that differ from Latin-1 (what pikepdf
# writes for Š, ž, Ł, œ...).
_PDFDOC = str.maketrans({"Š": "\x97", "š": "\x9d", "Ž": "\x99", "ž": "\x9e",
                         "Ł": "\x95", "ł": "\x9b", "Œ": "\x96", "œ": "\x9c"})  # fmt: skip


def holds(blob: bytes, word: str) -> bool:
    """Whether the bytes hold the word in an encoding a reader may use."""
    lowered = blob.lower()
    forms = {
        word.encode(codec, "ignore")
        for codec in ("utf-8", "utf-16-be", "utf-16-le", "cp1252", "latin-1")
    }
    forms.add(word.translate(_PDFDOC).encode("latin-1", "ignore"))
    return any(form and form.lower() in lowered for form in forms)


def engine_search(path: Path, page: int, word: str) -> int:
    clear_cache()
    return len(search_page(str(path), page, SearchQuery(word)))


def findings(path: Path, word: str, page: int | None = None) -> list[str]:
    """The judges that still find `word` (in the file, or on page `page`)."""
    found = []
    if word.casefold() in pdftotext(path, page).casefold():
        found.append("pdftotext")
    if word.casefold() in mutool_text(path, page).casefold():
        found.append("mutool")
    if page is None:
        if holds(qdf_bytes(path), word):
            found.append("qpdf --qdf")
        if holds(path.read_bytes(), word):
            found.append("raw bytes")
    if any(holds(blob, word) for blob in pikepdf_blobs(path, page)):
        found.append("pikepdf walk")
    with pikepdf.open(path) as pdf:
        pages = range(len(pdf.pages)) if page is None else [page]
    if any(engine_search(path, n, word) for n in pages):
        found.append("engine search")
    if page is None and any(holds(blob, word) for blob in opened_attachments(path)):
        found.append("opened attachments")
    return found


def opened_attachments(path: Path) -> Iterator[bytes]:
    """The contents of every file the PDF embeds, opened: ZIP members, e-mail
    parts (decoded), the text of embedded PDFs."""
    with pikepdf.open(path) as pdf:
        files = [
            obj.read_bytes()
            for obj in pdf.objects
            if isinstance(obj, pikepdf.Stream) and _is_file(pdf, obj)
        ]
    for data in files:
        yield from _opened(data, 0)


def _is_file(pdf: pikepdf.Pdf, stream: pikepdf.Stream) -> bool:
    if stream.get("/Type") == "/EmbeddedFile":
        return True
    return False


def _opened(data: bytes, depth: int) -> Iterator[bytes]:
    yield data
    if depth > 4:
        return
    if data.startswith(b"PK"):
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            for member in archive.namelist():
                yield member.encode()
                yield from _opened(archive.read(member), depth + 1)
    elif data.startswith(b"%PDF"):
        with tempfile.TemporaryDirectory() as scratch:
            inner = Path(scratch) / "inner.pdf"
            inner.write_bytes(data)
            yield pdftotext(inner).encode()
            yield from opened_attachments(inner)
    elif b"MIME-Version" in data[:2000] or b"From:" in data[:2000]:
        message = email.message_from_bytes(data, policy=email.policy.default)
        for part in message.walk():
            yield str(dict(part.items())).encode()
            payload = part.get_payload(decode=True)
            if isinstance(payload, bytes):
                yield from _opened(payload, depth + 1)


def marked_paint(path: Path, mark: int) -> list[str]:
    """Images holding the marked grey, and picture shadings (meshes), left in
    the output: what redaction of the secret's picture must not leave."""
    found = []
    with pikepdf.open(path) as pdf:
        for obj in pdf.objects:
            if not isinstance(obj, pikepdf.Stream):
                continue
            if obj.get("/Subtype") == "/Image":
                try:
                    pixels = pikepdf.PdfImage(obj).as_pil_image().convert("L")
                except (pikepdf.PdfError, NotImplementedError):
                    continue
                if mark in pixels.tobytes():
                    found.append("an image keeps the marked pixels")
            elif obj.get("/ShadingType") in (4, 5, 6, 7):
                found.append("a mesh shading is kept")
    return found


def surviving_share(path: Path, page: int, words: tuple[str, ...]) -> float:
    """The share of `words` that pdftotext or mutool still finds on `page`.

    Either extractor will do: poppler leaves out a glyph partly under a fill
    drawn after it (a slanted letter next to a redacted word), MuPDF reads
    turned lines that poppler cuts into pieces.
    """
    text = pdftotext(path, page) + " " + mutool_text(path, page)
    left = set(text.replace(":", " ").split())
    return sum(word in left for word in words) / len(words)
