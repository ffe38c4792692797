"""The shared order machinery, driven through a kind of order that exists only in
the tests (tests/toykind): registered by its own app, with no edit in jobs/."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from django.test import override_settings
from django_q.exceptions import TimeoutException

from jobs import lifecycle, registry
from jobs.states import State
from jobs.tasks import enqueue_on_commit
from tests.live import live_service
from tests.toykind import tasks as toy_tasks
from tests.toykind.models import ToyOrder

TOY_URLS = "tests.toykind.urls"


def _queued(word: str, order_id: str = "toy-1") -> ToyOrder:
    return ToyOrder.objects.create(id=order_id, word=word)


def test_the_toy_kind_is_registered_by_its_own_app() -> None:
    kind = registry.kind_of(ToyOrder)
    assert (kind.name, kind.task) == ("toy", "tests.toykind.tasks.run_toy")
    assert {k.name for k in registry.kinds()} >= {
        "transformation",
        "comparison",
        "toy",
    }


@override_settings(ROOT_URLCONF=TOY_URLS)
def test_a_toy_order_runs_on_the_worker_and_reads_through_the_generic_view(
    client: Any, django_capture_on_commit_callbacks: Any
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        order = _queued("hello")
        enqueue_on_commit(registry.kind_of(ToyOrder).task, order.id)
    body = client.get("/toys/toy-1?timeoutMs=1000").json()
    assert body["currentState"] == "PROCESSED"
    assert body["errorMessage"] is None
    order.refresh_from_db()
    assert order.result == "HELLO"
    deleted = client.delete("/toys/toy-1")
    assert deleted.json() == {"toyOrderId": {"id": "toy-1"}}
    assert client.get("/toys/toy-1").status_code == 404


def test_an_order_claimed_by_another_worker_is_left_to_it() -> None:
    order = _queued("hello")
    assert lifecycle.claim(ToyOrder, order.id)  # another worker was first
    toy_tasks.run_toy(order.id)
    order.refresh_from_db()
    assert order.state == State.PROCESSING  # untouched: not built twice, not ended
    assert order.result is None
    assert order.attempts == 1


def test_an_order_deleted_while_it_runs_has_its_result_discarded() -> None:
    toy_tasks.DISCARDED.clear()
    order = _queued("vanish")
    toy_tasks.run_toy(order.id)
    assert not ToyOrder.objects.filter(pk=order.id).exists()
    assert toy_tasks.DISCARDED == [order.id]


def test_an_order_deleted_before_its_worker_reads_it_is_skipped() -> None:
    order = _queued("hello")
    ToyOrder.objects.filter(pk=order.id).delete()
    toy_tasks.run_toy(order.id)  # nothing to claim: no error, nothing created
    assert not ToyOrder.objects.exists()


def test_user_facing_failures_are_shown_and_others_are_hidden() -> None:
    fail, crash = _queued("fail", "toy-fail"), _queued("crash", "toy-crash")
    toy_tasks.run_toy(fail.id)
    toy_tasks.run_toy(crash.id)
    fail.refresh_from_db()
    crash.refresh_from_db()
    assert (fail.state, fail.error_message) == (
        State.FAILED,
        "the toy refuses the word 'fail'",
    )
    assert crash.state == State.FAILED
    assert crash.error_message == lifecycle.INTERNAL_ERROR
    assert "/internal" not in (crash.error_message or "")


def test_a_timed_out_order_fails_with_the_limit_and_the_timeout_goes_on() -> None:
    order = _queued("hello")

    def too_slow(_: ToyOrder) -> lifecycle.Outcome:
        raise TimeoutException("django-q2 stops the task")

    with pytest.raises(TimeoutException):
        lifecycle.run(ToyOrder, order.id, too_slow)
    order.refresh_from_db()
    assert order.state == State.FAILED
    assert order.error_message is not None
    assert order.error_message.startswith("timed out after")


def test_the_queue_limit_counts_every_kind(settings: Any) -> None:
    settings.SERVICE = replace(settings.SERVICE, max_queued=2)
    _queued("a", "toy-a")
    lifecycle.ensure_capacity()
    _queued("b", "toy-b")
    with pytest.raises(lifecycle.TooManyRequests):
        lifecycle.ensure_capacity()


@pytest.mark.cluster
@pytest.mark.django_db(transaction=True)
def test_a_real_qcluster_times_out_a_toy_order_and_goes_on(tmp_path: Path) -> None:
    env = {
        "DJANGO_SETTINGS_MODULE": "tests.settings_live",
        "TRANSFORMSVC_ORDER_TIMEOUT": "2",
    }
    with live_service(tmp_path / "live", extra_env=env) as service:
        ids = [
            service.post("/toys", json={"word": word}).json()["toyOrderId"]["id"]
            for word in ("sleep:30", "after")
        ]
        ends = [service.get(f"/toys/{i}?timeoutMs=20000").json() for i in ids]
    assert ends[0]["currentState"] == "FAILED"
    assert ends[0]["errorMessage"] == "timed out after 2 s"
    assert ends[1]["currentState"] == "PROCESSED", ends[1]
    assert ToyOrder.objects.get(pk=ids[1]).result == "AFTER"


@override_settings(ROOT_URLCONF=TOY_URLS)
def test_a_deleted_or_cancelled_order_is_a_404_that_says_so_and_when(
    client: Any,
) -> None:
    from jobs.services import order_remove

    ended = _queued("hello", "toy-ended")
    ToyOrder.objects.filter(pk=ended.pk).update(
        state=State.PROCESSED, processed_at=ended.queued_at
    )
    ended.refresh_from_db()
    order_remove(ended)
    order_remove(_queued("hello", "toy-queued"))

    deleted = client.get("/toys/toy-ended").json()
    assert deleted["status"] == 404 and deleted["code"] == "order_deleted"
    assert "was deleted on" in deleted["detail"]
    cancelled = client.get("/toys/toy-queued").json()
    assert "was cancelled (deleted before it ended) on" in cancelled["detail"]
    unknown = client.get("/toys/never").json()
    assert unknown["detail"] == "no toy order with id 'never'"
