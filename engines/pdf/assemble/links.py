"""Link targets in the output: links kept only when their page was copied, named
destinations made explicit (the output carries no name tree)."""

from __future__ import annotations

from collections.abc import Sequence

import pikepdf
from pikepdf import Array, Dictionary, Name, String

from engines.pdf.assemble.names import (
    ANNOTS,
    DEST,
    DESTS,
    GOTO,
    LINK,
    NAMES,
    SUBTYPE,
    A,
    D,
    S,
)
from engines.pdf.assemble.sources import Source, Take


def settle_links(copied: Sequence[pikepdf.Page], takes: Sequence[Take]) -> None:
    """Drop links whose target page is not in the output; make named ones explicit."""
    for take, page in zip(takes, copied, strict=True):
        annots = page.obj.get(ANNOTS)
        if not isinstance(annots, Array):
            continue
        kept = [
            a
            for a in annots
            if not isinstance(a, Dictionary)
            or a.get(SUBTYPE) != LINK
            or _settle_link(a, take.source)
        ]
        if len(kept) != len(annots):
            page.obj.Annots = Array(kept)


def _settle_link(annot: Dictionary, source: Source) -> bool:
    """Whether to keep this link annotation (rewriting a named target)."""
    # Runs once per link (9,000 in a manual): the pikepdf calls are kept few.
    holder, key = annot, DEST
    dest = annot.get(DEST)
    if dest is None:
        action = annot.get(A)
        if not isinstance(action, Dictionary) or action.get(S) != GOTO:
            return True  # URI, remote and other actions do not point into this file
        holder, key = action, D
        dest = action.get(D)
    if isinstance(dest, Array):
        # qpdf already pointed explicit targets at the copies; a target page
        # that was not copied became null.
        return len(dest) > 0 and isinstance(dest[0], (Dictionary, int))
    if not isinstance(dest, (String, Name)):
        return False
    explicit = named_destination(source, dest)
    if explicit is None:
        return False
    # One array shared by every link to that name: nothing edits it afterwards,
    # and the writer spells it out at each place.
    holder[key] = explicit
    return True


def named_destination(source: Source, name: String | Name) -> Array | None:
    """The output destination a named one of `source` stands for, if in the output.

    A name (`/Foo`) is looked up in the catalog's /Dests, a string in the
    /Names /Dests name tree (PDF 32000 12.3.2.3).
    """
    key = (isinstance(name, Name), str(name))
    if key in source.named:
        return source.named[key]
    value: object = None
    try:
        if isinstance(name, Name):
            dests = source.pdf.Root.get(DESTS)
            if isinstance(dests, Dictionary):
                value = dests.get(name)
        else:
            value = _strings(source).get(key[1])
    except (pikepdf.PdfError, ValueError):
        value = None
    if isinstance(value, Dictionary):
        value = value.get(D)
    found = into_output(source, value)
    source.named[key] = found
    return found


def into_output(source: Source, value: object) -> Array | None:
    """An explicit destination of `source` pointed at the output, if there."""
    if not isinstance(value, Array) or len(value) == 0:
        return None
    target = value[0]
    page = None
    if isinstance(target, Dictionary):
        page = source.by_objgen.get(target.objgen)
    elif isinstance(target, int):  # a page number, from sloppy producers
        page = source.by_index.get(target)
    if page is None:
        return None
    return Array([page, *(_direct(v) for v in list(value)[1:])])


def _direct(value: object) -> object:
    # View parameters are numbers, names or null, normally direct, and then
    # move between files as they are; an indirect one (rare) is left out.
    if isinstance(value, pikepdf.Object) and value.is_indirect:
        return None
    return value


def _strings(source: Source) -> dict[str | bytes, object]:
    # Read whole: one pass over the tree costs less than a few hundred lookups.
    if source.strings is None:
        names = source.pdf.Root.get(NAMES)
        tree = names.get(DESTS) if isinstance(names, Dictionary) else None
        source.strings = (
            dict(pikepdf.NameTree(tree).items()) if isinstance(tree, Dictionary) else {}
        )
    return source.strings
