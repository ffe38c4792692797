"""Compare two PDFs: a word-level text diff and a pixel comparison (decisions §7).

Pages count from 0 everywhere in this package; positions are in points on the page
as displayed (decisions §4), converted only through `engines.pdf.geometry`.

The text diff reads each side into tokens (`tokens`, with page fingerprints from
`fingerprint` so that identical pages are not extracted), aligns them (`sequence`),
and describes each change (`textdiff`, `position`); `pixels` renders and compares
page images.
"""

from engines.pdf.compare.pixels import parse_color, pixel_compare
from engines.pdf.compare.textdiff import text_diff

__all__ = ["parse_color", "pixel_compare", "text_diff"]
