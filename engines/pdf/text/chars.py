"""A page's characters as extraction first takes them from MuPDF's rawdict,
before they become lines: what word breaks (`breaks`) and letter spacing
(`spacing`) read and change."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt


@dataclass(frozen=True, slots=True)
class RawChars:
    """One entry per character, in MuPDF's (logical) order."""

    texts: list[str]
    synthetic: list[bool]  # a space MuPDF made (no glyph drew it)
    boxes: npt.NDArray[np.float64]  # MuPDF's, unrotated page space, points
    raw_lines: Sequence[dict[str, Any]]  # rawdict lines, in page order
    line_spans: Sequence[Sequence[dict[str, Any]]]  # each line's spans
    span_offsets: list[int]  # each span's first character; one past the end last
    span_fonts: Sequence[tuple[str, float]]  # each span's (font, size)
