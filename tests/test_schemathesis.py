"""Property-based run of the whole API from its own /openapi.json (schemathesis 4).

Schemathesis generates schema-valid and schema-invalid requests for every operation and
checks each answer: never a 5xx, a documented status code, and a body, content type and
headers as the schema describes them. A few real documents and orders are made first and
the generated ids are aimed at them part of the time, so the engine runs too (layout,
search, rendering, orders) instead of answering 404 to random ids. The stateful test
follows links declared in tests/schemathesis_support/links.py (upload →
metadata/layout/text/image/order/comparison → order state → result → delete), which
drf-spectacular cannot put in the schema.

The run is deterministic (`derandomize`, no example database) and stays under a minute.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

import hypothesis
import pytest
import schemathesis
from hypothesis import HealthCheck, Phase, given
from hypothesis import strategies as st
from hypothesis.stateful import run_state_machine_as_test
from schemathesis import GenerationMode

from tests.schemathesis_support.aiming import (
    PDFS,
    SAFE_URLS,
    Seeds,
    _aim_body,
    _complete,
    _first_id,
    _pick,
    _without_nul,
    aim,
    forget_everything,
)
from tests.schemathesis_support.checks import Run
from tests.schemathesis_support.links import CONFIG, with_links

# The orders run inline (django-q2 sync mode) when their transaction commits.
pytestmark = pytest.mark.django_db(transaction=True)

# Schema-invalid cases cost more to draw (most drafts of a negated id pattern are
# rejected) and an aimed id replaces the generated one, so half as many: every
# operation still gets both modes, and bench/fuzz.py runs thousands of each.
EXAMPLES_PER_MODE = {GenerationMode.POSITIVE: 20, GenerationMode.NEGATIVE: 10}
MIN_STATELESS_REQUESTS = 500
MIN_STATEFUL_REQUESTS = 100


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


# Operations that make orders: a chain reaching one works on a real document.
ORDERS = ("POST /transformations", "POST /comparisons")


def _upload_for_chain(body: Any) -> str:
    """Upload one of the PDFS (chosen by the body) as a chain's document; its id."""
    from django.test import Client

    response = Client().post(
        "/documents",
        data=_pick(list(PDFS), repr(body)),
        content_type="application/octet-stream",
    )
    assert response.status_code == 200, response.content
    return str(response.json()["id"])


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
                max_examples=EXAMPLES_PER_MODE[mode],
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
    assert set(run.requests) == {op.label for op in operations}, "an operation unrun"
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
            if case.operation.label in ORDERS and not uploaded:
                # An order first in its chain (the schema's example bodies make
                # that frequent) gets a document of its own to work on.
                uploaded.append(_upload_for_chain(case.body))
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
