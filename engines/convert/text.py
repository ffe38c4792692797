"""Plain text -> paginated PDF.

Monospaced, like the original server's text converter (Courier 13 pt on
1191 x 842 pt landscape pages): text files are mostly logs, listings, code
and fixed-width reports whose columns line up only in a fixed-pitch font,
and a fixed pitch makes wrapping exact and cheap (a character is one cell,
two for East Asian wide characters). Lines longer than the page wrap at the
last space of the line's second half, else at the page edge; a form feed
starts a new page; tabs stop every 8 columns. The text is drawn as real
text (searchable, extractable), each character with the first font of
`fonts.FontChain` that has it.

Right-to-left text (Hebrew, Arabic...) is drawn in visual order, each piece
of a line reordered by the Unicode bidirectional algorithm: text
extractors (poppler, MuPDF) read a right-to-left run from right to left,
so what they give back is the text's logical order, the order it is typed,
searched and compared in. Letters are not shaped (each is drawn in its
isolated form) and brackets are not mirrored: the text layer is exact
(poppler gives the logical order back, vowel marks included; MuPDF too,
though it moves a vowel mark off its letter, which search ignores).
"""

from __future__ import annotations

import codecs
import os
import re
import unicodedata
from collections.abc import Iterator

import pymupdf
from bidi import get_display

from engines.convert.detect.charset import choose_encoding
from engines.convert.fidelity import EncodingChoice, Fidelity
from engines.convert.fonts import FontChain, font_chain
from engines.convert.rendition import Deadline, check_page_count, describe
from engines.convert.types import LimitExceeded, Limits, Rendition

PAGE_WIDTH, PAGE_HEIGHT = 1191.0, 842.0  # points, as the original
MARGIN = 36.0
FONT_SIZE = 13.0
LEADING = 1.15  # line height, in font sizes
TAB = 8
# As much of a text as detection reads (detect.HEAD_BYTES).
HEAD_BYTES = 64 * 1024
# Letters of the right-to-left scripts: Hebrew, Arabic, Syriac, Thaana, NKo,
# Samaritan, Mandaic, and their presentation forms.
_RTL = re.compile(r"[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufeff\U00010800-\U00010fff]")


def text_to_pdf(path: str, encoding: str, dest: str, limits: Limits) -> Rendition:
    """Write at `dest` the text file at `path`, decoded with `encoding`
    (undecodable bytes shown as U+FFFD), as a PDF of monospaced pages."""
    deadline = Deadline(limits.timeout)
    size = os.path.getsize(path)
    if size > limits.max_text_bytes:
        raise LimitExceeded(
            f"the text file is {size:,} bytes; the limit is {limits.max_text_bytes:,}"
        )
    with open(path, "rb") as fh:
        data = fh.read()
    text = data.decode(encoding, errors="replace").lstrip("\ufeff")
    write_text_pdf(text, dest, limits, deadline)
    return describe(
        dest,
        engine="text",
        started=deadline.started,
        max_pages=limits.max_pages,
        fidelity=Fidelity(encoding=encoding_report(data, encoding)),
    )


def encoding_report(data: bytes, encoding: str) -> EncodingChoice:
    """How sure the choice of `encoding` for `data` is (the detector judged
    the first bytes; its verdict on them is asked again here)."""
    choice = choose_encoding(data[:HEAD_BYTES], complete=len(data) <= HEAD_BYTES)
    if choice is not None and codecs.lookup(choice.name) == codecs.lookup(encoding):
        return choice
    return EncodingChoice(codecs.lookup(encoding).name, "given", 1.0)


def write_text_pdf(text: str, dest: str, limits: Limits, deadline: Deadline) -> None:
    """Lay `text` out on pages and save the PDF at `dest`."""
    fonts = font_chain()
    cell = fonts.cell * FONT_SIZE
    columns = int((PAGE_WIDTH - 2 * MARGIN) // cell)
    rows = int((PAGE_HEIGHT - 2 * MARGIN) // (FONT_SIZE * LEADING))
    doc = pymupdf.open()
    try:
        for page_lines in _pages(text, columns, rows):
            check_page_count(doc.page_count + 1, limits.max_pages, "the text")
            deadline.check("rendering the text")
            page = doc.new_page(width=PAGE_WIDTH, height=PAGE_HEIGHT)
            _draw(page, page_lines, fonts, cell)
        if doc.page_count == 0:
            doc.new_page(width=PAGE_WIDTH, height=PAGE_HEIGHT)  # an empty file
        doc.subset_fonts()  # the CJK and Noto fonts are megabytes whole
        doc.save(dest, garbage=3, deflate=True)
    finally:
        doc.close()


def _pages(text: str, columns: int, rows: int) -> Iterator[list[str]]:
    for sheet in text.split("\f"):
        lines: list[str] = []
        for line in _lines(sheet):
            for piece in wrap(line, columns):
                lines.append(piece)
                if len(lines) == rows:
                    yield lines
                    lines = []
        if lines:
            yield lines


def _lines(text: str) -> Iterator[str]:
    # \r\n, \r and \n end lines; the other separators splitlines() knows
    # (\v, \x1c...) are drawn as spaces rather than breaking lines.
    for line in text.replace("\r\n", "\n").replace("\r", "\n").split("\n"):
        yield "".join(ch if ch >= " " or ch == "\t" else " " for ch in line).expandtabs(
            TAB
        )


def width(char: str) -> int:
    """Cells a character takes: 2 for East Asian wide ones, 0 for marks."""
    if unicodedata.combining(char):
        return 0
    return 2 if unicodedata.east_asian_width(char) in ("W", "F") else 1


def wrap(line: str, columns: int) -> Iterator[str]:
    """`line` cut into pieces of at most `columns` cells (at least one)."""
    while True:
        used, cut = 0, len(line)
        for index, char in enumerate(line):
            used += width(char)
            if used > columns:
                cut = index
                break
        if cut == len(line):
            yield line
            return
        space = line.rfind(" ", 0, cut + 1)
        if space > cut // 2:  # a word break in the second half of the line
            yield line[:space]
            line = line[space + 1 :]
        else:
            yield line[:cut]
            line = line[cut:]


def _draw(page: pymupdf.Page, lines: list[str], fonts: FontChain, cell: float) -> None:
    writer = pymupdf.TextWriter(page.rect)
    baseline = MARGIN + FONT_SIZE
    for line in lines:
        for column, run, font in _runs(visual(line), fonts):
            # A run of wide characters is scaled so that each takes exactly two
            # cells: the grid holds, and no gap reads as a space when extracted.
            size = FONT_SIZE
            if width(run[0]) == 2:
                size = 2 * cell / (font.glyph_advance(ord(run[0])) or 1.0)
            writer.append(
                (MARGIN + column * cell, baseline), run, font=font, fontsize=size
            )
        baseline += FONT_SIZE * LEADING
    writer.write_text(page)


def visual(line: str) -> str:
    """`line` in the order its characters are drawn from left to right: the
    same for left-to-right text, reordered where it holds right-to-left
    letters (the paragraph's direction is its first strong letter's). A
    reversed run keeps each combining mark just before its letter, in the
    letter's font run: extractors read the pair back in logical order."""
    if not _RTL.search(line):
        return line
    display = get_display(line)
    return display if isinstance(display, str) else line


def _runs(line: str, fonts: FontChain) -> Iterator[tuple[int, str, pymupdf.Font]]:
    """(first column, text, font) of each stretch of `line` drawn with one
    font and one character width; each starts on its own column."""
    column, start, run, kind = 0, 0, "", 0
    current: pymupdf.Font | None = None
    for char in line:
        cells = width(char)
        font = current if cells == 0 and current else fonts.font_for(char)
        if font is not current or (cells and cells != kind):
            if run.strip() and current is not None:
                yield start, run, current
            start, run, current, kind = column, "", font, cells or 1
        run += char
        column += cells
    if run.strip() and current is not None:
        yield start, run, current
