"""Where a node keeps its own files: the data directory and the metrics files.

Pure (no Django): gunicorn's configuration reads it in the master process, before
any Django setting exists, and settings.py reads it too, so that both agree.
"""

from __future__ import annotations

import hashlib
import logging
import os
import sys
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parent.parent
# A memory file system: metrics files there never share the data disk's fate.
SHARED_MEMORY = Path("/dev/shm")
# Less free space than this in the metrics folder: metrics are not shared.
METRICS_MIN_FREE = 16 * 1024 * 1024

logger = logging.getLogger(__name__)


def data_dir() -> Path:
    """TRANSFORMSVC_DATA_DIR, else ./var of the project."""
    return Path(os.environ.get("TRANSFORMSVC_DATA_DIR", BASE_DIR / "var")).resolve()


def process_role(argv: list[str] | None = None) -> str:
    """ "worker" in `manage.py qcluster` (and the worker processes it forks), else
    "web" (gunicorn, and one-off commands, which record little)."""
    args = sys.argv if argv is None else argv
    return "worker" if args[1:2] == ["qcluster"] else "web"


def metrics_root(data: Path | None = None) -> Path:
    """TRANSFORMSVC_METRICS_DIR, else a folder of this node in /dev/shm (named by
    a hash of the data directory, so two nodes of one machine stay apart), else
    <data dir>/metrics. `data`: of a node with another data directory than ours.

    Not the data disk by default: the files are memory-mapped, and a process
    writing to a mapped page of a full file system is killed (SIGBUS), which a
    full data disk would do to every process, again after every restart.
    """
    configured = os.environ.get("TRANSFORMSVC_METRICS_DIR")
    if configured:
        return Path(configured).resolve()
    data = (data or data_dir()).resolve()
    if SHARED_MEMORY.is_dir() and os.access(SHARED_MEMORY, os.W_OK):
        node = hashlib.sha256(str(data).encode()).hexdigest()[:12]
        return SHARED_MEMORY / f"transformsvc-{node}"
    return data / "metrics"


def metrics_dir(role: str) -> Path:
    """The files of one kind of process: web (gunicorn) or worker (qcluster). Each
    kind cleans its own folder when it starts, so that a restarted cluster does
    not wipe the counters of a web server still running, nor the reverse."""
    return metrics_root() / role


def prepare_metrics(role: str) -> Path:
    """Point prometheus-client's multiprocess mode at the folder of `role`.

    prometheus-client decides between one process and many when it is first
    imported, so this runs before any import of it (settings.py, gunicorn_conf.py).
    A folder that cannot be made or has almost no free space left disables the
    shared metrics (each process keeps its own, /metrics then shows only the
    answering process's) with a log line: a full disk must not kill processes.
    So does a write that fails later (`metrics_guard`), in the process it fails in.
    """
    path = metrics_dir(role)
    problem = metrics_unusable(path)
    if problem:
        logger.error("metrics are not shared between processes: %s", problem)
        os.environ.pop("PROMETHEUS_MULTIPROC_DIR", None)
        return path
    os.environ["PROMETHEUS_MULTIPROC_DIR"] = str(path)
    # Only now may prometheus-client be imported (it reads the variable above).
    from transformsvc import metrics_guard

    metrics_guard.install()
    return path


def metrics_unusable(path: Path) -> str | None:
    """Why the metrics files cannot live in `path` (made if need be), or None."""
    try:
        path.mkdir(parents=True, exist_ok=True)
        stats = os.statvfs(path)
    except OSError as exc:
        return f"{path}: {exc.strerror or exc}"
    free = stats.f_bavail * stats.f_frsize
    if free < METRICS_MIN_FREE:
        return f"{path}: only {free // 1024} KiB free"
    return None


def clean_metrics(path: Path) -> None:
    """Forget the files of processes of an earlier run (at the start of a run)."""
    for stale in path.glob("*.db"):
        stale.unlink(missing_ok=True)
