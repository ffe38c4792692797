"""What each page draws, and the text of its content streams read every way.

A page draws its content streams, the forms, tiling patterns, soft-mask groups
and Type 3 glyphs of its resources (nested ones too), and the appearances of
its annotations (icons and overlays included). Each such stream is parsed
(qpdf's parser), its shown strings read through their font (`fonts`), its
other strings and its names (those not of PDF's own vocabulary) read as text,
and its comments (which parsers drop) read too.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import pikepdf
from pikepdf import Array, Dictionary, Name, Stream, String

from engines.verify.fonts import FontReader
from engines.verify.needles import Needles
from engines.verify.readings import (
    byte_readings,
    comments,
    name_readings,
    text_readings,
)
from engines.verify.vocabulary import is_syntax

ObjGen = tuple[int, int]
_SHOW = frozenset(("Tj", "TJ", "'", '"'))
# Operators whose operands are numbers only: nothing to read there.
_NUMBERS_ONLY = frozenset(
    "cm Td TD Tm T* re m l c v y h w g rg k G RG K Tc Tw Tz TL Ts d0 d1 i j J M "
    "f F f* B B* b b* S s n W W* q Q BT ET sc SC EMC".split()
)
_MAX_DEPTH = 24


@dataclass(frozen=True)
class Drawn:
    """A content stream a page draws, with the resources it draws with."""

    stream: Stream
    resources: Dictionary
    kind: str  # "page", "form", "pattern", "mask", "glyph", "appearance"


def drawn_by(page: Dictionary) -> Iterator[Drawn]:
    """Every content stream `page` draws, each once."""
    seen: set[ObjGen] = set()
    resources = _resources(page)
    contents = page.get(Name.Contents)
    for stream in contents if isinstance(contents, Array) else [contents]:
        if isinstance(stream, Stream):
            yield from _visit(stream, resources, "page", seen, 0)
    yield from _from_resources(resources, seen, 0)
    annots = page.get(Name.Annots)
    for annot in annots if isinstance(annots, Array) else []:
        if isinstance(annot, Dictionary):
            for stream in appearance_streams(annot):
                yield from _visit(stream, resources, "appearance", seen, 0)


def appearance_streams(annot: Dictionary) -> Iterator[Stream]:
    """The annotation's appearances (every state), icons and overlay."""
    holders: list[object] = []
    ap = annot.get(Name.AP)
    if isinstance(ap, Dictionary):
        holders += [ap.get(key) for key in (Name.N, Name.R, Name.D)]
    mk = annot.get(Name.MK)
    if isinstance(mk, Dictionary):
        holders += [mk.get(key) for key in ("/I", "/RI", "/IX")]
    holders.append(annot.get("/RO"))
    for holder in holders:
        if isinstance(holder, Stream):
            yield holder
        elif isinstance(holder, Dictionary):
            yield from (s for s in holder.values() if isinstance(s, Stream))


def _resources(holder: Dictionary | Stream) -> Dictionary:
    resources = holder.get(Name.Resources)
    if isinstance(resources, Dictionary):
        return resources
    parent = holder.get(Name.Parent) if isinstance(holder, Dictionary) else None
    for _ in range(64):  # pages inherit resources from the page tree
        if not isinstance(parent, Dictionary):
            break
        resources = parent.get(Name.Resources)
        if isinstance(resources, Dictionary):
            return resources
        parent = parent.get(Name.Parent)
    return Dictionary()


def _visit(
    stream: Stream, inherited: Dictionary, kind: str, seen: set[ObjGen], depth: int
) -> Iterator[Drawn]:
    if depth > _MAX_DEPTH:
        return
    if stream.is_indirect:
        if stream.objgen in seen:
            return
        seen.add(stream.objgen)
    own = stream.get(Name.Resources)
    resources = own if isinstance(own, Dictionary) else inherited
    yield Drawn(stream, resources, kind)
    if isinstance(own, Dictionary):
        # What an appearance draws is part of the appearance.
        inner = "appearance" if kind == "appearance" else None
        yield from _from_resources(own, seen, depth + 1, inner)


def _from_resources(
    resources: Dictionary, seen: set[ObjGen], depth: int, kind: str | None = None
) -> Iterator[Drawn]:
    for category, own_kind in (("/XObject", "form"), ("/Pattern", "pattern")):
        entries = resources.get(category)
        if not isinstance(entries, Dictionary):
            continue
        for item in entries.values():
            if isinstance(item, Stream) and item.get(Name.Subtype) != Name.Image:
                yield from _visit(item, resources, kind or own_kind, seen, depth)
    states = resources.get(Name.ExtGState)
    for state in states.values() if isinstance(states, Dictionary) else []:
        mask = state.get(Name.SMask) if isinstance(state, Dictionary) else None
        group = mask.get(Name.G) if isinstance(mask, Dictionary) else None
        if isinstance(group, Stream):
            yield from _visit(group, resources, kind or "mask", seen, depth)
    fonts = resources.get(Name.Font)
    for font in fonts.values() if isinstance(fonts, Dictionary) else []:
        procs = font.get(Name.CharProcs) if isinstance(font, Dictionary) else None
        if not isinstance(procs, Dictionary):
            continue
        font_resources = font.get(Name.Resources)
        inner = font_resources if isinstance(font_resources, Dictionary) else resources
        for proc in procs.values():
            if isinstance(proc, Stream):
                yield from _visit(proc, inner, kind or "glyph", seen, depth)


class ContentReader:
    """Finds removed runs in content streams, fonts read once per document."""

    def __init__(self, needles: Needles) -> None:
        self._needles = needles
        self._fonts: dict[ObjGen, FontReader] = {}
        self._seen: dict[tuple[ObjGen, ObjGen], set[str]] = {}

    def runs(self, drawn: Drawn) -> set[str]:
        """The removed runs (folded) any reading of the stream holds."""
        key = (drawn.stream.objgen, drawn.resources.objgen)
        if drawn.stream.is_indirect and key in self._seen:
            return self._seen[key]
        found = self._runs(drawn)
        if drawn.stream.is_indirect:
            self._seen[key] = found
        return found

    def _runs(self, drawn: Drawn) -> set[str]:
        try:
            data = drawn.stream.read_bytes()
        except pikepdf.PdfError:
            data = drawn.stream.read_raw_bytes()
        if not data:
            return set()
        found: set[str] = set()
        for comment in comments(data):
            for text in text_readings(comment):
                found |= self._needles.matches(text)
        try:
            operations = pikepdf.parse_content_stream(drawn.stream)
        except pikepdf.PdfError:
            for text in byte_readings(data):
                found |= self._needles.matches(text)
            return found
        shown: dict[int, list[str]] = {}  # reading number → pieces
        others: list[str] = []
        names: set[str] = set()  # a font's or a state's name recurs at each use
        font = FontReader(None)
        fonts = drawn.resources.get(Name.Font)
        for instruction in operations:
            operands, operator = instruction.operands, instruction.operator
            name = str(operator)
            if name == "Tf" and operands and isinstance(fonts, Dictionary):
                font = self._font(fonts.get(str(operands[0])))
            if name in _SHOW:
                strings = _strings(operands[-1]) if operands else []
                for piece in strings:
                    for number, text in enumerate(font.readings(piece)):
                        shown.setdefault(number, []).append(text)
                for pieces in shown.values():
                    pieces.append("\x00")  # where a shown string ends
                continue
            if name in _NUMBERS_ONLY:
                continue
            for operand in operands:
                if isinstance(operand, Name):
                    names.add(str(operand))  # read below, once per stream
                else:
                    others.extend(_operand_texts(operand))
        for pieces in shown.values():
            joined = "".join(pieces)
            found |= self._needles.matches(joined.replace("\x00", ""))
            found |= self._needles.matches(joined.replace("\x00", " "))
        for name in names:
            if not is_syntax(name):
                others.extend(name_readings(name))
        # Operand texts repeat (one string drawn twice): each is read once.
        for text in dict.fromkeys(others):
            found |= self._needles.matches(text)
        return found

    def _font(self, font: object) -> FontReader:
        if isinstance(font, Dictionary) and font.is_indirect:
            reader = self._fonts.get(font.objgen)
            if reader is None:
                reader = self._fonts[font.objgen] = FontReader(font)
            return reader
        return FontReader(font)


def _strings(operand: object) -> list[bytes]:
    if isinstance(operand, String):
        return [bytes(operand)]
    if isinstance(operand, Array):
        return [bytes(item) for item in operand if isinstance(item, String)]
    return []


def _operand_texts(operand: object) -> Iterator[str]:
    if isinstance(operand, String):
        yield from text_readings(bytes(operand))
    elif isinstance(operand, Name):
        if not is_syntax(str(operand)):
            yield from name_readings(str(operand))
    elif isinstance(operand, Dictionary):
        for key, value in operand.items():
            if not is_syntax(key):
                yield from name_readings(key)
            yield from _operand_texts(value)
    elif isinstance(operand, Array):
        for item in operand:
            yield from _operand_texts(item)
