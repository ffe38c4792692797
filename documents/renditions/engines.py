"""The converter and OCR engines configured from the service's settings."""

from __future__ import annotations

import logging
import threading
from typing import Any

from django.conf import settings

from documents.convert import Limits
from documents.convert.office import OfficePool, PoolSettings, process_pool
from documents.ocr import OcrOptions
from ops.metrics.conversion import POOL_METRICS

logger = logging.getLogger(__name__)


def _conf(name: str) -> object:
    return settings.TRANSFORMSVC[name]


def limits() -> Limits:
    conf = settings.TRANSFORMSVC
    return Limits(
        timeout=float(conf["CONVERSION_TIMEOUT"]),
        max_pages=int(conf["MAX_PAGES"]),
        max_text_bytes=int(conf["MAX_TEXT_BYTES"]),
        max_image_pixels=int(conf["MAX_IMAGE_PIXELS"]),
        max_sheet_rows=int(conf["MAX_SHEET_ROWS"]),
        max_entries=int(conf["ARCHIVE_MAX_ENTRIES"]),
        max_total_bytes=int(conf["ARCHIVE_MAX_BYTES"]),
        max_entry_bytes=int(conf["ARCHIVE_MAX_ENTRY_BYTES"]),
        max_ratio=int(conf["ARCHIVE_MAX_RATIO"]),
        max_depth=int(conf["CONTAINER_MAX_DEPTH"]),
        max_attachments=int(conf["MAIL_MAX_ATTACHMENTS"]),
    )


def office_pool() -> OfficePool:
    """This worker process's LibreOffice pool, started on first use (never in
    the qcluster's parent: a pool does not survive a fork)."""
    conf = settings.TRANSFORMSVC
    return process_pool(
        PoolSettings(
            size=int(conf["OFFICE_POOL_SIZE"]),
            timeout=float(conf["CONVERSION_TIMEOUT"]),
            max_rss_mb=int(conf["OFFICE_MAX_RSS_MB"]),
            recycle_after=int(conf["OFFICE_RECYCLE_AFTER"]),
            isolation=str(conf["OFFICE_ISOLATION"]),
        ),
        POOL_METRICS,
    )


def _start_pool_on_spawn(sender: Any, proc_name: str = "", **kwargs: Any) -> None:
    # django-q2 sends post_spawn from each worker process it forks, and from the
    # calling process itself in sync mode ("MainProcess"), which converts rarely.
    if (
        proc_name == "MainProcess"
        or settings.TRANSFORMSVC["OFFICE_POOL_START"] != "spawn"
    ):
        return

    def start() -> None:
        try:
            office_pool()
        except Exception as exc:  # a conversion retries; the worker lives on
            logger.warning(
                "the LibreOffice pool did not start with the worker: %s", exc
            )

    # In the background: the worker takes tasks at once; a conversion that
    # comes first waits for the pool's start (process_pool's lock).
    threading.Thread(target=start, name="office-pool-start", daemon=True).start()


def start_pool_with_workers() -> None:
    """Start each qcluster worker's LibreOffice pool as the worker starts, so
    that no conversion pays for it (TRANSFORMSVC_OFFICE_POOL_START=spawn)."""
    from django_q.signals import post_spawn

    post_spawn.connect(_start_pool_on_spawn, dispatch_uid="transformsvc-office-pool")


def ocr_options(mode: str) -> OcrOptions:
    """How scans are read; `mode` is the document's (auto, always or never). The
    whole document may take the order's time limit, less a margin to store it."""
    conf = settings.TRANSFORMSVC
    dpi = int(conf["OCR_DPI"])
    return OcrOptions(
        languages=tuple(conf["OCR_LANGUAGES"]),
        detect_language=bool(conf["OCR_DETECT_LANGUAGE"]),
        mode=mode,  # type: ignore[arg-type]  # checked by OcrOptions itself
        page_timeout=float(conf["OCR_PAGE_TIMEOUT"]),
        deadline=max(10.0, float(conf["ORDER_TIMEOUT"]) * 0.9),
        max_pixels=int(conf["OCR_MAX_PIXELS"]),
        dpi=dpi or None,
    )
