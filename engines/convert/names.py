"""Display names of container parts: the names a mail or an archive gives
its files, made harmless. They are labels only; parts are written under
names of our own (`part_path`), never under these."""

from __future__ import annotations

import os
import re
import unicodedata

_MAX_PATH_CHARS = 600
_MAX_NAME_CHARS = 200
_UNSAFE = re.compile(r'[\\/:*?"<>|]')
_SPACES = re.compile(r"\s+")
# Bidirectional overrides can make "fdp.exe" read as "exe.pdf".
_BIDI = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f")


def display_name(raw: str | None, fallback: str) -> str:
    """`raw` without directories, control or bidi characters, separators or
    leading dots, NFC-normalised and at most 200 characters (the extension
    kept); `fallback` when nothing is left."""
    text = unicodedata.normalize("NFC", raw or "")
    # Keep the last path component: "../../etc/passwd" -> "passwd".
    text = re.split(r"[\\/]", text)[-1]
    text = "".join(
        " " if unicodedata.category(ch) in ("Cc", "Cf", "Zl", "Zp") else ch
        for ch in text
        if ch not in _BIDI
    )
    text = _SPACES.sub(" ", _UNSAFE.sub("_", text)).strip().lstrip(".").strip()
    if not text:
        return fallback
    if len(text) > _MAX_NAME_CHARS:
        stem, ext = os.path.splitext(text)
        ext = ext if len(ext) <= 16 else ""
        text = stem[: _MAX_NAME_CHARS - len(ext)].rstrip() + ext
    return text


def part_path(dest_dir: str, index: int) -> str:
    """Where part `index` of a container is written (a name of ours)."""
    return os.path.join(dest_dir, f"part-{index:04d}")


def display_path(raw: str | None, fallback: str) -> str:
    """`raw`, a path inside an archive, with its folders kept ("reports/q1.pdf"):
    each component cleaned as `display_name` cleans a name, `..` climbing up no
    further than the archive's root; `fallback` when nothing is left."""
    text = unicodedata.normalize("NFC", raw or "")
    kept: list[str] = []
    for part in re.split(r"[\\/]", text):
        if part == "..":
            if kept:
                kept.pop()
        elif part not in ("", "."):
            kept.append(part)
    cleaned = [name for name in (display_name(p, "") for p in kept) if name]
    joined = "/".join(cleaned)
    if len(joined) > _MAX_PATH_CHARS:  # the end says most: the file's own name
        joined = joined[-_MAX_PATH_CHARS:].split("/", 1)[-1]
    return joined or fallback
