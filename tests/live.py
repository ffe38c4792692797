"""The service as separate processes, exactly as `make run` starts them (gunicorn
and `manage.py qcluster`): one harness for the tests and for `make bench`.

The process part needs no Django; `live_service` adds what a test needs (the test
database, the test's data directory) and imports Django settings only when used.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import requests

ROOT = Path(__file__).resolve().parents[1]

# The web process exactly as `make run` starts it (port, workers, threads from env).
GUNICORN = [
    sys.executable,
    "-m",
    "gunicorn",
    "-c",
    "transformsvc/gunicorn_conf.py",
    "transformsvc.wsgi:application",
]
QCLUSTER = [sys.executable, "manage.py", "qcluster"]


class ServiceDied(AssertionError):
    """A process of the live service ended, or the service never answered."""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def spawn(
    cmd: list[str], env: dict[str, str], log: Path | None
) -> subprocess.Popen[bytes]:
    """`cmd` in its own session (its group can be killed), output appended to `log`."""
    out = open(log, "ab") if log else subprocess.DEVNULL  # noqa: SIM115
    try:
        return subprocess.Popen(
            cmd,
            cwd=ROOT,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    finally:
        if log:
            out.close()  # type: ignore[union-attr]


def stop(proc: subprocess.Popen[bytes], grace: float = 15) -> None:
    stop_all([proc], grace)


def stop_all(procs: list[subprocess.Popen[bytes]], grace: float = 15) -> None:
    """SIGTERM each process, then wait for each: they shut down side by side
    (a qcluster takes about a second), not one after the other."""
    # SIGTERM to the main process only: the qcluster's own processes stop when it
    # tells them to; a SIGTERM to its whole group leaves it blocked (for ever) on a
    # lock one of them held when it died.
    for proc in procs:
        if proc.poll() is None:
            proc.terminate()
    for proc in procs:
        try:
            proc.wait(timeout=grace)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


def children(pid: int) -> list[int]:
    """Direct children of `pid` (from /proc/<n>/stat)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        # The command name (2nd field) may hold spaces: split after its ')'.
        fields = stat.rsplit(")", 1)[-1].split()
        if len(fields) > 1 and int(fields[1]) == pid:
            found.append(int(entry.name))
    return sorted(found)


@dataclass
class LiveService:
    base: str
    env: dict[str, str]
    logs: Path
    processes: dict[str, subprocess.Popen[bytes]] = field(default_factory=dict)

    def get(self, path: str, **kwargs: Any) -> requests.Response:
        return requests.get(self.base + path, timeout=30, **kwargs)

    def post(self, path: str, **kwargs: Any) -> requests.Response:
        return requests.post(self.base + path, timeout=30, **kwargs)

    def upload(self, data: bytes) -> str:
        """POST the bytes as a document; its id."""
        response = self.post(
            "/documents",
            data=data,
            headers={"Content-Type": "application/octet-stream"},
        )
        assert response.status_code == 200, response.text
        return str(response.json()["id"])

    def post_order(self, body: dict[str, Any]) -> str:
        """POST a transformation order; its id."""
        response = self.post("/transformations", json=body)
        assert response.status_code == 200, response.text
        return str(response.json()["transformationOrderId"]["id"])

    def start_worker(
        self, name: str = "worker", queue: str = "main"
    ) -> subprocess.Popen[bytes]:
        """A qcluster serving `queue` (main, or ocr: `make run` starts both)."""
        env = {**self.env, "TRANSFORMSVC_WORKER_QUEUE": queue}
        proc = spawn(QCLUSTER, env, self.logs / f"{name}.log")
        self.processes[name] = proc
        return proc

    def wait_until_final(self, order_id: str, timeout: float = 60) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        body: dict[str, Any] = {}
        while time.monotonic() < deadline:
            body = self.get(f"/transformations/{order_id}?timeoutMs=5000").json()
            if body["currentState"] in ("PROCESSED", "FAILED"):
                return body
        raise AssertionError(f"order {order_id} did not end within {timeout} s: {body}")

    def web_workers(self) -> list[int]:
        """The gunicorn worker processes (children of its master)."""
        return children(self.processes["web"].pid)

    def check_alive(self) -> None:
        for name, proc in self.processes.items():
            if proc.poll() is not None:
                log = self.logs / f"{name}.log"
                tail = log.read_text(errors="replace")[-3000:] if log.exists() else ""
                raise ServiceDied(
                    f"the {name} process ended (exit {proc.returncode}):\n{tail}"
                )


@contextmanager
def running(
    env: dict[str, str],
    logs: Path,
    *,
    worker: bool = True,
    ocr_worker: bool = True,
    web_workers: int = 1,
    web_args: tuple[str, ...] = (),
    timeout: float = 60,
) -> Iterator[LiveService]:
    """gunicorn (+ a qcluster, + the OCR queue's qcluster) with `env`, once
    /health answers and every web worker is up; all stopped afterwards. `env`
    must set PORT."""
    logs.mkdir(parents=True, exist_ok=True)
    service = LiveService(base=f"http://127.0.0.1:{env['PORT']}", env=env, logs=logs)
    try:
        service.processes["web"] = spawn([*GUNICORN, *web_args], env, logs / "web.log")
        if worker:
            service.start_worker()
            if ocr_worker:
                service.start_worker("ocr-worker", queue="ocr")
        _wait_for_health(service, web_workers, timeout)
        yield service
    finally:
        stop_all(list(service.processes.values()))


def _wait_for_health(service: LiveService, web_workers: int, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        service.check_alive()
        try:
            if requests.get(service.base + "/health", timeout=2).ok:
                if len(service.web_workers()) >= web_workers:
                    return
        except requests.RequestException:
            pass
        time.sleep(0.2)
    raise ServiceDied(
        f"the service did not answer /health within {timeout} s (logs in "
        f"{service.logs}): "
        + (service.logs / "web.log").read_text(errors="replace")[-2000:]
    )


# --- Redis -----------------------------------------------------------------------


def redis_answers(url: str) -> bool:
    import redis

    try:
        return bool(redis.Redis.from_url(url, socket_connect_timeout=2).ping())
    except (redis.RedisError, OSError):
        return False


@contextmanager
def redis_server(logs: Path, url: str | None = None) -> Iterator[str | None]:
    """`url` (REDIS_URL by default) when it answers; else a private redis-server on
    a free port for the duration; None when there is no Redis at all."""
    url = url or os.environ.get("REDIS_URL") or "redis://127.0.0.1:6379/15"
    if redis_answers(url):
        yield url
        return
    binary = shutil.which("redis-server")
    if binary is None:
        yield None
        return
    port = free_port()
    logs.mkdir(parents=True, exist_ok=True)
    proc = spawn(
        [
            binary,
            "--port",
            str(port),
            "--bind",
            "127.0.0.1",
            "--save",
            "",
            "--appendonly",
            "no",
        ],
        dict(os.environ),
        logs / "redis.log",
    )
    own = f"redis://127.0.0.1:{port}/15"
    try:
        deadline = time.monotonic() + 10
        while not redis_answers(own):
            if time.monotonic() > deadline or proc.poll() is not None:
                yield None
                return
            time.sleep(0.1)
        yield own
    finally:
        stop(proc)


# --- S3-compatible storage -----------------------------------------------------


@dataclass(frozen=True)
class S3Store:
    endpoint: str
    bucket: str

    def env(self) -> dict[str, str]:
        """What a node needs to keep its files in this store (README, Scaling out)."""
        return {
            "TRANSFORMSVC_STORAGE_BACKEND": "storages.backends.s3.S3Storage",
            "AWS_S3_ENDPOINT_URL": self.endpoint,
            "AWS_STORAGE_BUCKET_NAME": self.bucket,
            "AWS_S3_REGION_NAME": "us-east-1",
            "AWS_S3_ADDRESSING_STYLE": "path",
            "AWS_ACCESS_KEY_ID": "testing",
            "AWS_SECRET_ACCESS_KEY": "testing",
        }

    def client(self) -> Any:
        import boto3

        env = self.env()
        return boto3.client(
            "s3",
            endpoint_url=self.endpoint,
            region_name=env["AWS_S3_REGION_NAME"],
            aws_access_key_id=env["AWS_ACCESS_KEY_ID"],
            aws_secret_access_key=env["AWS_SECRET_ACCESS_KEY"],
        )

    def keys(self) -> list[str]:
        listed = self.client().list_objects_v2(Bucket=self.bucket)
        return [item["Key"] for item in listed.get("Contents", [])]


@contextmanager
def s3_server(logs: Path, bucket: str = "transformsvc") -> Iterator[S3Store]:
    """moto's S3 server (a real HTTP server, the `moto[server]` package) on a free
    loopback port, with an empty `bucket`; stopped afterwards."""
    port = free_port()
    logs.mkdir(parents=True, exist_ok=True)
    proc = spawn(
        [sys.executable, "-m", "moto.server", "-H", "127.0.0.1", "-p", str(port)],
        dict(os.environ),
        logs / "s3.log",
    )
    store = S3Store(f"http://127.0.0.1:{port}", bucket)
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                store.client().create_bucket(Bucket=bucket)
                break
            except Exception:
                if proc.poll() is not None or time.monotonic() > deadline:
                    raise ServiceDied(
                        "moto's S3 server did not start: "
                        + (logs / "s3.log").read_text(errors="replace")[-2000:]
                    ) from None
                time.sleep(0.2)
        yield store
    finally:
        stop(proc)


# --- tests -----------------------------------------------------------------------


def database_url() -> str:
    """The URL of the database the test run uses (pytest-django's test_ database)."""
    from django.db import connection

    params = connection.settings_dict
    user = params.get("USER") or "postgres"
    password = f":{params['PASSWORD']}" if params.get("PASSWORD") else ""
    host = params.get("HOST") or "127.0.0.1"
    port = params.get("PORT") or 5432
    return f"postgres://{user}{password}@{host}:{port}/{params['NAME']}"


@contextmanager
def live_service(
    tmp: Path,
    *,
    workers: int = 1,
    extra_env: dict[str, str] | None = None,
    start_worker: bool = True,
    threads: int = 16,
    web_workers: int = 1,
    ocr_worker: bool = False,
) -> Iterator[LiveService]:
    """gunicorn (`web_workers` processes) and (optionally) a qcluster on the test
    database and the test's data directory; stopped afterwards. The OCR queue's
    cluster only with `ocr_worker` (most tests recognise nothing; without it a
    scan's recognition is taken by the main queue's sweeper after a lease)."""
    from django.conf import settings

    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "transformsvc.settings",
        "DATABASE_URL": database_url(),
        "TRANSFORMSVC_DATA_DIR": str(settings.DATA_DIR),
        "TRANSFORMSVC_WORKERS": str(workers),
        "TRANSFORMSVC_Q_SYNC": "0",
        "PYTHONUNBUFFERED": "1",
        "PORT": str(free_port()),
        "WEB_WORKERS": str(web_workers),
        "WEB_THREADS": str(threads),
        # Its own metrics files, not the test process's.
        "TRANSFORMSVC_METRICS_DIR": str(tmp / "metrics"),
        # Most tests convert no Office file: their workers start LibreOffice only
        # when one comes (tests/renditions checks the default, at spawn).
        "TRANSFORMSVC_OFFICE_POOL_START": "first-use",
        **(extra_env or {}),
    }
    with running(
        env,
        tmp,
        worker=start_worker,
        ocr_worker=ocr_worker,
        web_workers=web_workers,
        timeout=30,
    ) as service:
        yield service
