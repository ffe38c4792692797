"""gunicorn settings of the web process, shared by `make run`, tests and benchmarks.

Threads (gthread) let long polls wait without holding a process; each waiting
request releases its database connection. Keep WEB_WORKERS x WEB_THREADS under
PostgreSQL's max_connections (100 by default) minus the workers' connections.

Metrics: every web worker writes its counters to files in the node's web metrics
folder (prometheus-client's multiprocess mode); the master empties that folder
when it starts and tells the client when a worker exits, so that the worker's
live gauges (database pool use) stop counting.
"""

import os
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from transformsvc import paths  # noqa: E402

bind = f"{os.environ.get('HOST', '127.0.0.1')}:{os.environ.get('PORT', '8761')}"
worker_class = "gthread"
workers = int(os.environ.get("WEB_WORKERS", "2"))
threads = int(os.environ.get("WEB_THREADS", "40"))
timeout = 120
graceful_timeout = 10
accesslog = os.environ.get("ACCESS_LOG", "-")
# Web workers take database connections from a pool (settings.DB_POOL).
raw_env = [f"DB_POOL={os.environ.get('DB_POOL', '1')}"]

# Before the workers import the application, hence prometheus-client.
metrics_dir = paths.prepare_metrics("web")


def on_starting(server: Any) -> None:
    paths.clean_metrics(metrics_dir)


def child_exit(server: Any, worker: Any) -> None:
    from prometheus_client import multiprocess

    multiprocess.mark_process_dead(worker.pid, str(metrics_dir))
