"""The document-level parts of a redacted output, rebuilt: catalog, page tree,
information dictionary, XMP, outline, named destinations, page labels, layers.

The new catalog keeps only what is listed here; everything else the source
catalog held (scripts, open actions other than a destination, attachments,
XFA forms, threads, structure trees and their marks, piece info, output
intents, collections, requirements, permissions...) is not written.
"""

from __future__ import annotations

from html import escape
from typing import Any

import pikepdf
from pikepdf import Array, Dictionary, Name, String

from engines.pdf.redact.rebuild import Cleaner

_INFO = ("/Title", "/Author", "/Subject", "/Keywords", "/Creator", "/Producer")
_DATES = ("/CreationDate", "/ModDate")
_VIEWER = frozenset(
    "/HideToolbar /HideMenubar /HideWindowUI /FitWindow /CenterWindow "
    "/DisplayDocTitle /NonFullScreenPageMode /Direction /PrintScaling /Duplex "
    "/PickTrayByPDFSize /NumCopies".split()
)
_PAGE_MODES = frozenset(
    ("/UseNone", "/UseOutlines", "/UseThumbs", "/FullScreen", "/UseOC")
)
_INHERITED = ("/Resources", "/MediaBox", "/CropBox", "/Rotate")
_MAX_ITEMS = 100_000  # an outline that loops ends here


def rebuild_catalog(pdf: pikepdf.Pdf, cleaner: Cleaner) -> Dictionary:
    """A new catalog for `pdf` (set as its root), with a flat page tree of the
    cleaned pages; returns it. Destinations point at kept pages only."""
    old = pdf.Root
    assert isinstance(old, Dictionary)
    pages = [page.obj for page in pdf.pages]
    for page in pages:
        _push_inherited(page)
    tree = pdf.make_indirect(
        Dictionary(Type=Name.Pages, Kids=Array(pages), Count=len(pages))
    )
    kept = {page.objgen for page in pages}
    cleaner.pages = kept
    root = Dictionary(Type=Name.Catalog, Pages=tree)
    dests = _named_destinations(pdf, old, cleaner, kept)
    if dests:
        root.Names = Dictionary(Dests=Dictionary(Names=dests))
    for page in pages:
        page.Parent = tree
        cleaner.clean(page, "page")
    outline = _outline(pdf, old.get(Name.Outlines), cleaner, kept)
    if outline is not None:
        root.Outlines = outline
    labels = _page_labels(old.get("/PageLabels"), cleaner)
    if labels is not None:
        root.PageLabels = labels
    form = old.get(Name.AcroForm)
    if isinstance(form, Dictionary):
        root.AcroForm = cleaner.clean(form, "acroform")
    layers = _layers(old.get("/OCProperties"), cleaner)
    if layers is not None:
        root.OCProperties = layers
    _copy_settings(old, root, cleaner)
    opening = _destination(old.get("/OpenAction"), kept)
    if opening is not None:
        root.OpenAction = opening
    pdf.trailer.Root = pdf.make_indirect(root)
    return root


def _push_inherited(page: Dictionary) -> None:
    holder = page.get(Name.Parent)
    for _ in range(64):
        if not isinstance(holder, Dictionary):
            return
        for key in _INHERITED:
            if key not in page and key in holder:
                page[Name(key)] = holder[Name(key)]
        holder = holder.get(Name.Parent)


def _copy_settings(old: Dictionary, root: Dictionary, cleaner: Cleaner) -> None:
    for key in ("/PageLayout", "/Version"):
        if isinstance(old.get(key), Name):
            root[Name(key)] = old[Name(key)]
    if old.get("/PageMode") in [Name(m) for m in _PAGE_MODES]:
        root.PageMode = old.PageMode
    if isinstance(old.get("/Lang"), String):
        root.Lang = cleaner.plain(old.Lang)
    viewer = old.get("/ViewerPreferences")
    if isinstance(viewer, Dictionary):
        root.ViewerPreferences = Dictionary(
            {
                k: v
                for k, v in viewer.items()
                if k in _VIEWER and not isinstance(v, String)
            }
        )


def _destination(value: object, kept: set[tuple[int, int]]) -> Any:
    """A destination (array to a kept page, or a name/string), or a GoTo
    action to one; anything else is dropped."""
    if isinstance(value, Dictionary) and value.get(Name.S) == Name.GoTo:
        value = value.get(Name.D)
    if isinstance(value, Array) and len(value):
        target = value[0]
        if (
            isinstance(target, Dictionary)
            and target.is_indirect
            and target.objgen in kept
        ):
            return Array(
                [target, *[v for v in list(value)[1:] if not isinstance(v, String)]]
            )
        if isinstance(target, int):  # a page number (remote destinations)
            return None
        return None
    if isinstance(value, String | Name):
        return value
    return None


def _named_destinations(
    pdf: pikepdf.Pdf, old: Dictionary, cleaner: Cleaner, kept: set[tuple[int, int]]
) -> Array:
    """The name tree of destinations, flattened; names naming a removed word
    are renamed, and so are the links, outline items and actions using them."""
    entries: dict[str, object] = {}
    names = old.get(Name.Names)
    tree = names.get(Name.Dests) if isinstance(names, Dictionary) else None
    for key, value in _name_tree(tree):
        entries.setdefault(key, value)
    legacy = old.get(Name.Dests)
    if isinstance(legacy, Dictionary):
        for key, value in legacy.items():
            entries.setdefault(key[1:], value)
    flat = Array()
    renamed: dict[str, str] = {}
    for key in sorted(entries):
        target = entries[key]
        if isinstance(target, Dictionary) and Name.D in target:
            target = target.D
        dest = _destination(target, kept)
        if dest is None:
            continue
        new = key
        if cleaner.pattern is not None and cleaner.plain(String(key)) != String(key):
            new = renamed.setdefault(key, f"destination-{len(renamed) + 1}")
        flat.extend([String(new), dest])
    cleaner.destinations = renamed
    return flat


def _name_tree(node: object, depth: int = 0) -> list[tuple[str, object]]:
    if not isinstance(node, Dictionary) or depth > 32:
        return []
    found: list[tuple[str, object]] = []
    names = node.get(Name.Names)
    if isinstance(names, Array):
        items = list(names)
        for key, value in zip(items[::2], items[1::2], strict=False):
            if isinstance(key, String):
                found.append((str(key), value))
    kids = node.get(Name.Kids)
    for kid in kids if isinstance(kids, Array) else []:
        found += _name_tree(kid, depth + 1)
    return found


def _outline(
    pdf: pikepdf.Pdf, root: object, cleaner: Cleaner, kept: set[tuple[int, int]]
) -> Dictionary | None:
    """A new outline: titles scrubbed, each item's destination (or GoTo) kept."""
    if not isinstance(root, Dictionary):
        return None
    budget = [_MAX_ITEMS]
    seen: set[tuple[int, int]] = set()
    new_root = pdf.make_indirect(Dictionary(Type=Name.Outlines))
    count = _children(pdf, root, new_root, cleaner, kept, budget, seen)
    if not count:
        return None
    new_root.Count = count
    return new_root


def _children(
    pdf: pikepdf.Pdf,
    old: Dictionary,
    parent: Dictionary,
    cleaner: Cleaner,
    kept: set[tuple[int, int]],
    budget: list[int],
    seen: set[tuple[int, int]],
) -> int:
    items: list[Dictionary] = []
    item = old.get(Name.First)
    while isinstance(item, Dictionary) and budget[0] > 0:
        if item.is_indirect:
            if item.objgen in seen:
                break
            seen.add(item.objgen)
        budget[0] -= 1
        title = item.get(Name.Title)
        new = pdf.make_indirect(
            Dictionary(
                Title=cleaner.plain(title) if isinstance(title, String) else String(""),
                Parent=parent,
            )
        )
        dest = _destination(item.get(Name.Dest) or item.get(Name.A), kept)
        if dest is not None:
            new.Dest = cleaner.destination(dest)
        for key in ("/C", "/F"):
            if key in item and not isinstance(item[key], String | Dictionary):
                new[Name(key)] = item[Name(key)]
        open_count = _children(pdf, item, new, cleaner, kept, budget, seen)
        if open_count:
            old_count = item.get(Name.Count)
            closed = isinstance(old_count, int) and old_count < 0
            new.Count = -open_count if closed else open_count
        items.append(new)
        item = item.get(Name.Next)
    for before, after in zip(items, items[1:], strict=False):
        before.Next, after.Prev = after, before
    if items:
        parent.First, parent.Last = items[0], items[-1]
    return len(items)


def _page_labels(labels: object, cleaner: Cleaner) -> Dictionary | None:
    nums: list[object] = []
    for key, value in _number_tree(labels):
        if not isinstance(value, Dictionary):
            continue
        label = Dictionary()
        for entry in ("/S", "/St"):
            if entry in value and not isinstance(value[entry], String):
                label[Name(entry)] = value[Name(entry)]
        if isinstance(value.get("/P"), String):
            label.P = cleaner.plain(value.P)
        nums += [key, label]
    return Dictionary(Nums=Array(nums)) if nums else None


def _number_tree(node: object, depth: int = 0) -> list[tuple[int, object]]:
    if not isinstance(node, Dictionary) or depth > 32:
        return []
    found: list[tuple[int, object]] = []
    nums = node.get("/Nums")
    if isinstance(nums, Array):
        items = list(nums)
        for key, value in zip(items[::2], items[1::2], strict=False):
            if isinstance(key, int):
                found.append((key, value))
    kids = node.get(Name.Kids)
    for kid in kids if isinstance(kids, Array) else []:
        found += _number_tree(kid, depth + 1)
    return found


def _layers(properties: object, cleaner: Cleaner) -> Dictionary | None:
    """Layers (optional content): their names scrubbed, the default
    configuration's visibility kept."""
    if not isinstance(properties, Dictionary):
        return None
    groups = properties.get("/OCGs")
    if not isinstance(groups, Array):
        return None
    kept = [cleaner.clean(group, "oc") for group in groups]
    layers = Dictionary(OCGs=Array([g for g in kept if g is not None]))
    default = properties.get("/D")
    config = Dictionary()
    if isinstance(default, Dictionary):
        for key in ("/ON", "/OFF", "/Order", "/RBGroups", "/Locked"):
            if isinstance(default.get(key), Array):
                config[Name(key)] = default[Name(key)]
        for key in ("/BaseState", "/ListMode", "/Intent"):
            if isinstance(default.get(key), Name):
                config[Name(key)] = default[Name(key)]
    layers.D = config
    return layers


def rebuild_info(pdf: pikepdf.Pdf, cleaner: Cleaner) -> None:
    """A new information dictionary (its standard entries, scrubbed) and the
    XMP made from it; every other metadata stream is dropped."""
    old = pdf.trailer.get(Name.Info)
    info = Dictionary()
    if isinstance(old, Dictionary):
        for key in _INFO:
            value = old.get(key)
            if isinstance(value, String):
                info[Name(key)] = cleaner.plain(value)
        for key in _DATES:  # a date with a removed number in it goes whole
            value = old.get(key)
            if isinstance(value, String) and cleaner.plain(value) == value:
                info[Name(key)] = value
        if isinstance(old.get("/Trapped"), Name):
            info.Trapped = old.Trapped
    for key in list(pdf.trailer.keys()):
        if key not in ("/Root", "/Size"):
            del pdf.trailer[key]
    if len(info):
        pdf.trailer.Info = pdf.make_indirect(info)
    metadata = pdf.make_stream(_xmp(info))
    metadata.Type, metadata.Subtype = Name.Metadata, Name.XML
    pdf.Root.Metadata = metadata


def _xmp(info: Dictionary) -> bytes:
    def text(key: str) -> str:
        value = info.get(key)
        return escape(str(value), quote=True) if isinstance(value, String) else ""

    fields = [
        f'<dc:title><rdf:Alt><rdf:li xml:lang="x-default">{text("/Title")}</rdf:li>'
        "</rdf:Alt></dc:title>" if text("/Title") else "",
        f"<dc:creator><rdf:Seq><rdf:li>{text('/Author')}</rdf:li></rdf:Seq></dc:creator>"
        if text("/Author") else "",
        f'<dc:description><rdf:Alt><rdf:li xml:lang="x-default">{text("/Subject")}'
        "</rdf:li></rdf:Alt></dc:description>" if text("/Subject") else "",
        f"<pdf:Keywords>{text('/Keywords')}</pdf:Keywords>" if text("/Keywords") else "",
        f"<pdf:Producer>{text('/Producer')}</pdf:Producer>" if text("/Producer") else "",
        f"<xmp:CreatorTool>{text('/Creator')}</xmp:CreatorTool>" if text("/Creator") else "",
    ]  # fmt: skip
    return (
        '<?xpacket begin="\ufeff" id="W5M0MpCehiHzreSzNTczkc9d"?>'
        '<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF '
        'xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">'
        '<rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/" '
        'xmlns:pdf="http://ns.adobe.com/pdf/1.3/" xmlns:xmp="http://ns.adobe.com/xap/1.0/">'
        + "".join(fields)
        + '</rdf:Description></rdf:RDF></x:xmpmeta><?xpacket end="w"?>'
    ).encode("utf-8")
