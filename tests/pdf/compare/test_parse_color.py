"""Highlight and lowlight colours are six hex digits, with or without a leading #."""

from __future__ import annotations

import pytest

from engines.pdf.compare import parse_color
from engines.pdf.types import Rgb


@pytest.mark.parametrize("value", ["ff8000", "FF8000", "#ff8000", "#Ff8000"])
def test_parse_color_accepts_hex_with_or_without_hash(value: str) -> None:
    assert parse_color(value) == Rgb(255, 128, 0)


@pytest.mark.parametrize("value", ["", "red", "#fff", "ff00001", "##ff0000", "gg0000"])
def test_parse_color_rejects_anything_else(value: str) -> None:
    with pytest.raises(ValueError):
        parse_color(value)
