"""The LibreOffice pool and the OCR engine configured from the service's
settings, for the conversions this app's workers make."""

from __future__ import annotations

import logging
import threading
from typing import Any

from engines.convert.office import OfficePool, PoolSettings, process_pool
from engines.ocr import OcrOptions
from jobs import queues
from ops.metrics.conversion import POOL_METRICS
from transformsvc.conf import service

logger = logging.getLogger(__name__)


def office_pool() -> OfficePool:
    """This worker process's LibreOffice pool, started on first use (never in
    the qcluster's parent: a pool does not survive a fork)."""
    conf = service()
    return process_pool(
        PoolSettings(
            size=conf.office_pool_size,
            timeout=conf.conversion_timeout,
            max_rss_mb=conf.office_max_rss_mb,
            recycle_after=conf.office_recycle_after,
            isolation=conf.office_isolation,
        ),
        POOL_METRICS,
    )


def _start_pool_on_spawn(sender: Any, proc_name: str = "", **kwargs: Any) -> None:
    # django-q2 sends post_spawn from each worker process it forks, and from the
    # calling process itself in sync mode ("MainProcess"), which converts rarely.
    if proc_name == "MainProcess" or service().office_pool_start != "spawn":
        return
    if queues.served_here() != queues.MAIN:  # the OCR queue converts no Office file
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
    conf = service()
    dpi = conf.ocr_dpi
    return OcrOptions(
        languages=conf.ocr_languages,
        detect_language=conf.ocr_detect_language,
        mode=mode,  # type: ignore[arg-type]  # checked by OcrOptions itself
        page_timeout=conf.ocr_page_timeout,
        deadline=max(10.0, conf.order_timeout * 0.9),
        max_pixels=conf.ocr_max_pixels,
        dpi=dpi or None,
    )
