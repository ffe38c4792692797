"""Property-based run of the whole API from its own /openapi.json (schemathesis 4).

Schemathesis generates schema-valid and schema-invalid requests for every operation and
checks each answer: never a 5xx, a documented status code, and a body, content type and
headers as the schema describes them. A few real documents and orders are made first and
the generated ids are aimed at them part of the time, so the engine runs too (layout,
search, rendering, orders) instead of answering 404 to random ids. The stateful test
follows links declared here (upload → metadata/layout/text/image/order/comparison →
order state → result → delete), which drf-spectacular cannot put in the schema.

The run is deterministic (`derandomize`, no example database) and stays under a minute.
"""

from __future__ import annotations

import copy
import zlib
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any, TypeVar

import hypothesis
import pytest
import schemathesis
from hypothesis import HealthCheck, Phase, given
from hypothesis import strategies as st
from hypothesis.stateful import run_state_machine_as_test
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error
from schemathesis.core.failures import Failure, FailureGroup
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from documents.pdf.annotate import KINDS
from tests.conftest import make_pdf_bytes

# The orders run inline (django-q2 sync mode) when their transaction commits.
pytestmark = pytest.mark.django_db(transaction=True)

# What every answer must satisfy. The semantic checks of schemathesis (a schema-valid
# request must succeed, an invalid one must fail) are left out: an unknown id in a valid
# request is a legitimate 400/404 here.
CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
]

EXAMPLES_PER_MODE = 20
MIN_STATELESS_REQUESTS = 500
MIN_STATEFUL_REQUESTS = 100

ID_FIELDS = ("documentId", "leftDocumentId", "rightDocumentId")
# documentUrl is never left to the generator: a random public address must not be fetched.
SAFE_URLS = (
    "http://127.0.0.1:9/refused.pdf",
    "ftp://example.invalid/x.pdf",
    "not a url",
    "http://[::1]/x.pdf",
    "http://169.254.169.254/latest/meta-data",
)

PDFS = (
    make_pdf_bytes(3, prefix="alpha"),
    make_pdf_bytes(["gamma delta", "epsilon"], size=(612, 792), rotate=90),
)


@dataclass
class Seeds:
    documents: list[str]
    transformations: list[str]
    comparisons: list[str]


@dataclass
class Run:
    """Requests made and distinct failures found, keyed by (operation, failure title)."""

    requests: Counter[str] = field(default_factory=Counter)
    answers: Counter[tuple[str, int]] = field(default_factory=Counter)
    failures: dict[tuple[str, str], str] = field(default_factory=dict)

    def record(self, case: schemathesis.Case, response: Any) -> None:
        self.requests[case.operation.label] += 1
        self.answers[(case.operation.label, response.status_code)] += 1
        try:
            case.validate_response(response, checks=CHECKS)
        except FailureGroup as group:
            for failure in group.exceptions:
                self._add(case, failure)
        except Failure as failure:
            self._add(case, failure)

    def _add(self, case: schemathesis.Case, failure: Failure) -> None:
        key = (case.operation.label, failure.title)
        if key not in self.failures:
            text = f"{failure.message}\n    {case.as_curl_command()}"
            self.failures[key] = text[:1500]

    def report(self) -> str:
        return "\n".join(
            f"- {op}: {title}\n    {text}"
            for (op, title), text in sorted(self.failures.items())
        )


# Links between operations (OpenAPI 3 `links`), which drf-spectacular cannot declare:
# (operationId, status) → {name: (target operationId, parameters, requestBody)}.
DOC_ID = "$response.body#/id"
ORDER_ID = "$response.body#/transformationOrderId/id"
COMPARISON_ID = "$response.body#/comparisonOrderId/id"
LINKS: dict[str, dict[str, tuple[str, dict[str, str], Any]]] = {
    "uploadDocument": {
        "metadata": ("getDocument", {"path.document_id": DOC_ID}, None),
        "layout": ("getDocumentLayout", {"path.document_id": DOC_ID}, None),
        "file": ("getDocumentFile", {"path.document_id": DOC_ID}, None),
        "search": (
            "searchPageText",
            {"path.document_id": DOC_ID, "path.page": "0"},
            None,
        ),
        "lines": (
            "getPageTextPositions",
            {"path.document_id": DOC_ID, "path.page": "0"},
            None,
        ),
        "image": ("getPageImage", {"path.document_id": DOC_ID, "path.page": "0"}, None),
        "difference": (
            "getDifference",
            {"query.leftDocumentId": DOC_ID, "query.rightDocumentId": DOC_ID},
            None,
        ),
        "order": (
            "createTransformation",
            {},
            {
                "transformationDetails": [
                    {"transformationElements": [{"documentId": DOC_ID}]}
                ]
            },
        ),
        "comparison": (
            "createComparison",
            {},
            {"leftDocumentId": DOC_ID, "rightDocumentId": DOC_ID},
        ),
        "check": ("checkDocument", {"path.document_id": DOC_ID}, None),
        "bookmarks": ("getBookmarks", {"path.document_id": DOC_ID}, None),
        "destinations": ("getNamedDestinations", {"path.document_id": DOC_ID}, None),
        "signatures": ("getSignatures", {"path.document_id": DOC_ID}, None),
        "printable": ("getPrintableDocument", {"path.document_id": DOC_ID}, None),
        "chunk": (
            "getDocumentFileChunk",
            {"path.document_id": DOC_ID, "header.Range": "bytes=0-99"},
            None,
        ),
        "xfdf": ("getDocumentAnnotationsFile", {"path.document_id": DOC_ID}, None),
        "pages": ("searchDocumentPages", {"path.document_id": DOC_ID}, None),
        "rangeSearch": ("searchDocument", {"path.document_id": DOC_ID}, None),
        "stored": ("getStoredAnnotations", {"query.documentId": DOC_ID}, None),
        "store": (
            "createStoredAnnotations",
            {"query.documentId": DOC_ID},
            {"annotations": [{"type": "Highlight", "page": 0}]},
        ),
        "policy": ("getAnnotationPolicy", {"query.documentId": DOC_ID}, None),
        "delete": ("deleteDocument", {"path.document_id": DOC_ID}, None),
    },
    "createTransformation": {
        "state": ("getTransformation", {"path.order_id": ORDER_ID}, None),
        "delete": ("deleteTransformation", {"path.order_id": ORDER_ID}, None),
    },
    "getTransformation": {
        "result": (
            "getDocumentLayout",
            {"path.document_id": "$response.body#/transformationResultDocumentID/id"},
            None,
        ),
        "resultFile": (
            "getDocumentFile",
            {"path.document_id": "$response.body#/transformationResultDocumentID/id"},
            None,
        ),
    },
    "createComparison": {
        "state": ("getComparison", {"path.order_id": COMPARISON_ID}, None),
        "delete": ("deleteComparison", {"path.order_id": COMPARISON_ID}, None),
    },
    "getComparison": {
        "target": (
            "getDocumentFile",
            {"path.document_id": "$response.body#/targetDocumentId"},
            None,
        ),
    },
}


def with_links(raw: dict[str, Any]) -> dict[str, Any]:
    """A copy of the OpenAPI document with LINKS added to the 200 answers."""
    raw = copy.deepcopy(raw)
    for operations in raw["paths"].values():
        for operation in operations.values():
            for name, (target, parameters, body) in LINKS.get(
                operation.get("operationId"), {}
            ).items():
                link: dict[str, Any] = {"operationId": target, "parameters": parameters}
                if body is not None:
                    link["requestBody"] = body
                operation["responses"]["200"].setdefault("links", {})[name] = link
    return raw


# Only the links above: the inferred ones start every chain at POST /transformations.
CONFIG = schemathesis.Config.from_dict(
    {"phases": {"stateful": {"inference": {"algorithms": []}}}}
)


@pytest.fixture(autouse=True)
def worker_seen() -> None:
    """A worker that reports alive for the whole run, so /health/readiness answers
    200 as on a running service (a 503 is a server error to schemathesis)."""
    from django.utils import timezone

    from jobs.models import WorkerHeartbeat

    WorkerHeartbeat.objects.create(
        name="schemathesis", seen_at=timezone.now() + timedelta(hours=1)
    )


@pytest.fixture
def api_schema() -> Any:
    from transformsvc.wsgi import application

    return schemathesis.openapi.from_wsgi("/openapi.json", application, config=CONFIG)


@pytest.fixture
def linked_schema(api_schema: Any) -> Any:
    from transformsvc.wsgi import application

    schema = schemathesis.openapi.from_dict(
        with_links(api_schema.raw_schema), config=CONFIG
    )
    # As from_wsgi does: requests go to the WSGI app, in this process.
    schema.app = application
    return schema


@pytest.fixture
def seeds(client: Any, uploaded: Callable[..., str]) -> Seeds:
    documents = [uploaded(pdf, documentTitle=f"seed {n}") for n, pdf in enumerate(PDFS)]
    order = client.post(
        "/transformations",
        content_type="application/json",
        data={
            "format": "pdf",
            "transformationDetails": [
                {
                    "transformationElements": [
                        {
                            "documentId": documents[0],
                            "pagesSelectionList": [{"minPage": 2, "maxPage": 3}],
                        },
                        {"documentId": {"id": documents[1]}},
                    ]
                }
            ],
        },
    )
    comparison = client.post(
        "/comparisons",
        content_type="application/json",
        data={"leftDocumentId": documents[0], "rightDocumentId": documents[1]},
    )
    assert order.status_code == 200 and comparison.status_code == 200
    return Seeds(
        documents,
        [order.json()["transformationOrderId"]["id"]],
        [comparison.json()["comparisonOrderId"]["id"]],
    )


T = TypeVar("T")


def _pick(options: list[T], key: object) -> T:
    return options[zlib.crc32(repr(key).encode()) % len(options)]


COLOURS = ("FF0000", "#00ff00", "0000FF", "ffffff", "null")
DESCRIPTIONS = ("IM_100_0", "IM_64_90_FILTERS~C~35~B~-100~I~50", "IM_80_270")
RANGES = ("bytes=0-99", "bytes=10-", "bytes=5-2", "bytes=999999-")
XFDF = (
    b'<?xml version="1.0" encoding="UTF-8"?><xfdf xmlns="http://ns.adobe.com/xfdf/">'
    b'<annots><square page="0" rect="10,10,50,50" color="#FF0000" name="a1"/>'
    b"</annots></xfdf>"
)


def _aim_body(value: Any, document: str, key: str = "") -> Any:
    """Id fields of a JSON body (at any depth) → `document`; where the generator made a
    value of the right type that only our validation refuses (page past the end, colour,
    annotation type), a valid one of the same kind, so the order reaches the engine."""
    if isinstance(value, list):
        return [_aim_body(v, document, key) for v in value]
    if not isinstance(value, dict):
        return value
    out = {
        k: (
            document
            if k in ID_FIELDS and not isinstance(v, dict | list)
            else _aim_body(v, document, k)
        )
        for k, v in value.items()
    }
    if key in ID_FIELDS and isinstance(out.get("id"), str):
        out["id"] = document
    # A generated callback host does not resolve (400); webhooks are tested on their own.
    out.pop("callbackUrl", None)
    first, last = out.get("minPage"), out.get("maxPage")
    if type(first) is int and type(last) is int and first >= 1 and last >= 1:
        out["minPage"] = 1 + (first - 1) % 2
        out["maxPage"] = max(out["minPage"], 1 + (last - 1) % 2)
    if key == "annotations" and isinstance(out.get("type"), str):
        out["type"] = "com.example." + _pick(sorted(KINDS), out["type"])
    page = out.get("page")
    if key == "annotations" and type(page) is int and page >= 0:
        out["page"] = page % 2
    for name in ("highlightColor", "lowlightColor"):
        if isinstance(out.get(name), str):
            out[name] = _pick(list(COLOURS), out[name])
    return out


def _without_nul(value: Any) -> Any:
    if isinstance(value, str):
        return value.replace("\x00", "")
    if isinstance(value, list):
        return [_without_nul(v) for v in value]
    if isinstance(value, dict):
        return {_without_nul(k): _without_nul(v) for k, v in value.items()}
    return value


def _complete(body: Any, document: str) -> Any:
    """Every transformation output with at least one source: `document`."""
    if isinstance(body, dict) and isinstance(body.get("transformationDetails"), list):
        for detail in body["transformationDetails"]:
            if isinstance(detail, dict) and not detail.get("transformationElements"):
                detail["transformationElements"] = [{"documentId": document}]
    return body


def aim(
    case: schemathesis.Case, seeds: Seeds, document: str | None, page: str | None
) -> None:
    """Point a generated case at the seeded resources (None keeps the generated value)."""
    query = case.query if isinstance(case.query, dict) else None
    if query and "documentUrl" in query:
        query["documentUrl"] = _pick(list(SAFE_URLS), query["documentUrl"])
    if document is None:
        return
    headers = case.headers if isinstance(case.headers, dict) else None
    if headers and "Range" in headers:
        headers["Range"] = _pick(
            [*RANGES, headers["Range"]], (document, headers["Range"])
        )
    if query and "pageImageDescription" in query:
        query["pageImageDescription"] = _pick(
            [*DESCRIPTIONS, query["pageImageDescription"]],
            (document, query["pageImageDescription"]),
        )
    if query and "documentId" in query and case.operation.label != "POST /documents":
        query["documentId"] = document
    params = case.path_parameters or {}
    if "document_id" in params:
        params["document_id"] = document
    if "page" in params and page is not None:
        params["page"] = page
    if "order_id" in params:
        pool = (
            seeds.comparisons
            if "comparisons" in case.operation.path
            else seeds.transformations
        )
        params["order_id"] = _pick(pool, params["order_id"])
    if query:
        for name in ("leftDocumentId", "rightDocumentId"):
            if name in query:
                query[name] = _pick(seeds.documents, (name, document))
    if case.operation.label == "POST /documents" or (
        case.operation.label == "POST /documents/layout"
        and case.media_type == "application/octet-stream"
    ):
        case.body = _pick(list(PDFS), document)
        case.media_type = "application/octet-stream"
    elif case.operation.label == "POST /annotations/conversion":
        case.body = _pick([XFDF, b"", PDFS[0]], (document, str(case.query)))
        case.media_type = "application/octet-stream"
    elif isinstance(case.body, dict):
        case.body = _aim_body(case.body, document)


def forget_everything() -> None:
    from annotations.models import StoredAnnotation
    from comparisons.models import ComparisonOrder
    from documents.models import Document
    from orders.models import TransformationOrder

    StoredAnnotation.objects.all().delete()
    TransformationOrder.objects.all().delete()
    ComparisonOrder.objects.all().delete()
    Document.objects.all().delete()


def _first_id(body: Any) -> str | None:
    """The first document id string anywhere in a JSON body."""
    if isinstance(body, dict):
        for key, value in body.items():
            if key in ID_FIELDS and isinstance(value, str) and value:
                return value
            found = _first_id(value)
            if found:
                return found
    if isinstance(body, list):
        for value in body:
            found = _first_id(value)
            if found:
                return found
    return None


def _stateless_order(label: str) -> tuple[bool, str]:
    # Deletions last, so the seeded documents serve every other operation first.
    return (label.startswith("DELETE"), label)


def test_generated_requests_get_no_server_error_and_schema_conforming_answers(
    api_schema: Any, seeds: Seeds
) -> None:
    run = Run()
    operations = sorted(
        (r.ok() for r in api_schema.get_all_operations()),
        key=lambda op: _stateless_order(op.label),
    )
    for operation in operations:
        for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE):

            @given(
                case=operation.as_strategy(generation_mode=mode),
                # Hypothesis favours the first option: a real document.
                document=st.sampled_from([*seeds.documents, None]),
                page=st.sampled_from(["0", "1", "2", "3", "-1", None]),
            )
            @hypothesis.settings(
                max_examples=EXAMPLES_PER_MODE,
                derandomize=True,
                database=None,
                deadline=None,
                phases=[Phase.explicit, Phase.generate],
                suppress_health_check=list(HealthCheck),
            )
            def one(
                case: schemathesis.Case, document: str | None, page: str | None
            ) -> None:
                aim(case, seeds, document, page)
                run.record(case, case.call())

            try:
                one()
            except hypothesis.errors.Unsatisfiable:
                pass  # nothing in this operation can be made schema-invalid
    total = sum(run.requests.values())
    assert total >= MIN_STATELESS_REQUESTS, run.requests
    assert not run.failures, f"{len(run.failures)} distinct failures:\n{run.report()}"


def test_linked_request_sequences_get_no_server_error_and_schema_conforming_answers(
    linked_schema: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Hypothesis mixes string constants of every project module loaded so far into
    # its draws: derandomized, the chains then changed with any string added to the
    # project and with the order tests ran in. No local constants: same draws always.
    from hypothesis.internal.conjecture import providers

    monkeypatch.setattr(providers, "_get_local_constants", providers.Constants)
    run = Run()
    uploaded: list[str] = []  # ids uploaded by the chain under way

    class Chains(linked_schema.as_state_machine()):  # type: ignore[misc]
        def before_call(self, case: schemathesis.Case) -> None:
            if isinstance(case.query, dict) and "documentUrl" in case.query:
                case.query["documentUrl"] = _pick(
                    list(SAFE_URLS), case.query["documentUrl"]
                )
            if case.operation.label == "POST /documents":
                # An upload in a chain sends a real PDF, so what follows has a document.
                case.query = {
                    k: v for k, v in (case.query or {}).items() if k != "documentUrl"
                }
                case.body = _pick(list(PDFS), case.query)
                case.media_type = "application/octet-stream"
            linked = _first_id(case.body)
            if linked not in uploaded and uploaded:
                # A chain that reached an order by another path than an upload's
                # link carries a generated id: aim it at the chain's last upload.
                linked = uploaded[-1]
            if linked and case.operation.method.upper() == "POST":
                # The linked document everywhere, and valid pages and colours; no NUL
                # and no output without sources (both refused early, and tested on
                # their own), so that chains reach the workers whatever the generator's
                # draws, which change with every string constant of the project.
                case.body = _complete(
                    _without_nul(_aim_body(case.body, linked)), linked
                )

        def validate_response(
            self,
            response: Any,
            case: schemathesis.Case,
            additional_checks: Any = None,
            **kwargs: Any,
        ) -> None:
            run.record(case, response)
            if (
                case.operation.label == "POST /documents"
                and response.status_code == 200
            ):
                uploaded.append(response.json()["id"])

        def teardown(self) -> None:
            # Every scenario starts from an empty service: Hypothesis replays scenarios and
            # needs the same answers to the same requests (a kept id would turn 200 into 409).
            forget_everything()
            uploaded.clear()

    run_state_machine_as_test(
        Chains,
        settings=hypothesis.settings(
            max_examples=40,
            stateful_step_count=6,
            derandomize=True,
            database=None,
            deadline=None,
            phases=[Phase.explicit, Phase.generate],
            suppress_health_check=list(HealthCheck),
        ),
    )
    total = sum(run.requests.values())
    assert total >= MIN_STATEFUL_REQUESTS, run.requests
    # Chains went past the upload: orders, their states and results were reached.
    for answered in ("POST /documents", "POST /transformations", "POST /comparisons"):
        assert run.answers[(answered, 200)] > 0, run.answers
    assert not run.failures, f"{len(run.failures)} distinct failures:\n{run.report()}"
