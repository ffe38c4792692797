"""The toy kind's worker side, written as an order app writes it."""

from __future__ import annotations

import time

from django.db import OperationalError

from engines.errors import EngineError
from jobs import lifecycle
from jobs.lifecycle import Outcome
from jobs.services import order_remove
from tests.toykind.models import ToyOrder

DISCARDED: list[str] = []  # ids whose result was discarded (the order was gone)
FLAKY: dict[str, int] = {}  # attempts of `flaky:<n>` orders so far


class ToyFailure(EngineError):
    """Shown to the user, like every engine error."""

    code = "toy_refused"


def run_toy(order_id: str) -> None:
    lifecycle.run(ToyOrder, order_id, _shout)


def _shout(order: ToyOrder) -> Outcome:
    word = order.word
    if word.startswith("sleep:"):
        time.sleep(float(word.split(":", 1)[1]))
    if word.startswith("flaky:"):  # the database drops n attempts, then answers
        FLAKY[order.pk] = FLAKY.get(order.pk, 0) + 1
        if FLAKY[order.pk] <= int(word.split(":", 1)[1]):
            raise OperationalError("server closed the connection unexpectedly")
    if word == "fail":
        raise ToyFailure("the toy refuses the word 'fail'")
    if word == "crash":
        raise RuntimeError("/internal/path/that/must/not/leak")
    if word == "vanish":  # deleted by its owner (as the API does) while it runs
        order_remove(order)
    return Outcome(
        fields={"result": word.upper()},
        discard=lambda: DISCARDED.append(order.pk),
    )
