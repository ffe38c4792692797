"""documentUrl: fetched from a real local HTTP server, refused unless allowlisted."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

from tests.conftest import doc_url, make_pdf_bytes
from tests.documents.conftest import post_url

PDF = make_pdf_bytes(2, prefix="fetched")


class Handler(BaseHTTPRequestHandler):
    def do_GET(self) -> None:  # noqa: N802
        if self.path == "/doc.pdf":
            self.send_response(200)
            self.send_header("Content-Length", str(len(PDF)))
            self.end_headers()
            self.wfile.write(PDF)
        elif self.path.startswith("/redirect"):
            self.send_response(302)
            self.send_header("Location", self.path.split("to=", 1)[1])
            self.end_headers()
        elif self.path == "/big":
            self.send_response(200)
            self.end_headers()
            self.wfile.write(b"%PDF-1.7\n" + b"0" * 200_000)
        else:
            self.send_response(404)
            self.end_headers()

    def log_message(self, *args: Any) -> None:
        pass


@pytest.fixture
def server() -> Iterator[str]:
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()


def test_allowlisted_local_url_is_fetched(
    client: Any, server: str, allow: Callable[..., None]
) -> None:
    allow("127.0.0.1")
    response = post_url(client, f"{server}/doc.pdf")
    assert response.status_code == 200, response.content
    doc_id = response.json()["id"]
    assert b"".join(client.get(doc_url(doc_id, "/file")).streaming_content) == PDF
    assert client.get(doc_url(doc_id)).json()["pageCount"] == 2


def test_loopback_url_is_refused_when_not_allowlisted(
    client: Any, server: str, allow: Callable[..., None]
) -> None:
    allow()
    response = post_url(client, f"{server}/doc.pdf")
    assert response.status_code == 400
    assert "non-public address" in response.json()["detail"]


def test_redirect_to_a_refused_host_is_refused(
    client: Any, server: str, allow: Callable[..., None]
) -> None:
    allow("127.0.0.1")
    response = post_url(
        client, f"{server}/redirect?to=http://169.254.169.254/latest/meta-data"
    )
    assert response.status_code == 400
    assert "169.254.169.254" in response.json()["detail"]


def test_redirect_inside_the_allowlist_is_followed(
    client: Any, server: str, allow: Callable[..., None]
) -> None:
    allow("127.0.0.1")
    response = post_url(client, f"{server}/redirect?to={server}/doc.pdf")
    assert response.status_code == 200, response.content


@pytest.mark.parametrize(
    "url", ["file:///etc/passwd", "ftp://example.org/x.pdf", "gopher://x"]
)
def test_only_http_and_https_are_fetched(client: Any, url: str) -> None:
    response = post_url(client, url)
    assert response.status_code == 400
    assert "http or https" in response.json()["detail"]


def test_a_url_larger_than_the_limit_is_413(
    client: Any, server: str, allow: Callable[..., None]
) -> None:
    allow("127.0.0.1", URL_MAX_BYTES=100_000)
    assert post_url(client, f"{server}/big").status_code == 413


def test_an_http_error_is_reported(
    client: Any, server: str, allow: Callable[..., None]
) -> None:
    allow("127.0.0.1")
    response = post_url(client, f"{server}/missing")
    assert response.status_code == 400
    assert "404" in response.json()["detail"]
