"""document_report names formats as people know them (docx, pptx, eml, msg...)
instead of lumping every format but a few under "other"."""

from importlib import import_module

from django.db import migrations

REPORT = import_module("documents.migrations.0005_document_report")

# MIME type → short format name, as documents/formats.py named them when this
# migration was written (a migration does not follow later code).
FORMATS = {
    "application/msword": "doc",
    "application/octet-stream": "bin",
    "application/pdf": "pdf",
    "application/rtf": "rtf",
    "application/vnd.adobe.xfdf": "xfdf",
    "application/vnd.fdf": "fdf",
    "application/vnd.ms-excel": "xls",
    "application/vnd.ms-excel.sheet.macroEnabled.12": "xlsm",
    "application/vnd.ms-outlook": "msg",
    "application/vnd.ms-powerpoint": "ppt",
    "application/vnd.ms-powerpoint.presentation.macroEnabled.12": "pptm",
    "application/vnd.ms-word.document.macroEnabled.12": "docm",
    "application/vnd.oasis.opendocument.graphics": "odg",
    "application/vnd.oasis.opendocument.presentation": "odp",
    "application/vnd.oasis.opendocument.spreadsheet": "ods",
    "application/vnd.oasis.opendocument.text": "odt",
    "application/vnd.openxmlformats-officedocument.presentationml.presentation": "pptx",
    "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet": "xlsx",
    "application/vnd.openxmlformats-officedocument.wordprocessingml.document": "docx",
    "application/vnd.openxmlformats-officedocument.wordprocessingml.template": "dotx",
    "application/zip": "zip",
    "audio/flac": "flac",
    "audio/mp4": "m4a",
    "audio/mpeg": "mp3",
    "audio/ogg": "ogg",
    "audio/wav": "wav",
    "image/bmp": "bmp",
    "image/gif": "gif",
    "image/jpeg": "jpg",
    "image/png": "png",
    "image/tiff": "tiff",
    "image/webp": "webp",
    "message/rfc822": "eml",
    "text/csv": "csv",
    "text/html": "html",
    "text/plain": "txt",
    "video/mp4": "mp4",
    "video/quicktime": "mov",
    "video/webm": "webm",
    "video/x-matroska": "mkv",
    "video/x-msvideo": "avi",
}


def _case(mime_sql: str) -> str:
    whens = " ".join(f"WHEN '{mime}' THEN '{name}'" for mime, name in FORMATS.items())
    return f"CASE {mime_sql} {whens} ELSE 'other' END"


def forwards(apps, schema_editor):
    REPORT.drop(apps, schema_editor)
    REPORT.create_anywhere(
        apps,
        schema_editor,
        _case("d.mime_type"),
        "the format's short name: pdf, docx, xlsx, pptx, odt, eml, msg, zip, png, "
        "jpg, txt, html, csv... (other: none known)",
    )


def backwards(apps, schema_editor):
    REPORT.drop(apps, schema_editor)
    REPORT.create_anywhere(apps, schema_editor)


class Migration(migrations.Migration):
    dependencies = [("documents", "0015_fidelity_report")]

    operations = [migrations.RunPython(forwards, backwards)]
