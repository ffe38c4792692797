"""Placements the engine cannot honour are engine errors; the output is a full
rewrite that passes `qpdf --check`.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from engines.errors import EngineError
from engines.pdf.types import Box, Point
from tests.pdf.annotate.helpers import annotation, run


def test_unknown_kind_is_an_engine_error(source: str, tmp_path: Path) -> None:
    with pytest.raises(EngineError, match="InkElemType"):
        run(
            source,
            tmp_path,
            [annotation("InkElemType", 0, position=Box(1, 1, 5, 5))],
            "burn",
        )


def test_page_outside_the_document_is_an_engine_error(
    source: str, tmp_path: Path
) -> None:
    with pytest.raises(EngineError, match="page 4"):
        run(
            source,
            tmp_path,
            [annotation("SquareElemType", 4, position=Box(1, 1, 5, 5))],
            "burn",
        )


def test_unknown_line_ending_is_an_engine_error(source: str, tmp_path: Path) -> None:
    placement = annotation(
        "LineElemType", 0, start=Point(1, 1), end=Point(9, 9), head="FEATHER"
    )
    with pytest.raises(EngineError, match="FEATHER"):
        run(source, tmp_path, [placement], "live")


def test_output_is_a_full_rewrite(source: str, tmp_path: Path) -> None:
    placement = annotation("SquareElemType", 0, position=Box(30, 40, 80, 50))
    out = run(source, tmp_path, [placement], "live")
    assert Path(out).read_bytes().count(b"%%EOF") == 1
    check = subprocess.run(["qpdf", "--check", out], capture_output=True, text=True)
    assert check.returncode == 0, check.stdout + check.stderr
