"""Settings of transformsvc, all read from the environment (defaults in README)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import dj_database_url

BASE_DIR = Path(__file__).resolve().parent.parent


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


def env_list(name: str) -> list[str]:
    return [
        item.strip() for item in os.environ.get(name, "").split(",") if item.strip()
    ]


DATA_DIR = Path(os.environ.get("TRANSFORMSVC_DATA_DIR", BASE_DIR / "var")).resolve()

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
    "documents",
    "orders",
    "comparisons",
]

MIDDLEWARE = [
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
USE_TZ = True
TIME_ZONE = "UTC"
LANGUAGE_CODE = "en-us"

STATIC_URL = "static/"
STATIC_ROOT = DATA_DIR / "static"
MEDIA_ROOT = DATA_DIR / "files"

# Files go through Django storages: a folder under the data directory by default,
# any django-storages backend (e.g. S3) when TRANSFORMSVC_STORAGE_BACKEND names one.
STORAGES = {
    "default": {
        "BACKEND": os.environ.get(
            "TRANSFORMSVC_STORAGE_BACKEND",
            "django.core.files.storage.FileSystemStorage",
        ),
    },
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}

# Uploads are streamed by our own parser; Django's own buffers stay small.
FILE_UPLOAD_MAX_MEMORY_SIZE = 2 * 1024 * 1024
FILE_UPLOAD_TEMP_DIR = os.environ.get("TRANSFORMSVC_TMP_DIR") or None

REST_FRAMEWORK = {
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    "DEFAULT_PARSER_CLASSES": ["transformsvc.parsers.StrictJSONParser"],
    "DEFAULT_AUTHENTICATION_CLASSES": ["transformsvc.auth.BearerKeyAuthentication"],
    "DEFAULT_PERMISSION_CLASSES": ["transformsvc.auth.KeyRequired"],
    "UNAUTHENTICATED_USER": None,
    # `?format=` belongs to the contract (download format), not to DRF's negotiation.
    "URL_FORMAT_OVERRIDE": None,
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
    # On PostgreSQL the database broker is woken by NOTIFY (orders/broker.py), so
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
    Q_CLUSTER["broker_class"] = "orders.broker.NotifyingORM"
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
}

# --- Service settings (decisions §9). Sizes in bytes, times in seconds. ---
TRANSFORMSVC = {
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
    "WORKER_SEEN_WITHIN": 30,
    # How often each worker reports alive and looks for orders a dead worker left.
    "HEARTBEAT_SECONDS": env_float("TRANSFORMSVC_HEARTBEAT_SECONDS", 10.0),
    # Beyond the order timeout, how long before an order still PROCESSING is recovered.
    "RECOVERY_GRACE": env_int("TRANSFORMSVC_RECOVERY_GRACE", 5),
}
TRANSFORMSVC_AUTH = os.environ.get("TRANSFORMSVC_AUTH", "").strip().lower()
