"""The source files of an assembly and the plan of the output pages.

A `PageRange` counts from 1, inclusive; every other page index (`Take.index`,
`PageOrigin.page`) counts from 0.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Sequence
from contextlib import ExitStack
from dataclasses import dataclass, field

import pikepdf
from pikepdf import Array, Dictionary, Name

from engines.errors import EngineError
from engines.pdf.assemble.names import FONT, RESOURCES, XOBJECT
from engines.pdf.types import PageOrigin, SourceElement


@dataclass
class Source:
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
class Take:
    """One output page: page `index` (0-based) of `source`."""

    source: Source
    index: int
    origin: PageOrigin


def page_count(path: str) -> int:
    """Number of pages of the PDF at `path` (opened with the empty password)."""
    with _open(path, os.path.basename(path)) as pdf:
        return len(_page_list(pdf, os.path.basename(path)))


def plan(
    elements: Sequence[SourceElement], sources: dict[str, Source], stack: ExitStack
) -> Iterator[Take]:
    """Every output page in order; opens each file once and checks every range."""
    for element in elements:
        source = _source(element, sources, stack)
        count = len(source.pages)
        if element.ranges is None:
            indexes: Sequence[int] = range(count)
            yield from (Take(source, i, PageOrigin(element.key, i)) for i in indexes)
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
                yield Take(source, i, PageOrigin(element.key, i))


def _source(
    element: SourceElement, sources: dict[str, Source], stack: ExitStack
) -> Source:
    # Keyed by the real path: two elements naming one file share one Pdf, so
    # qpdf's per-source copy map copies that file's shared objects once.
    real = os.path.realpath(element.path)
    source = sources.get(real)
    if source is None:
        pdf = stack.enter_context(_open(element.path, element.key))
        source = Source(pdf=pdf, label=element.key, path=element.path)
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
        resources = page.obj.get(RESOURCES)
        if not isinstance(resources, Dictionary):
            continue
        for obj in (resources, resources.get(FONT), resources.get(XOBJECT)):
            if isinstance(obj, Dictionary) and obj.is_indirect:
                if obj.objgen in seen:
                    return True
                seen.add(obj.objgen)
    return False


def _strip_path(exc: Exception, path: str) -> str:
    # qpdf prefixes messages with the file name: storage paths mean nothing to
    # a user (and are nobody's business).
    return str(exc).replace(f"{path}: ", "").replace(path, "the file").strip()
