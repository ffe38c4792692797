"""Test settings: the project's settings on PostgreSQL, django-q2 in sync mode."""

import os

os.environ.setdefault("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/transformsvc")
os.environ["TRANSFORMSVC_Q_SYNC"] = "1"

from transformsvc.settings import *  # noqa: E402,F403

if DATABASES["default"]["ENGINE"] != "django.db.backends.postgresql":  # noqa: F405
    raise RuntimeError(
        "the test suite runs on PostgreSQL only; set DATABASE_URL to a postgres:// URL"
    )

# One test database per run, so that concurrent runs on one server do not collide.
DATABASES["default"]["TEST"] = {"NAME": f"test_transformsvc_{os.getpid()}"}  # noqa: F405

# The toy kind of order (tests/toykind) proves that kinds plug into jobs/; its
# routes (tests.toykind.urls) are used only by the tests that read toy orders.
INSTALLED_APPS = [*INSTALLED_APPS, "tests.toykind"]  # noqa: F405

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
WHITENOISE_AUTOREFRESH = True  # serve from the finders; no collectstatic in tests
