"""Embedded font programs that several sources carry byte for byte, stored once.

qpdf shares what one source's pages share, but two source files embedding the same
font (documents from one template or one producer) would keep a copy each: merged
outputs would grow with the number of inputs instead of with their content.
"""

from __future__ import annotations

import hashlib

import pikepdf
from pikepdf import Dictionary, Name

_FONT_DESCRIPTOR = Name("/FontDescriptor")
_TYPE = Name("/Type")
_FONT_FILES = (Name("/FontFile"), Name("/FontFile2"), Name("/FontFile3"))
# The stream dictionary entries that say how to read the font program.
_PROGRAM_KEYS = (
    "/Filter",
    "/DecodeParms",
    "/Subtype",
    "/Length1",
    "/Length2",
    "/Length3",
)


def share_font_programs(out: pikepdf.Pdf) -> int:
    """Point every font descriptor at the first identical font program; returns how
    many were redirected (the copies are then unreferenced and not written)."""
    first: dict[tuple[Name, bytes], pikepdf.Stream] = {}
    redirected = 0
    for obj in out.objects:
        if not isinstance(obj, Dictionary) or obj.get(_TYPE) != _FONT_DESCRIPTOR:
            continue
        for key in _FONT_FILES:
            program = obj.get(key)
            if not isinstance(program, pikepdf.Stream):
                continue
            identity = (key, _digest(program))
            kept = first.setdefault(identity, program)
            if kept.objgen != program.objgen:
                obj[key] = kept
                redirected += 1
    return redirected


def _digest(program: pikepdf.Stream) -> bytes:
    digest = hashlib.sha256()
    for name in _PROGRAM_KEYS:
        digest.update(f"{name}={program.get(name)!r};".encode())
    digest.update(program.read_raw_bytes())
    return digest.digest()
