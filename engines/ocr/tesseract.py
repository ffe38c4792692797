"""Tesseract's command-line program, run under a time limit.

The CLI, not PyMuPDF's built-in OCR: a child process can be killed when a page
takes too long (MuPDF's in-process Tesseract cannot be stopped), it read a page
twice as fast here, and its models and threads are Tesseract's own (OCR_NOTES).
Each run is a new process group, killed as a whole on timeout, with
OMP_THREAD_LIMIT=1 so that N workers use N cores, never more. It stays in its
worker's session: under autogroup scheduling a new session would be a new
group with a full CPU share of its own, whatever the OCR queue's priority.
"""

from __future__ import annotations

import csv
import functools
import logging
import os
import re
import shutil
import signal
import subprocess
from collections.abc import Sequence
from dataclasses import dataclass

from engines.errors import EngineError, OcrUnavailable, PageTimeout

logger = logging.getLogger(__name__)

# OpenMP threads inside Tesseract: measured no faster per page than one with the
# fast models, and a worker must not take another worker's core.
_ENVIRONMENT = {"OMP_THREAD_LIMIT": "1"}
# Automatic page segmentation without orientation detection (Tesseract's default).
_PAGE_SEGMENTATION = "3"
# `--list-langs` names the model folder on its first line, then one code a line.
_LANGUAGE_CODE = re.compile(r"^[A-Za-z0-9_]+$")


@dataclass(frozen=True, slots=True)
class RawWord:
    """One word as Tesseract reports it: pixels of the image it was given."""

    text: str
    left: int
    top: int
    width: int
    height: int
    confidence: float
    line: tuple[int, int, int]  # (block, paragraph, line)


def program() -> str:
    """The path of the `tesseract` program; OcrUnavailable when it is missing."""
    found = shutil.which("tesseract")
    if found is None:
        raise OcrUnavailable(
            "OCR is not available: the tesseract program is not installed "
            "(Debian package tesseract-ocr)"
        )
    return found


def installed_languages() -> frozenset[str]:
    """Codes of the language models Tesseract can load (`osd` left out)."""
    return _all_models() - {"osd"}


@functools.cache
def _all_models() -> frozenset[str]:
    done = subprocess.run(
        [program(), "--list-langs"],
        capture_output=True,
        text=True,
        timeout=30,
        env={**os.environ, **_ENVIRONMENT},
        check=False,
    )
    lines = (done.stdout + "\n" + done.stderr).splitlines()
    return frozenset(
        line.strip() for line in lines if _LANGUAGE_CODE.match(line.strip())
    )


def check_languages(languages: Sequence[str]) -> None:
    """OcrUnavailable naming the languages that are not installed, if any."""
    missing = [code for code in languages if code not in installed_languages()]
    if missing:
        known = ", ".join(sorted(installed_languages())) or "none"
        raise OcrUnavailable(
            f"OCR language {', '.join(missing)} is not installed; "
            f"installed languages: {known}"
        )


def recognise(
    image: bytes,
    *,
    languages: Sequence[str],
    dpi: float,
    timeout: float,
    segmentation: str = _PAGE_SEGMENTATION,
) -> list[RawWord]:
    """The words Tesseract finds in `image` (a PNM file), in its reading order.

    `dpi` tells Tesseract the image's resolution (a PNM file has none, and it
    would otherwise guess); `segmentation` is its page segmentation mode
    ("3": automatic layout, "6": one uniform block of text). Raises
    PageTimeout after `timeout` seconds, having killed the process group;
    EngineError when Tesseract fails.
    """
    command = [
        program(),
        "stdin",
        "stdout",
        "-l",
        "+".join(languages),
        "--psm",
        segmentation,
        "--dpi",
        str(round(dpi)),
        "tsv",
    ]
    return parse_tsv(_run(command, image, timeout))


def orientation(image: bytes, *, timeout: float) -> tuple[int, float] | None:
    """Tesseract's orientation detection (`--psm 0`, the `osd` model): the
    clockwise turn in degrees that makes the text of `image` upright, and its
    confidence; None when it cannot tell (too little text, no `osd` model).
    Raises PageTimeout after `timeout` seconds."""
    if "osd" not in _all_models():
        return None
    command = [program(), "stdin", "stdout", "--psm", "0"]
    try:
        out = _run(command, image, timeout)
    except EngineError as exc:
        if isinstance(exc, PageTimeout):
            raise
        return None
    turn = re.search(r"Rotate:\s*(\d+)", out)
    confidence = re.search(r"Orientation confidence:\s*([\d.]+)", out)
    if turn is None or confidence is None:
        return None
    return int(turn.group(1)) % 360, float(confidence.group(1))


def _run(command: list[str], image: bytes, timeout: float) -> str:
    """`command`'s output for `image` on its input, in its own process group."""
    process = subprocess.Popen(
        command,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={**os.environ, **_ENVIRONMENT},
        # Its own process group, killed as a whole; not its own session, which
        # would escape the OCR cluster's lowered session priority.
        process_group=0,
    )
    try:
        out, err = process.communicate(image, timeout=timeout)
    except subprocess.TimeoutExpired:
        _kill(process)
        raise PageTimeout(
            f"reading the page took longer than {timeout:g} s and was stopped"
        ) from None
    except BaseException:
        _kill(process)
        raise
    if process.returncode != 0:
        detail = err.decode("utf-8", "replace").strip()
        logger.warning("tesseract failed (%s): %s", process.returncode, detail)
        raise EngineError(
            f"Tesseract could not read the page (exit status {process.returncode})"
        )
    return out.decode("utf-8", "replace")


def _kill(process: subprocess.Popen[bytes]) -> None:
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    process.communicate()


def parse_tsv(tsv: str) -> list[RawWord]:
    """Word rows (level 5) of Tesseract's TSV output with some text."""
    words: list[RawWord] = []
    reader = csv.reader(tsv.splitlines()[1:], delimiter="\t", quoting=csv.QUOTE_NONE)
    for row in reader:
        if len(row) < 12 or row[0] != "5":
            continue
        text = row[11].strip()
        if not text:
            continue
        block, paragraph, line = int(row[2]), int(row[3]), int(row[4])
        left, top, width, height = (int(value) for value in row[6:10])
        if width <= 0 or height <= 0:
            continue
        words.append(
            RawWord(
                text=text,
                left=left,
                top=top,
                width=width,
                height=height,
                confidence=float(row[10]),
                line=(block, paragraph, line),
            )
        )
    return words


@functools.cache
def glyphless_font() -> bytes | None:
    """Tesseract's own glyphless TrueType font (`pdf.ttf`, beside its models),
    embedded in text layers so that viewers need no substitute; None if absent."""
    folders = [os.environ.get("TESSDATA_PREFIX", ""), *_model_folders()]
    for folder in folders:
        path = os.path.join(folder, "pdf.ttf") if folder else ""
        if path and os.path.isfile(path):
            with open(path, "rb") as font:
                return font.read()
    return None


def _model_folders() -> list[str]:
    """The folder `--list-langs` names ("... languages in "/x/tessdata/" (8):")."""
    try:
        done = subprocess.run(
            [program(), "--list-langs"],
            capture_output=True,
            text=True,
            timeout=30,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired):
        return []
    found = re.search(r'"([^"]+)"', done.stdout + done.stderr)
    return [found.group(1)] if found else []
