"""Each worker process runs a thread that attempts the deliveries coming due
(retries; first attempts too when their task was lost). The claim in
`services.deliver` keeps two processes from sending the same attempt."""

from __future__ import annotations

import logging
import threading
import time
from typing import Any

from django.db import close_old_connections

from transformsvc.conf import service
from webhooks.services import deliver_due

logger = logging.getLogger(__name__)

_started = threading.Event()


def _loop() -> None:
    while True:
        interval = service().webhook_poll
        try:
            close_old_connections()
            while deliver_due():
                pass
        except Exception:
            logger.exception("webhook dispatcher failed; retrying in %s s", interval)
        time.sleep(interval)


def start() -> None:
    if _started.is_set():
        return
    _started.set()
    threading.Thread(target=_loop, name="webhooks", daemon=True).start()


def _on_spawn(sender: Any, proc_name: str = "", **kwargs: Any) -> None:
    if proc_name != "MainProcess":  # sync mode runs in the caller: no thread
        start()


def connect() -> None:
    from django_q.signals import post_spawn

    post_spawn.connect(_on_spawn, dispatch_uid="transformsvc-webhooks")
