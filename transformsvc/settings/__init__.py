"""Settings of transformsvc, all read from the environment (defaults in README)."""

from __future__ import annotations

import os
import sys

import dj_database_url
import django_stubs_ext

from transformsvc import paths
from transformsvc.conf import Environ, Service
from transformsvc.settings.queue import q_cluster
from transformsvc.settings.storage import storages

# Generic classes of Django (ModelAdmin[...]) as the type checker knows them.
django_stubs_ext.monkeypatch()

BASE_DIR = paths.BASE_DIR


_env = Environ(os.environ)

DATA_DIR = paths.data_dir()
# Metrics: prometheus-client in multiprocess mode, one folder of files per kind
# of process of this node, set before anything imports the client: gunicorn_conf.py
# does it for the web processes, this for the qcluster's. Other processes (migrate,
# health checks, tests) keep their metrics to themselves and leave no files.
METRICS_DIR = paths.metrics_root()
if paths.process_role() == "worker":
    paths.prepare_metrics("worker")

SECRET_KEY = os.environ.get("SECRET_KEY", "transformsvc-local-only-change-me")
DEBUG = _env.flag("DEBUG", False)
ALLOWED_HOSTS = list(_env.items("ALLOWED_HOSTS")) or [
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
    "connectors",
    "webhooks",
    "idempotency",
]

MIDDLEWARE = [
    # Outermost: it times and counts every answer, errors and static files included.
    "ops.metrics.middleware.MetricsMiddleware",
    "transformsvc.middleware.RequestIdMiddleware",
    "transformsvc.middleware.ControlCharacterMiddleware",
    "transformsvc.middleware.OutageMiddleware",
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
        conn_max_age=_env.integer("DB_CONN_MAX_AGE", 60),
        conn_health_checks=True,
    )
}
if DATABASES["default"]["ENGINE"].endswith("postgresql"):
    # A database out of reach fails a request in about 2 s (libpq's shortest
    # connect timeout), not after the TCP timeout: it answers 503.
    DATABASES["default"].setdefault("OPTIONS", {}).setdefault("connect_timeout", 2)
_POOLED = (
    _env.flag("DB_POOL", False)
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
    _pool_size = max(1, _env.integer("DB_POOL_SIZE", _env.integer("WEB_THREADS", 40)))
    DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
        "min_size": min(2, _pool_size),
        "max_size": _pool_size,
        # An outage answers 503 in 1.5 s instead of holding the request: a request
        # waits this long for a connection when the database is down (at 2 s,
        # with the answer's own time, the chaos suite saw 503s past 2 s).
        "timeout": 1.5,
    }
    # After a database restart every pooled connection is broken; the pool
    # finds each one broken when it is taken and waits before taking the next,
    # from 1 s doubling by default: with two dead connections a request waited
    # past the timeout above although the database answered. From 50 ms, five
    # dead connections are set aside in 1.6 s.
    from psycopg_pool.base import AttemptWithBackoff

    AttemptWithBackoff.INITIAL_DELAY = 0.05

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

STORAGES = storages()

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
    # Enums named for what they list (else TypeEnum, FormatEnum...).
    "ENUM_NAME_OVERRIDES": {
        "AnnotationTypeEnum": "orders.annotations.ANNOTATION_TYPES",
        "ConversionFormatEnum": "conversions.targets.ALL_TARGETS",
    },
}

Q_CLUSTER = q_cluster(
    _env, postgres=DATABASES["default"]["ENGINE"].endswith("postgresql")
)

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {"request_id": {"()": "transformsvc.requestid.RequestIdFilter"}},
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

# The service's own settings, typed and checked once (transformsvc.conf).
SERVICE = Service.from_env(os.environ)
TRANSFORMSVC_AUTH = os.environ.get("TRANSFORMSVC_AUTH", "").strip().lower()
