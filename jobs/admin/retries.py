"""Which failed orders the admin offers to retry: those a second run can cure.

A failure's stored category (jobs.errors.Category) says whether running the same
request again can end differently. A timeout, a worker that stopped, an internal
error or an unrecognised one may pass next time; a deleted or damaged input, an
unsupported format, an invalid request or a redaction that failed its
verification fails again the same way, so the button would only make a second
failure. An order whose input document was deleted since cannot be retried
either (its retry would fail with "deleted before it ran"): the document's
delete page says so, and the order page agrees.
"""

from __future__ import annotations

from collections.abc import Iterable

from jobs.admin.documents import DocumentCard
from jobs.errors import CURABLE, Category, stored_category
from jobs.models import OrderBase
from jobs.states import State


def why_not(order: OrderBase, inputs: Iterable[DocumentCard]) -> str | None:
    """Why `order` is not offered for retry, for people; None when it is.
    `inputs` are the cards of its input documents (a deleted one does not
    `exist`)."""
    if order.state != State.FAILED:
        return "only failed orders retry"
    if order.deleted_at is not None:
        return "it is deleted"
    category = stored_category(order)
    if category not in CURABLE:
        label = Category(category).label if category in Category.values else category
        return f"it failed for a reason a retry cannot cure ({label})"
    gone = [card.id for card in inputs if not card.exists]
    if gone:
        return f"its input {gone[0]} was deleted since"
    return None
