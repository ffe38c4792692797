"""The links between operations that the schemathesis run follows in its stateful test.

drf-spectacular cannot declare OpenAPI links, so they are added here to a copy of
/openapi.json: upload → metadata/layout/text/image/order/comparison → order state
→ result → delete.
"""

from __future__ import annotations

import copy
from typing import Any

import schemathesis

# Links between operations (OpenAPI 3 `links`), which drf-spectacular cannot declare:
# (operationId, status) → {name: (target operationId, parameters, requestBody)}.
DOC_ID = "$response.body#/id"
ORDER_ID = "$response.body#/transformationOrderId/id"
COMPARISON_ID = "$response.body#/comparisonOrderId/id"
LINKS: dict[str, dict[str, tuple[str, dict[str, str], Any]]] = {
    "uploadDocument": {
        "metadata": ("getDocument", {"path.document_id": DOC_ID}, None),
        "layout": ("getDocumentLayout", {"path.document_id": DOC_ID}, None),
        "file": ("getDocumentFile", {"path.document_id": DOC_ID}, None),
        "search": (
            "searchPageText",
            {"path.document_id": DOC_ID, "path.page": "0"},
            None,
        ),
        "lines": (
            "getPageTextPositions",
            {"path.document_id": DOC_ID, "path.page": "0"},
            None,
        ),
        "image": ("getPageImage", {"path.document_id": DOC_ID, "path.page": "0"}, None),
        "difference": (
            "getDifference",
            {"query.leftDocumentId": DOC_ID, "query.rightDocumentId": DOC_ID},
            None,
        ),
        "order": (
            "createTransformation",
            {},
            {
                "transformationDetails": [
                    {"transformationElements": [{"documentId": DOC_ID}]}
                ]
            },
        ),
        "comparison": (
            "createComparison",
            {},
            {"leftDocumentId": DOC_ID, "rightDocumentId": DOC_ID},
        ),
        "check": ("checkDocument", {"path.document_id": DOC_ID}, None),
        "bookmarks": ("getBookmarks", {"path.document_id": DOC_ID}, None),
        "destinations": ("getNamedDestinations", {"path.document_id": DOC_ID}, None),
        "signatures": ("getSignatures", {"path.document_id": DOC_ID}, None),
        "printable": ("getPrintableDocument", {"path.document_id": DOC_ID}, None),
        "chunk": (
            "getDocumentFileChunk",
            {"path.document_id": DOC_ID, "header.Range": "bytes=0-99"},
            None,
        ),
        "xfdf": ("getDocumentAnnotationsFile", {"path.document_id": DOC_ID}, None),
        "pages": ("searchDocumentPages", {"path.document_id": DOC_ID}, None),
        "rangeSearch": ("searchDocument", {"path.document_id": DOC_ID}, None),
        "stored": ("getStoredAnnotations", {"query.documentId": DOC_ID}, None),
        "store": (
            "createStoredAnnotations",
            {"query.documentId": DOC_ID},
            {"annotations": [{"type": "Highlight", "page": 0}]},
        ),
        "policy": ("getAnnotationPolicy", {"query.documentId": DOC_ID}, None),
        "delete": ("deleteDocument", {"path.document_id": DOC_ID}, None),
    },
    "createTransformation": {
        "state": ("getTransformation", {"path.order_id": ORDER_ID}, None),
        "delete": ("deleteTransformation", {"path.order_id": ORDER_ID}, None),
    },
    "getTransformation": {
        "result": (
            "getDocumentLayout",
            {"path.document_id": "$response.body#/transformationResultDocumentID/id"},
            None,
        ),
        "resultFile": (
            "getDocumentFile",
            {"path.document_id": "$response.body#/transformationResultDocumentID/id"},
            None,
        ),
    },
    "createComparison": {
        "state": ("getComparison", {"path.order_id": COMPARISON_ID}, None),
        "delete": ("deleteComparison", {"path.order_id": COMPARISON_ID}, None),
    },
    "getComparison": {
        "target": (
            "getDocumentFile",
            {"path.document_id": "$response.body#/targetDocumentId"},
            None,
        ),
    },
}


def with_links(raw: dict[str, Any]) -> dict[str, Any]:
    """A copy of the OpenAPI document with LINKS added to the 200 answers."""
    raw = copy.deepcopy(raw)
    for operations in raw["paths"].values():
        for operation in operations.values():
            for name, (target, parameters, body) in LINKS.get(
                operation.get("operationId"), {}
            ).items():
                link: dict[str, Any] = {"operationId": target, "parameters": parameters}
                if body is not None:
                    link["requestBody"] = body
                operation["responses"]["200"].setdefault("links", {})[name] = link
    return raw


# Only the links above: the inferred ones start every chain at POST /transformations.
CONFIG = schemathesis.Config.from_dict(
    {"phases": {"stateful": {"inference": {"algorithms": []}}}}
)
