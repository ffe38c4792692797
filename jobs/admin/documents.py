"""How the order admins show documents, without jobs importing the documents app.

`jobs` knows documents only by id (OrderInput, the kinds' result foreign keys).
The documents app provides a `DocumentCards` when its admin loads (`provide`):
titles, thumbnails, links and downloads of the documents an order took and made.
Until then (or for ids no longer stored) cards say only the id.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass, field
from typing import Protocol

# A grey page with a folded corner, for documents that have no picture.
NO_PICTURE = (
    "data:image/svg+xml;utf8,"
    "<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 34 44'>"
    "<path d='M1 1h24l8 8v34H1z' fill='%23f3f4f6' stroke='%239ca3af'/>"
    "<path d='M25 1v8h8' fill='none' stroke='%239ca3af'/></svg>"
)


@dataclass(frozen=True)
class DocumentCard:
    """What an admin page shows of one document. `admin_url` is None when the
    document is no longer stored (then nothing links to it)."""

    id: str
    title: str
    admin_url: str | None = None
    download_url: str | None = None
    thumbnail_url: str = NO_PICTURE
    pages: int | None = None
    size: int | None = None
    kind: str = ""  # "PDF", "PNG", "ZIP" ...
    parts: tuple[DocumentCard, ...] = field(default=())  # children and renditions
    viewer_url: str | None = None  # its pages in the admin's viewer, when it has some

    @property
    def exists(self) -> bool:
        return self.admin_url is not None


class DocumentCards(Protocol):
    def cards(
        self, ids: Collection[str], *, thumb_width: int
    ) -> dict[str, DocumentCard]:
        """A card for each id (a bare one for ids no longer stored)."""
        ...

    def with_parts(self, ids: Collection[str]) -> list[DocumentCard]:
        """Cards of the documents `ids` with their parts (children, renditions)."""
        ...

    def titled(self, words: Sequence[str], *, limit: int) -> list[str]:
        """Ids of the documents (newest first, at most `limit`) whose title holds
        every one of `words`, in any case."""
        ...


class _IdsOnly:
    def cards(
        self, ids: Collection[str], *, thumb_width: int
    ) -> dict[str, DocumentCard]:
        return {i: DocumentCard(id=i, title=i) for i in ids}

    def with_parts(self, ids: Collection[str]) -> list[DocumentCard]:
        return [DocumentCard(id=i, title=i) for i in ids]

    def titled(self, words: Sequence[str], *, limit: int) -> list[str]:
        return []


_provider: DocumentCards = _IdsOnly()


def provide(provider: DocumentCards) -> None:
    """Called by the documents app's admin when it loads."""
    global _provider
    _provider = provider


def documents() -> DocumentCards:
    return _provider
