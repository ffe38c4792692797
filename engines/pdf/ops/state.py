"""What a run of operations is given, what it keeps while it runs, what it returns.

Pages count from 0 here; positions are points in displayed-page space (top-left
origin of the page as displayed, decisions §4).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from engines.errors import InvalidOperation
from engines.pdf.types import Box, PageRange


@dataclass(frozen=True, slots=True)
class Op:
    """One parsed operation: its table name, its typed spec, and where the client
    wrote it (`transformationDetails[0].operations[2]`), for errors found later."""

    name: str
    spec: Any
    path: str


@dataclass(frozen=True, slots=True)
class SourceMark:
    """A merged source of the output: its title and its first output page (from 0)."""

    title: str
    page: int


@dataclass(frozen=True, slots=True)
class OpsContext:
    """What the service knows that the operations need.

    `redaction_areas`: output page (from 0) → the areas the order redacts on it,
    in the displayed space of the page as assembled (the space of annotation
    positions, before any rotate or crop operation); numbers are never drawn
    over them. `bates_next`: the number that follows the last Bates number of
    the order's earlier outputs, or None for the first output (the operation's
    `start` is used). `sources`: the merged sources, for an outline made from
    them. `images`: stamp image key (a document id) → path of its file (PNG,
    JPEG, TIFF or PDF).
    """

    redaction_areas: Mapping[int, Sequence[Box]] = field(default_factory=dict)
    bates_next: int | None = None
    sources: Sequence[SourceMark] = ()
    images: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class NumberRange:
    """The first and last number a numbering operation gave (inclusive)."""

    first: int
    last: int


@dataclass(frozen=True, slots=True)
class OpsReport:
    """What a run did, for the order and its report row.

    `ran`: operation names in the order they ran. `bates` / `page_numbers`: the
    numbers given (the next output of the order continues at `bates.last + 1`).
    `moved`: pages (from 0) whose number was moved off its place to keep clear
    of a redaction area; `not_drawn`: pages that got a number (the sequence has
    no gap) where no free place was found, so it is not drawn. `removed`: what
    sanitize removed, by kind (`javascript`: 3...), and the duplicate streams
    optimize merged (`duplicates`). `filled`: form fields filled.
    """

    ran: tuple[str, ...] = ()
    bates: NumberRange | None = None
    page_numbers: NumberRange | None = None
    moved: tuple[int, ...] = ()
    not_drawn: tuple[int, ...] = ()
    removed: Mapping[str, int] = field(default_factory=dict)
    filled: tuple[str, ...] = ()


@dataclass
class SaveOptions:
    """How the output is written; operations of the last phase set them."""

    object_streams: bool = False
    merge_duplicates: bool = False
    linearize: bool = False
    # pikepdf.Encryption when encrypting; kept out of repr (it holds passwords).
    encryption: Any = field(default=None, repr=False)


@dataclass
class RunState:
    """One run's working state: the context, the areas in their current place,
    and what the report will say."""

    context: OpsContext
    # Output page (from 0) → redaction areas in PDF user space (bottom-left
    # origin, unrotated: they stay put whatever rotate or crop does).
    areas: dict[int, list[tuple[float, float, float, float]]] = field(
        default_factory=dict
    )
    ran: list[str] = field(default_factory=list)
    numbers: dict[str, NumberRange] = field(default_factory=dict)
    moved: set[int] = field(default_factory=set)
    not_drawn: set[int] = field(default_factory=set)
    removed: dict[str, int] = field(default_factory=dict)
    filled: list[str] = field(default_factory=list)
    save: SaveOptions = field(default_factory=SaveOptions)

    def count(self, kind: str, n: int = 1) -> None:
        if n:
            self.removed[kind] = self.removed.get(kind, 0) + n

    def report(self) -> OpsReport:
        return OpsReport(
            ran=tuple(self.ran),
            bates=self.numbers.get("bates"),
            page_numbers=self.numbers.get("pageNumbers"),
            moved=tuple(sorted(self.moved)),
            not_drawn=tuple(sorted(self.not_drawn)),
            removed=dict(self.removed),
            filled=tuple(self.filled),
        )


def selected_pages(
    ranges: tuple[PageRange, ...] | None, page_count: int, path: str
) -> list[int]:
    """The 0-based pages that `ranges` (1-based, inclusive; None = all) select,
    in page order without repeats; a range past the output is refused."""
    if ranges is None:
        return list(range(page_count))
    chosen: set[int] = set()
    for n, r in enumerate(ranges):
        if r.last > page_count:
            raise InvalidOperation(
                f"{path}.pages[{n}].maxPage",
                f"page {r.last} is beyond the output's {page_count} pages",
            )
        chosen.update(range(r.first - 1, r.last))
    return sorted(chosen)
