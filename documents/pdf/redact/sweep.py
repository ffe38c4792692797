"""The sweep: every copy of a removed word in the written file, gone.

Runs with pikepdf (qpdf) on the file MuPDF wrote, after redaction: it sees every
object the file holds, whatever MuPDF parses or lists. Each string of the
document that contains a removed word is rewritten without it, or its entry
removed where a partial text would still tell (alternate texts, scripts, URIs,
rich text, form values); metadata streams are scrubbed, attachments naming the
word are emptied, and redacted pages lose their thumbnails, private application
data, page metadata and associated files (pictures and copies of the page as it
was).

Pages are counted from 0.
"""

from __future__ import annotations

import html
from collections.abc import Iterable, Iterator

import pikepdf
import regex
from pikepdf import Array, Dictionary, Name, Stream, String

from documents.pdf.redact.forms import settle_forms
from documents.pdf.redact.indirect import strip_indirect_text
from documents.pdf.redact.marked_content import scrub_stream, syntax_names_word
from documents.pdf.redact.words import Removed, scrub_text, words_pattern

# Page entries that keep a picture or a copy of the page as it was.
_PAGE_COPIES = tuple(
    Name(n) for n in ("/Thumb", "/PieceInfo", "/Metadata", "/AF", "/PresSteps")
)
_FORM_COPIES = tuple(Name(n) for n in ("/PieceInfo", "/Metadata", "/AF", "/OPI"))
# Entries deleted, not rewritten, when they contain a removed word: a reader
# falls back to the text beside them, and what is left of a script, an address,
# rich text or a form value still says something about what was redacted.
_DELETED = frozenset(
    Name(n) for n in ("/ActualText", "/Alt", "/E", "/JS", "/URI", "/RC", "/RV")
)
_CLEARED = frozenset(Name(n) for n in ("/V", "/DV"))
_SKIPPED = frozenset(Name(n) for n in ("/ID", "/O", "/U", "/OE", "/UE", "/Perms"))
_OPT, _NAMES = Name("/Opt"), Name("/Names")
_TYPE, _SUBTYPE = Name("/Type"), Name("/Subtype")
_METADATA, _XML = Name("/Metadata"), Name("/XML")
_EMBEDDED_FILE, _FORM = Name("/EmbeddedFile"), Name("/Form")
_XOBJECT = Name("/XObject")
_RESOURCES = Name("/Resources")


def sweep(
    pdf: pikepdf.Pdf, removed: Iterable[Removed | str], redacted_pages: Iterable[int]
) -> None:
    """Scrub the removed words from the whole of `pdf` (see the module)."""
    pages = list(pdf.pages)
    for number in sorted(set(redacted_pages)):
        _drop_page_copies(pages[number].obj)
        strip_indirect_text(pdf, pages[number].obj)
    pattern = words_pattern(removed)
    if pattern is None:
        return
    for obj in [pdf.trailer, *pdf.objects]:
        if isinstance(obj, Stream):
            _sweep_stream(obj, pattern)
        if isinstance(obj, Dictionary | Array | Stream) and names_word(obj, pattern):
            for container in _containers(obj):
                _sweep_container(container, pattern)
    settle_forms(pdf, pages, pattern)
    _rename_named_destinations(pdf, pattern)


def names_word(obj: Dictionary | Array | Stream, pattern: regex.Pattern[str]) -> bool:
    """Whether a string of the object (direct parts included) names a word.

    Read from the object's PDF syntax, which qpdf writes in one call: walking
    every object key by key from Python costs a hundred times more.
    """
    syntax = (obj.stream_dict if isinstance(obj, Stream) else obj).unparse(
        resolved=True
    )
    return syntax_names_word(syntax, pattern)


def _containers(
    obj: Dictionary | Array | Stream,
) -> Iterator[Dictionary | Array | Stream]:
    """The object and its direct dictionaries and arrays, nested ones included."""
    pending: list[object] = [obj]
    while pending:
        item = pending.pop()
        if not isinstance(item, Dictionary | Array | Stream):
            continue
        yield item
        values = item.values() if isinstance(item, Dictionary | Stream) else item
        pending.extend(
            v
            for v in values
            if isinstance(v, Dictionary | Array | Stream) and not v.is_indirect
        )


def _drop_page_copies(page: Dictionary) -> None:
    for key in _PAGE_COPIES:
        if key in page:
            del page[key]
    for form in _forms_of(page):
        for key in _FORM_COPIES:
            if key in form:
                del form[key]


def _forms_of(page: Dictionary) -> Iterator[Stream]:
    """The form XObjects the page draws, nested ones included."""
    pending = [page.get(_RESOURCES)]
    seen: set[tuple[int, int]] = set()
    while pending:
        resources = pending.pop()
        if not isinstance(resources, Dictionary):
            continue
        xobjects = resources.get(_XOBJECT)
        if not isinstance(xobjects, Dictionary):
            continue
        for xobject in xobjects.values():
            if not isinstance(xobject, Stream) or xobject.get(_SUBTYPE) != _FORM:
                continue
            if xobject.is_indirect:
                if xobject.objgen in seen:
                    continue
                seen.add(xobject.objgen)
            yield xobject
            pending.append(xobject.get(_RESOURCES))


def _sweep_container(
    obj: Dictionary | Array | Stream, pattern: regex.Pattern[str]
) -> None:
    if isinstance(obj, Array):
        for index, value in enumerate(list(obj)):
            if (
                isinstance(value, String)
                and (new := _scrubbed(value, pattern)) is not None
            ):
                obj[index] = String(new)
        return
    for key in list(obj.keys()):
        name = Name(key)
        if name in _SKIPPED:
            continue
        value = obj[name]
        if name == _OPT and isinstance(value, Array):
            _sweep_options(value, pattern)
        elif isinstance(value, String):
            new = _scrubbed(value, pattern)
            if new is None:
                continue
            if name in _DELETED:
                del obj[name]
            elif name in _CLEARED:
                obj[name] = String("")
            else:
                obj[name] = String(new)
        elif name == Name("/JS") and isinstance(value, Stream):
            if pattern.search(_read(value)):
                del obj[name]


def _sweep_options(options: Array, pattern: regex.Pattern[str]) -> None:
    """Choice options naming a word go (export value and shown text alike)."""
    kept = [
        option
        for option in options
        if not any(
            isinstance(text, String) and _scrubbed(text, pattern) is not None
            for text in (option if isinstance(option, Array) else [option])
        )
    ]
    if len(kept) != len(options):
        options[:] = kept


def _sweep_stream(stream: Stream, pattern: regex.Pattern[str]) -> None:
    # The keys are read once: each lookup through pikepdf costs microseconds,
    # and every stream of the file passes here.
    keys = set(stream.stream_dict.keys())
    kind = stream.stream_dict.get(_TYPE) if "/Type" in keys else None
    subtype = stream.stream_dict.get(_SUBTYPE) if "/Subtype" in keys else None
    if kind == _METADATA or subtype == _XML:
        text = _read(stream)
        scrubbed = scrub_xmp(text, pattern)
        if scrubbed != text:
            stream.write(scrubbed.encode("utf-8"))
    elif kind == _EMBEDDED_FILE:
        # The file itself cannot be edited without knowing its format: a file
        # naming the word is emptied.
        if pattern.search(_read(stream)):
            stream.write(b"")
            for key in ("/Params", "/Subtype"):
                if key in keys:
                    del stream[key]
    elif _is_content(keys, subtype):
        data = _bytes(stream)
        if data is None:
            return
        scrubbed_data = scrub_stream(data, pattern)
        if scrubbed_data is not None:
            stream.write(scrubbed_data)


# Entries of the streams that are not content: fonts, functions, colour
# profiles, images.
_NOT_CONTENT = frozenset(
    ("/Length1", "/Length2", "/Length3", "/FunctionType", "/N", "/Width")
)


def _is_content(keys: set[str], subtype: object) -> bool:
    """A content stream: a page's, a form's, a pattern's or a glyph's (fonts,
    images, colour profiles and functions are not looked into)."""
    if subtype == _FORM or "/PatternType" in keys:
        return True
    return "/Type" not in keys and "/Subtype" not in keys and not keys & _NOT_CONTENT


def _bytes(stream: Stream) -> bytes | None:
    try:
        return stream.read_bytes()
    except pikepdf.PdfError:  # a filter qpdf cannot decode: nothing to read
        return None


def _read(stream: Stream) -> str:
    data = _bytes(stream) or b""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("latin-1")


def _scrubbed(value: String, pattern: regex.Pattern[str]) -> str | None:
    return scrub_text(str(value), pattern)


def scrub_xmp(xml: str, pattern: regex.Pattern[str]) -> str:
    """XMP with the words removed from its text nodes and attribute values."""

    def text_node(match: regex.Match[str]) -> str:
        new = scrub_text(html.unescape(match[1]), pattern)
        return match[0] if new is None else f">{html.escape(new, quote=False)}<"

    def attribute(match: regex.Match[str]) -> str:
        new = scrub_text(html.unescape(match[3]), pattern)
        if new is None:
            return match[0]
        return f"{match[1]}{match[2]}{html.escape(new)}{match[2]}"

    scrubbed = regex.sub(r">([^<]+)<", text_node, xml)
    return regex.sub(r"""(\s[\w:.-]+\s*=\s*)(["'])(.*?)\2""", attribute, scrubbed)


_DESTS, _DEST, _D = Name("/Dests"), Name("/Dest"), Name("/D")


def _rename_named_destinations(pdf: pikepdf.Pdf, pattern: regex.Pattern[str]) -> None:
    """Destinations named by PDF names (the catalog's /Dests, PDF 1.1) that
    contain a word get neutral names, and every /Dest or /D naming them follows.
    Strings are scrubbed like any other; names are not strings."""
    dests = pdf.Root.get(_DESTS)
    if not isinstance(dests, Dictionary):
        return
    renamed: dict[str, Name] = {}
    for key in [str(k) for k in dests.keys()]:
        if scrub_text(key[1:], pattern) is not None:
            renamed[key] = Name(f"/Destination{len(renamed) + 1}")
            dests[renamed[key]] = dests[Name(key)]
            del dests[Name(key)]
    if not renamed:
        return
    for obj in pdf.objects:
        if not isinstance(obj, Dictionary):
            continue
        for holder in (obj, obj.get(Name("/A"))):
            if not isinstance(holder, Dictionary):
                continue
            for entry in (_DEST, _D):
                value = holder.get(entry)
                if isinstance(value, Name) and str(value) in renamed:
                    holder[entry] = renamed[str(value)]
