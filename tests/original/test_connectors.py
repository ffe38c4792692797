"""Documents opened from elsewhere, as the original's 2026 viewer opens them:
POST /accessor/load (a URL) and POST /connector/documents (a REST provider named
by X-Provider-ID), here the folder provider served over real HTTP."""

from __future__ import annotations

import io
import json
import socket
import threading
import zipfile
from collections.abc import Iterable, Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs
from wsgiref.simple_server import make_server

import pytest

from connectors.folder_provider import ThreadingServer, make_app
from tests.conftest import doc_url, make_pdf_bytes

FORM = "application/x-www-form-urlencoded"


class Provider:
    """The folder provider on a port of this machine, recording the queries it
    answers; `?path=redirect` sends the caller to the cloud metadata address."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.queries: list[dict[str, list[str]]] = []
        folder_app = make_app(root)

        def app(environ: dict[str, Any], start: Any) -> Iterable[bytes]:
            query = parse_qs(environ.get("QUERY_STRING", ""))
            self.queries.append(query)
            if query.get("path") == ["redirect"]:
                start("302 Found", [("Location", "http://169.254.169.254/latest")])
                return [b""]
            return folder_app(environ, start)

        self.server = make_server("127.0.0.1", 0, app, ThreadingServer)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()
        self.url = f"http://127.0.0.1:{self.server.server_port}"

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def provider(tmp_path: Path, settings: Any) -> Iterator[Provider]:
    root = tmp_path / "share"
    (root / "case" / "annexes").mkdir(parents=True)
    (root / "contract.pdf").write_bytes(make_pdf_bytes(["the contract"]))
    (root / "case" / "1-letter.pdf").write_bytes(make_pdf_bytes(["the letter"]))
    (root / "case" / "annexes" / "annex.pdf").write_bytes(make_pdf_bytes(["annex"]))
    (root / ".secret.pdf").write_bytes(make_pdf_bytes(["hidden"]))
    (tmp_path / "outside.pdf").write_bytes(make_pdf_bytes(["outside"]))
    served = Provider(root)
    with socket.socket() as probe:  # a port nobody listens on
        probe.bind(("127.0.0.1", 0))
        closed = probe.getsockname()[1]
    settings.SERVICE = replace(
        settings.SERVICE,
        connectors=f"files={served.url}|path;down=http://127.0.0.1:{closed}|path",
        connector_default="",
    )
    yield served
    served.close()


def _open(client: Any, body: str, provider_id: str | None = "files") -> Any:
    headers = {"HTTP_X_PROVIDER_ID": provider_id} if provider_id else {}
    return client.post("/connector/documents", data=body, content_type=FORM, **headers)


def test_a_provider_opens_files_and_folders(
    client: Any,
    provider: Provider,
    django_capture_on_commit_callbacks: Any,
    settings: Any,
) -> None:
    opened = _open(client, "path=contract.pdf&ticket=abc")
    assert opened.status_code == 200, opened.content
    doc_id = opened.json()["id"]
    assert doc_id.startswith("b64_") and list(opened.json()) == ["id"]
    # Only the parameters the provider takes are forwarded.
    assert provider.queries == [{"path": ["contract.pdf"]}]
    meta = client.get(doc_url(doc_id)).json()
    assert meta["documentTitle"] == "contract.pdf"
    pdf = b"".join(client.get(doc_url(doc_id, "/file")).streaming_content)
    assert pdf == (provider.root / "contract.pdf").read_bytes()
    # Opened again: the same document, not fetched again (ticket is not part
    # of its name).
    assert _open(client, "path=contract.pdf&ticket=xyz").json() == {"id": doc_id}
    assert len(provider.queries) == 1
    # The default provider, and the query string as the parameters.
    settings.SERVICE = replace(settings.SERVICE, connector_default="files")
    again = client.post("/connector/documents?path=contract.pdf", content_type=FORM)
    assert again.json() == {"id": doc_id}
    # A folder: a container of its files, a sub-folder a container inside.
    with django_capture_on_commit_callbacks(execute=True):
        folder = _open(client, "path=case")
    assert folder.status_code == 200, folder.content
    case_id = folder.json()["id"]
    layout = client.get(doc_url(case_id, "/layout")).json()
    assert layout["type"].endswith("DocumentContainer")
    letter, annexes = layout["children"]
    assert (letter["documentId"]["id"], letter["documentTitle"]) == (
        f"{case_id}/1",
        "1-letter.pdf",
    )
    assert annexes["type"].endswith("DocumentContainer")
    [annex] = annexes["children"]
    assert annex["documentId"]["id"] == f"{case_id}/2/1"
    assert annex["mimeType"] == "application/pdf"
    pages = client.get(doc_url(f"{case_id}/2/1", "/pages/0/text/position")).json()
    assert [line["text"] for line in pages["positionTextList"]] == ["annex"]


def test_refusals_of_a_provider_and_of_the_service(
    client: Any, provider: Provider
) -> None:
    # The provider denies what leaves its folder or is hidden: 403.
    for path in ("../outside.pdf", ".secret.pdf", "case/../../outside.pdf"):
        denied = _open(client, f"path={path}")
        assert denied.status_code == 403, path
        assert denied["Content-Type"] == "application/problem+json"
    assert _open(client, "path=missing.pdf").status_code == 404
    # Out of reach: 502.
    down = _open(client, "path=contract.pdf", provider_id="down")
    assert down.status_code == 502 and down.json()["code"] == "provider_unreachable"
    # A redirect to a non-public address is refused like documentUrl's, and
    # nothing is fetched there.
    sent_away = _open(client, "path=redirect")
    assert sent_away.status_code == 502
    assert "non-public address" in sent_away.json()["detail"]
    # Unknown provider, none named and no default, no parameter it takes: 400.
    assert _open(client, "path=contract.pdf", provider_id="nope").status_code == 400
    assert _open(client, "path=contract.pdf", provider_id=None).status_code == 400
    # No provider at all: a url opens by URL, as the original falls back to,
    # with documentUrl's checks (this machine is not public).
    by_url = _open(client, f"url={provider.url}/documents?path=x", provider_id=None)
    assert by_url.status_code == 400 and "url" in by_url.json()["errors"]
    assert _open(client, "ticket=abc").status_code == 400


def test_accessor_load_fetches_a_url_with_the_checks_of_document_url(
    client: Any, provider: Provider, settings: Any
) -> None:
    url = f"{provider.url}/documents?path=contract.pdf"

    def load(body: dict[str, Any]) -> Any:
        return client.post(
            "/accessor/load", data=json.dumps(body), content_type="application/json"
        )

    # The provider runs on this machine: not public, so refused by default.
    refused = load({"url": url})
    assert refused.status_code == 400
    assert "non-public address" in refused.json()["errors"]["url"][0]
    assert provider.queries == []
    for bad in ({"url": "file:///etc/passwd"}, {"url": "ftp://example.org/x"}, {}):
        assert load(bad).status_code == 400, bad
    settings.SERVICE = replace(settings.SERVICE, url_allowlist=("127.0.0.1",))
    loaded = load({"url": url, "documentTitle": "Contract"})
    assert loaded.status_code == 200, loaded.content
    doc_id = loaded.json()["id"]
    assert doc_id.startswith("b64_")
    assert client.get(doc_url(doc_id)).json()["documentTitle"] == "Contract"
    pdf = b"".join(client.get(doc_url(doc_id, "/file")).streaming_content)
    assert pdf == (provider.root / "contract.pdf").read_bytes()


def test_a_composite_answer_is_packed_in_folder_order(
    client: Any, provider: Provider, django_capture_on_commit_callbacks: Any
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        opened = _open(client, "path=case")
    case_id = opened.json()["id"]
    packed = b"".join(client.get(doc_url(case_id, "/file")).streaming_content)
    with zipfile.ZipFile(io.BytesIO(packed)) as archive:
        assert archive.namelist() == ["1-letter.pdf", "annexes.zip"]
        with zipfile.ZipFile(io.BytesIO(archive.read("annexes.zip"))) as inner:
            assert inner.namelist() == ["annex.pdf"]
