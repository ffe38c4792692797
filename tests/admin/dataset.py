"""A realistic data set made through the real API: ~20 documents of several kinds,
~40 orders (processed, failed, queued, cancelled, retried, deleted), comparisons,
refused requests. Used by the admin tests and by the screenshot script.

The API is reached through `Api` (the Django test client with the sync worker, or
a live service over HTTP); `damage` breaks a stored file as a failing disk would.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path
from typing import Any, Protocol
from urllib.parse import quote, urlencode

from tests.admin import documents as samples

PREFIX = "com.vendor.viewer.annotation.api."


class Api(Protocol):
    owner: str | None

    def request(
        self, method: str, path: str, *, body: Any = None, raw: bytes | None = None
    ) -> tuple[int, Any]: ...


@dataclass
class Dataset:
    documents: dict[str, str] = field(default_factory=dict)  # title → id
    processed: list[str] = field(default_factory=list)
    failed: list[str] = field(default_factory=list)
    queued: list[str] = field(default_factory=list)
    cancelled: list[str] = field(default_factory=list)
    deleted: list[str] = field(default_factory=list)
    comparisons: list[str] = field(default_factory=list)
    deleted_documents: list[str] = field(default_factory=list)

    @property
    def orders(self) -> list[str]:
        return [
            *self.processed,
            *self.failed,
            *self.queued,
            *self.cancelled,
            *self.deleted,
        ]


def doc_path(document_id: str, suffix: str = "", **query: Any) -> str:
    path = "/documents/" + quote(document_id, safe="") + suffix
    return path + ("?" + urlencode(query) if query else "")


def upload(api: Api, title: str, data: bytes, **query: Any) -> str:
    status, body = api.request(
        "POST", "/documents?" + urlencode({"documentTitle": title, **query}), raw=data
    )
    assert status == 200, body
    return str(body["id"])


def element(doc: str, *ranges: tuple[int, int]) -> dict[str, Any]:
    out: dict[str, Any] = {"documentId": doc}
    if ranges:
        out["pagesSelectionList"] = [{"minPage": a, "maxPage": b} for a, b in ranges]
    return out


def transformation(
    api: Api, *details: list[dict[str, Any]], fmt: str = "pdf", **extra: Any
) -> tuple[str, str]:
    """POST an order; (its id, its state as the API answers it now)."""
    body = {
        "format": fmt,
        "transformationDetails": [{"transformationElements": d} for d in details],
        **extra,
    }
    status, answer = api.request("POST", "/transformations", body=body)
    assert status == 200, answer
    order_id = answer["transformationOrderId"]["id"]
    status, order = api.request("GET", f"/transformations/{order_id}")
    return order_id, order["currentState"]


def redaction_of(api: Api, doc: str, words: list[str]) -> dict[str, Any]:
    coords: list[dict[str, float]] = []
    for word in words:
        status, found = api.request(
            "GET", doc_path(doc, "/pages/0/text", searchText=word)
        )
        assert status == 200, found
        coords.extend(hit["positionText"]["position"] for hit in found["searchResults"])
    return {
        "type": PREFIX + "RedactTextElemType",
        "documentId": {"id": doc},
        "page": 0,
        "coords": coords,
    }


def square(doc: str, page: int, n: int) -> dict[str, Any]:
    return {
        "type": PREFIX + "SquareElemType",
        "documentId": {"id": doc},
        "page": page,
        "position": {"x": 60 + 30 * n, "y": 300, "w": 120, "h": 60},
        "interiorColor": {"r": 255, "g": 220, "b": 0},
        "opacity": 0.4,
        "id": f"sq-{n}",
    }


# Who owns what when keys are required (an owner's orders use its documents).
OWNERS = ("alice", "bob", "carol")
OWNER_OF = {
    "Invoice 1042": "bob",
    "Invoice 1043": "bob",
    "Letter to Alice": "bob",
    "Letter to Alice (scanned, rotated)": "bob",
    "Damaged scan": "bob",
    "Site photo": "carol",
    "Fax pages": "carol",
    "Notes (plain text, stored as is)": "carol",
    "Tax form 1040": "carol",
    "Page sizes": "carol",
}


def as_owner(api: Api, title: str) -> None:
    """Act as the owner of the document titled `title` (alice by default)."""
    api.owner = OWNER_OF.get(title, "alice")


def _sort(data: Dataset, order_id: str, state: str) -> None:
    {"PROCESSED": data.processed, "FAILED": data.failed}.get(state, data.queued).append(
        order_id
    )


def add_documents(api: Api, data: Dataset, *, corpus: bool = True) -> None:
    made = [(t, make()) for t, make in samples.generated()]
    made += samples.from_corpus() if corpus else []
    for title, content in made:
        if content is None:
            continue
        as_owner(api, title)
        data.documents[title] = upload(api, title, content)
    as_owner(api, "Notes (plain text, stored as is)")
    data.documents["Notes (plain text, stored as is)"] = upload(
        api,
        "Notes (plain text, stored as is)",
        b"meeting notes\n" * 40,
        failOnUnsupported="false",
    )


def add_orders(api: Api, data: Dataset, *, repeat: int = 2) -> None:
    d = data.documents
    report, contract, manual = (
        d["Annual report 2026"],
        d["Contract Acme – Lyon"],
        d["Operations manual"],
    )
    inv1, inv2, slides = d["Invoice 1042"], d["Invoice 1043"], d["Quarterly slides"]
    letter, chart = d["Letter to Alice"], d["Chart scan"]
    plans: list[tuple[str, Callable[[], tuple[str, str]]]] = [
        ("Annual report 2026", lambda: transformation(api, [element(report, (1, 3))])),
        (
            "Annual report 2026",
            lambda: transformation(api, [element(report, (5, 5), (2, 3))]),
        ),
        (
            "Annual report 2026",
            lambda: transformation(api, [element(report, (1, 1)), element(contract)]),
        ),
        ("Invoice 1042", lambda: transformation(api, [element(inv1), element(inv2)])),
        (
            "Quarterly slides",
            lambda: transformation(
                api, [element(slides, (1, 4))], [element(slides, (5, 8))]
            ),
        ),
        (
            "Operations manual",
            lambda: transformation(
                api, [element(manual, (1, 10)), element(manual, (30, 40))], fmt="zip"
            ),
        ),
        (
            "Contract Acme – Lyon",
            lambda: transformation(api, [element(contract, (2, 4))], fmt="zip"),
        ),
        (
            "Chart scan",
            lambda: transformation(api, [element(chart), element(report, (2, 2))]),
        ),
        (
            "Letter to Alice",
            lambda: transformation(
                api,
                [element(letter)],
                annotations={
                    "annotations": [
                        redaction_of(api, letter, ["Alice Smith", "ACC-55-1042"])
                    ]
                },
            ),
        ),
        (
            "Invoice 1042",
            lambda: transformation(
                api,
                [element(inv1)],
                annotations={"annotations": [redaction_of(api, inv1, ["Alice Smith"])]},
            ),
        ),
        (
            "Annual report 2026",
            lambda: transformation(
                api,
                [element(report, (1, 2))],
                fmt="pdf-fdf",
                annotations={
                    "annotations": [square(report, 0, 1), square(report, 1, 2)]
                },
            ),
        ),
        (
            "Quarterly slides",
            lambda: transformation(
                api,
                [element(slides, (1, 1))],
                annotations={"annotations": [square(slides, 0, 3)]},
            ),
        ),
    ]
    singles = [t for t, _ in samples.CORPUS_FILES] + ["Site photo", "Fax pages"]
    for title in [t for t in singles if t in d]:
        plans.append((title, _first_page_of(api, d[title])))
    for title, plan in plans * repeat:
        as_owner(api, title)
        order_id, state = plan()
        _sort(data, order_id, state)


def _first_page_of(api: Api, doc: str) -> Callable[[], tuple[str, str]]:
    return lambda: transformation(api, [element(doc, (1, 1))])


def add_comparisons(api: Api, data: Dataset) -> None:
    d = data.documents
    for left, right in (
        ("Invoice 1042", "Invoice 1043"),
        ("Letter to Alice", "Letter to Alice (scanned, rotated)"),
        ("Annual report 2026", "Contract Acme – Lyon"),
    ):
        as_owner(api, left)
        status, body = api.request(
            "POST",
            "/comparisons",
            body={
                "leftDocumentId": d[left],
                "rightDocumentId": d[right],
                "highlightColor": "ff0000",
            },
        )
        assert status == 200, body
        data.comparisons.append(body["comparisonOrderId"]["id"])


def add_failures(api: Api, data: Dataset, damage: Callable[[str], None]) -> None:
    """A document whose stored file is damaged: the orders and the comparison
    that read it fail; plus requests refused at once (counted by reason)."""
    d = data.documents
    as_owner(api, "Damaged scan")
    broken = upload(
        api, "Damaged scan", samples.report("Damaged scan", 3, (0.6, 0.3, 0.1))
    )
    d["Damaged scan"] = broken
    damage(broken)
    for ranges in ((1, 1), (2, 3), (1, 3)):
        order_id, state = transformation(api, [element(broken, ranges)])
        _sort(data, order_id, state)
    status, body = api.request(
        "POST",
        "/comparisons",
        body={"leftDocumentId": d["Invoice 1042"], "rightDocumentId": broken},
    )
    data.comparisons.append(body["comparisonOrderId"]["id"])
    for bad in (
        {
            "format": "pdf",
            "transformationDetails": [
                {"transformationElements": [element("no-such-document")]}
            ],
        },
        {
            "format": "pdf",
            "transformationDetails": [
                {"transformationElements": [element(d["Invoice 1042"], (1, 5))]}
            ],
        },
        {"format": "tiff", "transformationDetails": []},
    ):
        status, _ = api.request("POST", "/transformations", body=bad)
        assert status == 400


def add_endings(api: Api, data: Dataset) -> None:
    """One processed order deleted, one document deleted (history kept)."""
    as_owner(api, "Annual report 2026")
    gone = data.processed.pop(1)
    assert api.request("DELETE", f"/transformations/{gone}")[0] == 200
    data.deleted.append(gone)
    as_owner(api, "Invoice 1043")
    doc = data.documents.pop("Invoice 1043")
    assert api.request("DELETE", doc_path(doc))[0] == 200
    data.deleted_documents.append(doc)


def add_queued(api: Api, data: Dataset) -> None:
    """With no worker running: orders that wait, one of them cancelled."""
    d = data.documents
    for doc, ranges in (
        (d["Annual report 2026"], (2, 6)),
        (d["Operations manual"], (1, 20)),
        (d["Contract Acme – Lyon"], (1, 2)),
    ):
        order_id, state = transformation(api, [element(doc, ranges)])
        assert state == "QUEUED", state
        data.queued.append(order_id)
    cancelled = data.queued.pop()
    assert api.request("DELETE", f"/transformations/{cancelled}")[0] == 200
    data.cancelled.append(cancelled)


def add_lost(api: Api, data: Dataset) -> None:
    """With no worker running: an order whose worker died twice, as the recovery
    finds it (PROCESSING since long ago, two attempts) and fails it: the one kind
    of failure in the set that a retry can cure (worker_lost)."""
    from datetime import timedelta

    from django.utils import timezone

    from jobs.recovery import reap_stale_orders
    from orders.models import TransformationOrder

    as_owner(api, "Invoice 1042")
    order_id, state = transformation(api, [element(data.documents["Invoice 1042"])])
    assert state == "QUEUED", state
    long_ago = timezone.now() - timedelta(days=1)
    TransformationOrder.objects.filter(pk=order_id).update(
        state="PROCESSING", started_at=long_ago, attempts=2
    )
    assert reap_stale_orders() >= 1
    assert TransformationOrder.objects.get(pk=order_id).error_category == "worker_lost"
    data.failed.append(order_id)


def spread_over_days(days: int = 21, seed: int = 7) -> None:
    """Move the orders (and their input rows) back in time over `days`, keeping
    their durations, so per-day charts have days to show. Run after the API made
    them: only their timestamps change."""
    from django.db.models import F

    from jobs.models import OrderInput
    from jobs.registry import kinds

    rng = random.Random(seed)
    for kind in kinds():
        for order in kind.model.history.filter(state__in=["PROCESSED", "FAILED"]):
            shift = timedelta(
                days=rng.randrange(1, days), minutes=rng.randrange(0, 600)
            )
            kind.model.history.filter(pk=order.pk).update(
                queued_at=F("queued_at") - shift,
                started_at=F("started_at") - shift,
                processed_at=F("processed_at") - shift,
            )
            OrderInput.objects.filter(kind=kind.name, order_id=order.pk).update(
                queued_at=F("queued_at") - shift
            )


def stored_file(document_id: str) -> Path:
    from documents.models import Document

    return Path(Document.objects.get(pk=document_id).file.path)


def damage(document_id: str) -> None:
    stored_file(document_id).write_bytes(b"%PDF-1.7\n" + b"\x00 damaged on disk " * 64)
