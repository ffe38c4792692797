"""GET /documents: the caller's documents as a library, newest first, what people
uploaded by default, the rest on demand, by format and by words of the title."""

from __future__ import annotations

import io
import zipfile
from collections.abc import Callable
from typing import Any

from tests.conftest import make_pdf_bytes
from tests.orders.helpers import element, order_body


def _zip(**files: bytes) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as archive:
        for name, data in files.items():
            archive.writestr(name, data)
    return out.getvalue()


def _ids(client: Any, query: str = "") -> list[str]:
    answer = client.get("/documents" + query)
    assert answer.status_code == 200, answer.content
    return [d["id"] for d in answer.json()]


def test_the_library_lists_uploads_by_default_and_the_rest_on_demand(
    client: Any,
    uploaded: Callable[..., str],
    django_capture_on_commit_callbacks: Any,
) -> None:
    report = uploaded(make_pdf_bytes(3), documentTitle="Quarterly report Acme")
    with django_capture_on_commit_callbacks(execute=True):
        archive = uploaded(
            _zip(**{"a.pdf": make_pdf_bytes(1), "b.pdf": make_pdf_bytes(2)}),
            documentTitle="minutes.zip",
        )
        order = client.post(
            "/transformations",
            data=order_body([element(report, (2, 3))]),
            content_type="application/json",
        )
    result = client.get(
        f"/transformations/{order.json()['transformationOrderId']['id']}"
    ).json()["transformationResultDocumentID"]["id"]

    # Newest first; the archive's parts and the order's result are not uploads.
    assert _ids(client) == [archive, report]
    listed = client.get("/documents").json()[1]
    assert {k: listed[k] for k in ("title", "format", "pageCount", "origin")} == {
        "title": "Quarterly report Acme",
        "format": "pdf",
        "pageCount": 3,
        "origin": "UPLOAD",
    }
    parts = client.get("/documents?show=part").json()
    assert sorted(p["id"] for p in parts) == [f"{archive}/1", f"{archive}/2"]
    assert {p["parentId"] for p in parts} == {archive}
    assert _ids(client, "?show=result") == [result]
    assert set(_ids(client, "?show=all")) >= {report, archive, result}

    # Formats as people name them, several at once; words in any order and case.
    assert _ids(client, "?format=zip") == [archive]
    assert _ids(client, "?format=zip,pdf") == [archive, report]
    assert _ids(client, "?format=docx") == []
    assert _ids(client, "?q=acme%20QUARTERLY") == [report]
    assert _ids(client, "?q=acme%20minutes") == []


def test_the_library_pages_like_the_order_lists(
    client: Any, uploaded: Callable[..., str]
) -> None:
    made = [uploaded(make_pdf_bytes(1)) for _ in range(5)]
    first = client.get("/documents?pageSize=2")
    assert first["X-Total-Count"] == "5"
    assert [d["id"] for d in first.json()] == made[::-1][:2]
    assert 'rel="next"' in first["Link"] and "page=2" in first["Link"]
    last = client.get("/documents?pageSize=2&page=3")
    assert [d["id"] for d in last.json()] == [made[0]]
    assert 'rel="prev"' in last["Link"] and 'rel="next"' not in last["Link"]


def test_a_bad_library_query_is_a_400_naming_the_parameter(client: Any) -> None:
    for query, field in (
        ("?format=pdff", "format"),
        ("?show=everything", "show"),
        ("?pageSize=0", "pageSize"),
    ):
        answer = client.get("/documents" + query)
        assert answer.status_code == 400, query
        assert answer["Content-Type"].startswith("application/problem+json")
        assert field in answer.json()["errors"], query
