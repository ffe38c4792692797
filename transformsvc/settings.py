"""Settings of transformsvc, all read from the environment (defaults in README)."""

from __future__ import annotations

import os
import sys
from typing import Any

import dj_database_url
import django_stubs_ext
from django.core.exceptions import ImproperlyConfigured

from transformsvc import paths

# Generic classes of Django (ModelAdmin[...]) as the type checker knows them.
django_stubs_ext.monkeypatch()

BASE_DIR = paths.BASE_DIR


def env_int(name: str, default: int) -> int:
    return int(os.environ.get(name, default))


def env_float(name: str, default: float) -> float:
    return float(os.environ.get(name, default))


def env_bool(name: str, default: bool) -> bool:
    return os.environ.get(name, str(default)).strip().lower() in (
        "1",
        "true",
        "yes",
        "on",
    )


def env_choice(name: str, default: str, choices: tuple[str, ...]) -> str:
    value = os.environ.get(name, default).strip().lower()
    if value not in choices:
        raise ImproperlyConfigured(
            f"{name} must be one of {', '.join(choices)}, not {value!r}"
        )
    return value


def env_list(name: str) -> list[str]:
    return [
        item.strip() for item in os.environ.get(name, "").split(",") if item.strip()
    ]


DATA_DIR = paths.data_dir()
# Metrics: prometheus-client in multiprocess mode, one folder of files per kind
# of process of this node, set before anything imports the client: gunicorn_conf.py
# does it for the web processes, this for the qcluster's. Other processes (migrate,
# health checks, tests) keep their metrics to themselves and leave no files.
METRICS_DIR = paths.metrics_root()
if paths.process_role() == "worker":
    paths.prepare_metrics("worker")

SECRET_KEY = os.environ.get("SECRET_KEY", "transformsvc-local-only-change-me")
DEBUG = env_bool("DEBUG", False)
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS") or [
    "127.0.0.1",
    "localhost",
    "testserver",
    "[::1]",
]

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "django_q",
    "accounts",
    "jobs",
    "ops",
    "documents",
    "orders",
    "comparisons",
    "conversions",
    "annotations",
    "webhooks",
    "idempotency",
]

MIDDLEWARE = [
    # Outermost: it times and counts every answer, errors and static files included.
    "ops.metrics.middleware.MetricsMiddleware",
    "transformsvc.middleware.RequestIdMiddleware",
    "transformsvc.middleware.TrailingSlashMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

ROOT_URLCONF = "transformsvc.urls"
APPEND_SLASH = False

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

WSGI_APPLICATION = "transformsvc.wsgi.application"

DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{DATA_DIR / 'transformsvc.sqlite3'}",
        conn_max_age=env_int("DB_CONN_MAX_AGE", 60),
        conn_health_checks=True,
    )
}
_POOLED = (
    env_bool("DB_POOL", False)
    and DATABASES["default"]["ENGINE"].endswith("postgresql")
    and sys.argv[1:2] != ["qcluster"]
)
if _POOLED:
    # A connection pool per web process (gunicorn_conf.py turns it on): a long
    # poll gives its connection back while it waits and takes one again, checked,
    # when the order ends, instead of opening a new one (3 ms of PostgreSQL fork).
    # Never in qcluster: a pool must not be carried across its worker forks. Django
    # checks each connection taken from the pool (CONN_HEALTH_CHECKS above).
    DATABASES["default"]["CONN_MAX_AGE"] = 0
    _pool_size = max(1, env_int("DB_POOL_SIZE", env_int("WEB_THREADS", 40)))
    DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
        "min_size": min(2, _pool_size),
        "max_size": _pool_size,
        "timeout": 30,
    }

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
# The report indexes cover extra columns (INCLUDE) on PostgreSQL; SQLite (a local
# `make run`) builds them without those columns, which is all it needs.
SILENCED_SYSTEM_CHECKS = ["models.W040"]
USE_TZ = True
TIME_ZONE = "UTC"
LANGUAGE_CODE = "en-us"

STATIC_URL = "static/"
STATIC_ROOT = DATA_DIR / "static"
MEDIA_ROOT = DATA_DIR / "files"

# Files go through Django storages: a folder under the data directory by default,
# any django-storages backend (e.g. S3) when TRANSFORMSVC_STORAGE_BACKEND names one.
STORAGES: dict[str, dict[str, Any]] = {
    "default": {
        "BACKEND": os.environ.get(
            "TRANSFORMSVC_STORAGE_BACKEND",
            "django.core.files.storage.FileSystemStorage",
        ),
    },
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
if STORAGES["default"]["BACKEND"].endswith("S3Storage"):
    # S3 or any S3-compatible store (MinIO, Ceph...): what every node shares. The
    # keys come from AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY (or an instance
    # role), as boto3 reads them.
    from boto3.s3.transfer import TransferConfig
    from botocore.config import Config as S3Config

    STORAGES["default"]["OPTIONS"] = {
        "bucket_name": os.environ.get("AWS_STORAGE_BUCKET_NAME", "transformsvc"),
        "endpoint_url": os.environ.get("AWS_S3_ENDPOINT_URL") or None,
        "region_name": os.environ.get("AWS_S3_REGION_NAME") or None,
        # Names are random (documents/models.py): no existence check per save.
        "file_overwrite": True,
        # A file read from the store spills to disk past this; django-storages'
        # default (0) keeps a whole download in the web process's memory.
        "max_memory_size": 2 * 1024 * 1024,
        # One part at a time: with boto3's default 10 threads of 8 MiB parts a
        # 44 MB download raised a web process's peak memory by 14 to 58 MB here;
        # like this, by under 4 MB.
        "transfer_config": TransferConfig(use_threads=False),
        # A store that does not answer fails a request (and /ready) in seconds,
        # not after boto3's minute-long default timeouts.
        "client_config": S3Config(
            # "path" for most S3-compatible stores: they serve no bucket subdomains.
            s3={"addressing_style": os.environ.get("AWS_S3_ADDRESSING_STYLE") or None},
            signature_version="s3v4",
            connect_timeout=5,
            read_timeout=60,
            retries={"max_attempts": 3, "mode": "standard"},
        ),
    }

# Uploads are streamed by our own parser; Django's own buffers stay small.
FILE_UPLOAD_MAX_MEMORY_SIZE = 2 * 1024 * 1024
FILE_UPLOAD_TEMP_DIR = os.environ.get("TRANSFORMSVC_TMP_DIR") or None

REST_FRAMEWORK = {
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    "DEFAULT_PARSER_CLASSES": ["transformsvc.parsers.StrictJSONParser"],
    "DEFAULT_AUTHENTICATION_CLASSES": ["accounts.auth.BearerKeyAuthentication"],
    "DEFAULT_PERMISSION_CLASSES": ["accounts.auth.KeyRequired"],
    "UNAUTHENTICATED_USER": None,
    # `?format=` belongs to the contract (download format), not to DRF's negotiation.
    "URL_FORMAT_OVERRIDE": None,
    "DEFAULT_CONTENT_NEGOTIATION_CLASS": (
        "transformsvc.negotiation.LenientContentNegotiation"
    ),
    "EXCEPTION_HANDLER": "transformsvc.problems.exception_handler",
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
}

SPECTACULAR_SETTINGS = {
    "TITLE": "transformsvc",
    "DESCRIPTION": "Document transformation service: upload, search, assemble, annotate, "
    "redact and compare documents.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "COMPONENT_SPLIT_REQUEST": True,
    # The API description is public, like the health endpoints.
    "SERVE_PERMISSIONS": ["rest_framework.permissions.AllowAny"],
    "SERVE_AUTHENTICATION": [],
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "transformsvc.openapi.document_problems",
    ],
    "APPEND_COMPONENTS": {
        "securitySchemes": {"bearer": {"type": "http", "scheme": "bearer"}},
    },
}

# django-q2: the database broker by default, Redis when REDIS_URL is set.
Q_CLUSTER: dict[str, object] = {
    "name": os.environ.get("Q_CLUSTER_NAME", "transformsvc"),
    "workers": env_int("TRANSFORMSVC_WORKERS", 2),
    "timeout": env_int("TRANSFORMSVC_ORDER_TIMEOUT", 600),
    "retry": env_int("TRANSFORMSVC_ORDER_TIMEOUT", 600) * 2 + 60,
    "max_attempts": 1,
    "ack_failures": True,
    "save_limit": 1000,
    "catch_up": False,
    "recycle": 200,
    # A worker whose peak memory passed this (a huge document) is replaced after
    # its task, so the memory goes back to the system instead of staying mapped.
    "max_rss": env_int("TRANSFORMSVC_WORKER_MAX_RSS_MB", 1024) * 1024,  # KiB
    # On PostgreSQL the database broker is woken by NOTIFY (jobs/broker.py), so
    # `poll` is only its longest wait, for retries coming due and while its listener
    # reconnects; on other databases it polls.
    "poll": env_float(
        "TRANSFORMSVC_Q_POLL",
        0.5 if DATABASES["default"]["ENGINE"].endswith("postgresql") else 0.05,
    ),
    "label": "Task queue",
}
if os.environ.get("REDIS_URL"):
    Q_CLUSTER["redis"] = os.environ["REDIS_URL"]
else:
    Q_CLUSTER["orm"] = "default"
    Q_CLUSTER["broker_class"] = "jobs.broker.NotifyingORM"
if env_bool("TRANSFORMSVC_Q_SYNC", False):
    Q_CLUSTER["sync"] = True

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {"request_id": {"()": "transformsvc.middleware.RequestIdFilter"}},
    "formatters": {
        "plain": {
            "format": "%(asctime)s %(levelname)s %(name)s [%(request_id)s] %(message)s"
        }
    },
    "handlers": {
        "console": {
            "class": "logging.StreamHandler",
            "formatter": "plain",
            "filters": ["request_id"],
        }
    },
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
    # pyHanko logs a traceback for every self-signed or unknown certificate it
    # checks (GET /signatures); the answer carries the verdict already.
    "loggers": {"pyhanko": {"level": "ERROR"}},
}

FOIA_EXEMPTIONS = (
    "(b)(1)=Classified national security information"
    "|(b)(2)=Internal personnel rules and practices"
    "|(b)(3)=Information exempted by another statute"
    "|(b)(4)=Trade secrets and confidential commercial information"
    "|(b)(5)=Privileged inter- or intra-agency communications"
    "|(b)(6)=Personal privacy"
    "|(b)(7)=Law enforcement records"
    "|(b)(8)=Financial institution supervision"
    "|(b)(9)=Geological information on wells"
)


def env_pairs(name: str, default: str) -> list[tuple[str, str]]:
    """`code=text|code=text` → [(code, text), ...]."""
    raw = os.environ.get(name, default)
    return [
        (code.strip(), text.strip())
        for code, _, text in (item.partition("=") for item in raw.split("|"))
        if code.strip()
    ]


# --- Service settings (decisions §9). Sizes in bytes, times in seconds. ---
TRANSFORMSVC: dict[str, Any] = {
    "TYPE_PREFIX": os.environ.get("TRANSFORMSVC_TYPE_PREFIX", "com.vendor.viewer"),
    "MAX_UPLOAD_BYTES": env_int("TRANSFORMSVC_MAX_UPLOAD_BYTES", 512 * 1024 * 1024),
    "MAX_PAGES": env_int("TRANSFORMSVC_MAX_PAGES", 20000),
    "MAX_ELEMENTS": env_int("TRANSFORMSVC_MAX_ELEMENTS", 500),
    "MAX_OUTPUTS": env_int("TRANSFORMSVC_MAX_OUTPUTS", 100),
    "MAX_ANNOTATIONS": env_int("TRANSFORMSVC_MAX_ANNOTATIONS", 10000),
    "REGEX_TIMEOUT": env_float("TRANSFORMSVC_REGEX_TIMEOUT", 1.0),
    "ORDER_TIMEOUT": env_int("TRANSFORMSVC_ORDER_TIMEOUT", 600),
    "URL_TIMEOUT": env_float("TRANSFORMSVC_URL_TIMEOUT", 20.0),
    # The whole fetch, however slowly the server sends (a read timeout alone would not).
    "URL_DEADLINE": env_float("TRANSFORMSVC_URL_DEADLINE", 120.0),
    "URL_MAX_BYTES": env_int("TRANSFORMSVC_URL_MAX_BYTES", 256 * 1024 * 1024),
    "URL_ALLOWLIST": env_list("TRANSFORMSVC_URL_ALLOWLIST"),
    "MIN_FREE_DISK": env_int("TRANSFORMSVC_MIN_FREE_DISK", 256 * 1024 * 1024),
    "MAX_QUEUED": env_int("TRANSFORMSVC_MAX_QUEUED", 1000),
    "LONG_POLL_CAP_MS": 60000,
    # How long a reader of pages waits for a document being converted, seconds.
    "RENDITION_WAIT": env_float("TRANSFORMSVC_RENDITION_WAIT", 60.0),
    # --- Conversions (documents/convert). Sizes in bytes, times in seconds. ---
    # Warm LibreOffice instances per worker process (each worker runs one task).
    "OFFICE_POOL_SIZE": env_int("TRANSFORMSVC_OFFICE_POOL_SIZE", 1),
    # spawn: each worker starts its pool as it starts; first-use: at its first
    # Office conversion (a worker that never converts has no LibreOffice).
    "OFFICE_POOL_START": env_choice(
        "TRANSFORMSVC_OFFICE_POOL_START", "spawn", ("spawn", "first-use")
    ),
    "CONVERSION_TIMEOUT": env_float("TRANSFORMSVC_CONVERSION_TIMEOUT", 120.0),
    # Resident memory of one LibreOffice instance's process tree, MiB.
    "OFFICE_MAX_RSS_MB": env_int("TRANSFORMSVC_OFFICE_MAX_RSS_MB", 1024),
    "OFFICE_RECYCLE_AFTER": env_int("TRANSFORMSVC_OFFICE_RECYCLE_AFTER", 200),
    # auto: without network in a namespace where the machine allows it;
    # namespace: required; none: the hardened profile only.
    "OFFICE_ISOLATION": os.environ.get("TRANSFORMSVC_OFFICE_ISOLATION", "auto"),
    "MAX_SHEET_ROWS": env_int("TRANSFORMSVC_MAX_SHEET_ROWS", 100_000),
    "MAX_TEXT_BYTES": env_int("TRANSFORMSVC_MAX_TEXT_BYTES", 64 * 1024 * 1024),
    "MAX_IMAGE_PIXELS": env_int("TRANSFORMSVC_MAX_IMAGE_PIXELS", 200_000_000),
    "ARCHIVE_MAX_ENTRIES": env_int("TRANSFORMSVC_ARCHIVE_MAX_ENTRIES", 1000),
    "ARCHIVE_MAX_BYTES": env_int("TRANSFORMSVC_ARCHIVE_MAX_BYTES", 2 * 1024**3),
    "ARCHIVE_MAX_ENTRY_BYTES": env_int("TRANSFORMSVC_ARCHIVE_MAX_ENTRY_BYTES", 1024**3),
    "ARCHIVE_MAX_RATIO": env_int("TRANSFORMSVC_ARCHIVE_MAX_RATIO", 100),
    "CONTAINER_MAX_DEPTH": env_int("TRANSFORMSVC_CONTAINER_MAX_DEPTH", 3),
    "MAIL_MAX_ATTACHMENTS": env_int("TRANSFORMSVC_MAIL_MAX_ATTACHMENTS", 200),
    # --- OCR (documents/ocr) ---
    # auto: pages without text whose images cover most of the page; always; never.
    "OCR": os.environ.get("TRANSFORMSVC_OCR", "auto"),
    "OCR_LANGUAGES": tuple(
        os.environ.get("TRANSFORMSVC_OCR_LANGUAGES", "eng+fra+deu+spa+ita+por+nld")
        .replace(",", "+")
        .split("+")
    ),
    "OCR_DETECT_LANGUAGE": env_bool("TRANSFORMSVC_OCR_DETECT_LANGUAGE", True),
    "OCR_PAGE_TIMEOUT": env_float("TRANSFORMSVC_OCR_PAGE_TIMEOUT", 60.0),
    "OCR_MAX_PIXELS": env_int("TRANSFORMSVC_OCR_MAX_PIXELS", 25_000_000),
    "OCR_DPI": env_int("TRANSFORMSVC_OCR_DPI", 0),  # 0: the scan's own
    "WORKER_SEEN_WITHIN": 30,
    # How often each worker reports alive and looks for orders a dead worker left.
    "HEARTBEAT_SECONDS": env_float("TRANSFORMSVC_HEARTBEAT_SECONDS", 10.0),
    # Beyond the order timeout, how long before an order still PROCESSING is recovered.
    "RECOVERY_GRACE": env_int("TRANSFORMSVC_RECOVERY_GRACE", 5),
    # GET /annotation/policy: "code=text|code=text"; by default the US FOIA
    # exemptions, the original's example of reasons.
    "REDACT_REASONS": env_pairs("TRANSFORMSVC_REDACT_REASONS", FOIA_EXEMPTIONS),
    # GET /documents/<id>/search and /pages: seconds one request may search before
    # it answers what it found (searchStatus PARTIAL), and most results it returns.
    "SEARCH_BUDGET": env_float("TRANSFORMSVC_SEARCH_BUDGET", 10.0),
    "SEARCH_MAX_RESULTS": env_int("TRANSFORMSVC_SEARCH_MAX_RESULTS", 5000),
    # Remote storage (S3): each node keeps recently read files in
    # <data dir>/cache/files, at most this many bytes (least recently used go).
    "FILE_CACHE_BYTES": env_int("TRANSFORMSVC_FILE_CACHE_BYTES", 2 * 1024**3),
    # Webhooks: the first retry after this many seconds, doubling up to
    # WEBHOOK_BACKOFF_MAX, given up WEBHOOK_GIVE_UP seconds after the order ended.
    "WEBHOOK_BACKOFF": env_float("TRANSFORMSVC_WEBHOOK_BACKOFF", 30.0),
    "WEBHOOK_BACKOFF_MAX": env_float("TRANSFORMSVC_WEBHOOK_BACKOFF_MAX", 4 * 3600.0),
    "WEBHOOK_GIVE_UP": env_float("TRANSFORMSVC_WEBHOOK_GIVE_UP", 24 * 3600.0),
    "WEBHOOK_TIMEOUT": env_float("TRANSFORMSVC_WEBHOOK_TIMEOUT", 10.0),
    # How often each worker process looks for deliveries coming due, seconds.
    "WEBHOOK_POLL": env_float("TRANSFORMSVC_WEBHOOK_POLL", 5.0),
    # Signs webhooks when authentication is off (else each owner has its own);
    # derived from SECRET_KEY when unset.
    "WEBHOOK_SECRET": os.environ.get("TRANSFORMSVC_WEBHOOK_SECRET", ""),
    # Idempotency-Key: how long a key answers with its first response, seconds.
    "IDEMPOTENCY_TTL": env_int("TRANSFORMSVC_IDEMPOTENCY_TTL", 24 * 3600),
    # GET /metrics is open like /health unless this names a bearer key it requires.
    "METRICS_KEY": os.environ.get("TRANSFORMSVC_METRICS_KEY", ""),
}
TRANSFORMSVC_AUTH = os.environ.get("TRANSFORMSVC_AUTH", "").strip().lower()
