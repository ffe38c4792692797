"""Raw-body upload: hand the request stream to the service, never request.body."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, BinaryIO

from rest_framework.parsers import BaseParser


class RawStreamParser(BaseParser):
    """Any content type: the document bytes as an input stream."""

    media_type = "*/*"

    # DRF's parsers return parsed data; this one returns the stream itself, which
    # the upload view hands to the service (the stubs know only the former).
    def parse(  # type: ignore[override]
        self,
        stream: BinaryIO | None,
        media_type: str | None = None,
        parser_context: Mapping[str, Any] | None = None,
    ) -> BinaryIO | None:
        return stream
