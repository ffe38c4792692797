"""The client's parts that need no service: problems read from bodies, what
counts as a server refusing redaction rules, paths, queries, progress lines."""

from __future__ import annotations

import io
import json
from pathlib import Path

from transformsvc_client.commands import _says_more
from transformsvc_client.core import Transport, encode_query
from transformsvc_client.errors import ProblemError
from transformsvc_client.flows import default_converted_path
from transformsvc_client.progress import StderrProgress, describe
from transformsvc_client.redaction import _refuses_the_field
from transformsvc_client.shapes import Order


def _problem(detail: str, errors: dict[str, list[str]] | None = None) -> ProblemError:
    body = {"type": "about:blank", "title": "Invalid input", "status": 400}
    body |= {"detail": detail, "errors": errors or {}}
    return ProblemError.from_body(400, "Bad Request", json.dumps(body).encode())


def _order(
    state: str, queued: int | None = 1200, processing: int | None = None
) -> Order:
    return Order("transformation", "o1", state, None, queued, processing, None, ())


def test_a_problem_body_gives_status_detail_and_field_errors() -> None:
    field = "transformationDetails[0].format"
    problem = ProblemError.from_body(
        400,
        "Bad Request",
        json.dumps(
            {
                "title": "Invalid input",
                "status": 400,
                "detail": "bad",
                "errors": {field: ["no"]},
            }
        ).encode(),
        request_id="r1",
    )
    assert (problem.status, problem.title, problem.detail) == (
        400,
        "Invalid input",
        "bad",
    )
    assert problem.errors == {field: ["no"]} and problem.request_id == "r1"
    assert str(problem) == "bad (HTTP 400)"


def test_a_proxy_page_becomes_a_problem_with_its_text_and_pause() -> None:
    problem = ProblemError.from_body(
        503, "Service Unavailable", b"<html>down for repairs</html>", retry_after="7"
    )
    assert problem.status == 503 and problem.title == "Service Unavailable"
    assert "down for repairs" in problem.detail and problem.retry_after == 7.0


def test_only_a_refusal_of_the_rules_field_itself_means_rules_are_unsupported() -> None:
    assert _refuses_the_field(
        _problem("unknown field", {"redactionRules": ["unknown"]})
    )
    assert _refuses_the_field(
        _problem("unknown field 'redactionRules'; did you mean 'annotations'?")
    )
    # A server that takes rules and refuses one of them.
    assert not _refuses_the_field(
        _problem("unknown preset", {"redactionRules[0].preset": ["unknown preset"]})
    )
    assert not _refuses_the_field(_problem("no document", {"documentId": ["no"]}))


def test_a_404_that_says_more_than_not_found_is_kept() -> None:
    assert not _says_more(_problem("no transformation order with id 'x'"))
    assert _says_more(_problem("transformation order 'x' was deleted at 10:02"))


def test_ids_are_one_path_segment_and_queries_read_as_the_service_reads_them() -> None:
    assert (
        Transport.path("documents", "b64_ab/c+d==") == "/documents/b64_ab%2Fc%2Bd%3D%3D"
    )
    query = encode_query(
        {"regex": True, "caseSensitive": False, "fromPage": 0, "x": None}
    )
    assert query == "?regex=true&caseSensitive=false&fromPage=0"
    assert encode_query({"x": None}) == ""


def test_a_converted_file_never_replaces_its_source(tmp_path: Path) -> None:
    assert default_converted_path(tmp_path / "a.docx", "pdf", 3) == tmp_path / "a.pdf"
    assert default_converted_path(tmp_path / "a.pdf", "pdf", 1) == (
        tmp_path / "a-converted.pdf"
    )
    assert default_converted_path(tmp_path / "a.docx", "png", 2) == tmp_path / "a.zip"
    assert default_converted_path(tmp_path / "a.docx", "png", 1) == tmp_path / "a.png"


def test_progress_in_a_log_is_a_line_per_state_and_nothing_when_quiet() -> None:
    assert describe(_order("PROCESSING", 1200, 3456)) == (
        "transformation o1: PROCESSING (queued 1.2 s, processing 3.5 s)"
    )
    log = io.StringIO()
    progress = StderrProgress(log)
    for state in ("QUEUED", "QUEUED", "PROCESSING", "PROCESSED"):
        progress.order(_order(state))
    assert [line.split(": ")[1].split()[0] for line in log.getvalue().splitlines()] == [
        "QUEUED",
        "PROCESSING",
        "PROCESSED",
    ]
    silent = io.StringIO()
    StderrProgress(silent, quiet=True).order(_order("QUEUED"))
    assert silent.getvalue() == ""
