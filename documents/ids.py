"""Document ids (decisions §2); order ids are minted by jobs.ids."""

from __future__ import annotations

import base64
import re
import uuid


def new_document_id() -> str:
    """`b64_` + Base64 of a random UUID4 string, like the original server."""
    return "b64_" + base64.b64encode(str(uuid.uuid4()).encode()).decode()


def child_id(parent_id: str, index: int) -> str:
    """Id of part `index` of a container (decisions §2): `<parent>/<index>`."""
    return f"{parent_id}/{index}"


_AT_PART = re.compile(r"@(\d+)(?=@|$)")


def path_spelling(document_id: str) -> str | None:
    """The id a URL path means when it writes the parts' `/` as `@` (the original's
    rule: `<parent>@1@2` is `<parent>/1/2`); None when it writes no such part."""
    spelled = _AT_PART.sub(r"/\1", document_id)
    return spelled if spelled != document_id else None


def is_valid_client_id(value: str) -> bool:
    """1-512 printable characters without whitespace."""
    return (
        0 < len(value) <= 512
        and value.isprintable()
        and not any(c.isspace() for c in value)
    )
