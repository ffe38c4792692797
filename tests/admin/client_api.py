"""The data set made through the API with the Django test client and the sync
worker (orders run when their transaction commits)."""

from __future__ import annotations

import json
from typing import Any

from tests.admin import dataset


class ClientApi:
    """`dataset.Api` over the Django test client; orders run at once unless
    `workers` is False (then they stay QUEUED)."""

    def __init__(self, client: Any, capture: Any) -> None:
        self.client = client
        self.capture = capture
        self.owner: str | None = None
        self.workers = True

    def request(
        self, method: str, path: str, *, body: Any = None, raw: bytes | None = None
    ) -> tuple[int, Any]:
        if raw is not None:
            kwargs: dict[str, Any] = {
                "data": raw,
                "content_type": "application/octet-stream",
            }
        elif body is not None:
            kwargs = {"data": json.dumps(body), "content_type": "application/json"}
        else:
            kwargs = {}
        call = getattr(self.client, method.lower())
        if self.workers:
            with self.capture(execute=True):
                response = call(path, **kwargs)
        else:
            response = call(path, **kwargs)
        try:
            payload = response.json()
        except (ValueError, AttributeError):
            payload = None
        return response.status_code, payload


def build(api: ClientApi, *, full: bool = True) -> dataset.Dataset:
    """The whole data set (`full`), or its documents without the corpus and each
    kind of order once (faster, for tests that look at a few pages)."""
    data = dataset.Dataset()
    dataset.add_documents(api, data, corpus=full)
    dataset.add_orders(api, data, repeat=2 if full else 1)
    dataset.add_comparisons(api, data)
    dataset.add_failures(api, data, dataset.damage)
    dataset.add_endings(api, data)
    api.workers = False
    dataset.add_queued(api, data)
    dataset.add_lost(api, data)
    return data
