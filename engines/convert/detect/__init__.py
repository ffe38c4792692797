"""What a file is, read from its bytes (never from its name or a declared type).

Binary formats are recognised by their magic numbers; ZIP and OLE2 files by
what is inside them (an Office Open XML package, an OpenDocument package, a
plain archive; a Word, Excel, PowerPoint or Outlook compound file); the rest
is decoded as text and classified as RTF, HTML, e-mail, CSV or plain text.
"""

from __future__ import annotations

from engines.convert.detect.magic import sniff_binary
from engines.convert.detect.ole import sniff_ole
from engines.convert.detect.textual import sniff_text
from engines.convert.detect.zipped import sniff_zip
from engines.convert.types import Detected, Family

# Enough for every magic number and for a reliable guess of a text encoding.
HEAD_BYTES = 64 * 1024

UNKNOWN = Detected("application/octet-stream", Family.UNKNOWN, "bin", "file")
EMPTY = Detected("application/x-empty", Family.UNKNOWN, "", "empty file")


def detect(path: str) -> Detected:
    """Detect the format of the file at `path` from its content.

    Never raises for a readable file: what is not recognised is
    `Family.UNKNOWN` ("application/octet-stream").
    """
    with open(path, "rb") as fh:
        head = fh.read(HEAD_BYTES)
    if not head:
        return EMPTY
    found = sniff_binary(head)
    if found is not None:
        if found.mime_type == "application/zip":
            return sniff_zip(path) or found
        if found.mime_type == "application/x-ole-storage":
            return sniff_ole(path) or UNKNOWN
        return found
    return sniff_text(head, complete=len(head) < HEAD_BYTES) or UNKNOWN


__all__ = ["EMPTY", "HEAD_BYTES", "UNKNOWN", "detect"]
