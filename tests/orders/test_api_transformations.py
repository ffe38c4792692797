"""Transformation orders over HTTP: assembly, merge, several outputs, zip, validation."""

from __future__ import annotations

import io
import re
import zipfile
from collections.abc import Callable
from typing import Any

import pikepdf
import pytest

from orders.models import TransformationOrder
from tests.conftest import doc_url
from tests.orders.helpers import (
    element,
    file_path,
    order_body,
    pdftotext_pages,
    qpdf_check,
)

ISO_MS = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+00:00$")


@pytest.fixture
def doc_a(uploaded: Callable[..., str], make_pdf: Callable[..., bytes]) -> str:
    return uploaded(make_pdf(10, prefix="alpha page"))


@pytest.fixture
def doc_b(uploaded: Callable[..., str], make_pdf: Callable[..., bytes]) -> str:
    return uploaded(make_pdf(4, prefix="beta page"))


def result_pages(order: dict[str, Any]) -> list[str]:
    assert order["currentState"] == "PROCESSED", order["errorMessage"]
    path = file_path(order["transformationResultDocumentID"]["id"])
    qpdf_check(path)
    return pdftotext_pages(path)


def test_selection_reorders_and_repeats_pages(
    run_order: Callable[..., dict[str, Any]], doc_a: str
) -> None:
    order = run_order(order_body([element(doc_a, (7, 7), (2, 3), (2, 2), (9, 10))]))
    assert result_pages(order) == [
        "alpha page 7",
        "alpha page 2",
        "alpha page 3",
        "alpha page 2",
        "alpha page 9",
        "alpha page 10",
    ]


def test_overlapping_ranges_are_taken_as_listed(
    run_order: Callable[..., dict[str, Any]], doc_a: str
) -> None:
    order = run_order(order_body([element(doc_a, (1, 3), (2, 4))]))
    assert result_pages(order) == [f"alpha page {n}" for n in (1, 2, 3, 2, 3, 4)]


def test_repeated_page_is_a_real_copy(
    run_order: Callable[..., dict[str, Any]], doc_a: str
) -> None:
    order = run_order(order_body([element(doc_a, (5, 5), (5, 5))]))
    with pikepdf.open(file_path(order["transformationResultDocumentID"]["id"])) as pdf:
        first, second = (page.obj.objgen for page in pdf.pages)
        assert first != second


def test_merge_joins_documents_in_order(
    run_order: Callable[..., dict[str, Any]], doc_a: str, doc_b: str
) -> None:
    order = run_order(
        order_body([element(doc_b, (4, 4)), element(doc_a, (1, 2)), element(doc_b)])
    )
    assert result_pages(order) == [
        "beta page 4",
        "alpha page 1",
        "alpha page 2",
        "beta page 1",
        "beta page 2",
        "beta page 3",
        "beta page 4",
    ]


def test_order_echoes_the_request_with_every_field(
    run_order: Callable[..., dict[str, Any]], doc_a: str
) -> None:
    order = run_order(order_body([element(doc_a, (1, 1))]))
    assert set(order) >= {
        "transformationOrderId",
        "transformationDetails",
        "currentState",
        "transformationResultDocumentID",
        "annotations",
        "format",
        "errorMessage",
        "queuedDate",
        "processedDate",
        "queuedTime",
        "processingTime",
    }
    assert order["transformationDetails"] == [
        {
            "transformationElements": [
                {
                    "documentId": {"id": doc_a},
                    "pagesSelectionList": [{"minPage": 1, "maxPage": 1}],
                    "documentTitle": None,
                }
            ],
            "documentTitle": None,
        }
    ]
    assert order["format"] == "pdf" and order["errorMessage"] is None
    assert order["annotations"] is None
    assert ISO_MS.match(order["queuedDate"]) and ISO_MS.match(order["processedDate"])
    assert isinstance(order["queuedTime"], int) and isinstance(
        order["processingTime"], int
    )
    assert order["queuedTime"] >= 0 and order["processingTime"] >= 0


def test_several_outputs_give_a_container_zip_and_child_documents(
    run_order: Callable[..., dict[str, Any]], client: Any, doc_a: str, doc_b: str
) -> None:
    order = run_order(
        order_body(
            [element(doc_a, (2, 2))], [element(doc_b, (1, 2))], titles=["first", None]
        )
    )
    result_id = order["transformationResultDocumentID"]["id"]
    children = [c["id"] for c in order["transformationResultDocumentIDs"]]
    assert children == [f"{result_id}/0", f"{result_id}/1"]
    assert pdftotext_pages(file_path(children[0])) == ["alpha page 2"]
    assert pdftotext_pages(file_path(children[1])) == ["beta page 1", "beta page 2"]
    # The part's `/` written raw, percent-encoded, or as `@` (the original's rule).
    for spelling in (children[1], f"{result_id}@1"):
        layout = client.get(doc_url(spelling, "/layout")).json()
        assert len(layout["pageDimensionsList"]) == 2
        assert layout["documentId"] == {"id": children[1]}
    raw = client.get(f"/documents/{result_id}/1/layout")
    assert raw.json()["documentId"] == {"id": children[1]}
    container = client.get(doc_url(result_id, "/file"))
    assert container["Content-Type"] == "application/zip"
    with zipfile.ZipFile(io.BytesIO(b"".join(container.streaming_content))) as archive:
        assert archive.namelist() == ["first.pdf", "document-2.pdf"]
        assert archive.read("first.pdf") == file_path(children[0]).read_bytes()


def test_zip_format_has_one_entry_per_element_with_safe_unique_names(
    run_order: Callable[..., dict[str, Any]], client: Any, doc_a: str, doc_b: str
) -> None:
    order = run_order(
        order_body(
            [
                element(doc_a, (1, 1), title="../x"),
                element(doc_b, (2, 3), title="report"),
                element(doc_a, (3, 3), title="report"),
                element(doc_b),
            ],
            fmt="zip",
        )
    )
    assert order["currentState"] == "PROCESSED", order["errorMessage"]
    result_id = order["transformationResultDocumentID"]["id"]
    response = client.get(doc_url(result_id, "/file", format="zip"))
    with zipfile.ZipFile(io.BytesIO(b"".join(response.streaming_content))) as archive:
        names = archive.namelist()
        assert names == ["x.pdf", "report.pdf", "report (2).pdf", "document-4.pdf"]
        for name in names:
            assert "/" not in name and ".." not in name
        texts = {}
        for name in names:
            target = file_path(result_id).parent / ("check-" + name)
            target.write_bytes(archive.read(name))
            texts[name] = pdftotext_pages(target)
    assert texts["x.pdf"] == ["alpha page 1"]
    assert texts["report.pdf"] == ["beta page 2", "beta page 3"]
    assert texts["report (2).pdf"] == ["alpha page 3"]
    assert len(texts["document-4.pdf"]) == 4


@pytest.mark.parametrize(
    ("mutate", "field"),
    [
        (
            lambda b: b["transformationDetails"][0]["transformationElements"][0].update(
                documentId="missing"
            ),
            "transformationDetails[0].transformationElements[0].documentId",
        ),
        (
            lambda b: b["transformationDetails"][0]["transformationElements"][0].update(
                pagesSelectionList=[{"minPage": 1, "maxPage": 11}]
            ),
            "transformationDetails[0].transformationElements[0].pagesSelectionList[0].maxPage",
        ),
        (
            lambda b: b["transformationDetails"][0]["transformationElements"][0].update(
                pagesSelectionList=[{"minPage": 0, "maxPage": 1}]
            ),
            "transformationDetails[0].transformationElements[0].pagesSelectionList[0].minPage",
        ),
        (
            lambda b: b["transformationDetails"][0]["transformationElements"][0].update(
                pagesSelectionList=[{"minPage": 3, "maxPage": 2}]
            ),
            "transformationDetails[0].transformationElements[0].pagesSelectionList[0].maxPage",
        ),
        (lambda b: b.update(format="docx"), "format"),
        (lambda b: b.update(transformationDetails=[]), "transformationDetails"),
    ],
)
def test_invalid_orders_are_400_naming_the_field_and_nothing_is_queued(
    client: Any,
    django_capture_on_commit_callbacks: Any,
    doc_a: str,
    mutate: Callable[[dict[str, Any]], None],
    field: str,
) -> None:
    body = order_body([element(doc_a, (1, 2))])
    mutate(body)
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        response = client.post(
            "/transformations", data=body, content_type="application/json"
        )
    assert response.status_code == 400, response.content
    problem = response.json()
    assert field in problem["errors"], problem
    assert problem["detail"]
    assert callbacks == []
    assert TransformationOrder.objects.count() == 0


def test_unknown_order_is_404(client: Any) -> None:
    response = client.get("/transformations/does-not-exist")
    assert response.status_code == 404
    assert response["Content-Type"].startswith("application/problem+json")


def test_listing_is_newest_first_and_filters_by_state(
    run_order: Callable[..., dict[str, Any]], client: Any, doc_a: str
) -> None:
    first = run_order(order_body([element(doc_a, (1, 1))]))
    second = run_order(order_body([element(doc_a, (2, 2))]))
    listing = client.get("/transformations").json()
    ids = [o["transformationOrderId"]["id"] for o in listing]
    assert ids == [
        second["transformationOrderId"]["id"],
        first["transformationOrderId"]["id"],
    ]
    assert client.get("/transformations?state=FAILED").json() == []
    page = client.get("/transformations?state=PROCESSED&pageSize=1")
    assert [o["transformationOrderId"]["id"] for o in page.json()] == [ids[0]]
    assert page["X-Total-Count"] == "2"
    assert re.search(r'<[^>]*\bpage=2\b[^>]*>; rel="next"', page["Link"])
    assert "state=PROCESSED" in page["Link"] and "pageSize=1" in page["Link"]
    second_page = client.get("/transformations?state=PROCESSED&pageSize=1&page=2")
    assert [o["transformationOrderId"]["id"] for o in second_page.json()] == [ids[1]]
    assert 'rel="next"' not in second_page["Link"]
    assert re.search(r'<[^>]*\bpage=1\b[^>]*>; rel="prev"', second_page["Link"])


def test_delete_all_removes_every_order_of_the_caller(
    run_order: Callable[..., dict[str, Any]], client: Any, doc_a: str
) -> None:
    order = run_order(order_body([element(doc_a, (1, 1))]))
    run_order(order_body([element(doc_a, (2, 2))]))
    response = client.delete("/transformations")
    assert response.status_code == 200
    assert client.get("/transformations").json() == []
    order_id = order["transformationOrderId"]["id"]
    assert client.get(f"/transformations/{order_id}").status_code == 404
    # The results are documents of their own and stay.
    result = order["transformationResultDocumentID"]["id"]
    assert client.get(doc_url(result)).status_code == 200


def test_delete_removes_the_order(
    run_order: Callable[..., dict[str, Any]], client: Any, doc_a: str
) -> None:
    order_id = run_order(order_body([element(doc_a, (1, 1))]))["transformationOrderId"][
        "id"
    ]
    assert client.delete(f"/transformations/{order_id}").status_code == 200
    assert client.get(f"/transformations/{order_id}").status_code == 404
    assert client.delete(f"/transformations/{order_id}").status_code == 404


def test_a_source_deleted_before_the_worker_runs_fails_the_order_clearly(
    client: Any, django_capture_on_commit_callbacks: Any, doc_a: str
) -> None:
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        response = client.post(
            "/transformations",
            data=order_body([element(doc_a)]),
            content_type="application/json",
        )
    client.delete(doc_url(doc_a))
    for callback in callbacks:
        callback()
    order = client.get(
        f"/transformations/{response.json()['transformationOrderId']['id']}"
    )
    body = order.json()
    assert body["currentState"] == "FAILED"
    assert doc_a in body["errorMessage"] and "deleted" in body["errorMessage"]
    assert body["transformationResultDocumentID"] is None


@pytest.mark.corpus
def test_corpus_pages_keep_their_rotation_and_order(
    run_order: Callable[..., dict[str, Any]],
    client: Any,
    uploaded: Callable[..., str],
    corpus: Any,
    facts: dict[str, Any],
) -> None:
    rotation = uploaded((corpus / "rotation.pdf").read_bytes())
    hello = uploaded((corpus / "hello_world_rotated.pdf").read_bytes())
    order = run_order(
        order_body([element(rotation, (2, 2), (1, 1)), element(hello, (3, 3))])
    )
    result = order["transformationResultDocumentID"]["id"]
    layout = client.get(doc_url(result, "/layout")).json()["pageDimensionsList"]
    assert [(p["width"], p["height"], p["rotation"]) for p in layout] == [
        (792, 612, 90),
        (612, 792, 0),
        (792, 612, 90),
    ]
    pages = result_pages(order)
    heads = facts["rotation.pdf"]["text"]["page_heads"]
    assert pages[0].startswith(heads[1][:20]) and pages[1].startswith(heads[0][:20])
    assert "Hello" in pages[2]


def test_a_nul_character_anywhere_in_the_body_is_400(client: Any, doc_a: str) -> None:
    body = order_body([element(doc_a)])
    body["transformationDetails"][0]["documentTitle"] = "a\x00b"
    body["transformationDetails"][0]["transformationElements"][0]["documentId"] = {
        "id": doc_a,
        "extra\x00": 1,
    }
    response = client.post(
        "/transformations", data=body, content_type="application/json"
    )
    assert response.status_code == 400
    assert "NUL" in response.json()["detail"]
