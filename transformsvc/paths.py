"""Where a node keeps its own files: the data directory and the metrics files.

Pure (no Django): gunicorn's configuration reads it in the master process, before
any Django setting exists, and settings.py reads it too, so that both agree.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parent.parent


def data_dir() -> Path:
    """TRANSFORMSVC_DATA_DIR, else ./var of the project."""
    return Path(os.environ.get("TRANSFORMSVC_DATA_DIR", BASE_DIR / "var")).resolve()


def process_role(argv: list[str] | None = None) -> str:
    """ "worker" in `manage.py qcluster` (and the worker processes it forks), else
    "web" (gunicorn, and one-off commands, which record little)."""
    args = sys.argv if argv is None else argv
    return "worker" if args[1:2] == ["qcluster"] else "web"


def metrics_root() -> Path:
    """TRANSFORMSVC_METRICS_DIR, else <data dir>/metrics: one per node."""
    configured = os.environ.get("TRANSFORMSVC_METRICS_DIR")
    return Path(configured).resolve() if configured else data_dir() / "metrics"


def metrics_dir(role: str) -> Path:
    """The files of one kind of process: web (gunicorn) or worker (qcluster). Each
    kind cleans its own folder when it starts, so that a restarted cluster does
    not wipe the counters of a web server still running, nor the reverse."""
    return metrics_root() / role


def prepare_metrics(role: str) -> Path:
    """Point prometheus-client's multiprocess mode at the folder of `role`.

    prometheus-client decides between one process and many when it is first
    imported, so this runs before any import of it (settings.py, gunicorn_conf.py).
    """
    path = metrics_dir(role)
    path.mkdir(parents=True, exist_ok=True)
    os.environ["PROMETHEUS_MULTIPROC_DIR"] = str(path)
    return path


def clean_metrics(path: Path) -> None:
    """Forget the files of processes of an earlier run (at the start of a run)."""
    for stale in path.glob("*.db"):
        stale.unlink(missing_ok=True)
