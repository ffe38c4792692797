"""Bad redaction rules are refused with a 400 problem naming the field, before
any work: a value that is not a string is not taken for its text, and a
pattern too slow to run is named by its rule, not only described."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pymupdf
import pytest

from tests.orders.helpers import element, order_body


@pytest.fixture
def pdf(uploaded: Callable[..., str]) -> str:
    doc = pymupdf.open()
    page = doc.new_page(width=400, height=200)
    page.insert_text(
        (40, 60), "Acme " + "a" * 40 + "b, mail jane@example.org", fontsize=8
    )
    return uploaded(bytes(doc.tobytes()))


def _post(client: Any, pdf: str, rules: Any, query: str) -> Any:
    body = order_body([element(pdf)])
    body["redactionRules"] = rules
    return client.post(
        "/transformations" + query, data=body, content_type="application/json"
    )


BAD: list[tuple[Any, str]] = [
    ([{"text": 123}], "redactionRules[0].text"),
    ([{"text": True}], "redactionRules[0].text"),
    ([{"regex": 5}], "redactionRules[0].regex"),
    ([{"preset": "email", "overlayText": 5}], "redactionRules[0].overlayText"),
    ([{"preset": "email", "reason": 6}], "redactionRules[0].reason"),
    ([{"text": ""}], "redactionRules[0].text"),
    ([{"text": " \u00ad "}], "redactionRules[0].text"),
    ([{"regex": "(unclosed"}], "redactionRules[0].regex"),
    ([{"preset": "no-such"}], "redactionRules[0].preset"),
    ([{"text": "Acme"}] * 101, "redactionRules"),
    (["email"], "redactionRules[0]"),
    # The same rule twice would give its matches the same ids twice.
    ([{"text": "Acme"}, {"preset": "email"}, {"text": "Acme"}], "redactionRules[2]"),
]


@pytest.mark.parametrize("query", ["?dryRun=true", ""])
@pytest.mark.parametrize(("rules", "field"), BAD)
def test_a_bad_rule_is_a_400_naming_its_field(
    client: Any, pdf: str, rules: Any, field: str, query: str
) -> None:
    response = _post(client, pdf, rules, query)
    assert response.status_code == 400, response.content
    assert response["Content-Type"] == "application/problem+json"
    assert field in response.json()["errors"], response.json()


def test_a_pattern_too_slow_for_the_page_is_named_by_its_rule(
    client: Any, pdf: str
) -> None:
    rules = [{"preset": "email"}, {"regex": "(?:a|aa)+$"}]
    response = _post(client, pdf, rules, "?dryRun=true")
    assert response.status_code == 400, response.content
    assert response["Content-Type"] == "application/problem+json"
    problem = response.json()
    assert list(problem["errors"]) == ["redactionRules[1].regex"], problem
    assert problem["code"] == "invalid_search"
    assert "(?:a|aa)" not in str(problem)  # the pattern is not echoed


def test_an_order_whose_pattern_is_too_slow_fails_naming_the_rule(
    pdf: str, run_order: Callable[..., Any]
) -> None:
    body = order_body([element(pdf)])
    body["redactionRules"] = [{"preset": "email"}, {"regex": "(?:a|aa)+$"}]
    order = run_order(body)
    assert order["currentState"] == "FAILED"
    assert "redactionRules[1]" in order["errorMessage"], order["errorMessage"]
    assert "(?:a|aa)" not in order["errorMessage"]


def test_a_rule_that_matches_too_often_is_named(
    client: Any,
    pdf: str,
    run_order: Callable[..., Any],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr("orders.matching.MAX_MATCHES", 30)
    rules = [{"preset": "email"}, {"regex": "[a-z]"}]
    response = _post(client, pdf, rules, "?dryRun=true")
    assert response.status_code == 400, response.content
    problem = response.json()
    assert list(problem["errors"]) == ["redactionRules[1].regex"], problem
    assert problem["code"] == "over_limit"
    body = order_body([element(pdf)])
    body["redactionRules"] = rules
    order = run_order(body)
    assert order["currentState"] == "FAILED"
    assert order["errorMessage"].startswith("redactionRules[1]: more than 30 matches")


WRITES: list[dict[str, Any]] = [
    {"type": "stamp", "text": "Mail ops@corp.example", "position": "top"},
    {"type": "fillForm", "values": {"contact": "ops@corp.example"}, "flatten": True},
    {"type": "metadata", "title": "Questions: ops@corp.example"},
    {"type": "pageNumbers", "prefix": "ops@corp.example p. "},
    {"type": "outline", "bookmarks": [{"title": "see www.corp.example", "page": 1}]},
]


@pytest.mark.parametrize("query", ["?dryRun=true", ""])
@pytest.mark.parametrize("operation", WRITES, ids=lambda op: op["type"])
def test_an_operation_writing_what_a_rule_redacts_is_refused(
    client: Any, pdf: str, operation: dict[str, Any], query: str
) -> None:
    """The order's own stamps, numbers, form values, bookmarks and metadata
    would deliver in clear what its rules redact everywhere else."""
    body = order_body([element(pdf)])
    body["redactionRules"] = [{"text": "Acme"}, {"preset": "email"}, {"preset": "url"}]
    body["transformationDetails"][0]["operations"] = [operation]
    response = client.post(
        "/transformations" + query, data=body, content_type="application/json"
    )
    assert response.status_code == 400, response.content
    errors = response.json()["errors"]
    assert list(errors) == ["transformationDetails[0].operations[0]"], errors
    assert "redactionRules[" in errors["transformationDetails[0].operations[0]"][0]


def test_a_dry_run_past_its_deadline_is_refused(
    client: Any, pdf: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("orders.dryrun.MAX_SECONDS", 0.0)
    response = _post(client, pdf, [{"text": "Acme"}], "?dryRun=true")
    assert response.status_code == 400, response.content
    problem = response.json()
    assert list(problem["errors"]) == ["redactionRules"], problem
    assert problem["code"] == "over_limit"
