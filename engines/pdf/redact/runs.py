"""Removed runs: the glyphs that went (`Kept` tells those that stayed),
joined where the layout split a word.

MuPDF's extraction gives glyphs by line and white-space token. A word the
page shows may reach redaction in pieces: hyphenated over two lines ("Ac-",
"me"), set with letter spacing or vertically (one token, or one line, per
letter). Recorded as pieces, it would be scrubbed elsewhere as pieces (or as
single letters everywhere); joined, it is scrubbed as the word it is.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engines.pdf.redact.words import TRIM, Removed, merged

HYPHENS = ("-", "\u00ad", "\u2010", "\u2011")


@dataclass(frozen=True, slots=True)
class Piece:
    """Glyphs `start:end` removed from `token` (line and token numbers in
    page order; `last`: the token ends its line)."""

    line: int
    word: int
    token: str
    start: int
    end: int
    last: bool

    @property
    def whole(self) -> bool:
        return self.start == 0 and self.end == len(self.token)

    @property
    def letter(self) -> bool:
        return self.whole and len(self.token.strip(TRIM)) == 1

    def follows(self, other: Piece) -> bool:
        """This token comes right after `other` in reading order."""
        if self.line == other.line:
            return self.word == other.word + 1
        return self.line == other.line + 1 and self.word == 0 and other.last


def joined(pieces: Sequence[Piece]) -> list[Removed]:
    """The removed runs of `pieces` (page order), split words joined."""
    found: list[Removed] = []
    index = 0
    while index < len(pieces):
        piece = pieces[index]
        after = pieces[index + 1] if index + 1 < len(pieces) else None
        if after is not None and _hyphenated(piece, after):
            token = piece.token[:-1] + after.token
            run = Removed.of(token, piece.start, len(piece.token) - 1 + after.end)
            found += [run] if run is not None else []
            index += 2
            continue
        end = index
        while (
            end + 1 < len(pieces)
            and pieces[end].letter
            and pieces[end + 1].letter
            and pieces[end + 1].follows(pieces[end])
        ):
            end += 1
        if end > index:
            letters = "".join(p.token.strip(TRIM) for p in pieces[index : end + 1])
            found.append(Removed(letters))
            index = end + 1
            continue
        run = Removed.of(piece.token, piece.start, piece.end)
        found += [run] if run is not None else []
        index += 1
    return merged(found)


def _hyphenated(piece: Piece, after: Piece) -> bool:
    return (
        piece.last
        and piece.end == len(piece.token)
        and piece.token.endswith(HYPHENS)
        and len(piece.token) > 1
        and after.line == piece.line + 1
        and after.word == 0
        and after.start == 0
    )


class Kept:
    """The glyphs left on the page, by origin (hundredths of a point). MuPDF
    writes the content it filters anew, rounding positions: a glyph still
    there may have moved by a few hundredths."""

    _TOLERANCE = 50  # half a point

    def __init__(self, origins: Sequence[tuple[int, int]]) -> None:
        self._cells: dict[tuple[int, int], list[tuple[int, int]]] = {}
        for x, y in origins:
            self._cells.setdefault((x // 100, y // 100), []).append((x, y))

    def take(self, origin: tuple[int, int]) -> bool:
        """Whether a glyph is left at `origin` (each is taken once)."""
        x, y = origin
        for cx in (x // 100 - 1, x // 100, x // 100 + 1):
            for cy in (y // 100 - 1, y // 100, y // 100 + 1):
                cell = self._cells.get((cx, cy), [])
                for index, (kx, ky) in enumerate(cell):
                    if (
                        abs(kx - x) <= self._TOLERANCE
                        and abs(ky - y) <= self._TOLERANCE
                    ):
                        del cell[index]
                        return True
        return False
