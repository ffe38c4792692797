"""Documents owed a rendition that nobody is making are told so.

A document and the order making its rendition commit together, so a document
left PENDING with no order under way means the order was lost (a database
restored from before it, an order deleted by hand) or ended without saying so.
Its readers would wait for ever; instead it fails with a message they get.
"""

from __future__ import annotations

import logging
from datetime import timedelta

from django.db.models import Q
from django.utils import timezone

from documents.models import Document
from documents.renditions.maker import maker
from documents.renditions.states import rendition_failed, text_ready

logger = logging.getLogger(__name__)

# A rendition owed for longer than this with no order under way was lost.
ORPHAN_AFTER = timedelta(seconds=60)
BATCH = 500

LOST_CONVERSION = "its conversion was lost before it ended; upload the document again"
LOST_RECOGNITION = (
    "the recognition of its scanned pages was lost before it ended; the pages "
    "have no text layer (upload the document again to recognise them)"
)


def fail_orphans() -> int:
    """Fail the documents PENDING past ORPHAN_AFTER whose rendition nobody is
    making; how many."""
    pending = list(
        Document.objects.filter(
            Q(rendition_state=Document.Rendition.PENDING)
            | Q(text_state=Document.Text.PENDING),
            created_at__lt=timezone.now() - ORPHAN_AFTER,
        ).values_list("id", "rendition_state")[:BATCH]
    )
    if not pending:
        return 0
    live = maker().under_way([doc_id for doc_id, _ in pending])
    failed = 0
    for doc_id, state in pending:
        if doc_id in live:
            continue
        if state == Document.Rendition.PENDING:
            done = rendition_failed(doc_id, LOST_CONVERSION)
        else:
            done = text_ready(doc_id, error=LOST_RECOGNITION)
        if done:
            failed += 1
            logger.warning("document %s was owed a rendition nobody made", doc_id)
    return failed
