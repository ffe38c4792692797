"""A client of the REST API on one keep-alive connection (the standard library's
http.client): the timings are the service's, not a client library's. `requests`
adds about 0.35 ms per call on this machine, more than a warm page search takes
inside the service."""

from __future__ import annotations

import http.client
import json
import time
from pathlib import Path
from typing import Any, BinaryIO
from urllib.parse import quote, urlencode, urlsplit

OCTET = {"Content-Type": "application/octet-stream"}
PREFIX = "com.vendor.viewer.annotation.api."
_CHUNK = 256 * 1024
# gunicorn closes a keep-alive connection idle for 2 s (its `keepalive`).
_IDLE_SECONDS = 1.0


class OrderFailed(RuntimeError):
    pass


class Client:
    """Calls on one keep-alive connection, reopened when the service closed it;
    raises on any answer but 200. One client per thread."""

    def __init__(self, base: str, timeout: float = 300) -> None:
        self.base = base
        self.timeout = timeout
        parts = urlsplit(base)
        self._host, self._port = parts.hostname or "127.0.0.1", parts.port or 80
        self._conn: http.client.HTTPConnection | None = None
        self._last_used = 0.0

    def close(self) -> None:
        if self._conn is not None:
            self._conn.close()
            self._conn = None

    def request(
        self,
        method: str,
        path: str,
        params: dict[str, Any] | None = None,
        body: bytes | BinaryIO | None = None,
        headers: dict[str, str] | None = None,
    ) -> http.client.HTTPResponse:
        """Send one request; the response, its body not yet read.

        A connection idle for longer than the service keeps it open is replaced
        before use; a GET or DELETE that finds its connection closed anyway is
        sent again once on a new one (never a POST, which may have been received).
        """
        url = path + ("?" + urlencode(params) if params else "")
        sent = dict(headers or {})
        if isinstance(body, bytes):
            sent["Content-Length"] = str(len(body))
        elif body is not None:
            body.seek(0, 2)
            sent["Content-Length"] = str(body.tell())
        if time.monotonic() - self._last_used > _IDLE_SECONDS:
            self.close()
        attempts = 2 if method in ("GET", "DELETE") else 1
        for attempt in range(1, attempts + 1):
            if self._conn is None:
                self._conn = http.client.HTTPConnection(
                    self._host, self._port, timeout=self.timeout, blocksize=_CHUNK
                )
            if body is not None and not isinstance(body, bytes):
                body.seek(0)
            try:
                self._conn.request(method, url, body=body, headers=sent)
                response = self._conn.getresponse()
            except (
                http.client.RemoteDisconnected,
                BrokenPipeError,
                ConnectionResetError,
            ):
                self.close()
                if attempt == attempts:
                    raise
                continue
            self._last_used = time.monotonic()
            return response
        raise AssertionError("unreachable")

    def call(self, method: str, path: str, **kwargs: Any) -> Any:
        """The decoded JSON of a 200 answer."""
        response = self.request(method, path, **kwargs)
        data = response.read()
        if response.status != 200:
            raise RuntimeError(
                f"{method} {path} answered {response.status}: {data[:500]!r}"
            )
        return json.loads(data)

    def upload(self, data: bytes | Path, title: str | None = None) -> str:
        """POST /documents with the raw bytes (a file is streamed); the new id."""
        params = {"documentTitle": title} if title else None
        if isinstance(data, Path):
            with data.open("rb") as body:
                answer = self.call(
                    "POST", "/documents", params=params, body=body, headers=OCTET
                )
        else:
            answer = self.call(
                "POST", "/documents", params=params, body=data, headers=OCTET
            )
        return str(answer["id"])

    def delete(self, document_id: str) -> None:
        self.call("DELETE", _doc(document_id))

    def layout(self, document_id: str) -> dict[str, Any]:
        return dict(self.call("GET", _doc(document_id) + "/layout"))

    def health(self) -> None:
        self.call("GET", "/health")

    def search(self, document_id: str, page: int, text: str) -> list[dict[str, Any]]:
        answer = self.call(
            "GET", f"{_doc(document_id)}/pages/{page}/text", params={"searchText": text}
        )
        return list(answer["searchResults"])

    def difference(self, left: str, right: str) -> dict[str, Any]:
        return dict(
            self.call(
                "GET",
                "/difference",
                params={"leftDocumentId": left, "rightDocumentId": right},
            )
        )

    def post_order(self, body: dict[str, Any]) -> str:
        answer = self.call(
            "POST",
            "/transformations",
            body=json.dumps(body).encode(),
            headers={"Content-Type": "application/json"},
        )
        return str(answer["transformationOrderId"]["id"])

    def wait(self, order_id: str, timeout: float = 600) -> dict[str, Any]:
        """Long-poll the order until it is PROCESSED (FAILED raises OrderFailed)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            order = self.call(
                "GET",
                f"/transformations/{quote(order_id, safe='')}",
                params={"timeoutMs": 30000},
            )
            if order["currentState"] == "PROCESSED":
                return dict(order)
            if order["currentState"] == "FAILED":
                raise OrderFailed(f"order {order_id} failed: {order['errorMessage']}")
        raise OrderFailed(f"order {order_id} did not end within {timeout} s")

    def download(self, document_id: str, dest: Path | None = None) -> int:
        """GET /file?format=pdf, streamed to `dest` (or dropped); the byte count."""
        response = self.request(
            "GET", _doc(document_id) + "/file", params={"format": "pdf"}
        )
        if response.status != 200:
            raise RuntimeError(
                f"GET {_doc(document_id)}/file answered {response.status}: "
                f"{response.read()[:500]!r}"
            )
        size = 0
        out = dest.open("wb") if dest else None
        try:
            while chunk := response.read(_CHUNK):
                size += len(chunk)
                if out:
                    out.write(chunk)
        except BaseException:
            self.close()  # the rest of the body is still on the connection
            raise
        finally:
            if out:
                out.close()
        return size

    def run_order(
        self, body: dict[str, Any], dest: Path | None = None
    ) -> dict[str, Any]:
        """POST the order, wait for it, download its result; the final order, with
        `clientSeconds` (post, wait, download) added."""
        start = time.perf_counter()
        order_id = self.post_order(body)
        posted = time.perf_counter()
        order = self.wait(order_id)
        ended = time.perf_counter()
        order["downloadedBytes"] = self.download(
            order["transformationResultDocumentID"]["id"], dest
        )
        order["clientSeconds"] = {
            "post": posted - start,
            "wait": ended - posted,
            "download": time.perf_counter() - ended,
        }
        return order


def _doc(document_id: str) -> str:
    return "/documents/" + quote(document_id, safe="")


def order_body(
    elements: list[dict[str, Any]],
    *,
    fmt: str = "pdf",
    annotations: list[dict[str, Any]] | None = None,
) -> dict[str, Any]:
    body: dict[str, Any] = {
        "format": fmt,
        "transformationDetails": [{"transformationElements": elements}],
    }
    if annotations is not None:
        body["annotations"] = {"annotations": annotations}
    return body


def element(
    document_id: str, pages: list[tuple[int, int]] | None = None
) -> dict[str, Any]:
    """A transformation element; `pages` are 1-based inclusive (min, max) ranges."""
    out: dict[str, Any] = {"documentId": document_id}
    if pages:
        out["pagesSelectionList"] = [{"minPage": a, "maxPage": b} for a, b in pages]
    return out
