"""Streaming downloads from storage with single-range support (RFC 9110 §14)."""

from __future__ import annotations

import re
from collections.abc import Iterator

from django.core.files import File
from django.http import FileResponse, HttpRequest, StreamingHttpResponse
from django.utils.http import content_disposition_header

from transformsvc.problems import InvalidInput, RangeNotSatisfiable

_RANGE = re.compile(r"^bytes=(\d*)-(\d*)$")
CHUNK = 256 * 1024


def parse_range(header: str, size: int) -> tuple[int, int] | None:
    """The (first, last) inclusive byte range asked for, None to send everything."""
    match = _RANGE.match(header.strip())
    if not match:
        return None  # multi-range or malformed: the whole file is a valid answer
    first_s, last_s = match.groups()
    if not first_s and not last_s:
        return None
    if not first_s:  # suffix range: the last N bytes
        length = int(last_s)
        if length == 0:
            raise RangeNotSatisfiable(
                f"empty suffix range; the file has {size} bytes",
                headers={"Content-Range": f"bytes */{size}"},
            )
        return max(0, size - length), size - 1
    first = int(first_s)
    last = min(int(last_s), size - 1) if last_s else size - 1
    if first >= size or first > last:
        raise RangeNotSatisfiable(
            f"range {header!r} is outside the file of {size} bytes",
            headers={"Content-Range": f"bytes */{size}"},
        )
    return first, last


def parse_chunk_range(header: str, size: int) -> tuple[int, int]:
    """The range of GET /file/chunk, which the original takes as `bytes=x-y` with
    x and y integers: a missing, malformed, negative (`bytes=-5`), multiple or
    descending range is a 400; one that starts past the end a 416."""
    match = _RANGE.match(header.strip())
    if not match or not match.group(1):
        raise InvalidInput(
            f"Range must be bytes=<first>-<last>, not {header!r}",
            errors={"Range": ["expected bytes=<first>-<last>"]},
        )
    first_s, last_s = match.groups()
    if last_s and int(last_s) < int(first_s):
        raise InvalidInput(
            f"range {header!r} ends before it starts",
            errors={"Range": ["last byte before first byte"]},
        )
    wanted = parse_range(header, size) if size else None
    if wanted is None:  # an empty file has no satisfiable range
        raise RangeNotSatisfiable(
            f"range {header!r} is outside the file of {size} bytes",
            headers={"Content-Range": f"bytes */{size}"},
        )
    return wanted


def _slice(fh: File[bytes], first: int, last: int) -> Iterator[bytes]:
    try:
        fh.seek(first)
        left = last - first + 1
        while left > 0:
            chunk = fh.read(min(CHUNK, left))
            if not chunk:
                break
            left -= len(chunk)
            yield chunk
    finally:
        fh.close()


def file_response(
    request: HttpRequest,
    fh: File[bytes],
    *,
    size: int,
    content_type: str,
    filename: str,
) -> FileResponse | StreamingHttpResponse:
    wanted = parse_range(request.headers.get("Range", ""), size) if size else None
    return _answer(fh, wanted, size=size, content_type=content_type, filename=filename)


def chunk_response(
    request: HttpRequest,
    fh: File[bytes],
    *,
    size: int,
    content_type: str,
    filename: str,
) -> StreamingHttpResponse:
    """206 with the bytes of the `Range` header, refused as `parse_chunk_range` says."""
    try:
        wanted = parse_chunk_range(request.headers.get("Range", ""), size)
    except Exception:
        fh.close()
        raise
    response = _answer(
        fh, wanted, size=size, content_type=content_type, filename=filename
    )
    assert isinstance(response, StreamingHttpResponse)
    return response


def _answer(
    fh: File[bytes],
    wanted: tuple[int, int] | None,
    *,
    size: int,
    content_type: str,
    filename: str,
) -> FileResponse | StreamingHttpResponse:
    if wanted is None:
        response: FileResponse | StreamingHttpResponse = FileResponse(
            fh, content_type=content_type, as_attachment=True, filename=filename
        )
        response["Content-Length"] = str(size)
    else:
        first, last = wanted
        response = StreamingHttpResponse(
            _slice(fh, first, last), status=206, content_type=content_type
        )
        response["Content-Range"] = f"bytes {first}-{last}/{size}"
        response["Content-Length"] = str(last - first + 1)
        response["Content-Disposition"] = content_disposition_header(True, filename)
    response["Accept-Ranges"] = "bytes"
    return response
