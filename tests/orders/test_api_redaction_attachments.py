"""A redacted output drops its attachments unless the order keeps them; kept
ones are scrubbed of the removed words (read back with pikepdf)."""

from __future__ import annotations

import io
from collections.abc import Callable
from typing import Any

import pikepdf
import pymupdf

from documents.models import Document
from tests.orders.helpers import element, order_body

Run = Callable[[dict[str, Any]], dict[str, Any]]


def _with_attachment(make_pdf: Callable[..., bytes]) -> bytes:
    """A page naming Acme, and the document's own attached file naming it too."""
    with pikepdf.open(io.BytesIO(make_pdf(["Contract with Acme Corp"]))) as pdf:
        pdf.attachments["minutes.txt"] = pikepdf.AttachedFileSpec(
            pdf, b"Minutes: Acme agreed to the price.\n", filename="minutes.txt"
        )
        out = io.BytesIO()
        pdf.save(out)
    return out.getvalue()


def _redact_acme(doc: str, data: bytes, keep: bool | None) -> dict[str, Any]:
    hit = pymupdf.open("pdf", data)[0].search_for("Acme")[0]
    body = order_body(
        [element(doc)],
        annotations=[
            {
                "type": "RedactElemType",
                "documentId": doc,
                "page": 0,
                "position": {"x": hit.x0, "y": hit.y0, "w": hit.width, "h": hit.height},
            }
        ],
    )
    if keep is not None:
        body["keepAttachments"] = keep
    return body


def _attachments(order: dict[str, Any]) -> list[bytes]:
    """The bytes of every embedded file of the output, found by walking every
    object (pikepdf), wherever it hangs."""
    result = Document.objects.get(pk=order["transformationResultDocumentID"]["id"])
    with pikepdf.open(result.file.path) as pdf:
        return [
            obj.read_bytes()
            for obj in pdf.objects
            if isinstance(obj, pikepdf.Stream) and obj.get("/Type") == "/EmbeddedFile"
        ]


def test_a_redacted_output_drops_attachments_by_default(
    run_order: Run, uploaded: Callable[..., str], make_pdf: Callable[..., bytes]
) -> None:
    data = _with_attachment(make_pdf)
    doc = uploaded(data)
    order = run_order(_redact_acme(doc, data, keep=None))
    assert order["currentState"] == "PROCESSED", order["errorMessage"]
    assert order["redactionVerified"] is True
    assert _attachments(order) == []


def test_kept_attachments_are_scrubbed_of_the_removed_word(
    run_order: Run, uploaded: Callable[..., str], make_pdf: Callable[..., bytes]
) -> None:
    data = _with_attachment(make_pdf)
    doc = uploaded(data)
    order = run_order(_redact_acme(doc, data, keep=True))
    assert order["currentState"] == "PROCESSED", order["errorMessage"]
    files = _attachments(order)
    assert len(files) == 1
    (content,) = files
    assert b"Acme" not in content and b"agreed to the price" in content
