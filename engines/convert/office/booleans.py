"""TRUE and FALSE cells of a workbook shown as Excel shows them.

LibreOffice 7.4 imports an OOXML boolean cell (`t="b"`) as a number and
shows FALSE as 0 (and TRUE as 1 in some styles), where Excel shows the words.
For a PDF, the staged copy of the workbook has its boolean cells rewritten
as the words: a plain cell as an inline string, a formula's cached result as
a string result (the formula kept; recalculation is off, so the cached value
is what is shown). Exports to other spreadsheet formats keep the booleans.
"""

from __future__ import annotations

import re
import shutil
import zipfile

_SHEET = re.compile(r"^xl/worksheets/[^/]+\.xml$")
_BOOLEAN_CELL = re.compile(
    rb'<((?:\w+:)?)c\b([^>]*?)\st="b"([^>]*)>(.*?)</\1c>', re.DOTALL
)
_VALUE = re.compile(rb"<((?:\w+:)?)v>\s*([^<]*?)\s*</\1v>")
_FORMULA = re.compile(rb"<((?:\w+:)?)f\b")
_WORKBOOKS = frozenset({"xlsx", "xlsm", "xltx"})


def needs_rewrite(path: str, extension: str) -> bool:
    """Whether the workbook at `path` has boolean cells to rewrite."""
    if extension not in _WORKBOOKS:
        return False
    with zipfile.ZipFile(path) as zf:
        for info in zf.infolist():
            if _SHEET.match(info.filename):
                with zf.open(info) as part:
                    while chunk := part.read(1 << 20):
                        if b't="b"' in chunk:
                            return True
    return False


def rewrite_booleans(src: str, dest: str) -> None:
    """Copy the workbook `src` to `dest` with its boolean cells as words.
    Parts are copied as they are (compressed again), sheets rewritten whole:
    `package.check_package` has bounded their size."""
    with zipfile.ZipFile(src) as zin, zipfile.ZipFile(dest, "w") as zout:
        for info in zin.infolist():
            if not _SHEET.match(info.filename):
                with zin.open(info) as part, zout.open(info, "w") as out:
                    shutil.copyfileobj(part, out)
                continue
            data = zin.read(info)
            if b't="b"' in data:
                data = _BOOLEAN_CELL.sub(_words, data)
            zout.writestr(info, data, compress_type=zipfile.ZIP_DEFLATED)


def _words(match: re.Match[bytes]) -> bytes:
    prefix, before, after, inner = match.groups()
    value = _VALUE.search(inner)
    truth = value is not None and value.group(2).lower() in (b"1", b"true")
    word = b"TRUE" if truth else b"FALSE"
    if value is None and not _FORMULA.search(inner):
        return match.group(0)  # an empty boolean cell: nothing to show
    if _FORMULA.search(inner):
        kept = _VALUE.sub(b"", inner)
        return b'<%sc%s t="str"%s>%s<%sv>%s</%sv></%sc>' % (
            prefix,
            before,
            after,
            kept,
            prefix,
            word,
            prefix,
            prefix,
        )
    return b'<%sc%s t="inlineStr"%s><%sis><%st>%s</%st></%sis></%sc>' % (
        prefix,
        before,
        after,
        prefix,
        prefix,
        word,
        prefix,
        prefix,
        prefix,
    )
