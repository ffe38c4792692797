"""Servers a chaos test owns and breaks: a Redis without persistence that it can
stop and start again on the same port, and the checks every case ends with."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path

import pytest

from tests.live import LiveService, free_port, redis_answers, spawn, stop


@dataclass
class Redis:
    """redis-server on a free loopback port, no persistence: a restart forgets
    every task it held, as the issue's operator saw."""

    logs: Path
    port: int = field(default_factory=free_port)
    proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        binary = shutil.which("redis-server")
        if binary is None:
            pytest.skip("no redis-server (transformsvc/scripts/install.sh installs it)")
        self.logs.mkdir(parents=True, exist_ok=True)
        self.proc = spawn(
            [binary, "--port", str(self.port), "--bind", "127.0.0.1"]
            + ["--save", "", "--appendonly", "no"],
            dict(os.environ),
            self.logs / "redis.log",
        )
        deadline = time.monotonic() + 10
        while not redis_answers(self.url):
            assert self.proc.poll() is None, "redis-server ended at start"
            assert time.monotonic() < deadline, "redis-server did not answer"
            time.sleep(0.05)

    def kill(self) -> None:
        """Gone at once, with everything it held (a crash, or a restart)."""
        if self.proc is not None and self.proc.poll() is None:
            os.kill(self.proc.pid, signal.SIGKILL)
            self.proc.wait()

    def pause(self) -> None:
        """Hung: connections are still accepted (by the kernel), nothing answers."""
        assert self.proc is not None
        os.kill(self.proc.pid, signal.SIGSTOP)

    def resume(self) -> None:
        assert self.proc is not None
        os.kill(self.proc.pid, signal.SIGCONT)

    def stop(self) -> None:
        if self.proc is not None:
            self.resume()
            stop(self.proc, grace=5)


@dataclass
class Postgres:
    """A throwaway PostgreSQL cluster (initdb of the installed server, about 2 s)
    holding a copy of the test database, so that a test may crash and restart it
    without disturbing anyone else's server."""

    root: Path
    port: int = field(default_factory=free_port)

    @property
    def url(self) -> str:
        return f"postgres://postgres@127.0.0.1:{self.port}/transformsvc"

    def _run(self, *cmd: str) -> None:
        as_postgres = ["runuser", "-u", "postgres", "--"] if os.getuid() == 0 else []
        subprocess.run([*as_postgres, *cmd], check=True, capture_output=True)

    def _bin(self, name: str) -> str:
        found = sorted(Path("/usr/lib/postgresql").glob(f"*/bin/{name}"))
        path = str(found[-1]) if found else shutil.which(name)
        if path is None:
            pytest.skip(f"no PostgreSQL {name} here to start a throwaway server")
        return path

    def create(self, copy_of: str) -> None:
        """initdb, start, and restore a dump of the database at `copy_of`."""
        self.root.mkdir(parents=True, exist_ok=True)
        if os.getuid() == 0:  # initdb refuses root: the folder is postgres's
            shutil.chown(self.root, "postgres")
        self._run(
            self._bin("initdb"), "-D", str(self.root / "data"), "-U", "postgres",
            "--auth=trust", "-E", "UTF8", "--no-sync",
        )  # fmt: skip
        self.start()
        dump = self.root / "copy.dump"
        with open(dump, "wb") as out:
            subprocess.run(
                [self._bin("pg_dump"), "-Fc", "-d", copy_of], stdout=out, check=True
            )
        subprocess.run(
            [self._bin("createdb"), "-h", "127.0.0.1", "-p", str(self.port)]
            + ["-U", "postgres", "transformsvc"],
            check=True,
        )
        subprocess.run(
            [self._bin("pg_restore"), "--no-owner", "-d", self.url, str(dump)],
            check=True,
        )

    def start(self) -> None:
        # fsync off: a crash of the server (not of the machine) loses nothing, the
        # kernel still holds what was written. Never synchronous_commit off: an
        # immediate stop would lose commits the service was told were durable.
        options = (
            f"-p {self.port} -k {self.root} -c listen_addresses=127.0.0.1 "
            "-c fsync=off -c full_page_writes=off"
        )
        self._run(
            self._bin("pg_ctl"), "-D", str(self.root / "data"), "-w",
            "-l", str(self.root / "server.log"), "-o", options, "start",
        )  # fmt: skip

    def crash(self) -> None:
        """Stopped as by a power cut: every connection broken, no goodbye."""
        data = str(self.root / "data")
        self._run(self._bin("pg_ctl"), "-D", data, "-m", "immediate", "stop")


@contextmanager
def postgres(copy_of: str) -> Iterator[Postgres]:
    """A throwaway server with a copy of `copy_of`; removed afterwards. Its folder
    is not under pytest's (private to this user, where the server's own user,
    postgres, cannot go when the tests run as root)."""
    server = Postgres(Path(tempfile.mkdtemp(prefix="transformsvc-chaos-pg-")))
    try:
        server.create(copy_of)
        yield server
    finally:
        if (server.root / "data" / "postmaster.pid").exists():
            server.crash()
        shutil.rmtree(server.root, ignore_errors=True)


@contextmanager
def redis(logs: Path) -> Iterator[Redis]:
    server = Redis(logs)
    server.start()
    try:
        yield server
    finally:
        server.stop()


def cluster_env(redis_url: str, **extra: str) -> dict[str, str]:
    """A node on `redis_url` whose sweeper and recovery act within seconds."""
    return {
        "REDIS_URL": redis_url,
        "TRANSFORMSVC_QUEUE_LEASE": "2",
        "TRANSFORMSVC_HEARTBEAT_SECONDS": "1",
        "TRANSFORMSVC_RECOVERY_GRACE": "1",
        **extra,
    }


def assert_every_order_ends_once(
    service: LiveService, order_ids: list[str], timeout: float, max_attempts: int = 1
) -> None:
    """Each order ends PROCESSED (with its result) or FAILED (saying why) within
    `timeout`, and was taken by a worker at most `max_attempts` times."""
    from orders.models import TransformationOrder

    deadline = time.monotonic() + timeout
    for order_id in order_ids:
        final = service.wait_until_final(
            order_id, timeout=max(1.0, deadline - time.monotonic())
        )
        if final["currentState"] == "FAILED":
            assert final["errorMessage"], f"a failed order says why: {final}"
        else:
            assert final["transformationResultDocumentID"], final
    rows = TransformationOrder.objects.filter(pk__in=order_ids)
    attempts = dict(rows.values_list("id", "attempts"))
    assert len(attempts) == len(order_ids)
    assert all(1 <= n <= max_attempts for n in attempts.values()), attempts


def assert_no_drift(killed_mid_run: int = 0) -> None:
    """No row without its file; no stored file without its row but (at most)
    one output of each attempt killed between writing its file and committing
    its row, which the reconciler then removes."""
    from documents.reconcile import reconcile

    drift = reconcile(dry_run=True, grace=timedelta(0))
    assert not drift.rows_without_files, drift
    assert len(drift.files_without_rows) <= killed_mid_run, drift
    reconcile(grace=timedelta(0))
    after = reconcile(dry_run=True, grace=timedelta(0))
    assert after.clean, after
