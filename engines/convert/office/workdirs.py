"""Working folders of LibreOffice pools: one per pool, named after the process
that owns it, so that the folders of killed workers (profiles, staged files)
are found and removed when the next pool starts or the reconciler runs."""

from __future__ import annotations

import logging
import os
import re
import shutil
import tempfile
import time
from pathlib import Path

logger = logging.getLogger(__name__)

PREFIX = "office-pool-"
_OWNER = re.compile(rf"^{PREFIX}(\d+)-")
# A folder of an unknown owner older than this belongs to nobody.
UNOWNED_AFTER = 24 * 3600.0


def new_workdir() -> str:
    """A fresh folder for this process's pool (mode 0700)."""
    return tempfile.mkdtemp(prefix=f"{PREFIX}{os.getpid()}-")


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # someone else's: alive
    return True


def remove_abandoned(root: str | None = None) -> list[str]:
    """Remove the pool folders under `root` (the temporary folder by default)
    whose owning process is gone; returns their paths."""
    removed = []
    for folder in Path(root or tempfile.gettempdir()).glob(f"{PREFIX}*"):
        match = _OWNER.match(folder.name)
        try:
            if match:
                abandoned = not _alive(int(match[1]))
            else:
                abandoned = time.time() - folder.stat().st_mtime > UNOWNED_AFTER
        except OSError:
            continue
        if abandoned and folder.is_dir():
            shutil.rmtree(folder, ignore_errors=True)
            removed.append(str(folder))
    if removed:
        logger.info(
            "removed %d folders of LibreOffice pools whose process died", len(removed)
        )
    return removed
