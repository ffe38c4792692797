"""Order ids: a random UUID4, the same for every kind (decisions §2); a kind may
add a suffix (the original ends a conversion's id with `-<format>`)."""

from __future__ import annotations

import uuid


def new_order_id(suffix: str = "") -> str:
    return str(uuid.uuid4()) + (f"-{suffix}" if suffix else "")
