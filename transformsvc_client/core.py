"""The small core every resource uses: where the service is, its key, one HTTP
exchange at a time, problem+json answers raised as `ProblemError`, files streamed
both ways (never read whole into memory).

Standard library only (`http.client`): the client installs with the project and
needs nothing else. Each exchange opens its own connection, so a `Client` may be
shared between threads."""

from __future__ import annotations

import http.client
import json
import os
import tempfile
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any
from urllib.parse import quote, urlencode, urlsplit

from transformsvc_client.errors import ProblemError, ServiceUnreachable

DEFAULT_URL = "http://127.0.0.1:8761"
URL_ENV, KEY_ENV = "TRANSFORMSVC_URL", "TRANSFORMSVC_KEY"
# Bytes per read and write of a streamed body.
CHUNK = 1 << 20
# A reader of a document whose conversion is under way waits up to 60 s on the
# server; the socket must outlast that.
DEFAULT_TIMEOUT = 120.0
# Retries of a GET answered 503 with Retry-After (the service busy or a
# conversion still under way), and the longest pause honoured between them.
BUSY_RETRIES, BUSY_PAUSE_CAP = 3, 10.0

QueryValue = str | int | float | bool | None


def encode_query(query: Mapping[str, QueryValue] | None) -> str:
    """`?a=1&b=true` from a mapping; None values are left out, booleans are
    written `true`/`false` as the service reads them."""
    if not query:
        return ""
    pairs = [
        (
            name,
            ("true" if value else "false") if isinstance(value, bool) else str(value),
        )
        for name, value in query.items()
        if value is not None
    ]
    return "?" + urlencode(pairs) if pairs else ""


class Transport:
    """The base URL (`TRANSFORMSVC_URL`, else 127.0.0.1:8761) and the bearer key
    (`TRANSFORMSVC_KEY`, none by default); arguments win over the environment.
    `timeout` is the socket time-out in seconds of every exchange but long polls,
    which add their own wait to it."""

    def __init__(
        self,
        base_url: str | None = None,
        key: str | None = None,
        *,
        timeout: float = DEFAULT_TIMEOUT,
    ) -> None:
        self.base_url = (base_url or os.environ.get(URL_ENV) or DEFAULT_URL).rstrip("/")
        self.key = key if key is not None else (os.environ.get(KEY_ENV) or None)
        self.timeout = timeout
        parts = urlsplit(self.base_url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise ValueError(
                f"the service URL must be http(s)://host[:port]: {base_url!r}"
            )
        self._https = parts.scheme == "https"
        self._host = parts.hostname
        self._port = parts.port
        self._prefix = parts.path.rstrip("/")

    # --- paths ---------------------------------------------------------------

    @staticmethod
    def path(*segments: str) -> str:
        """`/documents/<id>/layout` from its segments, each percent-encoded whole
        (ids may hold `/ + = @ : %`; the service reads `%2F` as `/`)."""
        return "".join("/" + quote(segment, safe="") for segment in segments)

    # --- exchanges -----------------------------------------------------------

    def _connection(self, timeout: float | None) -> http.client.HTTPConnection:
        seconds = self.timeout if timeout is None else timeout
        if self._https:
            return http.client.HTTPSConnection(
                self._host, self._port, timeout=seconds, blocksize=CHUNK
            )
        return http.client.HTTPConnection(
            self._host, self._port, timeout=seconds, blocksize=CHUNK
        )

    def _headers(self, extra: Mapping[str, str] | None) -> dict[str, str]:
        headers = {"Accept": "application/json", "User-Agent": "transformsvc-client"}
        if self.key:
            headers["Authorization"] = f"Bearer {self.key}"
        headers.update(extra or {})
        return headers

    @contextmanager
    def exchange(
        self,
        method: str,
        path: str,
        *,
        query: Mapping[str, QueryValue] | None = None,
        body: bytes | IO[bytes] | None = None,
        length: int | None = None,
        headers: Mapping[str, str] | None = None,
        timeout: float | None = None,
    ) -> Iterator[http.client.HTTPResponse]:
        """One request; yields the response once its status says success (2xx,
        3xx), its body unread. A 4xx/5xx raises `ProblemError`.

        A file `body` is streamed in chunks of `CHUNK` bytes; its `length` is
        required (the service reads a body by its `Content-Length`)."""
        target = self._prefix + path + encode_query(query)
        all_headers = self._headers(headers)
        connection = self._connection(timeout)
        try:
            try:
                connection.putrequest(method, target, skip_accept_encoding=True)
                if isinstance(body, bytes):
                    all_headers["Content-Length"] = str(len(body))
                elif body is not None:
                    if length is None:
                        raise ValueError("a streamed body needs its length")
                    all_headers["Content-Length"] = str(length)
                elif method in ("POST", "PUT"):
                    all_headers["Content-Length"] = "0"
                for name, value in all_headers.items():
                    connection.putheader(name, value)
                connection.endheaders()
                if isinstance(body, bytes):
                    connection.send(body)
                elif body is not None:
                    _send_stream(connection, body)
                response = connection.getresponse()
            except (OSError, http.client.HTTPException) as exc:
                raise ServiceUnreachable(
                    self.base_url, str(exc) or type(exc).__name__
                ) from exc
            if response.status >= 400:
                raise ProblemError.from_body(
                    response.status,
                    response.reason,
                    response.read(),
                    request_id=response.getheader("X-Request-ID"),
                    retry_after=response.getheader("Retry-After"),
                )
            yield response
        finally:
            connection.close()

    def json(
        self,
        method: str,
        path: str,
        *,
        query: Mapping[str, QueryValue] | None = None,
        payload: Any = None,
        timeout: float | None = None,
    ) -> Any:
        """A JSON exchange: `payload` sent as JSON (when not None), the answer
        parsed (None for an empty body). A GET answered 503 with `Retry-After` is
        tried again, up to `BUSY_RETRIES` times."""
        body = None if payload is None else json.dumps(payload).encode("utf-8")
        headers = {"Content-Type": "application/json"} if body is not None else None
        for attempt in range(BUSY_RETRIES + 1):
            try:
                with self.exchange(
                    method,
                    path,
                    query=query,
                    body=body,
                    headers=headers,
                    timeout=timeout,
                ) as response:
                    data = _read_all(response)
                return json.loads(data) if data.strip() else None
            except ProblemError as problem:
                pause = _busy_pause(problem, method)
                if pause is None or attempt == BUSY_RETRIES:
                    raise
                time.sleep(pause)
        raise AssertionError("unreachable")  # pragma: no cover

    def upload(
        self,
        path: str,
        stream: IO[bytes],
        *,
        length: int | None,
        query: Mapping[str, QueryValue] | None = None,
    ) -> Any:
        """POST a stream's bytes as `application/octet-stream`, in chunks; the
        JSON answer. Without `length`, the stream is measured (see `measured`)."""
        spool = None
        if length is None:
            stream, length, spool = measured(stream)
        try:
            with self.exchange(
                "POST",
                path,
                query=query,
                body=stream,
                length=length,
                headers={"Content-Type": "application/octet-stream"},
            ) as response:
                data = _read_all(response)
        finally:
            if spool is not None:
                spool.close()
        return json.loads(data) if data.strip() else None

    def download(
        self, path: str, dest: Path, *, query: Mapping[str, QueryValue] | None = None
    ) -> int:
        """GET a file into `dest`, streamed through a temporary file beside it that
        replaces `dest` only once complete (a failed download leaves no half
        file); the number of bytes written."""
        dest = Path(dest)
        written = 0
        with self.exchange(
            "GET", path, query=query, headers={"Accept": "*/*"}
        ) as response:
            handle, temporary = tempfile.mkstemp(
                prefix=f".{dest.name}.", suffix=".part", dir=dest.parent or Path(".")
            )
            try:
                with os.fdopen(handle, "wb") as out:
                    while chunk := response.read(CHUNK):
                        out.write(chunk)
                        written += len(chunk)
                os.replace(temporary, dest)
            except BaseException:
                Path(temporary).unlink(missing_ok=True)
                raise
        return written


def _send_stream(connection: http.client.HTTPConnection, stream: IO[bytes]) -> None:
    while chunk := stream.read(CHUNK):
        connection.send(chunk)


def measured(stream: IO[bytes]) -> tuple[IO[bytes], int, IO[bytes] | None]:
    """The stream and the number of bytes left in it. A regular file or a
    seekable stream is measured where it is; anything else (a pipe) is first
    copied to a temporary file on disk, in chunks, which is answered third so that
    the caller closes it. The service reads a body by its Content-Length: a
    chunked request would reach it empty."""
    try:
        position = stream.tell()
        end = stream.seek(0, os.SEEK_END)
        stream.seek(position)
        return stream, end - position, None
    except (OSError, ValueError, AttributeError):
        pass
    spool = tempfile.TemporaryFile()
    try:
        size = 0
        while chunk := stream.read(CHUNK):
            spool.write(chunk)
            size += len(chunk)
        spool.seek(0)
    except BaseException:
        spool.close()
        raise
    return spool, size, spool


def _read_all(response: http.client.HTTPResponse) -> bytes:
    # JSON answers are small; files never come through here (see download).
    return response.read()


def _busy_pause(problem: ProblemError, method: str) -> float | None:
    """Seconds to wait before trying a busy GET again; None when it should not be."""
    if method != "GET" or problem.status != 503 or problem.retry_after is None:
        return None
    return min(max(problem.retry_after, 0.5), BUSY_PAUSE_CAP)
