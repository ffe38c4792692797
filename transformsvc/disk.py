"""The node's data disk: work that writes files is refused while it is short."""

from __future__ import annotations

import shutil
from pathlib import Path

from django.conf import settings

from transformsvc.conf import service
from transformsvc.problems import Busy


def has_room() -> bool:
    """Whether the data disk has more free space than TRANSFORMSVC_MIN_FREE_DISK."""
    data = Path(settings.DATA_DIR)
    data.mkdir(parents=True, exist_ok=True)
    return shutil.disk_usage(data).free >= service().min_free_disk


def ensure_disk_space() -> None:
    """503 with Retry-After while the data disk is short of space."""
    if not has_room():
        raise Busy(
            "the service is short of disk space; try again later",
            headers={"Retry-After": "60"},
            code="disk_full",
        )
