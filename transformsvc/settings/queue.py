"""django-q2's clusters: the database broker by default (woken by NOTIFY on
PostgreSQL, jobs/broker.py), Redis when REDIS_URL is set.

Two queues, each served by a cluster of its own (`manage.py qcluster` with
TRANSFORMSVC_WORKER_QUEUE set to its name): "main" for the work clients wait on
(orders, conversions, the PDF an upload needs), and "ocr" for recognising scans,
which takes seconds a page. The OCR cluster runs TRANSFORMSVC_OCR_WORKERS
workers (1 by default) at a lower CPU priority (TRANSFORMSVC_OCR_NICE), so a
burst of scans slows only the scans. Both are in ALT_CLUSTERS, django-q2's table
of clusters by name (their names share the site's prefix, Q_CLUSTER_NAME)."""

from __future__ import annotations

import os
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from transformsvc.conf import Environ
from transformsvc.paths import process_role

QUEUES = ("main", "ocr")


def cluster_name(site: str, queue: str) -> str:
    """The django-q2 cluster (the broker's list) that serves `queue`."""
    return site if queue == "main" else f"{site}-{queue}"


def q_cluster(env: Environ, *, postgres: bool) -> dict[str, object]:
    """Q_CLUSTER of this process's queue (TRANSFORMSVC_WORKER_QUEUE); `postgres`:
    the database is PostgreSQL (NOTIFY wakes the broker)."""
    site = os.environ.get("Q_CLUSTER_NAME", "transformsvc")
    queue = env.choice("TRANSFORMSVC_WORKER_QUEUE", "main", QUEUES)
    cluster: dict[str, object] = {
        "name": site,
        "workers": env.integer("TRANSFORMSVC_WORKERS", 2),
        "timeout": env.integer("TRANSFORMSVC_ORDER_TIMEOUT", 600),
        "retry": env.integer("TRANSFORMSVC_ORDER_TIMEOUT", 600) * 2 + 60,
        "max_attempts": 1,
        "ack_failures": True,
        "save_limit": 1000,
        "catch_up": False,
        "recycle": 200,
        # A worker whose peak memory passed this (a huge document) is replaced after
        # its task, so the memory goes back to the system instead of staying mapped.
        "max_rss": env.integer("TRANSFORMSVC_WORKER_MAX_RSS_MB", 1024) * 1024,  # KiB
        # On PostgreSQL the database broker is woken by NOTIFY (jobs/broker.py), so
        # `poll` is only its longest wait, for retries coming due and while its listener
        # reconnects; on other databases it polls.
        "poll": env.number(
            "TRANSFORMSVC_Q_POLL",
            0.5 if postgres else 0.05,
        ),
        "label": "Task queue",
    }
    if os.environ.get("REDIS_URL"):
        cluster["redis"] = with_timeouts(
            os.environ["REDIS_URL"], worker=process_role() == "worker"
        )
    else:
        cluster["orm"] = "default"
        cluster["broker_class"] = "jobs.broker.NotifyingORM"
    if env.flag("TRANSFORMSVC_Q_SYNC", False):
        cluster["sync"] = True
    alternatives = {
        cluster_name(site, "ocr"): {
            "workers": env.integer("TRANSFORMSVC_OCR_WORKERS", 1),
        }
    }
    cluster["ALT_CLUSTERS"] = alternatives
    cluster["queue"] = queue  # read by jobs.queues, not by django-q2
    cluster["nice"] = env.integer("TRANSFORMSVC_OCR_NICE", 10) if queue == "ocr" else 0
    if queue != "main":
        # Chosen here rather than by django-q2's own Q_CLUSTER_NAME switch: that
        # variable already names the site (the signing salt every node shares).
        cluster["cluster_name"] = cluster_name(site, queue)
        cluster.update(alternatives[cluster_name(site, queue)])
    return cluster


def with_timeouts(url: str, *, worker: bool) -> str:
    """The Redis URL with short socket timeouts unless it sets its own: a Redis
    out of reach or hung does not hold a request more than about a second (its
    order stays owed and is pushed again later, jobs.dispatch). In the qcluster
    (`worker`) reads may wait 5 s: its broker's blocking read waits 1 s, which
    must stay well under the read timeout."""
    parts = urlsplit(url)
    query = dict(parse_qsl(parts.query))
    query.setdefault("socket_connect_timeout", "1")
    query.setdefault("socket_timeout", "5" if worker else "1")
    return urlunsplit(parts._replace(query=urlencode(query)))
