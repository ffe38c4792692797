"""State changes of a document's rendition, each a conditional UPDATE followed by
a notification that wakes the readers waiting for it (jobs.notify)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from documents.models import Document
from engines.pdf.types import PageLayout
from jobs.notify import notify_final


def layout_json(
    pages: Sequence[PageLayout], dpi: Sequence[int] = ()
) -> list[dict[str, Any]]:
    """The stored layout: one entry per page; `dpi` only where it is not 72."""
    out = []
    for n, page in enumerate(pages):
        entry: dict[str, Any] = {
            "width": page.width,
            "height": page.height,
            "rotation": page.rotation,
        }
        if n < len(dpi) and dpi[n] != 72:
            entry["dpi"] = dpi[n]
        out.append(entry)
    return out


def rendition_ready(document_id: str, **fields: Any) -> bool:
    """PENDING → READY with `fields` (layout, page_count, is_container...)."""
    done = Document.objects.filter(
        pk=document_id, rendition_state=Document.Rendition.PENDING
    ).update(rendition_state=Document.Rendition.READY, rendition_error=None, **fields)
    notify_final(document_id)
    return bool(done)


def rendition_failed(document_id: str, message: str) -> bool:
    """PENDING → FAILED: readers answer `message` from now on. Text still waiting
    for recognition is final as it is (the scans keep no words)."""
    done = Document.objects.filter(
        pk=document_id, rendition_state=Document.Rendition.PENDING
    ).update(
        rendition_state=Document.Rendition.FAILED,
        rendition_error=message,
        text_state=Document.Text.READY,
    )
    Document.objects.filter(pk=document_id, text_state=Document.Text.PENDING).update(
        text_state=Document.Text.READY, text_error=message
    )
    notify_final(document_id)
    return bool(done)


def text_ready(document_id: str, error: str | None = None) -> bool:
    """Text PENDING → READY (recognition ended, with or without words); `error`
    says why the words of its scans are missing when recognition failed."""
    done = Document.objects.filter(
        pk=document_id, text_state=Document.Text.PENDING
    ).update(text_state=Document.Text.READY, text_error=error)
    notify_final(document_id)
    return bool(done)
