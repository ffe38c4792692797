"""Engine work in child processes: values, errors, crashes and hangs."""

from __future__ import annotations

import operator
import os
import time

import pytest

from documents.pdf import isolation
from documents.pdf.types import UnsupportedDocument


def test_a_task_returns_its_value_and_runs_in_another_process() -> None:
    assert isolation.Task(operator.add, 2, 3).result(timeout=30) == 5
    assert isolation.Task(os.getpid).result(timeout=30) != os.getpid()


def test_the_exception_of_a_task_reaches_the_caller() -> None:
    with pytest.raises(ZeroDivisionError):
        isolation.Task(operator.truediv, 1, 0).result(timeout=30)


def test_a_task_that_kills_its_child_is_refused_and_the_next_task_runs() -> None:
    with pytest.raises(UnsupportedDocument, match="ended the checking process"):
        isolation.Task(os.abort).result(timeout=30)
    assert isolation.Task(operator.mul, 6, 7).result(timeout=30) == 42


def test_a_task_over_its_time_is_refused_and_its_child_is_stopped() -> None:
    hung = isolation.Task(time.sleep, 60)
    child_pids = set(getattr(hung._pool, "_processes", {}))
    assert child_pids, "the pool started no child"
    started = time.monotonic()
    with pytest.raises(UnsupportedDocument, match="took longer than 0.5 s"):
        hung.result(timeout=0.5)
    assert time.monotonic() - started < 5
    assert isolation.Task(operator.add, 1, 1).result(timeout=30) == 2
    deadline = time.monotonic() + 5
    while child_pids and time.monotonic() < deadline:
        child_pids = {pid for pid in child_pids if _alive(pid)}
        time.sleep(0.05)
    assert not child_pids, "the hung child is still running"


def _alive(pid: int) -> bool:
    # A killed child stays a zombie until its pool reaps it: not running.
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().split(")")[-1].split()[0] != "Z"
    except FileNotFoundError:
        return False
