"""Running the `transformsvc` command as a user does (a process of its own, the
service's address and key in its environment) and reading its outputs with
poppler's tools, which share nothing with the service."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from tests.live import ROOT

POPPLER_ABSENT = "poppler-utils (pdftotext, pdfinfo) is not installed"


def poppler_missing() -> bool:
    return not (shutil.which("pdftotext") and shutil.which("pdfinfo"))


def run_cli(
    base: str, key: str | None, *args: str, cwd: Path, timeout: float = 120
) -> subprocess.CompletedProcess[str]:
    """`transformsvc ARGS` in `cwd`, pointed at the service by its environment."""
    env = {
        **os.environ,
        "TRANSFORMSVC_URL": base,
        # The checkout's package, whatever the virtualenv has installed.
        "PYTHONPATH": str(ROOT),
    }
    env.pop("TRANSFORMSVC_KEY", None)
    if key:
        env["TRANSFORMSVC_KEY"] = key
    return subprocess.run(
        [sys.executable, "-m", "transformsvc_client", *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )


def pdf_text(path: Path, page: int | None = None) -> str:
    """The text of a PDF (or of its page `page`, from 1) as pdftotext reads it."""
    pages = ["-f", str(page), "-l", str(page)] if page else []
    done = subprocess.run(
        ["pdftotext", *pages, str(path), "-"],
        capture_output=True,
        text=True,
        check=True,
        timeout=30,
    )
    return done.stdout


def pdf_pages(path: Path) -> int:
    done = subprocess.run(
        ["pdfinfo", str(path)], capture_output=True, text=True, check=True, timeout=30
    )
    (line,) = [x for x in done.stdout.splitlines() if x.startswith("Pages:")]
    return int(line.split()[1])
