"""The original's 2026 annotation API under a document, called as its broker
API reference shows (curl examples of broker-api.md), on the same store as
/annotation (what one saves the other lists)."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from tests.conftest import doc_url, make_pdf_bytes

JSON = "application/json"
HIGHLIGHT = {
    "type": "Highlight",
    "page": 0,
    "position": {"x": 100, "y": 200, "w": 150, "h": 20},
}


def _post(client: Any, url: str, body: dict[str, Any]) -> Any:
    return client.post(url, data=json.dumps(body), content_type=JSON)


def test_annotations_one_by_one_under_their_document(
    client: Any, uploaded: Callable[..., str]
) -> None:
    doc_id = uploaded(make_pdf_bytes(2))
    base = doc_url(doc_id, "/annotations")
    assert client.get(base + "/ids").json() == []
    # POST: the stored annotation comes back, with the id it was given.
    created = _post(client, base, HIGHLIGHT)
    assert created.status_code == 200
    stored = created.json()
    annotation_id = stored["id"]["id"]
    assert stored == {
        **HIGHLIGHT,
        "id": {"id": annotation_id},
        "documentId": {"id": doc_id},
    }
    named = _post(client, base, {**HIGHLIGHT, "id": {"id": "annot-002"}, "page": 1})
    assert named.json()["id"] == {"id": "annot-002"}
    assert client.get(base + "/ids").json() == [
        {"id": annotation_id},
        {"id": "annot-002"},
    ]
    # The same store as /annotation.
    listed = client.get(f"/annotation?documentId={doc_id}").json()["annotations"]
    assert [a["id"]["id"] for a in listed] == [annotation_id, "annot-002"]
    assert client.get(base).json() == listed
    # GET and PUT one; an unknown one is a 404.
    assert client.get(f"{base}/{annotation_id}").json() == stored
    moved = {**HIGHLIGHT, "position": {"x": 110, "y": 200, "w": 150, "h": 20}}
    replaced = client.put(
        f"{base}/annot-002", data=json.dumps(moved), content_type=JSON
    )
    assert replaced.status_code == 200
    assert replaced.json()["position"]["x"] == 110
    assert replaced.json()["id"] == {"id": "annot-002"}
    assert client.get(f"{base}/annot-002").json()["position"]["x"] == 110
    assert client.get(f"{base}/nope").status_code == 404
    assert (
        client.put(
            f"{base}/nope", data=json.dumps(moved), content_type=JSON
        ).status_code
        == 404
    )
    mismatch = client.put(
        f"{base}/annot-002",
        data=json.dumps({**moved, "id": "other"}),
        content_type=JSON,
    )
    assert mismatch.status_code == 400
    assert _post(client, base, {"page": 0}).status_code == 400
    # /file/annotations is still the XFDF of the PDF, not this store.
    xfdf = client.get(doc_url(doc_id, "/file/annotations"))
    assert xfdf["Content-Type"] == "application/vnd.adobe.xfdf"


def test_deleting_an_annotation_removes_its_replies_first(
    client: Any, uploaded: Callable[..., str]
) -> None:
    doc_id = uploaded(make_pdf_bytes(1))
    base = doc_url(doc_id, "/annotations")
    note = {"type": "Text", "page": 0, "contents": "Check this"}
    _post(client, base, {**note, "id": "note"})
    _post(client, base, {**note, "id": "reply", "inreplyto": "note"})
    _post(client, base, {**note, "id": "reply-to-reply", "inreplyto": {"id": "reply"}})
    _post(client, base, {**note, "id": "other"})
    deleted = client.delete(f"{base}/note")
    assert (deleted.status_code, deleted.content) == (200, b"")
    assert client.get(base + "/ids").json() == [{"id": "other"}]
    assert client.delete(f"{base}/note").status_code == 404
    assert client.get(doc_url("bad id", "/annotations/ids")).status_code == 404
