"""Office documents (and RTF, CSV) -> PDF through the LibreOffice pool.

The file is refused before LibreOffice sees it when it is encrypted or its
package fails the checks of `package.py`. LibreOffice opens a copy staged
under a fixed name whose extension is the detected format's (never the
user's file name): its type detection then agrees with ours. A CSV is
staged as UTF-8, with its separator given to the import filter.
"""

from __future__ import annotations

import dataclasses
import os
import shutil
import tempfile

import pikepdf

from engines.convert.detect.textual import sniff_delimiter
from engines.convert.fidelity import Fidelity
from engines.convert.office.booleans import needs_rewrite, rewrite_booleans
from engines.convert.office.fonts import substitutions
from engines.convert.office.inventory import inventory
from engines.convert.office.ligatures import fix_rtl_ligatures
from engines.convert.office.package import check_package
from engines.convert.office.pool import OfficePool
from engines.convert.rendition import Deadline, describe, remove
from engines.convert.text import HEAD_BYTES, encoding_report
from engines.convert.types import (
    Detected,
    EncryptedDocument,
    LimitExceeded,
    Limits,
    Rendition,
)
from engines.errors import ConversionFailed, OfficeUnavailable

_PACKAGES = frozenset(
    {"docx", "docm", "dotx", "dotm", "xlsx", "xlsm", "xltx", "pptx", "pptm", "ppsx"}
    | {"potx", "vsdx", "odt", "ott", "odm", "ods", "ots", "odp", "otp", "odg", "otg"}
)
# LibreOffice's CSV import options: separator, text delimiter ("), charset
# (76 = UTF-8), first line 1; see its "Filter Options" for CSV.
_CSV_OPTIONS = "{separator},34,76,1"


def office_to_pdf(
    path: str,
    detected: Detected,
    dest: str,
    limits: Limits,
    pool: OfficePool | None,
) -> Rendition:
    """Write at `dest` a PDF of the Office document at `path`, converted by
    a LibreOffice instance of `pool` within `limits.timeout`."""
    deadline = Deadline(limits.timeout)
    office_export(path, detected, dest, "pdf", limits, pool)
    try:
        fix_rtl_ligatures(dest)
    except pikepdf.PdfError:
        pass  # describe() says whether the PDF can be read at all
    try:
        rendition = describe(
            dest,
            engine="libreoffice",
            started=deadline.started,
            max_pages=limits.max_pages,
            fidelity=_fidelity(path, detected),
        )
    except Exception:
        remove(dest)
        raise
    report = rendition.fidelity
    found = substitutions(report.fonts_asked, report.fonts_used)
    return dataclasses.replace(
        rendition, fidelity=dataclasses.replace(report, substitutions=found)
    )


def _fidelity(path: str, detected: Detected) -> Fidelity:
    """What the source asks for and hides (the PDF's side is added later)."""
    if detected.mime_type == "text/csv":
        with open(path, "rb") as fh:
            head = fh.read(HEAD_BYTES)
        return Fidelity(encoding=encoding_report(head, detected.encoding or "utf-8"))
    found = inventory(path, detected)
    return Fidelity(fonts_asked=found.fonts, skipped=found.skipped)


def office_export(
    path: str,
    detected: Detected,
    dest: str,
    extension: str,
    limits: Limits,
    pool: OfficePool | None,
) -> None:
    """Write at `dest` the document at `path` as LibreOffice writes files with
    `extension` (pdf, docx, odt, html, txt, xlsx, ods, pptx, odp...), converted by
    an instance of `pool` within `limits.timeout`."""
    deadline = Deadline(limits.timeout)
    if detected.encrypted:
        raise EncryptedDocument(
            f"the {detected.description} is protected by a password; remove the "
            "password and upload it again"
        )
    if pool is None:
        raise OfficeUnavailable(
            f"no LibreOffice pool is set up to convert the {detected.description}"
        )
    if detected.extension in _PACKAGES:
        check_package(path, detected, limits)
    stage = tempfile.mkdtemp(
        prefix="office-", dir=os.path.dirname(os.path.abspath(dest))
    )
    try:
        source = os.path.join(stage, f"document.{detected.extension or 'bin'}")
        options = _stage(path, detected, source, limits, extension)
        output = os.path.join(stage, f"rendition.{extension}")
        try:
            pool.convert(source, output, timeout=limits.timeout, import_options=options)
        except ConversionFailed:
            # A document a warm instance cannot load (see oneshot.py) may
            # still convert from the command line, in what time is left.
            left = limits.timeout - deadline.elapsed()
            if options or left < 1:
                raise
            pool.convert_once(source, output, timeout=left)
        if not os.path.exists(output):
            raise ConversionFailed(
                f"LibreOffice cannot write the {detected.description} as {extension}"
            )
        os.replace(output, dest)
    finally:
        shutil.rmtree(stage, ignore_errors=True)


def _stage(
    path: str, detected: Detected, source: str, limits: Limits, extension: str
) -> str:
    """Put the document at `source`; return the import filter's options.
    A workbook made into a PDF shows its booleans as words (`booleans.py`)."""
    if extension == "pdf" and needs_rewrite(path, detected.extension):
        rewrite_booleans(path, source)
        return ""
    if detected.mime_type != "text/csv":
        try:
            os.link(path, source)  # no copy when on the same file system
        except OSError:
            shutil.copyfile(path, source)
        return ""
    size = os.path.getsize(path)
    if size > limits.max_text_bytes:
        raise LimitExceeded(
            f"the CSV table is {size:,} bytes; the limit is {limits.max_text_bytes:,}"
        )
    with open(path, "rb") as fh:
        text = fh.read().decode(detected.encoding or "utf-8", errors="replace")
    text = text.lstrip("\ufeff")
    rows = text.count("\n")
    if rows > limits.max_sheet_rows:
        raise LimitExceeded(
            f"the CSV table has {rows:,} rows; the limit is {limits.max_sheet_rows:,}"
        )
    with open(source, "w", encoding="utf-8", newline="") as out:
        out.write(text)
    separator = sniff_delimiter(text[:65536], complete=len(text) <= 65536) or ","
    return _CSV_OPTIONS.format(separator=ord(separator))
