"""Unknown fields of a request body are refused with the nearest known one."""

from __future__ import annotations

from typing import Any, ClassVar

import pytest
from rest_framework import serializers

from orders.models import TransformationOrder
from transformsvc.strict import RejectsUnknownFields


class Element(RejectsUnknownFields):
    documentId = serializers.CharField()
    pagesSelectionList = serializers.ListField(required=False)


class Order(RejectsUnknownFields):
    tolerated: ClassVar[frozenset[str]] = frozenset({"clientHint"})
    format = serializers.CharField()
    elements = Element(many=True)
    annotations = serializers.DictField(required=False)


def _errors(data: dict[str, Any]) -> dict[str, Any]:
    body = Order(data=data)
    assert not body.is_valid()
    return dict(body.errors)


def test_a_misspelled_field_names_the_nearest_known_one() -> None:
    errors = _errors({"format": "pdf", "elements": [], "annotation": {}})
    assert errors == {"annotation": ["unknown field; did you mean 'annotations'?"]}


def test_nested_objects_are_checked_too() -> None:
    errors = _errors(
        {"format": "pdf", "elements": [{"documentId": "a", "pageSelectionList": []}]}
    )
    assert errors["elements"][0]["pageSelectionList"] == [
        "unknown field; did you mean 'pagesSelectionList'?"
    ]


def test_a_field_far_from_any_lists_the_known_ones() -> None:
    errors = _errors({"format": "pdf", "elements": [], "zzz": 1})
    assert errors["zzz"] == [
        "unknown field; known fields: annotations, elements, format"
    ]


@pytest.mark.parametrize("extra", [{}, {"clientHint": "x"}])
def test_known_and_tolerated_fields_pass(extra: dict[str, Any]) -> None:
    assert Order(data={"format": "pdf", "elements": [], **extra}).is_valid()


# Through the API: a typo in an order is a 400 naming it, never an order that
# runs without what the client meant.

QA_ANNOTATION = {  # as the original's QA suite sends them (every model field)
    "type": "com.arondor.viewer.annotation.api.FreetextElemType",
    "id": "21ea93fe-ca56-4b25-9a6b-e8091d45fd36",
    "creationDate": 1667828859995,
    "flags": {},
    "color": {"r": 0, "g": 255, "b": 255},
    "page": 0,
    "position": {"x": 110.0, "y": 110.0, "w": 100.0, "h": 20.0},
    "opacity": 0.7,
    "contentsRichtext": {
        "type": "com.arondor.viewer.annotation.api.RichtextElemType",
        "value": "<html><body>This is a freetext</body></html>",
    },
    "contents": "This is a freetext",
    "width": 2.0,
    "defaultappearance": "0 R 1 0 0",
    "creator": "Creator Name",
}


def _order(client: Any, body: dict[str, Any]) -> Any:
    return client.post("/transformations", data=body, content_type="application/json")


@pytest.fixture
def pdf_id(uploaded: Any, make_pdf: Any) -> str:
    return str(uploaded(make_pdf(2)))


@pytest.mark.parametrize(
    ("mistake", "field", "message"),
    [
        (
            lambda body, doc: body.update(annotation={"annotations": []}),
            "annotation",
            "unknown field; did you mean 'annotations'?",
        ),
        (
            lambda body, doc: body["transformationDetails"][0][
                "transformationElements"
            ][0].update(pageSelectionList=[{"minPage": 1, "maxPage": 1}]),
            "transformationDetails[0].transformationElements[0].pageSelectionList",
            "unknown field; did you mean 'pagesSelectionList'?",
        ),
        (
            lambda body, doc: body.update(
                annotations={
                    "annotations": [
                        {
                            "type": "RedactElemType",
                            "documentId": doc,
                            "page": 0,
                            "position": {"x": 1, "y": 1, "w": 9, "h": 9},
                            "overlaytext": "X",
                        }
                    ]
                }
            ),
            "annotations.annotations[0].overlaytext",
            "unknown field; did you mean 'overlayText'?",
        ),
        (
            lambda body, doc: body.update(redactionRules=[{"preset": "email", "x": 1}]),
            "redactionRules[0].x",
            "unknown field; known fields: accentSensitive, caseSensitive, "
            "overlayText, preset, reason, regex, text",
        ),
    ],
)
def test_an_order_with_a_misspelled_field_is_refused_naming_it(
    client: Any, pdf_id: str, mistake: Any, field: str, message: str
) -> None:
    body: dict[str, Any] = {
        "format": "pdf",
        "transformationDetails": [{"transformationElements": [{"documentId": pdf_id}]}],
    }
    mistake(body, pdf_id)
    refused = _order(client, body)
    assert refused.status_code == 400, refused.content
    assert refused.json()["errors"] == {field: [message]}
    assert not TransformationOrder.objects.exists()


def test_the_original_clients_annotation_fields_are_accepted_and_echoed(
    client: Any, pdf_id: str, django_capture_on_commit_callbacks: Any
) -> None:
    body = {
        "format": "pdf",
        "annotations": {
            "annotations": [{**QA_ANNOTATION, "documentId": {"id": pdf_id}}]
        },
        "transformationDetails": [{"transformationElements": [{"documentId": pdf_id}]}],
    }
    with django_capture_on_commit_callbacks(execute=True):
        created = _order(client, body)
    assert created.status_code == 200, created.content
    order_id = created.json()["transformationOrderId"]["id"]
    order = client.get(f"/transformations/{order_id}").json()
    assert order["currentState"] == "PROCESSED", order["errorMessage"]
    echoed = order["annotations"]["annotations"][0]
    assert (echoed["creator"], echoed["defaultappearance"]) == (
        "Creator Name",
        "0 R 1 0 0",
    )


@pytest.mark.parametrize(
    ("url", "body", "field", "message"),
    [
        (
            "/conversions",
            {"format": "pdf", "documentID": "{doc}"},
            "documentID",
            "unknown field; did you mean 'documentId'?",
        ),
        (
            "/comparisons",
            {"leftDocumentId": "{doc}", "rightDocumentId": "{doc}", "fuz": 2},
            "fuz",
            "unknown field; did you mean 'fuzz'?",
        ),
    ],
)
def test_conversions_and_comparisons_name_an_unknown_field_too(
    client: Any,
    pdf_id: str,
    url: str,
    body: dict[str, Any],
    field: str,
    message: str,
) -> None:
    sent = {
        k: v.format(doc=pdf_id) if isinstance(v, str) else v for k, v in body.items()
    }
    refused = client.post(url, data=sent, content_type="application/json")
    assert refused.status_code == 400, refused.content
    assert refused.json()["errors"][field] == [message]
