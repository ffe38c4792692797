"""The admin tests' data set, made through the API with the Django test client
and the sync worker (orders run when their transaction commits)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.admin import dataset
from tests.admin.client_api import ClientApi, build


@pytest.fixture
def realistic(client: Any, django_capture_on_commit_callbacks: Any) -> dataset.Dataset:
    return build(ClientApi(client, django_capture_on_commit_callbacks))


@pytest.fixture
def small(client: Any, django_capture_on_commit_callbacks: Any) -> dataset.Dataset:
    return build(ClientApi(client, django_capture_on_commit_callbacks), full=False)


@pytest.fixture
def staff(client: Any, django_user_model: Any) -> Any:
    user = django_user_model.objects.create_superuser(
        "admin", "admin@example.com", "pw"
    )
    client.force_login(user)
    return client
