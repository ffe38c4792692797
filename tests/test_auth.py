"""TRANSFORMSVC_AUTH=token: bearer keys, and owners that see only their own things."""

from __future__ import annotations

from collections.abc import Callable
from io import StringIO
from typing import Any

import pytest
from django.core.management import call_command
from django.test import Client

from tests.conftest import doc_url, make_pdf_bytes
from tests.orders.helpers import element, order_body


@pytest.fixture
def token_auth(settings: Any) -> None:
    settings.TRANSFORMSVC_AUTH = "token"


def new_key(owner: str) -> str:
    out = StringIO()
    call_command("createapikey", owner, stdout=out)
    return out.getvalue().strip()


def as_owner(key: str) -> Client:
    return Client(HTTP_AUTHORIZATION=f"Bearer {key}")


def upload_as(client: Client, data: bytes) -> str:
    response = client.post(
        "/documents", data=data, content_type="application/octet-stream"
    )
    assert response.status_code == 200, response.content
    return response.json()["id"]


def test_without_a_key_the_api_answers_401_problem(
    token_auth: None, client: Any
) -> None:
    response = client.post(
        "/documents", data=make_pdf_bytes(1), content_type="application/octet-stream"
    )
    assert response.status_code == 401
    assert response["Content-Type"].startswith("application/problem+json")
    assert response["WWW-Authenticate"].startswith("Bearer")
    assert client.get("/transformations").status_code == 401


def test_a_wrong_key_is_401(token_auth: None) -> None:
    new_key("alice")
    response = as_owner("tsk_not-a-key").get("/transformations")
    assert response.status_code == 401
    assert "unknown" in response.json()["detail"]


def test_health_and_api_description_need_no_key(token_auth: None, client: Any) -> None:
    assert client.get("/health").status_code == 200
    assert client.get("/openapi.json").status_code == 200


def test_owners_see_only_their_own_documents_and_orders(
    token_auth: None, django_capture_on_commit_callbacks: Any
) -> None:
    alice, bob = as_owner(new_key("alice")), as_owner(new_key("bob"))
    alice_doc = upload_as(alice, make_pdf_bytes(2))
    bob_doc = upload_as(bob, make_pdf_bytes(1))
    assert alice.get(doc_url(alice_doc, "/layout")).status_code == 200
    assert [d["id"] for d in bob.get("/documents").json()] == [bob_doc]
    assert [d["id"] for d in alice.get("/documents").json()] == [alice_doc]
    for suffix in ("", "/layout", "/file", "/pages/0/text?searchText=page"):
        assert bob.get(doc_url(alice_doc) + suffix).status_code == 404, suffix

    with django_capture_on_commit_callbacks(execute=True):
        order = alice.post(
            "/transformations",
            data=order_body([element(alice_doc, (2, 2))]),
            content_type="application/json",
        )
    order_id = order.json()["transformationOrderId"]["id"]
    assert (
        alice.get(f"/transformations/{order_id}").json()["currentState"] == "PROCESSED"
    )
    assert bob.get(f"/transformations/{order_id}").status_code == 404
    assert bob.delete(f"/transformations/{order_id}").status_code == 404
    assert bob.get("/transformations").json() == []
    assert len(alice.get("/transformations").json()) == 1
    assert bob.delete("/transformations").status_code == 200
    assert len(alice.get("/transformations").json()) == 1, "bob removed only his own"
    result = alice.get(f"/transformations/{order_id}").json()[
        "transformationResultDocumentID"
    ]
    assert bob.get(doc_url(result["id"], "/file")).status_code == 404

    stolen = bob.post(
        "/transformations",
        data=order_body([element(alice_doc)]),
        content_type="application/json",
    )
    assert stolen.status_code == 400
    mixed = bob.post(
        "/comparisons",
        data={"leftDocumentId": bob_doc, "rightDocumentId": alice_doc},
        content_type="application/json",
    )
    assert mixed.status_code == 400

    assert bob.delete(doc_url(alice_doc)).status_code == 404
    assert alice.get(doc_url(alice_doc)).status_code == 200, (
        "another owner cannot delete it"
    )


def test_a_revoked_key_stops_working(token_auth: None) -> None:
    from accounts.models import ApiKey

    key = new_key("carol")
    assert as_owner(key).get("/transformations").status_code == 200
    ApiKey.objects.update(is_active=False)
    assert as_owner(key).get("/transformations").status_code == 401


def test_admin_can_create_a_key_and_shows_it_once(
    admin_client: Any, django_user_model: Any
) -> None:
    owner = django_user_model.objects.create(username="dave")
    response = admin_client.post(
        "/admin/accounts/apikey/add/",
        {"owner": owner.pk, "name": "ci", "is_active": "on"},
        follow=True,
    )
    assert response.status_code == 200
    shown = [str(m) for m in response.context["messages"]]
    assert any("tsk_" in m for m in shown), shown


def test_keys_are_stored_hashed(token_auth: None) -> None:
    from accounts.models import ApiKey

    key = new_key("erin")
    stored = ApiKey.objects.get()
    assert key not in (stored.key_hash, stored.prefix) and len(stored.key_hash) == 64


def test_auth_off_by_default_needs_no_key(
    client: Any, uploaded: Callable[..., str]
) -> None:
    doc = uploaded(make_pdf_bytes(1))
    assert client.get(doc_url(doc, "/layout")).status_code == 200


def test_stored_annotations_belong_to_their_owner(token_auth: None) -> None:
    alice, bob = as_owner(new_key("alice")), as_owner(new_key("bob"))
    alice_doc = upload_as(alice, make_pdf_bytes(1))
    url = "/annotation?documentId=" + alice_doc
    note = {"annotations": [{"id": {"id": "n1"}, "type": "Highlight", "page": 0}]}
    assert alice.put(url, data=note, content_type="application/json").status_code == 200
    assert [a["id"] for a in alice.get(url).json()["annotations"]] == [{"id": "n1"}]
    assert bob.get(url).status_code == 404
    for method in (bob.put, bob.post):
        response = method(url, data=note, content_type="application/json")
        assert response.status_code == 404, method
    gone = bob.delete(url, data=note, content_type="application/json")
    assert gone.status_code == 404
    assert len(alice.get(url).json()["annotations"]) == 1
