"""Short format names (the original's `format`, `?format=`) and file extensions of
MIME types. Detection itself works on the bytes (engines/pdf/layout.sniff and
the converters); this only names what was detected."""

from __future__ import annotations

# MIME type → (short format name, file extension).
_FORMATS: dict[str, tuple[str, str]] = {
    "application/pdf": ("pdf", ".pdf"),
    "application/zip": ("zip", ".zip"),
    "application/vnd.fdf": ("fdf", ".fdf"),
    "application/vnd.adobe.xfdf": ("xfdf", ".xfdf"),
    "image/png": ("png", ".png"),
    "image/jpeg": ("jpg", ".jpg"),
    "image/tiff": ("tiff", ".tif"),
    "image/gif": ("gif", ".gif"),
    "image/bmp": ("bmp", ".bmp"),
    "image/webp": ("webp", ".webp"),
    "text/plain": ("txt", ".txt"),
    "text/markdown": ("md", ".md"),
    "text/csv": ("csv", ".csv"),
    "text/html": ("html", ".html"),
    "application/rtf": ("rtf", ".rtf"),
    "message/rfc822": ("eml", ".eml"),
    "application/vnd.ms-outlook": ("msg", ".msg"),
    "application/msword": ("doc", ".doc"),
    "application/vnd.ms-excel": ("xls", ".xls"),
    "application/vnd.ms-powerpoint": ("ppt", ".ppt"),
    "application/vnd.openxmlformats-officedocument.wordprocessingml.document": (
        "docx",
        ".docx",
    ),
    "application/vnd.ms-word.document.macroEnabled.12": ("docm", ".docm"),
    "application/vnd.openxmlformats-officedocument.wordprocessingml.template": (
        "dotx",
        ".dotx",
    ),
    "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet": (
        "xlsx",
        ".xlsx",
    ),
    "application/vnd.ms-excel.sheet.macroEnabled.12": ("xlsm", ".xlsm"),
    "application/vnd.openxmlformats-officedocument.presentationml.presentation": (
        "pptx",
        ".pptx",
    ),
    "application/vnd.ms-powerpoint.presentation.macroEnabled.12": ("pptm", ".pptm"),
    "application/vnd.oasis.opendocument.text": ("odt", ".odt"),
    "application/vnd.oasis.opendocument.spreadsheet": ("ods", ".ods"),
    "application/vnd.oasis.opendocument.presentation": ("odp", ".odp"),
    "application/vnd.oasis.opendocument.graphics": ("odg", ".odg"),
    "video/mp4": ("mp4", ".mp4"),
    "video/quicktime": ("mov", ".mov"),
    "video/webm": ("webm", ".webm"),
    "video/x-matroska": ("mkv", ".mkv"),
    "video/x-msvideo": ("avi", ".avi"),
    "audio/mpeg": ("mp3", ".mp3"),
    "audio/wav": ("wav", ".wav"),
    "audio/ogg": ("ogg", ".ogg"),
    "audio/flac": ("flac", ".flac"),
    "audio/mp4": ("m4a", ".m4a"),
    "application/octet-stream": ("bin", ""),
}


def format_of(mime_type: str) -> str:
    """`application/pdf` → `pdf`; the MIME subtype for types not in the table."""
    known = _FORMATS.get(mime_type)
    if known:
        return known[0]
    subtype = mime_type.rsplit("/", 1)[-1]
    return subtype.rsplit(".", 1)[-1].rsplit("+", 1)[0][:20] or "bin"


def extension_of(mime_type: str) -> str:
    """`application/pdf` → `.pdf`; "" when unknown."""
    known = _FORMATS.get(mime_type)
    return known[1] if known else ""


def mime_of(format_name: str) -> str | None:
    """`pdf` → `application/pdf`, None for a name not in the table."""
    wanted = format_name.lower().lstrip(".")
    aliases = {"jpeg": "jpg", "tif": "tiff", "htm": "html", "text": "txt"}
    wanted = aliases.get(wanted, wanted)
    for mime, (name, _) in _FORMATS.items():
        if name == wanted:
            return mime
    return None
