"""The database is the queue's truth: an order whose task the broker lost is
pushed again once workers idle and the broker holds nothing, and runs once."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone
from django_q.models import OrmQ

from jobs import queues
from jobs.dispatch import redispatch_lost
from jobs.models import WorkerHeartbeat
from jobs.queueing import order_queue
from jobs.states import State
from tests.toykind import tasks as toy_tasks
from tests.toykind.models import ToyOrder
from tests.toykind.tasks import run_toy


def _lost_order(word: str = "hello", age: float = 60) -> ToyOrder:
    """A QUEUED order whose push never happened (its commit callbacks dropped),
    queued `age` seconds ago."""
    order = order_queue(ToyOrder, owner_id=None, word=word)
    ToyOrder.objects.filter(pk=order.pk).update(
        queued_at=timezone.now() - timedelta(seconds=age)
    )
    return order


@pytest.fixture
def idle_worker() -> None:
    WorkerHeartbeat.objects.create(name="node:1", seen_at=timezone.now())


def test_an_order_whose_task_was_lost_is_pushed_again_and_runs(
    idle_worker: None, django_capture_on_commit_callbacks: Any
) -> None:
    with django_capture_on_commit_callbacks(execute=False):
        order = _lost_order()
    assert redispatch_lost() == 1  # sync mode: the pushed task runs at once
    order.refresh_from_db()
    assert order.state == State.PROCESSED
    assert order.result == "HELLO"
    assert order.attempts == 1
    assert redispatch_lost() == 0  # nothing left owed


def test_an_order_queued_less_than_a_lease_ago_is_left_alone(
    idle_worker: None, django_capture_on_commit_callbacks: Any
) -> None:
    with django_capture_on_commit_callbacks(execute=False):
        order = _lost_order(age=1)
    assert redispatch_lost() == 0
    order.refresh_from_db()
    assert order.state == State.QUEUED


def test_nothing_is_pushed_while_the_broker_still_holds_tasks(
    idle_worker: None, django_capture_on_commit_callbacks: Any
) -> None:
    with django_capture_on_commit_callbacks(execute=False):
        order = _lost_order()
    OrmQ.objects.create(
        key="transformsvc", payload="x", lock=timezone.now() - timedelta(seconds=1)
    )
    assert redispatch_lost() == 0
    order.refresh_from_db()
    assert order.state == State.QUEUED


def test_nothing_is_pushed_while_every_worker_is_busy(
    django_capture_on_commit_callbacks: Any,
) -> None:
    WorkerHeartbeat.objects.create(name="node:1", seen_at=timezone.now())
    ToyOrder.objects.create(id="running", word="x", state=State.PROCESSING)
    with django_capture_on_commit_callbacks(execute=False):
        order = _lost_order()
    assert redispatch_lost() == 0
    order.refresh_from_db()
    assert order.state == State.QUEUED


def test_a_failed_push_answers_the_request_and_leaves_the_order_owed(
    client: Any,
    monkeypatch: pytest.MonkeyPatch,
    django_capture_on_commit_callbacks: Any,
) -> None:
    def broker_down(*args: Any, **kwargs: Any) -> None:
        raise ConnectionError("the broker is restarting")

    monkeypatch.setattr("jobs.tasks.async_task", broker_down)
    with django_capture_on_commit_callbacks(execute=True):
        order = order_queue(ToyOrder, owner_id=None, word="later")
    order.refresh_from_db()
    assert order.state == State.QUEUED  # committed, owed, pushed by the sweeper


@pytest.fixture
def quick_pauses(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("jobs.lifecycle.BUILD_PAUSES", (0.01, 0.01, 0.01))


def test_a_build_that_meets_a_passing_database_fault_is_tried_again(
    quick_pauses: None,
) -> None:
    order = ToyOrder.objects.create(id="flaky-2", word="flaky:2")
    run_toy(order.pk)
    order.refresh_from_db()
    assert order.state == State.PROCESSED, order.error_message
    assert toy_tasks.FLAKY[order.pk] == 3


def test_a_fault_that_does_not_pass_fails_the_order_saying_so(
    quick_pauses: None,
) -> None:
    order = ToyOrder.objects.create(id="flaky-9", word="flaky:9")
    run_toy(order.pk)
    order.refresh_from_db()
    assert order.state == State.FAILED
    assert order.error_category == "passing_fault"
    assert "passing fault" in (order.error_message or "")
    assert "retry it" in (order.error_message or "")


@pytest.fixture
def real_broker(monkeypatch: pytest.MonkeyPatch) -> None:
    """Tasks go to the database broker instead of running at once (sync mode)."""
    from django_q.conf import Conf

    monkeypatch.setattr(Conf, "SYNC", False)


def _keys() -> list[str]:
    return sorted(OrmQ.objects.values_list("key", flat=True))


def test_recognition_is_queued_on_the_ocr_cluster_and_the_rest_on_the_main_one(
    real_broker: None, django_capture_on_commit_callbacks: Any
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        order_queue(ToyOrder, owner_id=None, word="scan page")
        order_queue(ToyOrder, owner_id=None, word="layout")
    assert _keys() == sorted([queues.cluster_of("ocr"), queues.cluster_of("main")])
    assert queues.cluster_of("ocr") != queues.cluster_of("main")


def test_lost_recognition_is_pushed_again_to_the_ocr_cluster_by_its_own_worker(
    real_broker: None, django_capture_on_commit_callbacks: Any
) -> None:
    WorkerHeartbeat.objects.create(name="node:1", seen_at=timezone.now())
    WorkerHeartbeat.objects.create(name="node:2/ocr", seen_at=timezone.now())
    with django_capture_on_commit_callbacks(execute=False):
        _lost_order("scan page")
    assert redispatch_lost("main") == 0  # not the main queue's work
    assert redispatch_lost("ocr") == 1
    assert _keys() == [queues.cluster_of("ocr")]


def test_lost_recognition_runs_on_the_main_queue_while_no_ocr_worker_lives(
    idle_worker: None, django_capture_on_commit_callbacks: Any
) -> None:
    with django_capture_on_commit_callbacks(execute=False):
        order = _lost_order("scan page")
    assert redispatch_lost("main") == 1  # sync mode: the pushed task runs at once
    order.refresh_from_db()
    assert order.state == State.PROCESSED
    assert order.result == "SCAN PAGE"


def test_scans_waiting_for_a_busy_ocr_queue_keep_the_node_ready(
    client: Any, django_capture_on_commit_callbacks: Any
) -> None:
    WorkerHeartbeat.objects.create(name="node:1", seen_at=timezone.now())
    WorkerHeartbeat.objects.create(name="node:1/ocr", seen_at=timezone.now())
    ToyOrder.objects.create(id="reading", word="scan long", state=State.PROCESSING)
    with django_capture_on_commit_callbacks(execute=False):
        _lost_order("scan waiting", age=120)
    ready = client.get("/ready")
    assert ready.status_code == 200 and ready.json()["queue"] is True, ready.json()
    # An order of the main queue left waiting while its worker idles is a fault.
    with django_capture_on_commit_callbacks(execute=False):
        _lost_order("layout", age=120)
    stuck = client.get("/ready")
    assert stuck.status_code == 503 and stuck.json()["queue"] is False, stuck.json()
