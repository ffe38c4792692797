"""Build one PDF from pages of others: transformation elements joined in order.

Page bases: a `PageRange` counts from 1, inclusive (the wire's minPage/maxPage);
every other page index here (`PageOrigin.page`, positions in the output) counts
from 0.

The copy runs in qpdf (through pikepdf), so the cost is close to
`qpdf --empty --pages ...`. What qpdf does not do for us is done here:

- a page taken twice becomes two page objects (sharing content streams and
  resources, each with its own annotations, so a viewer or a later step that
  edits one copy's annotations leaves the other alone);
- link annotations are kept only when their target page is in the output, and
  named destinations are rewritten as explicit ones (the output carries no
  name tree);
- form fields on the copied pages stay functional (`/AcroForm`), renamed when
  two copies would share a name;
- each source's outline (bookmarks) is carried, pruned to the pages kept.

Each source file is opened once, however many elements name it, so objects
shared by its pages (fonts, images) are copied once into the output.
Page labels, the structure tree (tagging) and document-level JavaScript,
attachments and metadata of the sources are not carried over.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator, Sequence
from contextlib import ExitStack
from dataclasses import dataclass, field

import pikepdf
from pikepdf import Array, Dictionary, Name, String

from documents.pdf.types import EngineError, PageOrigin, SourceElement

# Names built once: the link pass looks at every annotation of the output.
_A, _D, _S = Name("/A"), Name("/D"), Name("/S")
_ANNOTS, _DEST, _DESTS = Name("/Annots"), Name("/Dest"), Name("/Dests")
_GOTO, _LINK, _SUBTYPE = Name("/GoTo"), Name("/Link"), Name("/Subtype")
_NAMES, _WIDGET = Name("/Names"), Name("/Widget")
_FONT, _RESOURCES, _XOBJECT = Name("/Font"), Name("/Resources"), Name("/XObject")
_COUNT, _FIRST, _NEXT = Name("/Count"), Name("/First"), Name("/Next")
_OUTLINES, _PAGE_MODE, _TITLE = Name("/Outlines"), Name("/PageMode"), Name("/Title")
_URI, _USE_OUTLINES = Name("/URI"), Name("/UseOutlines")
_MAX_OUTLINE_DEPTH = 64
# Keys by which one annotation points at another on the same page.
_ANNOTATION_REFS = (Name("/Popup"), Name("/Parent"), Name("/IRT"))


@dataclass
class _Source:
    """One opened source file and what the copy needs to know about it."""

    pdf: pikepdf.Pdf
    label: str  # how a user knows the document: its key
    path: str
    # pikepdf's `pdf.pages[i]` rebuilds qpdf's page list each time (O(pages)):
    # the list is taken once.
    pages: list[pikepdf.Page] = field(default_factory=list)
    acroform: pikepdf.AcroForm | None = None
    # Pages share resource dictionaries: a copied page would drag along every
    # font and image of the document unless pruned to what it uses.
    shares_resources: bool = False
    # The first output copy of each source page, by source page object and by
    # 0-based index: where links into that page lead.
    by_objgen: dict[tuple[int, int], Dictionary] = field(default_factory=dict)
    by_index: dict[int, Dictionary] = field(default_factory=dict)
    # Named destinations resolved so far, by (is a /Name, text), as explicit
    # destinations into the output (None: the target is not in the output).
    named: dict[tuple[bool, str], Array | None] = field(default_factory=dict)
    # The /Names /Dests tree read whole, on the first named string.
    strings: dict[str | bytes, object] | None = None


@dataclass(frozen=True, slots=True)
class _Take:
    """One output page: page `index` (0-based) of `source`."""

    source: _Source
    index: int
    origin: PageOrigin


def page_count(path: str) -> int:
    """Number of pages of the PDF at `path` (opened with the empty password)."""
    with _open(path, os.path.basename(path)) as pdf:
        return len(_page_list(pdf, os.path.basename(path)))


def assemble(elements: Sequence[SourceElement], dest: str) -> list[PageOrigin]:
    """Write at `dest` one PDF made of the elements' pages, in order.

    For each element its ranges (`PageRange`, 1-based, inclusive) are taken in
    the order given; ranges may repeat or overlap; `ranges=None` takes the whole
    document. Returns, for each output page in order, where it comes from:
    `PageOrigin(key=element.key, page=<0-based source page>)`, so annotations
    can follow their source page.

    Sources encrypted with an empty user password are read; the output is never
    encrypted. Raises `EngineError` when a source cannot be read, a range lies
    outside its document, or the selection is empty; `dest` is not written
    then.
    """
    if not elements:
        raise EngineError("there is nothing to assemble: no transformation element")
    with ExitStack() as stack:
        sources: dict[str, _Source] = {}
        try:
            takes = list(_plan(elements, sources, stack))
            if not takes:
                raise EngineError("the page selection is empty")
            out = stack.enter_context(pikepdf.new())
            pages = _copy_pages(out, takes)
            _settle_links(pages, takes)
            _carry_outlines(out, takes)
            # pikepdf writes through a temporary file: a failure leaves `dest`
            # as it was.
            _save(out, dest, sources.values())
        except pikepdf.PdfError as exc:
            raise EngineError(
                f"could not assemble the PDF: {_describe(exc, sources.values())}"
            ) from exc
        except OSError as exc:
            raise EngineError(
                f"could not write the assembled PDF: {exc.strerror or exc}"
            ) from exc
    return [take.origin for take in takes]


def _plan(
    elements: Sequence[SourceElement], sources: dict[str, _Source], stack: ExitStack
) -> Iterator[_Take]:
    """Every output page in order; opens each file once and checks every range."""
    for element in elements:
        source = _source(element, sources, stack)
        count = len(source.pages)
        if element.ranges is None:
            indexes: Sequence[int] = range(count)
            yield from (_Take(source, i, PageOrigin(element.key, i)) for i in indexes)
            continue
        for page_range in element.ranges:
            first, last = page_range.first, page_range.last
            if first > last:
                raise EngineError(
                    f"page range {first}-{last} of document {element.key!r} is "
                    "empty: the first page is after the last"
                )
            if first < 1 or last > count:
                raise EngineError(
                    f"page range {first}-{last} is outside document {element.key!r}, "
                    f"which has {count} page{'s' if count != 1 else ''} "
                    "(pages count from 1)"
                )
            for i in range(first - 1, last):
                yield _Take(source, i, PageOrigin(element.key, i))


def _source(
    element: SourceElement, sources: dict[str, _Source], stack: ExitStack
) -> _Source:
    # Keyed by the real path: two elements naming one file share one Pdf, so
    # qpdf's per-source copy map copies that file's shared objects once.
    real = os.path.realpath(element.path)
    source = sources.get(real)
    if source is None:
        pdf = stack.enter_context(_open(element.path, element.key))
        source = _Source(pdf=pdf, label=element.key, path=element.path)
        source.pages = _page_list(pdf, element.key)
        source.shares_resources = _shares_resources(source.pages)
        if Name.AcroForm in pdf.Root:
            source.acroform = pdf.acroform
        sources[real] = source
    return source


def _open(path: str, label: str) -> pikepdf.Pdf:
    try:
        return pikepdf.open(path)
    except pikepdf.PasswordError as exc:
        raise EngineError(
            f"document {label!r} is protected by a password; it must open without one"
        ) from exc
    except FileNotFoundError as exc:
        raise EngineError(f"the file of document {label!r} is missing") from exc
    except (pikepdf.PdfError, OSError) as exc:
        raise EngineError(
            f"document {label!r} is not a readable PDF ({_strip_path(exc, path)})"
        ) from exc


def _page_list(pdf: pikepdf.Pdf, label: str) -> list[pikepdf.Page]:
    try:
        return list(pdf.pages)
    except pikepdf.PdfError as exc:
        raise EngineError(
            f"the page tree of document {label!r} is damaged: "
            f"{_strip_path(exc, str(pdf.filename))}"
        ) from exc


def _shares_resources(pages: Sequence[pikepdf.Page]) -> bool:
    """Whether some pages use one resource dictionary (or /Font, /XObject map).

    Like qpdf's `--remove-unreferenced-resources=auto`, which `qpdf --pages`
    applies: only then is pruning worth parsing the content streams.
    """
    seen: set[tuple[int, int]] = set()
    for page in pages:
        resources = page.obj.get(_RESOURCES)
        if not isinstance(resources, Dictionary):
            continue
        for obj in (resources, resources.get(_FONT), resources.get(_XOBJECT)):
            if isinstance(obj, Dictionary) and obj.is_indirect:
                if obj.objgen in seen:
                    return True
                seen.add(obj.objgen)
    return False


def _prune_resources(page: pikepdf.Page) -> None:
    # qpdf gives the page its own copy of the dictionaries before pruning,
    # so the other pages of the source keep theirs.
    try:
        page.remove_unreferenced_resources()
    except pikepdf.PdfError:
        pass  # an unparsable content stream: copy the resources whole


def _copy_pages(out: pikepdf.Pdf, takes: Sequence[_Take]) -> list[pikepdf.Page]:
    """Append every take to `out`; returns the output pages in order."""
    copied: list[pikepdf.Page] = []
    firsts: dict[tuple[int, int], pikepdf.Page] = {}
    out_form: pikepdf.AcroForm | None = None  # made on first need: it scans the file
    for take in takes:
        first = firsts.get((id(take.source), take.index))
        if first is None:
            page = take.source.pages[take.index]
            if take.source.shares_resources:
                _prune_resources(page)
            out.pages.append(page)  # qpdf copies it, and what it uses, once
            copy = _last_page(out)
            firsts[(id(take.source), take.index)] = copy
            take.source.by_index[take.index] = copy.obj
            take.source.by_objgen[page.obj.objgen] = copy.obj
            form = take.source.acroform
            if form is not None and _has_widgets(page.obj):
                out_form = out.acroform if out_form is None else out_form
                _copy_annotations(out_form, copy, page, form)
        else:
            out.pages.append(first)  # same file: pikepdf makes a new page object
            copy = _last_page(out)
            if isinstance(copy.obj.get(_ANNOTS), Array):
                out_form = out.acroform if out_form is None else out_form
                _copy_annotations(out_form, copy, first, out_form)
        copied.append(copy)
    return copied


def _last_page(out: pikepdf.Pdf) -> pikepdf.Page:
    # `out.pages[-1]` rebuilds the page list (O(pages)); qpdf keeps the page
    # tree of a new file flat, so the last kid is the page just appended.
    kids = out.Root.Pages.Kids
    return pikepdf.Page(kids[len(kids) - 1])


def _has_widgets(page: Dictionary) -> bool:
    annots = page.get(_ANNOTS)
    return isinstance(annots, Array) and any(
        isinstance(a, Dictionary) and a.get(_SUBTYPE) == _WIDGET for a in annots
    )


def _copy_annotations(
    form: pikepdf.AcroForm,
    to_page: pikepdf.Page,
    from_page: pikepdf.Page,
    from_form: pikepdf.AcroForm,
) -> None:
    """Give `to_page` its own copies of `from_page`'s annotations and fields.

    qpdf copies the annotations (renaming clashing fields) but leaves links
    between them (popup <-> parent, replies) pointing at the old objects; the
    new array lines up with the one it replaces, so they are re-pointed by
    position.
    """
    before = to_page.obj.get(_ANNOTS)
    old = list(before) if isinstance(before, Array) else []
    form.fix_copied_annotations(to_page, from_page, from_form)
    after = to_page.obj.get(_ANNOTS)
    new = list(after) if isinstance(after, Array) else []
    if len(old) != len(new):
        return
    moved = {
        a.objgen: b
        for a, b in zip(old, new, strict=True)
        if isinstance(a, Dictionary) and a.is_indirect
    }
    for annot in new:
        if not isinstance(annot, Dictionary):
            continue
        if Name.P in annot:
            annot.P = to_page.obj
        for key in _ANNOTATION_REFS:
            target = annot.get(key)
            if isinstance(target, Dictionary) and target.is_indirect:
                replacement = moved.get(target.objgen)
                if replacement is not None:
                    annot[key] = replacement


def _settle_links(copied: Sequence[pikepdf.Page], takes: Sequence[_Take]) -> None:
    """Drop links whose target page is not in the output; make named ones explicit."""
    for take, page in zip(takes, copied, strict=True):
        annots = page.obj.get(_ANNOTS)
        if not isinstance(annots, Array):
            continue
        kept = [
            a
            for a in annots
            if not isinstance(a, Dictionary)
            or a.get(_SUBTYPE) != _LINK
            or _settle_link(a, take.source)
        ]
        if len(kept) != len(annots):
            page.obj.Annots = Array(kept)


def _settle_link(annot: Dictionary, source: _Source) -> bool:
    """Whether to keep this link annotation (rewriting a named target)."""
    # Runs once per link (9,000 in a manual): the pikepdf calls are kept few.
    holder, key = annot, _DEST
    dest = annot.get(_DEST)
    if dest is None:
        action = annot.get(_A)
        if not isinstance(action, Dictionary) or action.get(_S) != _GOTO:
            return True  # URI, remote and other actions do not point into this file
        holder, key = action, _D
        dest = action.get(_D)
    if isinstance(dest, Array):
        # qpdf already pointed explicit targets at the copies; a target page
        # that was not copied became null.
        return len(dest) > 0 and isinstance(dest[0], (Dictionary, int))
    if not isinstance(dest, (String, Name)):
        return False
    explicit = _named_destination(source, dest)
    if explicit is None:
        return False
    # One array shared by every link to that name: nothing edits it afterwards,
    # and the writer spells it out at each place.
    holder[key] = explicit
    return True


def _named_destination(source: _Source, name: String | Name) -> Array | None:
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
            dests = source.pdf.Root.get(_DESTS)
            if isinstance(dests, Dictionary):
                value = dests.get(name)
        else:
            value = _strings(source).get(key[1])
    except (pikepdf.PdfError, ValueError):
        value = None
    if isinstance(value, Dictionary):
        value = value.get(_D)
    found = _into_output(source, value)
    source.named[key] = found
    return found


def _into_output(source: _Source, value: object) -> Array | None:
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


def _strings(source: _Source) -> dict[str | bytes, object]:
    # Read whole: one pass over the tree costs less than a few hundred lookups.
    if source.strings is None:
        names = source.pdf.Root.get(_NAMES)
        tree = names.get(_DESTS) if isinstance(names, Dictionary) else None
        source.strings = (
            dict(pikepdf.NameTree(tree).items()) if isinstance(tree, Dictionary) else {}
        )
    return source.strings


@dataclass
class _Mark:
    """An outline item to write: where it leads and what it holds."""

    title: String
    dest: Array | None
    uri: String | None
    is_open: bool
    children: list[_Mark]


def _carry_outlines(out: pikepdf.Pdf, takes: Sequence[_Take]) -> None:
    """Give `out` the sources' outlines, pruned to the pages it holds.

    Each source's outline comes once, where the source first appears. An item
    whose page is not in the output is dropped unless it holds kept items;
    it is then kept without a destination.
    """
    marks: list[_Mark] = []
    done: set[int] = set()
    page_mode = None
    for take in takes:
        source = take.source
        if id(source) in done:
            continue
        done.add(id(source))
        outlines = source.pdf.Root.get(_OUTLINES)
        if isinstance(outlines, Dictionary):
            found = _read_marks(source, outlines.get(_FIRST), 0, set())
            if found and page_mode is None:
                page_mode = source.pdf.Root.get(_PAGE_MODE)
            marks.extend(found)
    if not marks:
        return
    root = out.make_indirect(Dictionary(Type=_OUTLINES))
    root.Count = _write_marks(out, root, marks)
    out.Root.Outlines = root
    if page_mode == _USE_OUTLINES:
        out.Root.PageMode = _USE_OUTLINES


def _read_marks(
    source: _Source, item: object, depth: int, seen: set[tuple[int, int]]
) -> list[_Mark]:
    marks: list[_Mark] = []
    # Damaged outlines loop or nest without end: stop at a repeat, or deep down.
    while isinstance(item, Dictionary) and depth < _MAX_OUTLINE_DEPTH:
        if item.is_indirect:
            if item.objgen in seen:
                break
            seen.add(item.objgen)
        children = _read_marks(source, item.get(_FIRST), depth + 1, seen)
        dest, uri = _outline_target(source, item)
        if dest is not None or uri is not None or children:
            title = item.get(_TITLE)
            count = item.get(_COUNT)
            marks.append(
                _Mark(
                    title=String(bytes(title) if isinstance(title, String) else b""),
                    dest=dest,
                    uri=uri,
                    is_open=isinstance(count, int) and count > 0,
                    children=children,
                )
            )
        item = item.get(_NEXT)
    return marks


def _outline_target(
    source: _Source, item: Dictionary
) -> tuple[Array | None, String | None]:
    """(destination in the output, URI) of an outline item; either may be None."""
    dest = item.get(_DEST)
    if dest is None:
        action = item.get(_A)
        if not isinstance(action, Dictionary):
            return None, None
        kind = action.get(_S)
        if kind == _URI:
            uri = action.get(_URI)
            return None, String(bytes(uri)) if isinstance(uri, String) else None
        if kind != _GOTO:
            return None, None
        dest = action.get(_D)
    if isinstance(dest, (String, Name)):
        return _named_destination(source, dest), None
    return _into_output(source, dest), None


def _write_marks(out: pikepdf.Pdf, parent: Dictionary, marks: list[_Mark]) -> int:
    """Link `marks` under `parent`; returns how many items show when it is open."""
    items = [out.make_indirect(Dictionary(Title=m.title, Parent=parent)) for m in marks]
    visible = len(items)
    for n, (item, mark) in enumerate(zip(items, marks, strict=True)):
        if n > 0:
            item.Prev = items[n - 1]
        if n + 1 < len(items):
            item.Next = items[n + 1]
        if mark.dest is not None:
            item.Dest = mark.dest
        elif mark.uri is not None:
            item.A = Dictionary(S=_URI, URI=mark.uri)
        if mark.children:
            inner = _write_marks(out, item, mark.children)
            item.Count = inner if mark.is_open else -len(mark.children)
            if mark.is_open:
                visible += inner
    parent.First = items[0]
    parent.Last = items[-1]
    return visible


def _save(out: pikepdf.Pdf, dest: str, sources: Iterable[_Source]) -> None:
    versions = [s.pdf.pdf_version for s in sources]
    # The copied pages may use features of the newest source's version.
    newest = max(versions, key=_version_key, default="1.3")
    out.save(dest, min_version=newest)


def _version_key(version: str) -> tuple[int, ...]:
    try:
        return tuple(int(part) for part in version.split("."))
    except ValueError:
        return (0,)


def _describe(exc: Exception, sources: Iterable[_Source]) -> str:
    message = str(exc)
    for source in sources:
        message = message.replace(source.path, f"document {source.label!r}")
    return message


def _strip_path(exc: Exception, path: str) -> str:
    # qpdf prefixes messages with the file name: storage paths mean nothing to
    # a user (and are nobody's business).
    return str(exc).replace(f"{path}: ", "").replace(path, "the file").strip()
