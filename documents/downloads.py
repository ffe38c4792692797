"""Streaming downloads from storage with single-range support (RFC 9110 §14)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import BinaryIO

from django.http import FileResponse, HttpRequest, StreamingHttpResponse
from django.utils.http import content_disposition_header

from transformsvc.problems import RangeNotSatisfiable

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


def _slice(fh: BinaryIO, first: int, last: int) -> Iterator[bytes]:
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
    request: HttpRequest, fh: BinaryIO, *, size: int, content_type: str, filename: str
) -> FileResponse | StreamingHttpResponse:
    wanted = parse_range(request.headers.get("Range", ""), size) if size else None
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
