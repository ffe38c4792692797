"""The annotation store (/annotation) and its policy over HTTP, as a viewer uses
it: save annotations on a document, get them back, change and remove them."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

import pytest

from tests.conftest import make_pdf_bytes


@pytest.fixture
def doc(uploaded: Callable[..., str]) -> str:
    return uploaded(make_pdf_bytes(2))


def store(client: Any, method: str, doc: str, body: Any = None) -> Any:
    return getattr(client, method)(
        "/annotation?documentId=" + doc, data=body, content_type="application/json"
    )


HIGHLIGHT = {
    "id": {"id": "annot-001"},
    "type": "Highlight",
    "page": 0,
    "position": {"x": 100.0, "y": 200.0, "w": 150.0, "h": 20.0},
    "color": {"r": 255, "g": 255, "b": 0},
    "opacity": 0.5,
    "creator": "john.doe",
}


def test_saved_annotations_come_back_as_sent(client: Any, doc: str) -> None:
    assert store(client, "get", doc).json() == {"annotations": []}
    saved = store(client, "put", doc, {"annotations": [HIGHLIGHT]})
    assert saved.status_code == 200
    assert saved.json()["annotations"] == [{**HIGHLIGHT, "documentId": {"id": doc}}]
    assert store(client, "get", doc).json()["annotations"] == [
        {**HIGHLIGHT, "documentId": {"id": doc}}
    ]


def test_an_annotation_without_id_gets_one(client: Any, doc: str) -> None:
    body = {"annotations": [{"type": "Square", "page": 1}]}
    [saved] = store(client, "put", doc, body).json()["annotations"]
    assert isinstance(saved["id"]["id"], str) and len(saved["id"]["id"]) == 36
    assert store(client, "get", doc).json()["annotations"] == [saved]


def test_post_saves_or_updates_by_id(client: Any, doc: str) -> None:
    store(client, "put", doc, {"annotations": [HIGHLIGHT]})
    moved = {**HIGHLIGHT, "position": {"x": 110, "y": 200, "w": 150, "h": 20}}
    response = store(client, "post", doc, {"annotations": [moved]})
    assert response.status_code == 200
    [back] = store(client, "get", doc).json()["annotations"]
    assert back["position"]["x"] == 110
    # An id not stored yet is saved, as the original saves or updates.
    added = store(
        client, "post", doc, {"annotations": [{**moved, "id": {"id": "new"}}]}
    )
    assert added.status_code == 200
    ids = [a["id"]["id"] for a in store(client, "get", doc).json()["annotations"]]
    assert sorted(ids) == ["annot-001", "new"]


def test_put_with_a_stored_id_replaces_it(client: Any, doc: str) -> None:
    store(client, "put", doc, {"annotations": [HIGHLIGHT]})
    store(client, "put", doc, {"annotations": [{**HIGHLIGHT, "opacity": 1.0}]})
    annotations = store(client, "get", doc).json()["annotations"]
    assert [a["opacity"] for a in annotations] == [1.0]


def test_delete_removes_the_listed_annotations(client: Any, doc: str) -> None:
    other = {**HIGHLIGHT, "id": "plain-string-id", "page": 1}
    store(client, "put", doc, {"annotations": [HIGHLIGHT, other]})
    response = store(
        client, "delete", doc, {"annotations": [{"id": {"id": "annot-001"}}]}
    )
    assert response.status_code == 200
    assert [a["id"] for a in response.json()["annotations"]] == [{"id": "annot-001"}]
    assert [a["id"] for a in store(client, "get", doc).json()["annotations"]] == [
        "plain-string-id"
    ]


def test_annotations_are_listed_by_page(client: Any, doc: str) -> None:
    late = {"id": "b", "type": "Square", "page": 1}
    early = {"id": "a", "type": "Square", "page": 0}
    store(client, "put", doc, {"annotations": [late, early]})
    pages = [a["page"] for a in store(client, "get", doc).json()["annotations"]]
    assert pages == [0, 1]


@pytest.mark.parametrize(
    "annotation, field",
    [
        ({"page": 0}, "annotations"),
        ({"type": "Square"}, "annotations"),
        ({"type": "Square", "page": -1}, "annotations"),
        ({"type": "Square", "page": 2}, "annotations[0].page"),
        ({"type": "Square", "page": 0, "id": 5}, "annotations"),
    ],
)
def test_invalid_annotations_are_400_naming_the_field(
    client: Any, doc: str, annotation: dict[str, Any], field: str
) -> None:
    response = store(client, "put", doc, {"annotations": [annotation]})
    assert response.status_code == 400, response.content
    assert response["Content-Type"] == "application/problem+json"
    assert any(k.startswith(field) for k in response.json()["errors"])
    assert store(client, "get", doc).json() == {"annotations": []}


def test_unknown_or_missing_document_is_404_or_400(client: Any) -> None:
    assert store(client, "get", "missing").status_code == 404
    assert client.get("/annotation").status_code == 400


def test_annotations_go_with_their_document(client: Any, doc: str) -> None:
    store(client, "put", doc, {"annotations": [HIGHLIGHT]})
    client.delete("/documents/" + doc)
    from annotations.models import StoredAnnotation

    assert not StoredAnnotation.objects.exists()


def test_policy_says_what_the_server_allows(client: Any, doc: str) -> None:
    body = client.get("/annotation/policy").json()
    assert body["canCreateAnnotations"] is True
    assert body["annotationsSupportSecurity"] is False
    assert body["availableSecurityLevels"] is None
    reasons = {
        r["symbolicName"]: r["displayName"]["en"]
        for r in body["availableRedactReasons"]
    }
    assert reasons["(b)(6)"] == "Personal privacy" and len(reasons) == 9
    kinds = {t.rsplit(".", 1)[1] for t in body["annotationTypes"]}
    assert {"SquareElemType", "RedactTextElemType", "LineElemType"} <= kinds
    assert client.get(f"/annotation/policy?documentId={doc}").status_code == 200
    assert client.get("/annotation/policy?documentId=nope").status_code == 404


def test_policy_reasons_come_from_the_settings(client: Any, settings: Any) -> None:
    settings.SERVICE = replace(
        settings.SERVICE, redact_reasons=(("PII", "Personal data"),)
    )
    body = client.get("/annotation/policy").json()
    assert body["availableRedactReasons"] == [
        {"symbolicName": "PII", "displayName": {"en": "Personal data"}}
    ]
