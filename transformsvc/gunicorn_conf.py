"""gunicorn settings of the web process, shared by `make run`, tests and benchmarks.

Threads (gthread) let long polls wait without holding a process; each waiting
request releases its database connection. Keep WEB_WORKERS x WEB_THREADS under
PostgreSQL's max_connections (100 by default) minus the workers' connections.
"""

import os

bind = f"{os.environ.get('HOST', '127.0.0.1')}:{os.environ.get('PORT', '8761')}"
worker_class = "gthread"
workers = int(os.environ.get("WEB_WORKERS", "2"))
threads = int(os.environ.get("WEB_THREADS", "40"))
timeout = 120
graceful_timeout = 10
accesslog = os.environ.get("ACCESS_LOG", "-")
# Web workers take database connections from a pool (settings.DB_POOL).
raw_env = [f"DB_POOL={os.environ.get('DB_POOL', '1')}"]
