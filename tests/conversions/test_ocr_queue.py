"""Recognising scans runs on a queue of its own (a qcluster of its own, at a
lower priority): work a client waits on never queues behind it."""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pymupdf
import pytest

from tests.live import LiveService, children, live_service
from tests.ops.metricstext import value
from tests.orders.helpers import element, order_body

WORDS = (
    "quarterly ledger reconciliation shows outstanding invoices from northern "
    "suppliers awaiting approval before the committee meeting on thursday "
)


def scanned_pdf(pages: int, dpi: int = 300) -> bytes:
    """A PDF of `pages` full pages of text, each drawn as a grey scan at `dpi`
    (no text layer: every page is recognised)."""
    text = pymupdf.open()
    for n in range(pages):
        page = text.new_page(width=595, height=842)
        body = f"Page {n + 1} marker zebra{n + 1}. " + WORDS * 14
        page.insert_textbox(pymupdf.Rect(60, 60, 535, 800), body, fontsize=11)
    scan = pymupdf.open()
    for page in text:
        pixmap = page.get_pixmap(dpi=dpi, colorspace=pymupdf.csGRAY)
        new = scan.new_page(width=page.rect.width, height=page.rect.height)
        new.insert_image(new.rect, stream=pixmap.tobytes("png"))
    return bytes(scan.tobytes(deflate=True))


def conversion(service: LiveService, order_id: str) -> dict[str, Any]:
    return dict(service.get(f"/conversions/{order_id}").json())


def niceness(root: int) -> set[int]:
    """The nice values of the processes under `root` (its cluster's workers)."""
    found, todo = set(), children(root)
    while todo:
        pid = todo.pop()
        try:
            found.add(os.getpriority(os.PRIO_PROCESS, pid))
        except ProcessLookupError:
            continue
        todo += children(pid)
    return found


def session_nice(pid: int) -> int:
    """The nice of the autogroup (session) of process `pid`."""
    return int(Path(f"/proc/{pid}/autogroup").read_text().split("nice")[1])


def wait_for(check: Callable[[], bool], timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError(f"{what} did not happen within {timeout} s")
        time.sleep(0.1)


@pytest.mark.cluster
@pytest.mark.django_db(transaction=True)
def test_an_order_finishes_while_the_ocr_queue_is_busy_recognising_a_scan(
    tmp_path: Path, make_pdf: Callable[..., bytes]
) -> None:
    # One worker on each queue: on a shared queue the order would wait for the scan.
    with live_service(tmp_path / "live", workers=1, ocr_worker=True) as service:
        pdf = service.upload(make_pdf(3, prefix="viewed page"))
        scan = service.upload(scanned_pdf(3))
        ocr_id = service.get(f"/documents/{scan}").json()["conversionOrderIds"]["pdf"]
        ocr_id = ocr_id["id"]
        wait_for(
            lambda: not conversion(service, ocr_id)["queued"],
            30,
            "the OCR queue taking the scan",
        )

        order_id = service.post_order(order_body([element(pdf, (3, 3), (1, 1))]))
        final = service.wait_until_final(order_id, timeout=30)

        assert final["currentState"] == "PROCESSED", final["errorMessage"]
        recognising = conversion(service, ocr_id)
        assert recognising["currentState"] == "PROCESSING", recognising
        assert not recognising["queued"]
        metrics = service.get("/metrics").text
        busy = {"queue": "ocr", "state": "PROCESSING"}
        assert value(metrics, "transformsvc_queue_orders", **busy) == 1
        assert (
            value(metrics, "transformsvc_queue_orders", queue="main", state="QUEUED")
            == 0
        )
        for queue in ("main", "ocr"):
            assert value(metrics, "transformsvc_queue_workers_alive", queue=queue) == 1
        # The OCR queue's workers (Tesseract with them) yield the CPU to the rest.
        assert 10 in niceness(service.processes["ocr-worker"].pid)
        assert niceness(service.processes["worker"].pid) == {0}
        # Each cluster leads a session of its own here: under autogroup
        # scheduling the OCR cluster's session yields too, the main one's not.
        if Path("/proc/self/autogroup").exists():
            assert session_nice(service.processes["ocr-worker"].pid) == 10
            assert session_nice(service.processes["worker"].pid) == 0
        wait_for(
            lambda: conversion(service, ocr_id)["currentState"] == "PROCESSED",
            60,
            "the scan's recognition",
        )
        hits = service.get(
            f"/documents/{scan}/pages/2/text", params={"searchText": "zebra3"}
        ).json()
        assert len(hits["searchResults"]) == 1, hits
