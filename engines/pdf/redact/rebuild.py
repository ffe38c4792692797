"""The written file rebuilt from what the allowlist keeps, every copy of a
removed word scrubbed from it.

Each object is reached from the pages (and the catalog, `catalog`) with a
kind (`allowlist`): it keeps only the entries its kind lists, and only what
those lead to is written (qpdf writes what the trailer reaches). Strings are
scrubbed on every reading (`strings`); an entry whose partial text would still
tell (alternate texts, scripts, addresses, rich text) goes instead, a form
value is cleared. Names the document chose (resource names, button states,
font names, spot colours) that name a removed word are renamed everywhere,
content streams included. Content streams lose alternate texts and comments
naming a word; JPEG images lose their metadata segments.
"""

from __future__ import annotations

from typing import Any

import pikepdf
import regex
from pikepdf import Array, Dictionary, Name, Stream, String

from engines.pdf.redact.allowlist import BINARY, KEEP, KINDS, MAP, kind_of
from engines.pdf.redact.images import strip_jpeg_metadata
from engines.pdf.redact.strings import name_text, names_word, scrubbed_string

_DELETED = frozenset(("/ActualText", "/Alt", "/E", "/JS", "/URI", "/RC", "/RV"))
_CLEARED = frozenset(("/V", "/DV"))
# Entries whose name values the document chose (a button state, a font name).
_NAMED = frozenset(("/AS", "/V", "/DV", "/BaseFont", "/FontName", "/Name"))
_CONTENT_KINDS = frozenset(("form", "tiling", "glyph"))
_BINARY_KEYS = frozenset(
    "/Length /Length1 /Length2 /Length3 /Filter /DecodeParms /Subtype /N "
    "/Alternate /Range /Type /CMapName /CIDSystemInfo /UseCMap /WMode".split()
)
# Marked-content operators: their tags and property lists are renamed or scrubbed.
_MARKS = frozenset(("BDC", "DP", "BMC", "MP"))
_RENAMED_OPERANDS = frozenset(("Tf", "Do", "gs", "cs", "CS", "sh", "scn", "SCN", "ri"))
_MAX_DEPTH = 48
# Fonts every reader has: renaming one changes the glyphs drawn; its name is
# the format's, not the document's text.
_STANDARD_FONTS = frozenset(
    "/Courier /Courier-Bold /Courier-Oblique /Courier-BoldOblique /Helvetica "
    "/Helvetica-Bold /Helvetica-Oblique /Helvetica-BoldOblique /Times-Roman "
    "/Times-Bold /Times-Italic /Times-BoldItalic /Symbol /ZapfDingbats".split()
)

ObjGen = tuple[int, int]


class Cleaner:
    """Cleans objects by kind, once each; see the module."""

    def __init__(self, pdf: pikepdf.Pdf, pattern: regex.Pattern[str] | None) -> None:
        self.pdf = pdf
        self.pattern = pattern
        self.renamed: dict[str, str] = {}
        self._done: set[tuple[ObjGen, str]] = set()
        self._contents: dict[ObjGen, Stream] = {}
        # Named destinations renamed (old → new), and the pages kept.
        self.destinations: dict[str, str] = {}
        self.pages: set[ObjGen] = set()
        # Copies of removed words rewritten: strings, names, content streams.
        self.strings = 0
        self.streams = 0

    def finish(self) -> None:
        """Rewrite the content streams met, now that every rename is known."""
        for stream in self._contents.values():
            self._rewrite(stream)

    # --- objects by kind -------------------------------------------------

    def clean(self, value: object, kind: str, depth: int = 0) -> object | None:
        """`value` cleaned as `kind`; None when it must go."""
        if depth > _MAX_DEPTH:
            return None
        if kind == KEEP:
            return self.plain(value)
        if kind.startswith(MAP):
            return self._map(value, kind[len(MAP) :], depth)
        if kind in ("contents", "annots", "cidfonts", "functions", "fields", "ocs"):
            return self._array(value, kind, depth)
        if kind == "states":
            if isinstance(value, Stream):
                return self.clean(value, "form", depth + 1)
            return self._map(value, "form", depth)
        if kind == "colorspace":
            return self._colorspace(value, depth)
        if kind == "dest":
            return self.destination(value)
        if not isinstance(value, Dictionary | Stream | Array):
            return self.plain(value)  # a name or a number where a dictionary may be
        if isinstance(value, Array):
            return None
        if kind == BINARY:
            return self._binary(value)
        concrete = kind_of(kind, value)
        if concrete is None:
            return None
        if value.is_indirect:
            key = (value.objgen, concrete)
            if key in self._done:
                return value
            self._done.add(key)
        self._entries(value, KINDS[concrete], depth)
        if isinstance(value, Stream):
            if concrete in _CONTENT_KINDS:
                self.content(value)
            elif concrete == "image":
                strip_jpeg_metadata(value)
        return value

    def _entries(
        self, obj: Dictionary | Stream, allowed: dict[str, str], depth: int
    ) -> None:
        for key in list(obj.keys()):
            if key in ("/Length", "/Filter", "/DecodeParms") and isinstance(
                obj, Stream
            ):
                if key == "/DecodeParms":
                    self._decode_parms(obj)
                continue
            kind = allowed.get(key)
            if kind is None:
                del obj[key]
                continue
            value = obj.get(key)
            if kind == KEEP and isinstance(value, Stream):
                del obj[key]  # a text or a script stored as a stream
                continue
            if kind == KEEP and isinstance(value, String):
                self._string(obj, key, value)
                continue
            if kind == KEEP and isinstance(value, Name) and key in _NAMED:
                obj[key] = self.name(value)
                continue
            cleaned = self.clean(value, kind, depth + 1)
            if cleaned is None:
                del obj[key]
            elif cleaned is not value:
                obj[key] = cleaned

    def _decode_parms(self, stream: Stream) -> None:
        parms = stream.get("/DecodeParms")
        for item in parms if isinstance(parms, Array) else [parms]:
            if isinstance(item, Dictionary):
                self._entries(item, KINDS["decodeparms"], 0)

    def _map(self, value: object, kind: str, depth: int) -> Dictionary | None:
        if not isinstance(value, Dictionary) or isinstance(value, Stream):
            return None
        for key in list(value.keys()):
            cleaned = self.clean(value.get(key), kind, depth + 1)
            new = self.name(Name(key))
            if cleaned is None or str(new) != key:
                del value[key]
            if cleaned is not None and str(new) != key:
                value[new] = cleaned
            elif cleaned is not None and cleaned is not value.get(key):
                value[key] = cleaned
        return value

    def _array(self, value: object, kind: str, depth: int) -> object | None:
        item_kind = {
            "contents": "content", "annots": "annot", "cidfonts": "cidfont",
            "functions": "function", "fields": "fieldnode", "ocs": "oc",
        }[kind]  # fmt: skip
        items = value if isinstance(value, Array) else [value]
        kept = []
        for item in items:
            cleaned = self._item(item, item_kind, depth + 1)
            if cleaned is not None:
                kept.append(cleaned)
        if not isinstance(value, Array):
            return kept[0] if kept else None
        if len(kept) != len(value):
            value[:] = kept
        return value

    def _item(self, item: object, kind: str, depth: int) -> object | None:
        if kind == "content":
            if not isinstance(item, Stream):
                return None
            self._binary(item)
            self.content(item)
            return item
        if kind == "fieldnode":
            if not isinstance(item, Dictionary):
                return None
            widget = item.get(Name.Subtype) == Name.Widget
            return self.clean(item, "widget" if widget else "field", depth)
        return self.clean(item, kind, depth)

    def _colorspace(self, value: object, depth: int) -> object | None:
        if isinstance(value, Name):
            return value
        if not isinstance(value, Array) or not len(value):
            return None
        for index, item in enumerate(list(value)):
            if isinstance(item, Name) and index:
                value[index] = self.name(item)  # a spot colour's name
            elif isinstance(item, Stream):
                self._binary(item)  # ICC profile, lookup table, tint function
            elif isinstance(item, Array):
                value[index] = self.plain(item)
            elif isinstance(item, String) and self.pattern is not None:
                pass  # an indexed colour table: bytes, not text
        return value

    def _binary(self, stream: Dictionary | Stream) -> Dictionary | Stream:
        if isinstance(stream, Stream):
            for key in list(stream.keys()):
                if key not in _BINARY_KEYS:
                    del stream[key]
        return stream

    def destination(self, value: object) -> object | None:
        """A destination: an array to a kept page, or a (renamed) name."""
        if isinstance(value, Array) and len(value):
            target = value[0]
            if isinstance(target, Dictionary) and target.is_indirect:
                return value if target.objgen in self.pages else None
            return None
        if isinstance(value, String | Name):
            text = str(value)[1:] if isinstance(value, Name) else str(value)
            new = self.destinations.get(text)
            return value if new is None else String(new)
        return None

    # --- strings, names, content -------------------------------------------

    def plain(self, value: object) -> object:
        """A kept value with its direct strings scrubbed (indirect objects it
        points at are cleaned where they are reached by kind)."""
        if self.pattern is None:
            return value
        if isinstance(value, String):
            new = scrubbed_string(value, self.pattern)
            if new is None:
                return value
            self.strings += 1
            return String(new)
        if isinstance(value, Array) and not value.is_indirect:
            for index, item in enumerate(list(value)):
                if isinstance(item, String | Array):
                    new_item = self.plain(item)
                    if new_item is not item:
                        value[index] = new_item
        return value

    def _string(self, obj: Dictionary | Stream, key: str, value: String) -> None:
        if self.pattern is None:
            return
        new = scrubbed_string(value, self.pattern)
        if new is None:
            return
        self.strings += 1
        if key in _DELETED:
            del obj[key]
        elif key in _CLEARED:
            obj[key] = String("")
        else:
            obj[key] = String(new)

    def name(self, name: Name) -> Name:
        """`name`, or its neutral stand-in when it names a removed word."""
        text = str(name)
        if text in _STANDARD_FONTS or self.pattern is None:
            return name
        if not names_word(name_text(text), self.pattern):
            return name
        new = self.renamed.get(text)
        if new is None:
            new = self.renamed[text] = f"/R{len(self.renamed) + 1}x"
        return Name(new)

    def content(self, stream: Stream) -> None:
        """Note a content stream, rewritten by `finish`."""
        if stream.is_indirect:
            self._contents[stream.objgen] = stream
        else:
            self._rewrite(stream)

    def _rewrite(self, stream: Stream) -> None:
        """Rewrite a content stream whose bytes name a word (alternate texts,
        comments, names): its shown text stays (areas were redacted before)."""
        if self.pattern is None:
            return
        try:
            data = stream.read_bytes()
        except pikepdf.PdfError:
            return
        renamed = any(
            old[1:].encode("latin-1", "replace") in data for old in self.renamed
        )
        if not renamed and not names_word(data.decode("latin-1"), self.pattern):
            return
        try:
            operations = pikepdf.parse_content_stream(stream)
        except pikepdf.PdfError:
            return
        rewritten = [self._operation(op) for op in operations]
        stream.write(pikepdf.unparse_content_stream(rewritten))
        self.streams += 1

    def _operation(self, instruction: Any) -> Any:
        operator = str(getattr(instruction, "operator", ""))
        if operator not in _MARKS and operator not in _RENAMED_OPERANDS:
            return instruction  # nothing to rename: kept as parsed
        operands = list(getattr(instruction, "operands", []))
        if operator in _MARKS:
            operands = [self._property(o) for o in operands]
        elif operator in _RENAMED_OPERANDS:
            operands = [self.name(o) if isinstance(o, Name) else o for o in operands]
        return pikepdf.ContentStreamInstruction(operands, pikepdf.Operator(operator))

    def _property(self, operand: object) -> object:
        if isinstance(operand, Name):
            return self.name(operand)
        if isinstance(operand, Dictionary) and self.pattern is not None:
            for key in list(operand.keys()):
                value = operand.get(key)
                if (
                    isinstance(value, String)
                    and scrubbed_string(value, self.pattern) is not None
                ):
                    del operand[key]
                    self.strings += 1
        return operand
