"""What a client's text styling says: default appearance strings and rich text."""

from __future__ import annotations

import html.parser

import regex

from engines.pdf.types import Rgb

DEFAULT_FONT_SIZE = 12.0
_BASE14 = {
    "helv": "Helv",
    "arial": "Helv",
    "tiro": "TiRo",
    "times": "TiRo",
    "cour": "Cour",
}


def parse_default_appearance(da: str | None) -> tuple[float, Rgb | None, str]:
    """Font size, colour and base-14 font of a /DA string like "/Helv 12 Tf 0 g"."""
    size, colour, font = DEFAULT_FONT_SIZE, None, "Helv"
    if not da:
        return size, colour, font
    if found := regex.search(r"/([^\s/]+)\s+([\d.]+)\s+Tf", da):
        name = found[1].lower()
        font = next((v for k, v in _BASE14.items() if name.startswith(k)), "Helv")
        size = float(found[2]) or DEFAULT_FONT_SIZE  # 0 means "fit", unsupported
    number = r"([\d.]+)\s+"
    if found := regex.search(number * 3 + r"rg\b", da):
        colour = _rgb(float(found[1]), float(found[2]), float(found[3]))
    elif found := regex.search(number * 4 + r"k\b", da):
        c, m, y, k = (float(found[i]) for i in range(1, 5))
        colour = _rgb((1 - c) * (1 - k), (1 - m) * (1 - k), (1 - y) * (1 - k))
    elif found := regex.search(number + r"g\b", da):
        colour = _rgb(*[float(found[1])] * 3)
    return size, colour, font


def _rgb(r: float, g: float, b: float) -> Rgb:
    def channel(value: float) -> int:
        return round(min(max(value, 0.0), 1.0) * 255)

    return Rgb(channel(r), channel(g), channel(b))


class _TextOf(html.parser.HTMLParser):
    """The plain text of an XHTML fragment, paragraphs and breaks as new lines."""

    _BREAKS = frozenset({"p", "div", "br", "li", "h1", "h2", "h3", "h4", "h5", "h6"})

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag.rsplit(":", 1)[-1] in self._BREAKS and self.parts:
            self.parts.append("\n")

    def handle_data(self, data: str) -> None:
        self.parts.append(data)


def plain_text(xhtml: str) -> str:
    """The text of rich text (XHTML), one line per paragraph or break."""
    parser = _TextOf()
    parser.feed(xhtml)
    parser.close()
    lines = ("".join(parser.parts)).split("\n")
    return "\n".join(regex.sub(r"\s+", " ", line).strip() for line in lines).strip()
