"""The folders of LibreOffice pools whose worker died are removed; those of
living processes stay."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

from engines.convert.office.workdirs import PREFIX, UNOWNED_AFTER, remove_abandoned


def _dead_pid() -> int:
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


def test_only_the_folders_of_dead_processes_are_removed(tmp_path: Path) -> None:
    dead = tmp_path / f"{PREFIX}{_dead_pid()}-abc"
    mine = tmp_path / f"{PREFIX}{os.getpid()}-def"
    unowned_old = tmp_path / f"{PREFIX}legacy"
    unowned_new = tmp_path / f"{PREFIX}recent"
    for folder in (dead, mine, unowned_old, unowned_new):
        (folder / "profile").mkdir(parents=True)
        (folder / "profile" / "registrymodifications.xcu").write_text("x")
    old = time.time() - UNOWNED_AFTER - 60
    os.utime(unowned_old, (old, old))

    removed = remove_abandoned(str(tmp_path))

    assert sorted(removed) == sorted([str(dead), str(unowned_old)])
    assert mine.exists() and unowned_new.exists()
    assert not dead.exists() and not unowned_old.exists()
