"""Pack output documents into a zip archive, named by their titles."""

from __future__ import annotations

import os
import re
import unicodedata
import zipfile
import zlib
from collections.abc import Sequence

from engines.errors import EngineError

# Room for a name in common file systems (255 bytes), in UTF-8.
_MAX_NAME_BYTES = 255
# Characters that are separators or forbidden in file names on some system.
_UNSAFE = re.compile(r'[/\\:*?"<>|]')
_SPACES = re.compile(r"\s+")
# Bidirectional overrides and isolates can make "fdp.exe" read as "exe.pdf".
_BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
# Names that Windows keeps for devices, whatever the extension.
_RESERVED = frozenset(
    ["CON", "PRN", "AUX", "NUL"]
    + [f"COM{n}" for n in range(1, 10)]
    + [f"LPT{n}" for n in range(1, 10)]
)
# A sample of this size from three places of a file decides its compression.
_SAMPLE = 64 * 1024
# Deflate is kept when it saves at least this share of the sample.
_WORTH_DEFLATING = 0.10


def entry_names(titles: Sequence[str | None], *, extension: str = ".pdf") -> list[str]:
    """Zip entry names for documents with these titles, in the same order.

    A title is made a safe file name: no directories, no `..`, no control
    characters, no leading dots; letters of every script are kept.
    `extension` (`.pdf`; `.zip` for a container of zips) is added when missing.
    An extension already there is kept as typed. A title that is absent or
    empty once cleaned becomes `document-<n>.pdf` (n is its position, from 1).
    Names that are equal ignoring case get ` (2)`, ` (3)`... before the
    extension.
    """
    used: set[str] = set()
    names = []
    for position, title in enumerate(titles, start=1):
        stem, ext = _clean(title or ""), extension
        if stem.casefold().endswith(extension.casefold()):
            stem, ext = stem[: -len(extension)], stem[-len(extension) :]
        # Leading dots hide the file (and `..` climbs); separators turned into
        # "_" must not leave "_x" behind "../x". Windows drops trailing dots.
        stem = stem.lstrip("._ ").rstrip(". ")
        if not stem:
            stem, ext = f"document-{position}", extension
        if stem.upper().split(".")[0] in _RESERVED:
            stem = f"_{stem}"
        name = _fit(stem, "", ext)
        copy = 1
        while name.casefold() in used:
            copy += 1
            name = _fit(stem, f" ({copy})", ext)
        used.add(name.casefold())
        names.append(name)
    return names


def zip_entries(
    entries: Sequence[tuple[str | None, str]], dest: str, *, extension: str = ".pdf"
) -> list[str]:
    """Write at `dest` a zip of the files of `entries` ((title, path) pairs).

    Entries are named by `entry_names` of the titles (with `extension`), in
    order, and the names are returned. Files are streamed from disk. Each is
    deflated unless a sample shows it does not compress (scans, already
    compressed PDFs), in which case it is stored. Raises `EngineError` when a
    file cannot be read; nothing is left at `dest` then.
    """
    names = entry_names([title for title, _ in entries], extension=extension)
    try:
        with zipfile.ZipFile(dest, "w", allowZip64=True, strict_timestamps=False) as zf:
            for name, (_, path) in zip(names, entries, strict=True):
                method = _compression_for(path)
                zf.write(path, arcname=name, compress_type=method, compresslevel=1)
    except OSError as exc:
        _remove(dest)
        raise EngineError(
            f"could not pack the zip archive: {exc.strerror or exc}"
        ) from exc
    return names


def _clean(title: str) -> str:
    text = unicodedata.normalize("NFC", title)
    text = "".join(
        " " if unicodedata.category(ch) in ("Cc", "Zl", "Zp") else ch
        for ch in text
        if ch not in _BIDI_CONTROLS
    )
    text = _UNSAFE.sub("_", text)
    return _SPACES.sub(" ", text).strip()


def _fit(stem: str, suffix: str, extension: str) -> str:
    """`stem + suffix + extension`, the stem cut to fit in _MAX_NAME_BYTES."""
    tail = f"{suffix}{extension}"
    room = _MAX_NAME_BYTES - len(tail.encode())
    encoded = stem.encode()
    if len(encoded) > room:
        stem = encoded[:room].decode(errors="ignore").rstrip(". ")
    return f"{stem}{tail}"


def _compression_for(path: str) -> int:
    """ZIP_DEFLATED, or ZIP_STORED when samples of the file barely compress.

    Measured on the corpus: PDFs written without object streams (as the
    service writes them) deflate to 65-85 %, scans to 95 %+ at a fifth of
    the speed of storing.
    """
    size = os.path.getsize(path)
    if size <= 3 * _SAMPLE:
        return zipfile.ZIP_DEFLATED
    raw = packed = 0
    with open(path, "rb") as fh:
        for offset in (0, size // 2, size - _SAMPLE):
            fh.seek(offset)
            chunk = fh.read(_SAMPLE)
            raw += len(chunk)
            packed += len(zlib.compress(chunk, 1))
    worth = packed <= raw * (1 - _WORTH_DEFLATING)
    return zipfile.ZIP_DEFLATED if worth else zipfile.ZIP_STORED


def _remove(path: str) -> None:
    try:
        os.remove(path)
    except FileNotFoundError:
        pass
