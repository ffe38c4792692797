"""The `transformsvc` command and its client against the real service: gunicorn
and a qcluster on the test database in token mode, one service for the module.
Outputs are read back with poppler's tools, never with the service."""

from __future__ import annotations

import io
import json
import re
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path
from subprocess import PIPE
from typing import Any

import pytest
from django.core.management import call_command
from django.test import override_settings

from accounts.keys import apikey_create
from tests.client.helpers import (
    POPPLER_ABSENT,
    pdf_pages,
    pdf_text,
    poppler_missing,
    run_cli,
)
from tests.conftest import make_pdf_bytes
from tests.convert import hostile
from tests.convert.files import make_docx
from tests.live import LiveService, free_port, live_service
from transformsvc_client import Client, Order, ProblemError
from transformsvc_client.transformations import element, output, request

pytestmark = [
    pytest.mark.cluster,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(poppler_missing(), reason=POPPLER_ABSENT),
]


@pytest.fixture(scope="module")
def service(
    django_db_setup: None,
    django_db_blocker: Any,
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[LiveService]:
    tmp = tmp_path_factory.mktemp("client")
    data = tmp / "data"
    with (
        django_db_blocker.unblock(),
        override_settings(DATA_DIR=data, MEDIA_ROOT=data / "files"),
    ):
        token = {"TRANSFORMSVC_AUTH": "token"}
        with live_service(tmp / "live", extra_env=token) as live:
            yield live
        # Each test empties the database as it ends; what the service wrote after
        # the last one (a heartbeat) goes now that it has stopped.
        call_command("flush", interactive=False, verbosity=0)


@pytest.fixture
def key() -> str:
    """A key of its own for each test (the database is emptied between tests)."""
    return apikey_create(owner_name="client-cli")[1]


Cli = Callable[..., subprocess.CompletedProcess[str]]


@pytest.fixture
def cli(service: LiveService, key: str, tmp_path: Path) -> Cli:
    """`transformsvc ARGS` in the test's directory, with the test's key."""

    def _run(*args: str) -> subprocess.CompletedProcess[str]:
        return run_cli(service.base, key, *args, cwd=tmp_path)

    return _run


def test_upload_layout_and_search_count_pages_from_one(
    cli: Cli, tmp_path: Path
) -> None:
    (tmp_path / "in.pdf").write_bytes(
        make_pdf_bytes(["nothing to see", "Acme owes money", "Acme again"])
    )
    uploaded = cli("upload", "in.pdf", "--title", "ledger")
    assert uploaded.returncode == 0, uploaded.stderr
    document_id = uploaded.stdout.strip()
    assert document_id and "\n" not in document_id

    layout = cli("layout", document_id)
    assert layout.returncode == 0, layout.stderr
    assert layout.stdout.splitlines()[0] == "ledger (application/pdf): 3 pages"
    assert "page 3: 595 x 842 pt, rotation 0" in layout.stdout

    found = cli("search", document_id, "acme")
    assert found.returncode == 0, found.stderr
    assert re.findall(r"^page (\d+): 'Acme'", found.stdout, re.M) == ["2", "3"]
    assert "2 hits on 2 pages" in found.stderr
    exact = cli("search", document_id, "acme", "--case-sensitive")
    assert exact.stdout == "" and "0 hits" in exact.stderr
    (tmp_path / "other.pdf").write_bytes(make_pdf_bytes(1))
    other = cli("upload", "other.pdf", "--title", "minutes").stdout.strip()
    listed = cli("list")
    assert listed.returncode == 0, listed.stderr
    assert listed.stdout.splitlines() == [
        f"{other}\tpdf\t1\tminutes",
        f"{document_id}\tpdf\t3\tledger",
    ]
    assert cli("list", "LEDGER").stdout.split("\t")[0] == document_id
    pattern = cli("search", document_id, r"A\w+ (owes|again)", "--regex", "--json")
    hits = json.loads(pattern.stdout)
    assert [h["positionText"]["pageNumber"] for h in hits] == [1, 2]  # the wire's 0


def test_redact_removes_the_word_everywhere_and_keeps_the_rest(
    cli: Cli, tmp_path: Path
) -> None:
    (tmp_path / "in.pdf").write_bytes(
        make_pdf_bytes(["Acme pays the harbour fee", "lantern", "Meadow and ACME"])
    )
    done = cli("redact", "in.pdf", "-o", "out.pdf", "--text", "Acme")
    assert done.returncode == 0, done.stderr
    assert "'Acme': 2 found on pages 1, 3" in done.stderr
    assert re.search(r"transformation \S+: PROCESSED \(queued", done.stderr)
    out = tmp_path / "out.pdf"
    assert pdf_pages(out) == 3
    text = pdf_text(out)
    assert "acme" not in text.lower()
    for word in ("harbour", "lantern", "Meadow"):
        assert word in text


def test_redact_by_rule_removes_the_address(cli: Cli, tmp_path: Path) -> None:
    (tmp_path / "in.pdf").write_bytes(make_pdf_bytes(["write to jane@example.org"]))
    done = cli("redact", "in.pdf", "-o", "out.pdf", "--rule", "email")
    assert done.returncode == 0, done.stderr
    text = pdf_text(tmp_path / "out.pdf")
    assert "example.org" not in text and "write to" in text


def test_merge_takes_each_page_from_its_source_in_order(
    cli: Cli, tmp_path: Path
) -> None:
    (tmp_path / "a.pdf").write_bytes(make_pdf_bytes(["lantern one", "lantern two"]))
    make_docx(tmp_path / "b.docx", ["Orchard", "The orchard walnut is ripe."])
    done = cli("merge", "a.pdf", "b.docx", "-o", "merged.pdf", "--quiet")
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""  # --quiet: no progress
    merged = tmp_path / "merged.pdf"
    assert pdf_pages(merged) == 3
    assert "lantern one" in pdf_text(merged, 1)
    assert "lantern two" in pdf_text(merged, 2)
    third = pdf_text(merged, 3)
    assert "walnut is ripe" in third and "lantern" not in third


def test_convert_writes_a_pdf_with_the_words_of_the_docx(
    cli: Cli, tmp_path: Path
) -> None:
    make_docx(tmp_path / "memo.docx", ["Memo", "Quarry saddle thistle velvet."])
    done = cli("convert", "memo.docx", "--to", "pdf")
    assert done.returncode == 0, done.stderr
    assert re.search(r"conversion \S+: PROCESSED", done.stderr)
    text = " ".join(pdf_text(tmp_path / "memo.pdf").split())
    assert "Memo" in text and "Quarry saddle thistle velvet." in text


def test_failures_exit_with_their_code_and_say_why(
    cli: Cli, service: LiveService, key: str, tmp_path: Path
) -> None:
    unknown = cli("layout", "no-such-document")
    assert unknown.returncode == 3
    assert "no document with id 'no-such-document' (HTTP 404)" in unknown.stderr

    hostile.docx_billion_laughs(tmp_path / "laughs.docx")
    refused = cli("convert", "laughs.docx", "--to", "pdf", "-o", "laughs.pdf")
    assert refused.returncode == 1, refused.stderr
    assert "FAILED" in refused.stderr and "entit" in refused.stderr
    assert not (tmp_path / "laughs.pdf").exists()

    client = Client(service.base, key)
    # From a pipe, whose length is known only at its end.
    with subprocess.Popen(["cat", "laughs.docx"], cwd=tmp_path, stdout=PIPE) as cat:
        assert cat.stdout is not None
        document_id = client.documents.upload(cat.stdout)
    order_id = client.documents.info(document_id).conversion_order_ids["pdf"]
    waited = cli("order", "wait", order_id)  # its kind found by its id
    assert waited.returncode == 1
    assert json.loads(waited.stdout)["currentState"] == "FAILED"
    assert "failed: the Word document declares a DTD" in waited.stderr

    assert cli("redact", "laughs.docx", "-o", "x.pdf").returncode == 2
    assert cli("upload", "missing.pdf").returncode == 2
    nobody = run_cli(
        f"http://127.0.0.1:{free_port()}", key, "layout", "x", cwd=tmp_path
    )
    assert nobody.returncode == 3 and "cannot reach the service" in nobody.stderr
    no_key = run_cli(service.base, None, "layout", document_id, cwd=tmp_path)
    assert no_key.returncode == 3 and "HTTP 401" in no_key.stderr


def test_the_client_raises_typed_problems_and_streams_files(
    service: LiveService, key: str, tmp_path: Path
) -> None:
    client = Client(service.base, key)
    data = make_pdf_bytes(2)
    document_id = client.documents.upload(io.BytesIO(data), length=len(data))
    bad = request([output([element(document_id, [(1, 9)])])])
    with pytest.raises(ProblemError) as refused:
        client.transformations.create(bad)
    problem = refused.value
    assert problem.status == 400 and problem.title
    field = "transformationDetails[0].transformationElements[0].pagesSelectionList[0].maxPage"
    assert field in problem.errors, problem.errors
    assert problem.request_id

    order_id = client.transformations.create(
        request([output([element(document_id, [(2, 2), (1, 1)])])])
    )
    seen: list[Order] = []
    order = client.transformations.wait_success(order_id, progress=seen.append)
    assert seen[-1] is order and order.state == "PROCESSED" and order.result_id
    size = client.documents.download(order.result_id, tmp_path / "out.pdf")
    assert size == (tmp_path / "out.pdf").stat().st_size
    assert [pdf_text(tmp_path / "out.pdf", n).strip() for n in (1, 2)] == [
        "page 2",
        "page 1",
    ]
    assert list(tmp_path.glob(".*.part")) == []
