"""A print-ready copy of a PDF: opening it brings up the print dialog.

The original server writes the print action as a plain object, and its
clients look for those very bytes in the file:

    <<
    /Type /Action
    /S /JavaScript
    /JS (this.print\\(\\);this.closeDoc\\(true\\))
    >>

pikepdf (qpdf) writes dictionaries on one line, so the copy is made in two
steps: a full rewrite by pikepdf (no object streams, no encryption) whose
catalog's /OpenAction points at the action, then one incremental update that
writes the action object again, byte for byte as above. Readers take the
update's object (the same action); the pages are unchanged.
"""

from __future__ import annotations

import re

import pikepdf

from engines.errors import EngineError

# Acrobat's JavaScript API: print (the dialog), then close the document.
PRINT_SCRIPT = "this.print();this.closeDoc(true)"
PRINT_ACTION = (
    b"<<\n/Type /Action\n/S /JavaScript\n"
    b"/JS (this.print\\(\\);this.closeDoc\\(true\\))\n>>"
)
# Names the version of the copy, for caches of it.
VERSION = "2"

_STARTXREF = re.compile(rb"startxref\s+(\d+)\s+%%EOF\s*$")


def make_printable(src: str, dest: str) -> None:
    """Write to `dest` a copy of the PDF at `src` whose /OpenAction runs
    `PRINT_SCRIPT`, the action written as `PRINT_ACTION`. The pages are
    unchanged (annotations print as their flags say); the copy is a full
    rewrite of `src` (decrypted), then one update of its own."""
    try:
        with pikepdf.open(src) as pdf:
            pdf.Root.OpenAction = pdf.make_indirect(
                pikepdf.Dictionary(
                    Type=pikepdf.Name.Action,
                    S=pikepdf.Name.JavaScript,
                    JS=pikepdf.String(PRINT_SCRIPT),
                )
            )
            pdf.save(
                dest,
                object_stream_mode=pikepdf.ObjectStreamMode.disable,
                encryption=False,
            )
        _rewrite_action(dest)
    except (pikepdf.PdfError, OSError) as exc:
        raise EngineError(f"the printable copy cannot be made: {exc}") from exc


def _rewrite_action(path: str) -> None:
    """Append to the file at `path` an update holding its /OpenAction object
    as `PRINT_ACTION` (a classic cross-reference section, as the file has)."""
    with pikepdf.open(path) as pdf:
        number = pdf.Root.OpenAction.objgen[0]
        trailer = pdf.trailer
        entries = [f"/Size {max(int(trailer.Size), number + 1)}"]
        entries.append(f"/Root {pdf.Root.objgen[0]} {pdf.Root.objgen[1]} R")
        if "/Info" in trailer and trailer.Info.is_indirect:
            entries.append(f"/Info {trailer.Info.objgen[0]} {trailer.Info.objgen[1]} R")
        if "/ID" in trailer:
            entries.append("/ID " + trailer.ID.unparse().decode("latin-1"))
    with open(path, "rb+") as fh:
        data = fh.read()
        found = _STARTXREF.search(data)
        if found is None:
            raise EngineError("the printable copy has no cross-reference to extend")
        entries.append(f"/Prev {int(found.group(1))}")
        offset = len(data) + 1  # after the newline that opens the update
        body = b"\n%d 0 obj\n%s\nendobj\n" % (number, PRINT_ACTION)
        xref = len(data) + len(body)
        update = (
            body
            + b"xref\n%d 1\n%010d 00000 n \n" % (number, offset)
            + b"trailer\n<< "
            + " ".join(entries).encode("latin-1")
            + b" >>\nstartxref\n%d\n%%%%EOF\n" % xref
        )
        fh.write(update)
