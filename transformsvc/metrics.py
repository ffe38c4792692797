"""Every metric the service's processes record, created once per process.

No Summary (its quantiles cannot be merged across processes): durations are
histograms. Gauges say how files of several processes combine: `livesum` adds
the values of the processes still alive (gunicorn's child_exit and the scrape
forget the dead ones).
"""

from __future__ import annotations

from prometheus_client import Counter, Gauge, Histogram

# Seconds: from a cached search (ms) to a long poll (60 s).
HTTP_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60)
# Seconds an order waits or works: from an idle queue to the order timeout.
ORDER_BUCKETS = (0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600)
# Bytes of an upload: 10 kB to 1 GB.
SIZE_BUCKETS = (1e4, 1e5, 1e6, 1e7, 1e8, 1e9)

HTTP_REQUESTS = Counter(
    "transformsvc_http_requests",
    "HTTP requests answered, by route name (never the path), method and status",
    ["route", "method", "status"],
)
HTTP_DURATION = Histogram(
    "transformsvc_http_request_duration_seconds",
    "Time to answer an HTTP request (until the body starts to stream)",
    ["route", "method"],
    buckets=HTTP_BUCKETS,
)
ORDERS_CREATED = Counter(
    "transformsvc_orders_created",
    "Orders accepted, by kind and format",
    ["kind", "format"],
)
ORDERS_ENDED = Counter(
    "transformsvc_orders_ended",
    "Orders that ended, by kind, format and final state",
    ["kind", "format", "state"],
)
ORDER_QUEUED = Histogram(
    "transformsvc_order_queued_seconds",
    "Time from an order's creation to a worker taking it (observed when it ends)",
    ["kind"],
    buckets=ORDER_BUCKETS,
)
ORDER_PROCESSING = Histogram(
    "transformsvc_order_processing_seconds",
    "Time from a worker taking an order to its end, by final state",
    ["kind", "state"],
    buckets=ORDER_BUCKETS,
)
UPLOAD_BYTES = Histogram(
    "transformsvc_upload_bytes",
    "Size of documents received (its _sum is the bytes received), by origin",
    ["origin"],
    buckets=SIZE_BUCKETS,
)
CONVERSION_INSTANCES = Gauge(
    "transformsvc_conversion_pool_instances",
    "Converter (LibreOffice) instances running in the worker processes",
    multiprocess_mode="livesum",
)
CONVERSION_RESTARTS = Counter(
    "transformsvc_conversion_pool_restarts",
    "Converter instances restarted, by reason (crash, timeout, recycle...)",
    ["reason"],
)
CONVERSION_TIMEOUTS = Counter(
    "transformsvc_conversion_pool_timeouts",
    "Conversions stopped for running past their time limit",
)
DB_POOL_CONNECTIONS = Gauge(
    "transformsvc_db_pool_connections",
    "PostgreSQL connections of the web processes' pools (size: open; available: "
    "idle in the pool; max: the limit), as of each process's last request",
    ["state"],
    multiprocess_mode="livesum",
)
DB_POOL_WAITING = Gauge(
    "transformsvc_db_pool_waiting",
    "Requests waiting for a pooled connection, as of each process's last request",
    multiprocess_mode="livesum",
)
WEBHOOK_ATTEMPTS = Counter(
    "transformsvc_webhook_attempts",
    "Webhook delivery attempts, by result (delivered, refused, failed)",
    ["result"],
)
IDEMPOTENT_REPLAYS = Counter(
    "transformsvc_idempotent_replays",
    "Requests answered from an earlier request with the same Idempotency-Key",
    ["route"],
)
