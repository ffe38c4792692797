"""Reading the written output again, by other paths, before it is delivered.

Two readers that share nothing with the code that redacted:

- MuPDF, on the file as written: no glyph may be left under an area its page
  had text removed from (the same test MuPDF's redaction applies);
- qpdf (pikepdf), on every object of the file: no string may contain a removed
  word, nor any stream that is not page content (metadata, scripts,
  attachments...); the content streams of a redacted page (with everything
  they draw: forms, patterns, glyph procedures, appearances) may name a word
  only as often as the page still shows it outside the areas.

A survivor raises `RedactionLeak`, naming the page, never the word.
Pages are counted from 0 here and from 1 in messages.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence

import pikepdf
import pymupdf
import regex
from pikepdf import Array, Dictionary, Name, Stream

from documents.pdf import collector
from documents.pdf.glyphs import capped_box, is_tall
from documents.pdf.redact.marked_content import string_operands, syntax_names_word
from documents.pdf.redact.page import PageRedaction, Rect4
from documents.pdf.redact.type3 import inked_under, type3_runs
from documents.pdf.redact.words import Removed, words_pattern
from documents.pdf.types import EngineError, RedactionLeak

_SHRINK = 0.1  # MuPDF's redaction tests glyph boxes shrunk by a tenth a side
_TEXT_ONLY = pymupdf.TEXTFLAGS_RAWDICT & ~pymupdf.TEXT_PRESERVE_IMAGES
# Keys that lead from a page's content to what it draws (not to other pages).
_DRAWN = frozenset(
    Name(n)
    for n in (
        "/Contents", "/Resources", "/XObject", "/Pattern", "/Shading", "/Font",
        "/CharProcs", "/ExtGState", "/SMask", "/G", "/Annots", "/AP", "/N", "/D",
        "/R", "/Properties",
    )
)  # fmt: skip
# Links back up or across the document, never to what a page draws.
_BACK = frozenset(
    Name(n)
    for n in (
        "/P", "/Parent", "/Popup", "/IRT", "/Dest", "/A", "/AA", "/PA", "/B",
        "/Prev", "/Next", "/First", "/Last", "/Pg", "/StructParent", "/OC",
    )
)  # fmt: skip
# Streams that are neither content nor text: fonts, images, functions, profiles.
_BINARY_KEYS = frozenset(
    ("/Length1", "/Length2", "/Length3", "/FunctionType", "/Width", "/N")
)
_BINARY_SUBTYPES = frozenset(
    Name(n) for n in ("/Image", "/Type1C", "/CIDFontType0C", "/OpenType")
)


def verify(
    path: str, removed: Sequence[Removed], pages: Mapping[int, PageRedaction]
) -> None:
    """Raise `RedactionLeak` when the file at `path` still holds what redaction
    removed; `pages` says what each redacted page (counted from 0) had removed."""
    pattern = words_pattern(removed)
    shown = _check_pages(path, pages, pattern)
    if pattern is not None:
        _check_objects(path, pattern, shown)


def _check_pages(
    path: str,
    pages: Mapping[int, PageRedaction],
    pattern: regex.Pattern[str] | None,
) -> dict[int, int]:
    """Glyphs under the areas; returns how often each redacted page still shows
    a removed word (outside the areas, where it may stay)."""
    shown: dict[int, int] = {}
    try:
        document = pymupdf.open(path)
    except RuntimeError as exc:
        raise EngineError("The redacted document could not be read back.") from exc
    with document, collector.paused():
        for number, redaction in pages.items():
            page = document[number]
            textpage = page.get_textpage(flags=_TEXT_ONLY)
            if _glyph_under(page, textpage, redaction.text_areas):
                raise _leak(number)
            if inked_under(type3_runs(page), redaction.areas):
                raise _leak(number)
            if pattern is not None:
                shown[number] = len(pattern.findall(textpage.extractText()))
    return shown


def _glyph_under(
    page: pymupdf.Page, textpage: pymupdf.TextPage, areas: Sequence[Rect4]
) -> bool:
    """Whether a glyph's box, shrunk as MuPDF's redaction shrinks it, meets an
    area. Only the words whose box meets one are read glyph by glyph: a word's
    box holds its glyphs'."""
    near = [
        pymupdf.Rect(word[:4])
        for word in textpage.extractWORDS()
        if any(_meets(word[:4], area) for area in areas)
    ]
    if not near:
        return False
    clip = near[0]
    for rect in near[1:]:
        clip |= rect
    # Glyph by glyph only there: a clipped extraction makes few objects.
    nearby = page.get_textpage(flags=_TEXT_ONLY, clip=clip + (-1, -1, 1, 1))
    for block in nearby.extractRAWDICT()["blocks"]:
        for line in block.get("lines", ()):
            cos, sin = line["dir"]
            for span in line["spans"]:
                tall = abs(cos) >= abs(sin) and is_tall(
                    span["bbox"], span["size"], True
                )
                for char in span["chars"]:
                    box = (
                        capped_box(char["bbox"], char["origin"], span["size"])
                        if tall
                        else char["bbox"]
                    )
                    if not char["c"].isspace() and _under(box, areas):
                        return True
    return False


def _meets(bbox: Sequence[float], area: Rect4) -> bool:
    return max(bbox[0], area[0]) <= min(bbox[2], area[2]) and max(
        bbox[1], area[1]
    ) <= min(bbox[3], area[3])


def _under(bbox: Sequence[float], areas: Sequence[Rect4]) -> bool:
    x0, y0, x1, y1 = bbox
    dx, dy = max(0.0, x1 - x0) * _SHRINK, max(0.0, y1 - y0) * _SHRINK
    x0, y0, x1, y1 = x0 + dx, y0 + dy, x1 - dx, y1 - dy
    return any(
        max(x0, a[0]) <= min(x1, a[2]) and max(y0, a[1]) <= min(y1, a[3]) for a in areas
    )


def _check_objects(
    path: str, pattern: regex.Pattern[str], shown: Mapping[int, int]
) -> None:
    with pikepdf.open(path) as pdf:
        pages = list(pdf.pages)
        drawn: dict[tuple[int, int], int] = {}
        for number in shown:
            for stream in _drawn_by(pages[number]):
                drawn.setdefault(stream.objgen, number)
        counts: dict[int, int] = dict.fromkeys(shown, 0)
        for obj in [pdf.trailer, *pdf.objects]:
            if not isinstance(obj, Dictionary | Array | Stream):
                continue
            if _strings_name_word(obj, pattern):
                raise _leak(None)
            if not isinstance(obj, Stream):
                continue
            if obj.objgen in drawn:
                operands = " ".join(string_operands(_read(obj)))
                counts[drawn[obj.objgen]] += len(pattern.findall(operands))
            elif _is_text(obj) and pattern.search(_decoded(_read(obj))):
                raise _leak(None)
        for number, count in counts.items():
            if count > shown[number]:
                raise _leak(number)


def _strings_name_word(
    obj: Dictionary | Array | Stream, pattern: regex.Pattern[str]
) -> bool:
    """Whether a string of the object (its direct parts included) names a word;
    the strings are read from the object's syntax as qpdf writes it."""
    syntax = (obj.stream_dict if isinstance(obj, Stream) else obj).unparse(
        resolved=True
    )
    if isinstance(obj, Dictionary) and Name("/ID") in obj:  # the trailer's ids
        syntax = regex.sub(rb"/ID\s*\[[^\]]*\]", b"", syntax)
    return syntax_names_word(syntax, pattern)


def _is_text(stream: Stream) -> bool:
    """A stream read as text (metadata, attachments, scripts), neither content
    (judged page by page) nor binary data (fonts, images, functions)."""
    keys = set(stream.stream_dict.keys())
    if keys & _BINARY_KEYS:
        return False
    subtype = stream.stream_dict.get(Name("/Subtype")) if "/Subtype" in keys else None
    if subtype in _BINARY_SUBTYPES or subtype == Name("/Form"):
        return False
    # A stream with neither /Type nor /Subtype draws: page contents, glyphs.
    return "/Type" in keys or "/Subtype" in keys


def _drawn_by(page: pikepdf.Page) -> Iterator[Stream]:
    """The streams a page draws, through resources and annotations, each once."""
    pending: list[object] = [page.obj]
    seen: set[tuple[int, int]] = set()
    while pending:
        obj = pending.pop()
        if isinstance(obj, Array):
            pending.extend(obj)
            continue
        if not isinstance(obj, Dictionary | Stream):
            continue
        if obj.is_indirect:
            if obj.objgen in seen:
                continue
            seen.add(obj.objgen)
            if isinstance(obj, Stream):
                yield obj
        # A name → object map (resource categories, CharProcs) has neither
        # /Type nor /Subtype: every entry leads on but those pointing back.
        is_map = isinstance(obj, Dictionary) and not (
            Name("/Type") in obj or Name("/Subtype") in obj
        )
        for key, value in obj.items():
            name = Name(key)
            if name in _DRAWN or (is_map and name not in _BACK):
                pending.append(value)


def _read(stream: Stream) -> bytes:
    try:
        return stream.read_bytes()
    except pikepdf.PdfError:
        return stream.read_raw_bytes()


def _decoded(data: bytes) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("latin-1")


def _leak(page: int | None) -> RedactionLeak:
    where = f"page {page + 1}" if page is not None else "the document's own data"
    return RedactionLeak(
        f"Redaction could not be verified: redacted text is still present in "
        f"{where} of the output. The document was not delivered; redact it with "
        "a larger area, or send it to support for the engine to be fixed."
    )
