"""Document and order ids (decisions §2)."""

from __future__ import annotations

import base64
import uuid


def new_document_id() -> str:
    """`b64_` + Base64 of a random UUID4 string, like the original server."""
    return "b64_" + base64.b64encode(str(uuid.uuid4()).encode()).decode()


def new_order_id() -> str:
    return str(uuid.uuid4())


def child_id(parent_id: str, index: int) -> str:
    """Id of output `index` (from 0) of a multi-output result."""
    return f"{parent_id}@{index}"


def is_valid_client_id(value: str) -> bool:
    """1-512 printable characters without whitespace."""
    return (
        0 < len(value) <= 512
        and value.isprintable()
        and not any(c.isspace() for c in value)
    )
