"""Optional content (layers) of the sources, carried into the output.

The pages' content marks what belongs to a layer, but whether a layer shows is
said once, in the catalog's /OCProperties: without it every viewer shows every
layer, and content its author hid (drafts, notes, alternate language versions)
becomes visible. Each source's configuration is copied; with several sources,
their layer lists and on/off states are merged into the first one's.
"""

from __future__ import annotations

from collections.abc import Iterable

import pikepdf
from pikepdf import Array, Dictionary, Name

from engines.pdf.assemble.sources import Source

_OCPROPERTIES, _OCGS, _D = Name("/OCProperties"), Name("/OCGs"), Name("/D")
# Arrays of the default configuration that list layers, merged across sources.
_LISTS = tuple(Name(n) for n in ("/ON", "/OFF", "/Order", "/Locked", "/RBGroups"))


def carry_layers(out: pikepdf.Pdf, sources: Iterable[Source]) -> None:
    """Give `out` the optional-content configuration of its sources."""
    merged: Dictionary | None = None
    for source in sources:
        properties = source.pdf.Root.get(_OCPROPERTIES)
        if not isinstance(properties, Dictionary):
            continue
        # qpdf maps the layers the copied pages already use to their copies;
        # it copies indirect objects only (the source is not saved).
        if not properties.is_indirect:
            properties = source.pdf.make_indirect(properties)
        copy = out.copy_foreign(properties)
        if not isinstance(copy, Dictionary):
            continue
        if merged is None:
            merged = copy
            continue
        _merge(merged, copy)
    if merged is not None:
        out.Root[_OCPROPERTIES] = merged


def _merge(into: Dictionary, other: Dictionary) -> None:
    _append(into, other, _OCGS)
    config, extra = into.get(_D), other.get(_D)
    if isinstance(config, Dictionary) and isinstance(extra, Dictionary):
        for key in _LISTS:
            _append(config, extra, key)


def _append(into: Dictionary, other: Dictionary, key: Name) -> None:
    more = other.get(key)
    if not isinstance(more, Array):
        return
    current = into.get(key)
    if not isinstance(current, Array):
        into[key] = Array(list(more))
        return
    known = {item.objgen for item in current if isinstance(item, Dictionary)}
    for item in more:
        if not (isinstance(item, Dictionary) and item.objgen in known):
            current.append(item)
