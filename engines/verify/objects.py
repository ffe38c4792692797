"""Every object of a PDF, every string and name in it, every stream decoded.

The content streams pages draw are left to `content` (a page may show a removed
word outside its areas); everything else may not hold a removed run at all.
Streams are decompressed by qpdf; what they hold is read by `files` (attached
files, opened as containers), as JPEG segments (images), or as text
(`readings`). Font programs are binary: their text is judged where it is drawn.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pikepdf
from pikepdf import Array, Dictionary, Name, Stream, String

from engines.verify.needles import Needles
from engines.verify.readings import (
    byte_readings,
    comments,
    looks_like_xml,
    name_readings,
    text_readings,
    unescaped,
    xml_texts,
)
from engines.verify.report import Found, key_name
from engines.verify.vocabulary import is_syntax

# Reads an attached file: raises Found at the place given.
FileReader = Callable[[bytes, str], None]
ObjGen = tuple[int, int]

_FONT_PROGRAM_KEYS = frozenset(("/Length1", "/Length2", "/Length3"))
_FONT_PROGRAM_SUBTYPES = frozenset(("/Type1C", "/CIDFontType0C", "/OpenType"))


def scan_objects(
    pdf: pikepdf.Pdf, needles: Needles, drawn: set[ObjGen], read_file: FileReader
) -> None:
    """Raise `Found` at the first string, name or stream holding a removed run,
    content streams in `drawn` excepted (their text is counted page by page)."""
    files = _embedded_files(pdf)
    for obj in [pdf.trailer, *pdf.objects]:
        if not isinstance(obj, Dictionary | Array | Stream):
            continue
        where = _where(obj)
        holder = obj.stream_dict if isinstance(obj, Stream) else obj
        _scan_syntax(holder, needles, where)
        if isinstance(obj, Stream) and obj.objgen not in drawn:
            _scan_stream(obj, needles, where, obj.objgen in files, read_file)


def _where(obj: Dictionary | Array | Stream) -> str:
    if obj.is_indirect:
        return f"object {obj.objgen[0]}"
    return "the file trailer"


def _scan_syntax(obj: Dictionary | Array, needles: Needles, where: str) -> None:
    """The object's strings and names, read from its syntax as qpdf writes it
    (one call) and only walked from Python when it holds a string or an
    escaped name, or when its plain text already matches."""
    syntax = obj.unparse(resolved=True)
    # A trailer's /ID is binary, made by the writer from a hash.
    if isinstance(obj, Dictionary) and Name.ID in obj and Name.Root in obj:
        syntax = syntax.replace(obj.ID.unparse(), b"")
    plain = syntax.replace(b"<<", b"").replace(b">>", b"")
    has_strings = b"(" in plain or b"<" in plain or b"#" in plain
    if not has_strings and not needles.found(syntax.decode("latin-1")):
        return
    for path, text in _texts(obj, ""):
        if any(needles.found(form) for form in text):
            raise Found(f"{where}{path}")


def _texts(obj: object, path: str) -> Iterator[tuple[str, list[str]]]:
    """(place, readings) of every string and name directly in `obj`."""
    if isinstance(obj, String):
        yield path, text_readings(bytes(obj))
    elif isinstance(obj, Name):
        if not is_syntax(str(obj)):
            yield path, name_readings(str(obj))
    elif isinstance(obj, Dictionary | Stream):
        if obj.is_indirect and path:
            return  # visited as its own object
        for key in obj.keys():
            if key == "/ID" and path == "":
                continue
            where = f"{path}, {key_name(key)}"
            if not is_syntax(key):
                yield where, name_readings(key)
            yield from _texts(obj.get(key), where)
    elif isinstance(obj, Array):
        if obj.is_indirect and path:
            return
        for item in obj:
            yield from _texts(item, path)


def _scan_stream(
    stream: Stream,
    needles: Needles,
    where: str,
    attached: bool,
    read_file: FileReader,
) -> None:
    keys = set(stream.stream_dict.keys())
    subtype = str(stream.stream_dict.get(Name.Subtype, ""))
    if subtype == "/Image":
        _scan_image(stream, needles, where)
        return
    if keys & _FONT_PROGRAM_KEYS or subtype in _FONT_PROGRAM_SUBTYPES:
        return
    data = _data(stream)
    if attached or str(stream.stream_dict.get(Name.Type, "")) == "/EmbeddedFile":
        read_file(data, f"an attached file ({where})")
        return
    if "/FunctionType" in keys and stream.stream_dict.get("/FunctionType") == 0:
        return  # sampled function: numbers
    if _is_cmap(stream, data):
        # Codes of a character map are read through its fonts; its comments
        # and strings are read here.
        texts = [t for c in comments(data) for t in text_readings(c)]
        if any(needles.found(text) for text in texts):
            raise Found(f"{where} (a character map)")
        return
    for reading in byte_readings(data):
        # XML (metadata) is judged on what it says, not on its markup.
        texts = xml_texts(reading) if looks_like_xml(reading) else unescaped(reading)
        if any(needles.found(text) for text in texts):
            raise Found(f"{where} (a stream)")


def _scan_image(stream: Stream, needles: Needles, where: str) -> None:
    """An image's own text: the metadata segments of a JPEG (EXIF, XMP,
    comments); its pixels are judged on the page."""
    filters = stream.stream_dict.get(Name.Filter)
    names = [str(f) for f in filters] if isinstance(filters, Array) else [str(filters)]
    if "/DCTDecode" not in names:
        return
    raw = stream.read_raw_bytes() if names == ["/DCTDecode"] else _data(stream)
    for segment in jpeg_segments(raw):
        if any(needles.found(text) for text in text_readings(segment)):
            raise Found(f"{where} (an image's metadata)")


def jpeg_segments(data: bytes) -> Iterator[bytes]:
    """The application and comment segments of a JPEG, up to its image data."""
    position = 2 if data[:2] == b"\xff\xd8" else 0
    while position + 4 <= len(data) and data[position] == 0xFF:
        marker = data[position + 1]
        if marker == 0xFF:
            position += 1
            continue
        if marker in (0xD8, 0x01) or 0xD0 <= marker <= 0xD7:
            position += 2
            continue
        length = int.from_bytes(data[position + 2 : position + 4], "big")
        if marker == 0xDA:  # start of scan: entropy-coded data follows
            return
        if 0xE0 <= marker <= 0xEF or marker == 0xFE:
            yield data[position + 4 : position + 2 + length]
        position += 2 + length


def _is_cmap(stream: Stream, data: bytes) -> bool:
    if str(stream.stream_dict.get(Name.Type, "")) == "/CMap":
        return True
    return b"begincmap" in data[:4096] and b"endcmap" in data


def _direct(value: object) -> bool:
    return isinstance(value, Dictionary | Array) and not value.is_indirect


def _data(stream: Stream) -> bytes:
    try:
        return stream.read_bytes()
    except pikepdf.PdfError:
        return stream.read_raw_bytes()


def _embedded_files(pdf: pikepdf.Pdf) -> set[ObjGen]:
    """Streams a file specification holds (/EF), typed or not."""
    found: set[ObjGen] = set()
    for obj in pdf.objects:
        if not isinstance(obj, Dictionary | Array):
            continue
        if b"/EF" not in obj.unparse(resolved=True):
            continue
        pending: list[object] = [obj]
        while pending:
            item = pending.pop()
            if isinstance(item, Dictionary):
                holder = item.get(Name.EF)
                if isinstance(holder, Dictionary):
                    found.update(
                        v.objgen
                        for v in holder.values()
                        if isinstance(v, Stream) and v.is_indirect
                    )
                pending.extend(v for v in item.values() if _direct(v))
            elif isinstance(item, Array):
                pending.extend(v for v in item if _direct(v))
    return found
