"""Running hostile documents through the service, and what they must get.

Each class gets a clear 415/400 at upload, or a FAILED order with a message a user
can act on, or, where the document is legitimately usable, a PROCESSED order; never
a 500, a hang (each step runs under a `deadline`) or memory blown by a few KB of
input.
"""

from __future__ import annotations

import faulthandler
import resource
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pikepdf
from pikepdf import Dictionary, Name

from tests.orders.helpers import element, file_path, order_body, qpdf_check


@contextmanager
def deadline(seconds: float) -> Iterator[None]:
    """Fail if the block spends more than `seconds` of CPU (this process and the
    tools it ran, such as qpdf), or three times that on the clock; if it truly
    hangs (stuck in C, where no Python timeout reaches), dump every thread and
    end the run, rather than hold CI until its own limit. CPU time is what the
    work costs; the clock alone stretches with whatever else the machine runs."""
    faulthandler.dump_traceback_later(seconds * 4 + 30, exit=True, file=sys.stderr)
    started, cpu_started = time.monotonic(), _cpu_seconds()
    try:
        yield
    finally:
        faulthandler.cancel_dump_traceback_later()
    elapsed, cpu = time.monotonic() - started, _cpu_seconds() - cpu_started
    assert cpu < seconds, f"took {cpu:.1f} s of CPU (limit {seconds} s)"
    assert elapsed < 3 * seconds, f"took {elapsed:.1f} s (limit {3 * seconds} s)"


def _cpu_seconds() -> float:
    """User and system time of this process and of its waited-for children."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def peak_rss_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux


def assert_problem(response: Any, status: int, *words: str) -> str:
    assert response.status_code == status, response.content
    assert response["Content-Type"] == "application/problem+json"
    detail = response.json()["detail"]
    for word in words:
        assert word in detail, detail
    return detail


def assert_processed(order: dict[str, Any], pages: int, *, check: bool = True) -> Path:
    assert order["currentState"] == "PROCESSED", order["errorMessage"]
    path = file_path(order["transformationResultDocumentID"]["id"])
    if check:
        qpdf_check(path)
    with pikepdf.open(path) as pdf:
        assert len(pdf.pages) == pages
    return path


def assert_usable(
    upload: Callable[..., Any],
    run_order: Callable[..., dict[str, Any]],
    data: bytes,
    pages: int,
    *,
    check: bool = True,
) -> Path:
    """Uploaded, laid out with `pages` pages, and an order on it succeeds
    (`check`: the output passes `qpdf --check`)."""
    with deadline(30):
        response = upload(data)
        assert response.status_code == 200, response.content
        doc = response.json()["id"]
        order = run_order(order_body([element(doc)]))
    return assert_processed(order, pages, check=check)


def active_content(path: Path) -> set[str]:
    """The scripts and embedded files left anywhere in the PDF at `path`."""
    found: set[str] = set()
    with pikepdf.open(path) as pdf:
        for obj in pdf.objects:
            if not isinstance(obj, Dictionary | pikepdf.Stream):
                continue
            keys = set(obj.keys())
            found |= keys & {"/JS", "/AA", "/OpenAction", "/EmbeddedFiles"}
            for key in ("/S", "/Type", "/Subtype"):
                value = obj.get(key)
                if value in (Name.JavaScript, Name.EmbeddedFile, Name.FileAttachment):
                    found.add(str(value))
    return found
