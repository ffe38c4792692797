"""gunicorn settings of the web process, shared by `make run`, tests and benchmarks.

Threads (gthread) let long polls wait without holding a process; each waiting
request releases its database connection. Keep WEB_WORKERS x WEB_THREADS under
PostgreSQL's max_connections (100 by default) minus the workers' connections.

Metrics: every web worker writes its counters to files in the node's web metrics
folder (prometheus-client's multiprocess mode); the master empties that folder
when it starts and, when a worker exits, folds the worker's counters into the
folder's totals and removes its files (`transformsvc.metrics_fold`): a worker's
live gauges (database pool use) stop counting, and recycled workers leave no
files behind.
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
# Each worker is replaced (gracefully: the master starts its successor, it finishes
# the requests it holds) after this many requests, plus up to the jitter so that
# the workers of one master do not all restart at once: whatever a worker's memory
# gathered (caches, fragmentation) goes back to the system. 0 never recycles.
max_requests = int(os.environ.get("WEB_MAX_REQUESTS", "5000"))
max_requests_jitter = int(os.environ.get("WEB_MAX_REQUESTS_JITTER", "1000"))
graceful_timeout = 10
accesslog = os.environ.get("ACCESS_LOG", "-")
# Web workers take database connections from a pool (settings.DB_POOL).
raw_env = [f"DB_POOL={os.environ.get('DB_POOL', '1')}"]

# Before the workers import the application, hence prometheus-client.
metrics_dir = paths.prepare_metrics("web")


def on_starting(server: Any) -> None:
    paths.clean_metrics(metrics_dir)


def child_exit(server: Any, worker: Any) -> None:
    from transformsvc import metrics_fold

    try:
        metrics_fold.fold(metrics_dir, worker.pid)
    except Exception:  # raised here, it would stop the master's main loop
        server.log.exception("metrics of worker %s not folded", worker.pid)
