"""gunicorn replaces a web worker after WEB_MAX_REQUESTS requests (whatever
memory it gathered goes back to the system) and no request fails meanwhile."""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
import requests

from tests.live import LiveService, live_service
from tests.ops.metricstext import samples
from transformsvc import metrics_fold


@pytest.mark.chaos
@pytest.mark.django_db(transaction=True)
def test_a_web_worker_is_replaced_after_its_requests_and_none_fails(
    tmp_path: Path,
) -> None:
    env = {"WEB_MAX_REQUESTS": "10", "WEB_MAX_REQUESTS_JITTER": "0"}
    with live_service(tmp_path / "live", extra_env=env, start_worker=False) as service:
        session = requests.Session()  # kept-alive connections, as clients do

        def ask(n: int) -> int:
            client = session if n % 2 else requests
            return client.get(service.base + "/health", timeout=30).status_code

        with ThreadPoolExecutor(4) as pool:
            statuses = list(pool.map(ask, range(16)))
        # The last replacement may still be starting: let it answer too.
        assert service.get("/health").status_code == 200

        assert statuses == [200] * 16, statuses
        log = (service.logs / "web.log").read_text(errors="replace")
        booted = log.count("Booting worker")
        assert booted >= 2, f"17 requests, 10 a worker: {booted} workers booted"
        service.check_alive()


def _requests_counted(text: str) -> float:
    return sum(
        value
        for (name, _), value in samples(text).items()
        if name == "transformsvc_http_requests_total"
    )


def _only_live_writers(service: LiveService, folder: Path) -> set[int]:
    """The pids with files in `folder`, once the master has folded every worker
    it replaced (it does so as it reaps them, a moment after their last answer)."""
    deadline = time.monotonic() + 15
    while True:
        writers = metrics_fold.writers(folder)
        if writers <= set(service.web_workers()) or time.monotonic() > deadline:
            return writers
        time.sleep(0.1)


@pytest.mark.chaos
@pytest.mark.django_db(transaction=True)
def test_replaced_workers_leave_no_metrics_files_and_every_request_stays_counted(
    tmp_path: Path,
) -> None:
    env = {"WEB_MAX_REQUESTS": "6", "WEB_MAX_REQUESTS_JITTER": "0"}
    with live_service(
        tmp_path / "live", extra_env=env, start_worker=False, web_workers=2
    ) as service:
        folder = tmp_path / "live" / "metrics" / "web"
        before = _requests_counted(service.get("/metrics").text)
        answered = 1  # that scrape, counted once it was answered
        for _ in range(4):  # 41 requests, 6 a worker: 6 workers replaced
            for _ in range(9):
                assert requests.get(service.base + "/health", timeout=30).ok
            answered += 9
            # Whichever worker answers, every request so far, each counted once.
            assert _requests_counted(service.get("/metrics").text) == (
                before + answered
            )
            answered += 1

        writers = _only_live_writers(service, folder)
        assert writers <= set(service.web_workers()), writers
        files = sorted(p.name for p in folder.glob("*.db"))
        # Three files per live worker at most, and the two totals (without the
        # folding, three more for every worker replaced).
        assert len(files) <= 3 * 2 + 2, files
        assert {"counter_folded.db", "histogram_folded.db"} <= set(files), files
        assert _requests_counted(service.get("/metrics").text) == before + answered
        booted = (service.logs / "web.log").read_text().count("Booting worker")
        assert booted >= 2 + 5, f"{booted} workers booted"
        service.check_alive()
