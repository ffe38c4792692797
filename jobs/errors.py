"""What kind of failure an order's error message describes, for reports.

Messages are written for users and vary with the document; reports need a few
stable categories to count. The rules are ordered: the first that matches wins.
"""

from __future__ import annotations

import re
import tempfile
from typing import Any

from django.conf import settings
from django.db import models


class Category(models.TextChoices):
    TIMEOUT = "timeout", "Timed out"
    WORKER_LOST = "worker_lost", "Worker stopped"
    DELETED_INPUT = "deleted_input", "Input deleted"
    DAMAGED_INPUT = "damaged_input", "Damaged input"
    UNSUPPORTED = "unsupported", "Unsupported format"
    REDACTION = "redaction", "Redaction verification"
    INVALID_REQUEST = "invalid_request", "Invalid request"
    PASSING_FAULT = "passing_fault", "Passing fault"
    INTERNAL = "internal", "Internal error"
    OTHER = "other", "Other"


# Failures a new attempt of the same request can cure (the admin offers a retry).
CURABLE = frozenset(
    {
        Category.TIMEOUT,
        Category.WORKER_LOST,
        Category.PASSING_FAULT,
        Category.INTERNAL,
        Category.OTHER,
    }
)

# The category of an engine error, by its code (engines/errors.py).
_CODE_CATEGORY = {
    "timeout": Category.TIMEOUT,
    "unsupported_document": Category.UNSUPPORTED,
    "encrypted_document": Category.UNSUPPORTED,
    "conversion_impossible": Category.UNSUPPORTED,
    "over_limit": Category.UNSUPPORTED,
    "damaged_document": Category.DAMAGED_INPUT,
    "conversion_failed": Category.DAMAGED_INPUT,
    "redaction_unverified": Category.REDACTION,
    "page_out_of_range": Category.INVALID_REQUEST,
    "invalid_search": Category.INVALID_REQUEST,
    "deleted_input": Category.DELETED_INPUT,
    "converter_unavailable": Category.PASSING_FAULT,
    "ocr_unavailable": Category.PASSING_FAULT,
}


def category_of(exc: BaseException) -> str | None:
    """The category an error's code names; None to judge by its message."""
    code = getattr(exc, "code", None)
    found = _CODE_CATEGORY.get(code) if isinstance(code, str) else None
    return found.value if found is not None else None


_RULES: tuple[tuple[Category, re.Pattern[str]], ...] = tuple(
    (category, re.compile(pattern, re.IGNORECASE))
    for category, pattern in (
        (Category.TIMEOUT, r"\btimed out\b|time limit"),
        (Category.WORKER_LOST, r"did not finish within|worker stopped"),
        (Category.DELETED_INPUT, r"was deleted before"),
        (Category.REDACTION, r"redact\w* (could not be verified|document could not)"),
        (Category.INTERNAL, r"internal error"),
        (
            Category.UNSUPPORTED,
            r"unsupported|not available as|is (image|text|application)/",
        ),
        (
            Category.DAMAGED_INPUT,
            r"could not be opened|cannot be (read|drawn|opened)|not a readable PDF"
            r"|damaged|corrupt|encrypted|is missing|syntax error|cannot open",
        ),
        (
            Category.INVALID_REQUEST,
            r"must be|needs a|cannot be negative|invalid|unknown|out of range"
            r"|does not exist|nothing to assemble|selection is empty",
        ),
    )
)


def classify(message: str | None) -> str | None:
    """The category of a failed order's `message`; None when there is no message."""
    if not message:
        return None
    for category, pattern in _RULES:
        if pattern.search(message):
            return category.value
    return Category.OTHER.value


def stored_category(order: Any) -> str | None:
    """An order's stored failure category, else the one its message reads as
    (rows older than stored categories)."""
    return order.error_category or classify(order.error_message)


def failure_fields(message: str, category: str | None = None) -> dict[str, str | None]:
    """The fields a failed order stores: its message and its category (given, or
    the one the message's text suggests)."""
    return {"error_message": message, "error_category": category or classify(message)}


def without_paths(message: str) -> str:
    """`message` with any path of the service's own files (data directory, media,
    temporary files) replaced: users know documents by id, never by the file the
    service keeps them in. Engines name documents themselves; this is the net."""
    roots = {
        str(root).rstrip("/")
        for root in (settings.DATA_DIR, settings.MEDIA_ROOT, tempfile.gettempdir())
        if str(root).strip("/")
    }
    for root in sorted(roots, key=len, reverse=True):
        message = re.sub(re.escape(root) + r"/[^\s'\"),;:]*", "a stored file", message)
    return message
