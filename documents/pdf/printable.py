"""A print-ready copy of a PDF: opening it brings up the print dialog."""

from __future__ import annotations

import pikepdf

from documents.pdf.types import EngineError

# Acrobat's JavaScript API: the dialog (bUI) rather than a silent print, pages
# shrunk to the printer's paper when larger.
PRINT_SCRIPT = "this.print({bUI: true, bSilent: false, bShrinkToFit: true});"


def make_printable(src: str, dest: str) -> None:
    """Write to `dest` a copy of the PDF at `src` whose /OpenAction runs
    `PRINT_SCRIPT`. The pages are unchanged (annotations print as their flags
    say); the copy is a full rewrite, never an incremental save of `src`."""
    try:
        with pikepdf.open(src) as pdf:
            pdf.Root.OpenAction = pikepdf.Dictionary(
                Type=pikepdf.Name.Action,
                S=pikepdf.Name.JavaScript,
                JS=pikepdf.String(PRINT_SCRIPT),
            )
            pdf.save(dest)
    except (pikepdf.PdfError, OSError) as exc:
        raise EngineError(f"the printable copy cannot be made: {exc}") from exc
