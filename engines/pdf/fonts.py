"""Fonts whose /ToUnicode map says other letters than the glyphs they draw.

A simple font draws each code with the glyph its encoding names; its /ToUnicode
map only tells extractors what text that is. A map that says "Qxzw" where the
glyphs show "Acme" hides the word from search (and from redaction's record of
what it removed) while every reader sees it. For such fonts the page is read a
second time with the map set aside, so that the text the glyphs show is known
too.

Only letters and digits are compared, and only where the encoding is a standard
one or names its glyphs (/Differences): a symbolic font's codes mean nothing
without its map.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterator
from contextlib import contextmanager

import pymupdf
import regex

_SIMPLE = frozenset({"/Type1", "/MMType1", "/TrueType"})
_STANDARD = frozenset(
    {"/WinAnsiEncoding", "/MacRomanEncoding", "/StandardEncoding", "/PDFDocEncoding"}
)
_HEX = r"<([0-9A-Fa-f\s]+)>"
_REFERENCE = regex.compile(r"(\d+) 0 R")
_BFCHAR = regex.compile(rf"{_HEX}\s*{_HEX}")
_BFRANGE = regex.compile(rf"{_HEX}\s*{_HEX}\s*{_HEX}")
_SECTION = regex.compile(rb"begin(bfchar|bfrange)(.*?)end\1", regex.DOTALL)


def lying_fonts(page: pymupdf.Page, *, forms: bool = False) -> list[int]:
    """The xrefs of the page's simple fonts whose /ToUnicode contradicts the
    letters and digits their encoding draws.

    Runs for every page whose text is extracted, so it reads only the page's
    own font dictionary and judges each font once per document; with `forms`,
    the fonts of the form XObjects the page draws are judged too (redaction
    reads them: a form's lying font must not hide the word it removes).
    """
    doc = page.parent
    kind, value = doc.xref_get_key(page.xref, "Resources/Font")
    if kind == "xref":
        value = doc.xref_object(int(value.split()[0]), compressed=True)
    refs = _REFERENCE.findall(value) if kind != "null" else []
    if forms:
        refs += [str(xref) for xref in _form_fonts(doc, page)]
    if not refs:
        return []
    verdicts: dict[int, bool] = doc.__dict__.setdefault(_CACHE, {})
    lying = []
    for ref in dict.fromkeys(refs):
        xref = int(ref)
        verdict = verdicts.get(xref)
        if verdict is None:
            verdict = verdicts[xref] = _is_simple(doc, xref) and _lies(doc, xref)
        if verdict:
            lying.append(xref)
    return lying


def _form_fonts(doc: pymupdf.Document, page: pymupdf.Page) -> list[int]:
    """The fonts of the forms `page` draws, nested ones included."""
    fonts: list[int] = []
    pending = [xref for xref, *_ in page.get_xobjects()]
    seen: set[int] = set()
    while pending and len(seen) < 512:
        xref = pending.pop()
        if xref in seen or not xref:
            continue
        seen.add(xref)
        for key, found in (("Resources/Font", fonts), ("Resources/XObject", pending)):
            kind, value = doc.xref_get_key(xref, key)
            if kind == "xref":
                value = doc.xref_object(int(value.split()[0]), compressed=True)
            if kind in ("dict", "xref"):
                found += [int(ref) for ref in _REFERENCE.findall(value)]
    return fonts


# Where each document keeps its verdicts (PyMuPDF documents take no weak
# references, so the verdicts live and die with the document object).
_CACHE = "_transformsvc_lying_fonts"


def _is_simple(doc: pymupdf.Document, xref: int) -> bool:
    kind, value = doc.xref_get_key(xref, "Subtype")
    return kind == "name" and value in _SIMPLE


@contextmanager
def glyph_text_page(
    page: pymupdf.Page, fonts: list[int]
) -> Iterator[pymupdf.Page | None]:
    """The page in a fresh copy of its document where `fonts` have no /ToUnicode
    (MuPDF then reads their glyphs by their encoding); None when the document
    cannot be opened again. The copy is closed when the block ends."""
    source = page.parent
    try:
        copy = (
            pymupdf.open(source.name)
            if source.name
            else pymupdf.open("pdf", source.tobytes())
        )
    except (RuntimeError, ValueError):
        yield None
        return
    try:
        if copy.needs_pass:
            copy.authenticate("")
        for xref in fonts:
            copy.xref_set_key(xref, "ToUnicode", "null")
        yield copy[page.number]
    finally:
        copy.close()


def _lies(doc: pymupdf.Document, xref: int) -> bool:
    kind, value = doc.xref_get_key(xref, "ToUnicode")
    if kind != "xref":
        return False
    drawn = _encoded_letters(doc, xref)
    if not drawn:
        return False
    said = _to_unicode(doc.xref_stream(int(value.split()[0])) or b"")
    return any(
        code in said and len(said[code]) == 1 and _letter(said[code]) != _letter(char)
        for code, char in drawn.items()
    )


def _letter(char: str) -> str:
    """A letter as search compares it: compatibility forms (Arabic presentation
    forms, full-width letters) and case folded away."""
    return unicodedata.normalize("NFKC", char).casefold()


def _encoded_letters(doc: pymupdf.Document, xref: int) -> dict[int, str]:
    """Code → letter or digit the font's encoding draws, where it is known."""
    kind, value = doc.xref_get_key(xref, "Encoding")
    letters: dict[int, str] = {}
    if kind == "name" and value in _STANDARD or kind in ("dict", "xref"):
        # The standard encodings agree with ASCII on letters and digits.
        letters = {code: chr(code) for code in range(0x30, 0x7B) if chr(code).isalnum()}
    if kind in ("dict", "xref"):
        holder = int(value.split()[0]) if kind == "xref" else None
        differences = (
            doc.xref_get_key(holder, "Differences")
            if holder is not None
            else doc.xref_get_key(xref, "Encoding/Differences")
        )
        if differences[0] == "array":
            code = 0
            for token in differences[1].strip("[]").split():
                if token.isdigit():
                    code = int(token)
                    continue
                for name in token.split("/")[1:]:
                    point = pymupdf.glyph_name_to_unicode(name)
                    char = chr(point) if 0 < point < 0x110000 else ""
                    if char.isalnum():
                        letters[code] = char
                    else:
                        letters.pop(code, None)
                    code += 1
    return letters


def _to_unicode(cmap: bytes) -> dict[int, str]:
    """The one-byte codes of a ToUnicode CMap and the text each stands for."""
    found: dict[int, str] = {}
    for section, body in _SECTION.findall(cmap):
        text = body.decode("latin-1")
        if section == b"bfchar":
            for code, target in _BFCHAR.findall(text):
                found[int(code, 16)] = _utf16(target)
        else:
            for low, high, target in _BFRANGE.findall(text):
                start = _utf16(target)
                for offset in range(int(high, 16) - int(low, 16) + 1):
                    if start:
                        found[int(low, 16) + offset] = chr(ord(start[-1]) + offset)
    return found


def _utf16(hex_digits: str) -> str:
    digits = regex.sub(r"\s", "", hex_digits)
    try:
        return bytes.fromhex(digits).decode("utf-16-be")
    except ValueError:
        return ""
