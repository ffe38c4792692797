"""Text drawn indirectly by a redacted page: inside tiling patterns and soft masks.

MuPDF's redaction filters the page's content and the forms it draws, but not the
cell of a tiling pattern (repeated wherever the pattern paints, so any area may
meet a copy of its text) nor the group of a soft mask (drawn where the state
that holds it is set). Where such text lands cannot be told without running the
page, so it is removed whole when in doubt: every tiling pattern and soft-mask
group a redacted page draws loses its text.

Copy on write: the pattern, group, graphics state and resource dictionaries on
the way are copied for the redacted page, so other pages that share them keep
their own drawing.
"""

from __future__ import annotations

import pikepdf
from pikepdf import Dictionary, Name, Stream

_RESOURCES = Name("/Resources")
_PATTERN, _EXTGSTATE, _XOBJECT = Name("/Pattern"), Name("/ExtGState"), Name("/XObject")
_SMASK, _GROUP = Name("/SMask"), Name("/G")
_SUBTYPE, _FORM = Name("/Subtype"), Name("/Form")
_SHOWING = frozenset({"Tj", "TJ", "'", '"'})
# Entries a copied stream must not inherit: the new data sets its own.
_ENCODING = frozenset({"/Length", "/Filter", "/DecodeParms"})
_MAX_DEPTH = 12  # resources nest through forms and patterns; loops end here


def strip_indirect_text(pdf: pikepdf.Pdf, page: Dictionary) -> None:
    """Remove the text of the tiling patterns and soft-mask groups `page` draws
    (through forms too), on copies owned by the page."""
    resources = page.get(_RESOURCES)
    if isinstance(resources, Dictionary):
        owned = _owned_resources(pdf, resources, 0)
        if owned is not None:
            page[_RESOURCES] = owned


def _owned_resources(
    pdf: pikepdf.Pdf, resources: Dictionary, depth: int
) -> Dictionary | None:
    """A copy of `resources` whose patterns and soft masks draw no text; None
    when nothing in them does."""
    if depth > _MAX_DEPTH:
        return None
    replaced: dict[Name, Dictionary] = {}
    for category in (_PATTERN, _EXTGSTATE, _XOBJECT):
        entries = resources.get(category)
        if not isinstance(entries, Dictionary):
            continue
        new = {}
        for name, item in entries.items():
            replacement = _owned(pdf, category, item, depth)
            if replacement is not None:
                new[name] = replacement
        if new:
            copy = _copy(entries)
            for name, replacement in new.items():
                copy[Name(name)] = replacement
            replaced[category] = copy
    if not replaced:
        return None
    copy = _copy(resources)
    for category, entries in replaced.items():
        copy[category] = entries
    return copy


def _owned(
    pdf: pikepdf.Pdf, category: Name, item: object, depth: int
) -> Dictionary | Stream | None:
    if category == _PATTERN:
        if isinstance(item, Stream) and item.get(Name("/PatternType")) == 1:
            return _without_text(pdf, item, depth, strip=True)
        return None
    if category == _EXTGSTATE:
        if not isinstance(item, Dictionary):
            return None
        mask = item.get(_SMASK)
        source = mask.get(_GROUP) if isinstance(mask, Dictionary) else None
        if not isinstance(mask, Dictionary) or not isinstance(source, Stream):
            return None
        group = _without_text(pdf, source, depth, strip=True)
        if group is None:
            return None
        owned_mask = _copy(mask)
        owned_mask[_GROUP] = group
        state = _copy(item)
        state[_SMASK] = owned_mask
        return state
    if isinstance(item, Stream) and item.get(_SUBTYPE) == _FORM:
        # MuPDF filtered the form's own text by area; only what it draws
        # indirectly is left to do here.
        return _without_text(pdf, item, depth, strip=False)
    return None


def _copy(dictionary: Dictionary) -> Dictionary:
    """A shallow, direct copy: its entries are the same objects."""
    return Dictionary({key: value for key, value in dictionary.items()})


def _without_text(
    pdf: pikepdf.Pdf, stream: Stream, depth: int, *, strip: bool
) -> Stream | None:
    """A copy of the content stream without its text (when `strip`) and with
    owned resources; None when it would not differ."""
    data = None
    if strip:
        try:
            operations = pikepdf.parse_content_stream(stream)
        except pikepdf.PdfError:
            operations = []  # unreadable: drawn as nothing from now on
            data = b""
        kept = [op for op in operations if str(op.operator) not in _SHOWING]
        if len(kept) != len(operations):
            data = pikepdf.unparse_content_stream(kept)
    resources = stream.get(_RESOURCES)
    owned = (
        _owned_resources(pdf, resources, depth + 1)
        if isinstance(resources, Dictionary)
        else None
    )
    if data is None and owned is None:
        return None
    copy = pdf.make_stream(data if data is not None else stream.read_bytes())
    for key, value in stream.stream_dict.items():
        if key not in _ENCODING:
            copy[Name(key)] = value
    if owned is not None:
        copy[_RESOURCES] = owned
    return copy
