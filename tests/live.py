"""The service as separate processes (gunicorn + qcluster) on the test database."""

from __future__ import annotations

import os
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
from django.conf import settings
from django.db import connection

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


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def database_url() -> str:
    """The URL of the database the test run uses (pytest-django's test_ database)."""
    params = connection.settings_dict
    user = params.get("USER") or "postgres"
    password = f":{params['PASSWORD']}" if params.get("PASSWORD") else ""
    host = params.get("HOST") or "127.0.0.1"
    port = params.get("PORT") or 5432
    return f"postgres://{user}{password}@{host}:{port}/{params['NAME']}"


@dataclass
class LiveService:
    base: str
    env: dict[str, str]
    processes: dict[str, subprocess.Popen[bytes]] = field(default_factory=dict)
    logs: Path | None = None

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

    def start_worker(self, name: str = "worker") -> subprocess.Popen[bytes]:
        proc = _spawn(
            [sys.executable, "manage.py", "qcluster"], self.env, self.logs, name
        )
        self.processes[name] = proc
        return proc

    def wait_until_final(self, order_id: str, timeout: float = 60) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            body = self.get(f"/transformations/{order_id}?timeoutMs=5000").json()
            if body["currentState"] in ("PROCESSED", "FAILED"):
                return body
        raise AssertionError(f"order {order_id} did not end within {timeout} s: {body}")


def _spawn(
    cmd: list[str], env: dict[str, str], logs: Path | None, name: str
) -> subprocess.Popen[bytes]:
    out = open(logs / f"{name}.log", "ab") if logs else subprocess.DEVNULL  # noqa: SIM115
    return subprocess.Popen(
        cmd,
        cwd=ROOT,
        env=env,
        stdout=out,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )


@contextmanager
def live_service(
    tmp: Path,
    *,
    workers: int = 1,
    extra_env: dict[str, str] | None = None,
    start_worker: bool = True,
    threads: int = 16,
) -> Iterator[LiveService]:
    """gunicorn and (optionally) a qcluster on the test database; stopped afterwards."""
    port = free_port()
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "transformsvc.settings",
        "DATABASE_URL": database_url(),
        "TRANSFORMSVC_DATA_DIR": str(settings.DATA_DIR),
        "TRANSFORMSVC_WORKERS": str(workers),
        "TRANSFORMSVC_Q_SYNC": "0",
        "PYTHONUNBUFFERED": "1",
        "PORT": str(port),
        "WEB_WORKERS": "1",
        "WEB_THREADS": str(threads),
        **(extra_env or {}),
    }
    tmp.mkdir(parents=True, exist_ok=True)
    service = LiveService(base=f"http://127.0.0.1:{port}", env=env, logs=tmp)
    service.processes["web"] = _spawn(
        GUNICORN,
        env,
        tmp,
        "web",
    )
    if start_worker:
        service.start_worker()
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                if requests.get(service.base + "/health", timeout=2).ok:
                    break
            except requests.ConnectionError:
                pass
            if time.monotonic() > deadline:
                raise AssertionError(
                    "the live service did not start: "
                    + (tmp / "web.log").read_text(errors="replace")[-2000:]
                )
            time.sleep(0.2)
        yield service
    finally:
        for proc in service.processes.values():
            # SIGTERM to the main process only: signalling the whole group kills the
            # qcluster's children under a lock the parent then waits on forever.
            if proc.poll() is None:
                proc.terminate()
        for proc in service.processes.values():
            try:
                proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, 9)
