"""Settings of a live service started by a test: the project's, plus the toy kind
of order (tests/toykind) with its routes."""

from transformsvc.settings import *  # noqa: F403

INSTALLED_APPS = [*INSTALLED_APPS, "tests.toykind"]  # noqa: F405
ROOT_URLCONF = "tests.toykind.urls"
