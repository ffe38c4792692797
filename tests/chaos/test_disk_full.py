"""The data disk full (a small file system of its own, filled to the last byte):
requests answer 200 or 503, never 500, no process dies (the metrics files, in
memory by default, are not on that disk), and the service works again once
room is made."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.disks import fill, small_disk
from tests.live import live_service
from tests.orders.helpers import element, order_body

pytestmark = [pytest.mark.chaos, pytest.mark.django_db(transaction=True)]


def test_a_full_data_disk_answers_503_and_crashes_nothing(
    tmp_path: Path, make_pdf: Callable[..., bytes]
) -> None:
    from transformsvc import paths

    with small_disk(tmp_path / "disk", "48m") as disk:
        data = disk / "data"
        env = {
            "TRANSFORMSVC_DATA_DIR": str(data),
            "TRANSFORMSVC_METRICS_DIR": "",  # the default: in memory
            "TRANSFORMSVC_MIN_FREE_DISK": str(1024 * 1024),
        }
        with pytest.MonkeyPatch.context() as patch:
            patch.delenv("TRANSFORMSVC_METRICS_DIR", raising=False)
            metrics = paths.metrics_root(data)  # where the service's files will be
        try:
            with live_service(tmp_path / "live", extra_env=env) as service:
                doc = service.upload(make_pdf(6))
                ballast = fill(disk)
                assert shutil.disk_usage(disk).free < 64 * 1024

                answers = {
                    "upload": service.post(
                        "/documents",
                        data=make_pdf(1),
                        headers={"Content-Type": "application/octet-stream"},
                    ).status_code,
                    "order": service.post(
                        "/transformations", json=order_body([element(doc, (1, 2))])
                    ).status_code,
                    "layout": service.get(f"/documents/{doc}/layout").status_code,
                    "metrics": service.get("/metrics").status_code,
                }
                for page in range(6):  # drawn now: their cache cannot be written
                    answers[f"image {page}"] = service.get(
                        f"/documents/{doc}/pages/{page}/image?width=500"
                    ).status_code
                    answers[f"text {page}"] = service.get(
                        f"/documents/{doc}/pages/{page}/text/position"
                    ).status_code
                assert set(answers.values()) <= {200, 503}, answers
                assert answers["upload"] == 503 and answers["layout"] == 200, answers
                service.check_alive()
                log = (service.logs / "web.log").read_text(errors="replace")
                assert "SIGBUS" not in log and "was sent" not in log, log[-2000:]

                ballast.unlink()
                again = service.post_order(order_body([element(doc, (2, 3))]))
                final = service.wait_until_final(again, timeout=30)
                assert final["currentState"] == "PROCESSED", final
        finally:
            shutil.rmtree(metrics, ignore_errors=True)
    assert metrics.parent == Path("/dev/shm") or not Path("/dev/shm").is_dir()


def test_a_full_metrics_disk_disables_the_metrics_of_new_workers_not_requests(
    tmp_path: Path,
) -> None:
    """The metrics' own RAM disk full while the service runs: the workers gunicorn
    starts afterwards (recycled every 5 requests) cannot reserve their files;
    each says so in one log line and answers as usual, none dies of SIGBUS."""
    with small_disk(tmp_path / "shm", "20m") as disk:  # over the 16 MB asked at start
        env = {
            "TRANSFORMSVC_METRICS_DIR": str(disk),
            "WEB_MAX_REQUESTS": "5",
            "WEB_MAX_REQUESTS_JITTER": "0",
        }
        with live_service(tmp_path / "live", extra_env=env, start_worker=False) as (
            service
        ):
            assert service.get("/metrics").status_code == 200
            fill(disk)
            statuses = [service.get("/health").status_code for _ in range(25)]
            statuses.append(service.get("/metrics").status_code)
            assert statuses == [200] * 26, statuses
            service.check_alive()
            log = (service.logs / "web.log").read_text(errors="replace")
            assert "SIGBUS" not in log and "was sent" not in log, log[-2000:]
            assert log.count("Booting worker") >= 4, log[-2000:]
            assert "are no longer shared" in log, log[-2000:]
