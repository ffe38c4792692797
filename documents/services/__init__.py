"""Writes on documents: what arrives (`intake`), what the service makes
(`results`), deletion (`deletion`); `rows` stores a row and its file."""

from documents.services.deletion import document_delete, document_remove
from documents.services.intake import (
    PASSWORD_HEADER,
    document_create,
    document_register_layout,
    store_intake,
)
from documents.services.results import (
    document_store_result,
    reads_from,
    result_outcome,
)

__all__ = [
    "PASSWORD_HEADER",
    "document_create",
    "document_delete",
    "document_register_layout",
    "document_remove",
    "document_store_result",
    "reads_from",
    "result_outcome",
    "store_intake",
]
