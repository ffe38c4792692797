"""Small raw-PDF building blocks for the hostile redaction corpus (pikepdf).

Pages are 400 × 300 pt, unrotated unless a case turns them, with text in
Helvetica (WinAnsi) written as literal strings, so that a raw grep of a content
stream finds the words as the page shows them. Lines are given by their
baseline in PDF user space (origin bottom-left, y up).
"""

from __future__ import annotations

from dataclasses import dataclass

import pikepdf
import pymupdf
from pikepdf import Array, Dictionary, Name, Stream, String

from engines.pdf.types import Box

WIDTH, HEIGHT = 400.0, 300.0
SIZE = 12.0
LEFT = 40.0
_HELV = pymupdf.Font("helv")
# Helvetica's ascender and descender (AFM), as fractions of the font size.
ASCENT, DESCENT = 0.718, -0.207


def escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")


def width(text: str, size: float = SIZE) -> float:
    return float(_HELV.text_length(text, fontsize=size))


def word_box(line: str, word: str, baseline: float, *, size: float = SIZE) -> Box:
    """The displayed-space box of the first `word` in `line` (drawn at LEFT):
    the glyphs' advance widths, ascender to descender."""
    start = line.index(word)
    x = LEFT + width(line[:start], size)
    top = HEIGHT - (baseline + ASCENT * size)
    return Box(x, top, width(word, size), (ASCENT - DESCENT) * size)


def grown(box: Box, by: float = 1.0) -> Box:
    return Box(box.x - by, box.y - by, box.w + 2 * by, box.h + 2 * by)


def text_ops(lines: list[tuple[float, str]], font: str = "/F1") -> str:
    """BT ... ET showing each (baseline, text) line at LEFT."""
    body = "".join(
        f"1 0 0 1 {LEFT} {baseline} Tm ({escape(text)}) Tj\n"
        for baseline, text in lines
    )
    return f"BT {font} {SIZE:g} Tf\n{body}ET\n"


@dataclass
class Doc:
    """A pikepdf document under construction, with a shared Helvetica."""

    pdf: pikepdf.Pdf
    helv: Dictionary

    @classmethod
    def new(cls) -> Doc:
        pdf = pikepdf.new()
        helv = pdf.make_indirect(
            Dictionary(
                Type=Name.Font,
                Subtype=Name.Type1,
                BaseFont=Name.Helvetica,
                Encoding=Name.WinAnsiEncoding,
            )
        )
        return cls(pdf, helv)

    def page(
        self, lines: list[tuple[float, str]], *, extra: str = "", before: str = ""
    ) -> Dictionary:
        """A new page showing `lines`; `before`/`extra` are content drawn before
        and after the text."""
        content = before + text_ops(lines) + extra
        page = self.pdf.make_indirect(
            Dictionary(
                Type=Name.Page,
                MediaBox=Array([0, 0, WIDTH, HEIGHT]),
                Resources=Dictionary(Font=Dictionary(F1=self.helv)),
                Contents=self.stream(content),
            )
        )
        self.pdf.pages.append(pikepdf.Page(page))
        return self.pdf.pages[-1].obj

    def stream(self, data: str | bytes, **keys: object) -> Stream:
        # Text is shown with WinAnsiEncoding: CP1252 bytes.
        raw = data.encode("cp1252") if isinstance(data, str) else data
        stream = Stream(self.pdf, raw)
        for key, value in keys.items():
            stream[Name("/" + key)] = value
        return self.pdf.make_indirect(stream)

    def form(
        self, content: str, bbox: tuple[float, ...] = (0, 0, WIDTH, HEIGHT)
    ) -> Stream:
        """A Form XObject with Helvetica as /F1."""
        return self.stream(
            content,
            Type=Name.XObject,
            Subtype=Name.Form,
            BBox=Array(list(bbox)),
            Resources=Dictionary(Font=Dictionary(F1=self.helv)),
        )

    def text_appearance(self, text: str, rect: tuple[float, ...]) -> Stream:
        """An appearance stream writing `text` in its box (for fields, annotations)."""
        w, h = rect[2] - rect[0], rect[3] - rect[1]
        return self.form(
            f"/Tx BMC BT /F1 10 Tf 2 4 Td ({escape(text)}) Tj ET EMC",
            bbox=(0, 0, w, h),
        )

    def annotate(self, page: Dictionary, annot: Dictionary) -> Dictionary:
        annot = self.pdf.make_indirect(annot)
        annot.P = page
        if Name.Annots not in page:
            page.Annots = Array()
        page.Annots.append(annot)
        return annot

    def info(self, **entries: str) -> None:
        self.pdf.trailer.Info = self.pdf.make_indirect(
            Dictionary({"/" + k: String(v) for k, v in entries.items()})
        )

    def save(self, path: str, **options: object) -> None:
        self.pdf.save(path, **options)  # type: ignore[arg-type]


def xmp(title: str) -> bytes:
    return (
        '<?xpacket begin="\ufeff" id="W5M0MpCehiHzreSzNTczkc9d"?>'
        '<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF '
        'xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">'
        '<rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/">'
        f'<dc:title><rdf:Alt><rdf:li xml:lang="x-default">{title}</rdf:li></rdf:Alt>'
        "</dc:title></rdf:Description></rdf:RDF></x:xmpmeta>"
        '<?xpacket end="w"?>'
    ).encode()
