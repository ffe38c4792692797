"""Right-to-left ligatures in LibreOffice's PDFs, read back in logical order.

LibreOffice maps a ligature glyph of an Arabic or Hebrew run (lam-alef, "لا")
to its letters in logical order in the font's /ToUnicode. Extractors (poppler,
MuPDF) read a right-to-left run from right to left and reverse what each
glyph maps to along with the run: lam-alef comes back as alef-lam ("ال"),
and "لا إله" cannot be found. Each such mapping (two or more right-to-left
letters for one glyph) is written reversed, so that the extractors' reversal
gives the letters back in the order they are typed.
"""

from __future__ import annotations

import re

import pikepdf

_BFCHAR = re.compile(rb"(<[0-9A-Fa-f]+>\s*)<([0-9A-Fa-f]{8,})>")


def _rtl(unit: int) -> bool:
    return (
        0x0590 <= unit <= 0x08FF or 0xFB1D <= unit <= 0xFDFF or 0xFE70 <= unit <= 0xFEFF
    )


def _reverse(match: re.Match[bytes]) -> bytes:
    target = match.group(2)
    if len(target) % 4:
        return match.group(0)
    units = [int(target[i : i + 4], 16) for i in range(0, len(target), 4)]
    if len(units) < 2 or not all(_rtl(unit) for unit in units):
        return match.group(0)
    flipped = b"".join(b"%04X" % unit for unit in reversed(units))
    return match.group(1) + b"<" + flipped + b">"


def fix_rtl_ligatures(path: str) -> int:
    """Rewrite, in place, the /ToUnicode maps of the PDF at `path` that map a
    glyph to several right-to-left letters; the number of maps changed."""
    changed = 0
    with pikepdf.open(path, allow_overwriting_input=True) as pdf:
        seen: set[tuple[int, int]] = set()
        for page in pdf.pages:
            resources = page.obj.get("/Resources")
            fonts = resources.get("/Font") if resources is not None else None
            if not isinstance(fonts, pikepdf.Dictionary):
                continue
            for font in fonts.values():
                cmap = font.get("/ToUnicode")
                if cmap is None or cmap.objgen in seen:
                    continue
                seen.add(cmap.objgen)
                data = cmap.read_bytes()
                fixed = _BFCHAR.sub(_reverse, data)
                if fixed != data:
                    cmap.write(fixed)
                    changed += 1
        if changed:
            pdf.save(path)
    return changed
