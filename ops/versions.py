"""Versions of the service and of the engines it runs (GET /version), each read
once per process: the external programs answer `--version` in a subprocess."""

from __future__ import annotations

import functools
import platform
import re
import subprocess
from importlib import metadata

import django
import pikepdf
import pymupdf

UNAVAILABLE = "unavailable"


def _package(name: str) -> str:
    try:
        return metadata.version(name)
    except metadata.PackageNotFoundError:
        return UNAVAILABLE


@functools.cache
def _program(command: tuple[str, ...], pattern: str) -> str:
    """The first version number `command` prints (cached: a LibreOffice start is
    about 0.4 s), or "unavailable" when it is not installed or does not answer."""
    try:
        done = subprocess.run(
            command, capture_output=True, text=True, timeout=30, check=False
        )
    except (OSError, subprocess.SubprocessError):
        return UNAVAILABLE
    found = re.search(pattern, done.stdout + done.stderr)
    return found.group(1) if found else UNAVAILABLE


def versions() -> dict[str, str]:
    """Name → version, a flat map as the original's /version answers."""
    return {
        "transformsvc": _package("transformsvc"),
        "PyMuPDF": pymupdf.VersionBind,
        "MuPDF": pymupdf.VersionFitz,
        "pikepdf": pikepdf.__version__,
        "qpdf": pikepdf.__libqpdf_version__,
        "pyHanko": _package("pyhanko"),
        "LibreOffice": _program(
            ("soffice", "--headless", "--version"), r"LibreOffice ([\d.]+)"
        ),
        "Tesseract": _program(("tesseract", "--version"), r"tesseract v?([\d.]+)"),
        "Python": platform.python_version(),
        "Django": django.get_version(),
    }
