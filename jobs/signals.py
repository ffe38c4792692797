"""Signals of the order machinery, for the apps that react to orders without
`jobs` importing them (metrics count, webhooks deliver).

`order_ended(sender=<order model>, kind=<kind name>, order_id=<id>, state=<final
state>)` is sent once per order, by the process whose conditional UPDATE moved the
order to PROCESSED or FAILED (`lifecycle.finish`, `recovery`), after that UPDATE
succeeded: a receiver may read the order as it ended. It is sent with
`send_robust`: a failing receiver is logged and never undoes the ending.
"""

from __future__ import annotations

import logging

from django.dispatch import Signal

logger = logging.getLogger(__name__)

order_ended = Signal()


def send_order_ended(sender: type, *, kind: str, order_id: str, state: str) -> None:
    for receiver, result in order_ended.send_robust(
        sender, kind=kind, order_id=order_id, state=state
    ):
        if isinstance(result, Exception):
            logger.error(
                "order_ended receiver %r failed for %s %s",
                receiver,
                kind,
                order_id,
                exc_info=result,
            )
