"""Fixtures of the documents tests."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any
from urllib.parse import urlencode

import pytest


@pytest.fixture
def allow(settings: Any) -> Callable[..., None]:
    """Set the documentUrl allowlist (empty at first) and other service limits."""

    def _allow(*hosts: str, **limits: Any) -> None:
        settings.SERVICE = replace(
            settings.SERVICE,
            url_allowlist=hosts,
            **{name.lower(): value for name, value in limits.items()},
        )

    _allow()
    return _allow


def post_url(client: Any, url: str) -> Any:
    """POST /documents?documentUrl=<url> with an empty body."""
    return client.post(
        "/documents?" + urlencode({"documentUrl": url}),
        data=b"",
        content_type="application/octet-stream",
    )
