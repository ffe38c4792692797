"""Font codes read as text, every way a reader may read them.

A shown string is read through the font's /ToUnicode map (what extractors
say) and through its encoding and glyph names (what the glyphs show, where a
map lies), and as its raw bytes (Latin-1, and UTF-16 for two-byte fonts).
"""

from __future__ import annotations

from decimal import Decimal

import pikepdf
import pymupdf
import regex
from pikepdf import Array, Dictionary, Name, Stream

from engines.verify.readings import pdfdoc

_HEX = r"<([0-9A-Fa-f\s]*)>"
_CODESPACE = regex.compile(rf"{_HEX}\s*{_HEX}")
_BFCHAR = regex.compile(rf"{_HEX}\s*{_HEX}")
_BFRANGE = regex.compile(rf"{_HEX}\s*{_HEX}\s*(?:{_HEX}|\[([^\]]*)\])")
_SECTION = regex.compile(
    r"begin(codespacerange|bfchar|bfrange)(.*?)end\1", regex.DOTALL
)
_SIMPLE_ENCODINGS = {
    "/WinAnsiEncoding": lambda raw: raw.decode("cp1252", "replace"),
    "/MacRomanEncoding": lambda raw: raw.decode("mac_roman", "replace"),
    "/PDFDocEncoding": pdfdoc,
    "/StandardEncoding": lambda raw: raw.decode("latin-1"),
}


class FontReader:
    """The readings of strings shown with one font."""

    def __init__(self, font: object) -> None:
        font = font if isinstance(font, Dictionary) else Dictionary()
        self.two_byte = font.get(Name.Subtype) == Name.Type0
        self._map: dict[bytes, str] = {}
        self._lengths: list[int] = [2] if self.two_byte else [1]
        to_unicode = font.get(Name.ToUnicode)
        if isinstance(to_unicode, Stream):
            self._read_cmap(_data(to_unicode))
        encoding = font.get(Name.Encoding)
        base = (
            encoding.get(Name.BaseEncoding)
            if isinstance(encoding, Dictionary)
            else encoding
        )
        self._base = _SIMPLE_ENCODINGS.get(
            str(base), _SIMPLE_ENCODINGS["/StandardEncoding"]
        )
        self._differences: dict[int, str] = {}
        if isinstance(encoding, Dictionary):
            self._read_differences(encoding.get(Name.Differences))

    def readings(self, raw: bytes) -> list[str]:
        found = []
        if self._map:
            found.append(self._mapped(raw))
        if self.two_byte:
            found.append(raw[: len(raw) // 2 * 2].decode("utf-16-be", "replace"))
        else:
            found.append(self._encoded(raw))
        found.append(raw.decode("latin-1"))
        return found

    def _mapped(self, raw: bytes) -> str:
        out = []
        position = 0
        while position < len(raw):
            for length in self._lengths:
                code = raw[position : position + length]
                if code in self._map:
                    out.append(self._map[code])
                    position += length
                    break
            else:
                position += self._lengths[0]
        return "".join(out)

    def _encoded(self, raw: bytes) -> str:
        if not self._differences:
            return self._base(raw)
        return "".join(
            self._differences.get(byte) or self._base(bytes([byte])) for byte in raw
        )

    def _read_cmap(self, data: bytes) -> None:
        text = data.decode("latin-1")
        lengths: set[int] = set()
        for section, body in _SECTION.findall(text):
            if section == "codespacerange":
                for low, _ in _CODESPACE.findall(body):
                    lengths.add(len(regex.sub(r"\s", "", low)) // 2)
            elif section == "bfchar":
                for code, target in _BFCHAR.findall(body):
                    self._map[_bytes(code)] = _utf16(target)
            else:
                for low, high, target, array in _BFRANGE.findall(body):
                    self._range(_bytes(low), _bytes(high), target, array)
        if lengths:
            self._lengths = sorted(lengths)
        elif self._map:
            self._lengths = sorted({len(code) for code in self._map})

    def _range(self, low: bytes, high: bytes, target: str, array: str) -> None:
        start, end = int.from_bytes(low, "big"), int.from_bytes(high, "big")
        if end - start > 65535 or end < start:
            return
        size = len(low)
        if array:
            targets = [_utf16(t) for t in regex.findall(_HEX, array)]
            for offset, text in enumerate(targets[: end - start + 1]):
                self._map[(start + offset).to_bytes(size, "big")] = text
            return
        first = _utf16(target)
        if not first:
            return
        for offset in range(end - start + 1):
            last = ord(first[-1]) + offset
            if last < 0x110000:
                self._map[(start + offset).to_bytes(size, "big")] = first[:-1] + chr(
                    last
                )

    def _read_differences(self, differences: object) -> None:
        if not isinstance(differences, Array):
            return
        code = 0
        for item in differences:
            if isinstance(item, int | float | Decimal):
                code = int(item)
                continue
            if isinstance(item, Name):
                self._differences[code] = glyph_text(str(item)[1:])
                code += 1


def glyph_text(name: str) -> str:
    """The text a glyph name stands for (Adobe Glyph List conventions)."""
    base = name.split(".", 1)[0]
    parts = base.split("_")
    out: list[str] = []
    for part in parts:
        if match := regex.fullmatch(r"uni((?:[0-9A-F]{4})+)", part):
            digits = match[1]
            out.extend(
                chr(int(digits[i : i + 4], 16)) for i in range(0, len(digits), 4)
            )
        elif match := regex.fullmatch(r"u([0-9A-F]{4,6})", part):
            out.append(chr(min(int(match[1], 16), 0x10FFFF)))
        else:
            point = pymupdf.glyph_name_to_unicode(part)
            if 0 < point < 0x110000:
                out.append(chr(point))
    return "".join(out)


def _bytes(hex_digits: str) -> bytes:
    digits = regex.sub(r"\s", "", hex_digits)
    try:
        return bytes.fromhex(digits + "0" * (len(digits) % 2))
    except ValueError:
        return b""


def _utf16(hex_digits: str) -> str:
    return _bytes(hex_digits).decode("utf-16-be", "replace")


def _data(stream: Stream) -> bytes:
    try:
        return stream.read_bytes()
    except pikepdf.PdfError:
        return b""
