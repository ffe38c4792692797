"""A client of the REST API, as an application would use it (requests, one session)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any
from urllib.parse import quote

import requests

OCTET = {"Content-Type": "application/octet-stream"}
PREFIX = "com.vendor.viewer.annotation.api."


class OrderFailed(RuntimeError):
    pass


class Client:
    """Calls on one keep-alive session; raises on any answer but 200."""

    def __init__(self, base: str, timeout: float = 300) -> None:
        self.base = base
        self.timeout = timeout
        self.http = requests.Session()

    def close(self) -> None:
        self.http.close()

    def _check(self, response: requests.Response) -> requests.Response:
        if response.status_code != 200:
            raise RuntimeError(
                f"{response.request.method} {response.url} answered "
                f"{response.status_code}: {response.text[:500]}"
            )
        return response

    def _get(self, path: str, **kwargs: Any) -> requests.Response:
        return self._check(
            self.http.get(self.base + path, timeout=self.timeout, **kwargs)
        )

    def upload(self, data: bytes | Path, title: str | None = None) -> str:
        """POST /documents with the raw bytes (a file is streamed); the new id."""
        params = {"documentTitle": title} if title else None
        if isinstance(data, Path):
            with data.open("rb") as body:
                response = self.http.post(
                    self.base + "/documents",
                    data=body,
                    params=params,
                    headers=OCTET,
                    timeout=self.timeout,
                )
        else:
            response = self.http.post(
                self.base + "/documents",
                data=data,
                params=params,
                headers=OCTET,
                timeout=self.timeout,
            )
        return str(self._check(response).json()["id"])

    def delete(self, document_id: str) -> None:
        self._check(
            self.http.delete(self.base + _doc(document_id), timeout=self.timeout)
        )

    def layout(self, document_id: str) -> dict[str, Any]:
        return dict(self._get(_doc(document_id) + "/layout").json())

    def search(self, document_id: str, page: int, text: str) -> list[dict[str, Any]]:
        response = self._get(
            f"{_doc(document_id)}/pages/{page}/text", params={"searchText": text}
        )
        return list(response.json()["searchResults"])

    def difference(self, left: str, right: str) -> dict[str, Any]:
        return dict(
            self._get(
                "/difference", params={"leftDocumentId": left, "rightDocumentId": right}
            ).json()
        )

    def post_order(self, body: dict[str, Any]) -> str:
        response = self.http.post(
            self.base + "/transformations", json=body, timeout=self.timeout
        )
        return str(self._check(response).json()["transformationOrderId"]["id"])

    def wait(self, order_id: str, timeout: float = 600) -> dict[str, Any]:
        """Long-poll the order until it is PROCESSED (FAILED raises OrderFailed)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            order = self._get(
                f"/transformations/{quote(order_id, safe='')}",
                params={"timeoutMs": 30000},
            ).json()
            if order["currentState"] == "PROCESSED":
                return dict(order)
            if order["currentState"] == "FAILED":
                raise OrderFailed(f"order {order_id} failed: {order['errorMessage']}")
        raise OrderFailed(f"order {order_id} did not end within {timeout} s")

    def download(self, document_id: str, dest: Path | None = None) -> int:
        """GET /file?format=pdf, streamed to `dest` (or dropped); the byte count."""
        size = 0
        with self.http.get(
            self.base + _doc(document_id) + "/file",
            params={"format": "pdf"},
            stream=True,
            timeout=self.timeout,
        ) as response:
            self._check(response)
            out = dest.open("wb") if dest else None
            try:
                for chunk in response.iter_content(256 * 1024):
                    size += len(chunk)
                    if out:
                        out.write(chunk)
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
