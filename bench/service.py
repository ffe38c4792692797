"""The service as it runs in production, started for a benchmark.

gunicorn (gthread workers, as `transformsvc/scripts/run.sh` starts it) and a
`manage.py qcluster` with 2 workers, on PostgreSQL, with a fresh data directory.
Also: the memory of the web workers (read from /proc), and the database and
Redis the benchmark needs.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import requests

from tests.live import GUNICORN, free_port  # the same web process as tests and make run

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/transformsvc_bench"
DEFAULT_REDIS_URL = "redis://127.0.0.1:6379/15"

Log = Callable[[str], None]


class BenchError(RuntimeError):
    """The benchmark cannot run (no database, the service does not start...)."""


# --- database ------------------------------------------------------------------


def database_url() -> str:
    """DATABASE_URL from the environment, else the benchmark's own database."""
    return os.environ.get("DATABASE_URL") or DEFAULT_DATABASE_URL


def database_name(url: str) -> str:
    return urlsplit(url).path.lstrip("/")


def _psycopg_url(url: str, dbname: str) -> str:
    parts = urlsplit(url)
    return urlunsplit(parts._replace(scheme="postgresql", path="/" + dbname))


def ensure_database(url: str) -> None:
    """Create the database of `url` on its server when it does not exist."""
    import psycopg
    from psycopg import sql

    if urlsplit(url).scheme not in ("postgres", "postgresql"):
        raise BenchError(f"the benchmark runs on PostgreSQL; DATABASE_URL is {url!r}")
    name = database_name(url)
    try:
        conn = psycopg.connect(
            _psycopg_url(url, "postgres"), autocommit=True, connect_timeout=5
        )
    except psycopg.OperationalError as exc:
        raise BenchError(f"PostgreSQL does not answer at {url}: {exc}") from exc
    with conn:
        exists = conn.execute(
            "SELECT 1 FROM pg_database WHERE datname = %s", [name]
        ).fetchone()
        if not exists:
            conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))


def manage(env: dict[str, str], *args: str) -> None:
    done = subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        raise BenchError(
            f"manage.py {' '.join(args)} failed:\n{done.stdout}{done.stderr}"
        )


def prepare_database(url: str, data_dir: Path, *, flush: bool) -> None:
    """Create (if missing) and migrate the database; empty it when `flush`."""
    ensure_database(url)
    env = service_env(url, data_dir, None)
    manage(env, "migrate", "--noinput")
    if flush:
        manage(env, "flush", "--noinput")


# --- redis ---------------------------------------------------------------------


def redis_answers(url: str) -> bool:
    import redis

    try:
        return bool(redis.Redis.from_url(url, socket_connect_timeout=2).ping())
    except (redis.RedisError, OSError):
        return False


@contextmanager
def redis_server(logs: Path) -> Iterator[str | None]:
    """REDIS_URL (or the default) when it answers; else a private redis-server on a
    free port for the duration; None when there is no Redis at all."""
    url = os.environ.get("REDIS_URL") or DEFAULT_REDIS_URL
    if redis_answers(url):
        yield url
        return
    binary = shutil.which("redis-server")
    if binary is None:
        yield None
        return
    port = free_port()
    with open(logs / "redis.log", "ab") as out:
        proc = subprocess.Popen(
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
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
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
        _stop(proc)


# --- process memory ------------------------------------------------------------


def _status_kb(pid: int, key: str) -> int:
    """A `Vm...` line of /proc/<pid>/status in kB (0 when the process is gone)."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith(key + ":"):
                return int(line.split()[1])
    except (OSError, ValueError, IndexError):
        pass
    return 0


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


class PeakMemory:
    """Peak RSS (MB) of some processes over a stretch of time.

    The kernel's high-water mark (VmHWM) is reset at the start by writing 5 to
    /proc/<pid>/clear_refs; where that is not allowed, a thread samples VmRSS
    every 5 ms instead (which can miss a very short peak).
    """

    def __init__(self, pids: list[int]) -> None:
        self.pids = pids
        self.reset_ok = all(self._reset(pid) for pid in pids)
        self.sampled_kb = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._sample, daemon=True)

    @staticmethod
    def _reset(pid: int) -> bool:
        try:
            Path(f"/proc/{pid}/clear_refs").write_text("5")
            return True
        except OSError:
            return False

    def _sample(self) -> None:
        while not self._stop.is_set():
            for pid in self.pids:
                self.sampled_kb = max(self.sampled_kb, _status_kb(pid, "VmRSS"))
            self._stop.wait(0.005)

    def __enter__(self) -> PeakMemory:
        if not self.reset_ok:
            self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join()

    @property
    def peak_mb(self) -> float:
        hwm = max(_status_kb(pid, "VmHWM") for pid in self.pids) if self.reset_ok else 0
        return max(hwm, self.sampled_kb) / 1024


# --- the service ---------------------------------------------------------------


def service_env(db_url: str, data_dir: Path, redis_url: str | None) -> dict[str, str]:
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "transformsvc.settings",
        "DATABASE_URL": db_url,
        "TRANSFORMSVC_DATA_DIR": str(data_dir),
        "TRANSFORMSVC_WORKERS": "2",
        "PYTHONUNBUFFERED": "1",
        "LOG_LEVEL": "WARNING",
    }
    env.pop("REDIS_URL", None)
    env.pop("TRANSFORMSVC_Q_SYNC", None)
    if redis_url:
        env["REDIS_URL"] = redis_url
    return env


@dataclass
class Service:
    base: str
    broker: str
    logs: Path
    processes: dict[str, subprocess.Popen[bytes]] = field(default_factory=dict)

    def web_workers(self) -> list[int]:
        """The gunicorn worker processes (children of its master)."""
        return children(self.processes["web"].pid)

    def peak_memory(self) -> PeakMemory:
        """`with service.peak_memory() as peak: ...; peak.peak_mb` over the web workers."""
        return PeakMemory(self.web_workers())

    def rss_mb(self) -> float:
        """The largest current RSS of a web worker, MB."""
        return max(_status_kb(pid, "VmRSS") for pid in self.web_workers()) / 1024

    def check_alive(self) -> None:
        for name, proc in self.processes.items():
            if proc.poll() is not None:
                tail = (self.logs / f"{name}.log").read_text(errors="replace")[-3000:]
                raise BenchError(
                    f"the {name} process ended (exit {proc.returncode}):\n{tail}"
                )


def _spawn(cmd: list[str], env: dict[str, str], log: Path) -> subprocess.Popen[bytes]:
    with open(log, "ab") as out:
        return subprocess.Popen(
            cmd,
            cwd=ROOT,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )


def _stop(proc: subprocess.Popen[bytes], grace: float = 20) -> None:
    # SIGTERM to the main process only: the qcluster's own processes stop when it
    # tells them to; a SIGTERM to its whole group leaves it blocked (for ever) on a
    # lock one of them held when it died.
    if proc.poll() is None:
        proc.terminate()
    try:
        proc.wait(timeout=grace)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()


@contextmanager
def running_service(
    *,
    db_url: str,
    data_dir: Path,
    logs: Path,
    redis_url: str | None = None,
    web_workers: int = 2,
    threads: int = 40,
) -> Iterator[Service]:
    """gunicorn + qcluster (2 workers) on `db_url`, answering /health; stopped after."""
    port = free_port()
    env = {
        **service_env(db_url, data_dir, redis_url),
        "PORT": str(port),
        "WEB_WORKERS": str(web_workers),
        "WEB_THREADS": str(threads),
    }
    logs.mkdir(parents=True, exist_ok=True)
    data_dir.mkdir(parents=True, exist_ok=True)
    broker = "redis" if redis_url else "database"
    service = Service(base=f"http://127.0.0.1:{port}", broker=broker, logs=logs)
    try:
        service.processes["web"] = _spawn(
            [*GUNICORN, "--access-logfile", str(logs / f"access-{broker}.log")],
            env,
            logs / "web.log",
        )
        service.processes["worker"] = _spawn(
            [sys.executable, "manage.py", "qcluster"], env, logs / "worker.log"
        )
        _wait_for_health(service, web_workers)
        yield service
    finally:
        for proc in service.processes.values():
            _stop(proc)


def _wait_for_health(service: Service, web_workers: int, timeout: float = 60) -> None:
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
    raise BenchError(
        f"the service did not answer /health within {timeout} s "
        f"(logs in {service.logs})"
    )
