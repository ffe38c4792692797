"""Examples of /transformations bodies and answers for the API description:
the README's order, a redaction (by areas and by rules), a multi-output zip."""

from __future__ import annotations

from typing import Any

DOCUMENT = {"id": "invoice-2024-117"}
ORDER_ID = {"id": "0cbd0349-d875-4759-b0ce-5c744a8a5f01"}

# The long type names the original's clients send; the simple names work too.
LONG = "com.arondor.viewer.annotation.api."

PAGES_1_TO_3 = {
    "format": "pdf",
    "transformationDetails": [
        {
            "transformationElements": [
                {
                    "documentId": DOCUMENT["id"],
                    "pagesSelectionList": [{"minPage": 1, "maxPage": 3}],
                }
            ]
        }
    ],
}

MERGE = {
    "format": "pdf",
    "transformationDetails": [
        {
            "documentTitle": "pack",
            "transformationElements": [
                {"documentId": "letter-2024-03"},
                {
                    "documentId": {"id": DOCUMENT["id"]},
                    "pagesSelectionList": [
                        {"minPage": 1, "maxPage": 1},
                        {"minPage": 3, "maxPage": 3},
                    ],
                },
            ],
        }
    ],
}

REDACTION = {
    "format": "pdf",
    "transformationDetails": [{"transformationElements": [{"documentId": DOCUMENT}]}],
    "annotations": {
        "annotations": [
            {
                "type": LONG + "RedactElemType",
                "documentId": DOCUMENT,
                "page": 0,
                "position": {"x": 70, "y": 85, "w": 200, "h": 20},
                "overlayText": "withheld",
            },
            {
                "type": "RedactTextElemType",
                "documentId": DOCUMENT,
                "page": 1,
                "coords": [{"x": 72, "y": 88, "w": 40, "h": 14}],
                "reason": "(b)(6)",
            },
        ]
    },
    "redactionRules": [
        {"text": "Acme", "caseSensitive": False},
        {"regex": "INV-[0-9]{4}-[0-9]{3}"},
        {"preset": "email", "reason": "(b)(6)"},
    ],
}

ZIP = {
    "format": "zip",
    "transformationDetails": [
        {
            "documentTitle": "first",
            "transformationElements": [
                {
                    "documentId": DOCUMENT["id"],
                    "pagesSelectionList": [{"minPage": 1, "maxPage": 1}],
                }
            ],
        },
        {
            "documentTitle": "rest",
            "transformationElements": [
                {
                    "documentId": DOCUMENT["id"],
                    "pagesSelectionList": [{"minPage": 2, "maxPage": 3}],
                }
            ],
        },
    ],
    "callbackUrl": "https://dms.example.com/hooks/transformsvc",
}

REQUESTS = {
    "Pages 1 to 3 of a document (the README's)": PAGES_1_TO_3,
    "Merge a document and two pages of another": MERGE,
    "Redact areas and what rules find": REDACTION,
    "Two outputs in a zip": ZIP,
}


def _order(**fields: Any) -> dict[str, Any]:
    """An order as GET shows it, with `fields` changed."""
    return {
        "currentState": "PROCESSED",
        "errorMessage": None,
        "queuedDate": "2026-11-27T13:06:21.057+00:00",
        "processedDate": "2026-11-27T13:06:21.160+00:00",
        "queuedTime": 62,
        "processingTime": 40,
        "callbackUrl": None,
        "transformationOrderId": ORDER_ID,
        "transformationDetails": [
            {
                "documentTitle": None,
                "transformationElements": [
                    {
                        "documentId": DOCUMENT,
                        "documentTitle": None,
                        "pagesSelectionList": [{"minPage": 1, "maxPage": 3}],
                    }
                ],
            }
        ],
        "transformationResultDocumentID": {
            "id": "b64_NWExNDFkM2YtODA4NS00ZTgyLWFkMDYtOTMwZTM4ZjE5OTA5"
        },
        "transformationResultDocumentIDs": None,
        "annotations": None,
        "format": "pdf",
        "redactionVerified": None,
        "operations": [],
        "operationResults": [],
        **fields,
    }


ZIP_RESULT = "b64_M2EwOTI1N2ItYTNlOS00MGUyLWJlODItMmMyOTQxYjg3YjEz"

PROCESSED = _order()
ORDERS = {
    "Processed: the result is a document": PROCESSED,
    "Queued: not started yet": _order(
        currentState="QUEUED",
        processedDate=None,
        queuedTime=1250,
        processingTime=0,
        transformationResultDocumentID=None,
    ),
    "Failed: errorMessage says why": _order(
        currentState="FAILED",
        errorMessage="Page 5 is out of range: document invoice-2024-117 has 3 pages.",
        transformationResultDocumentID=None,
    ),
    "A redaction, verified": _order(
        transformationDetails=[
            {
                "documentTitle": None,
                "transformationElements": [
                    {
                        "documentId": DOCUMENT,
                        "documentTitle": None,
                        "pagesSelectionList": None,
                    }
                ],
            }
        ],
        redactionVerified=True,
        processingTime=246,
    ),
    "Two outputs: a zip, and each output as a document": _order(
        format="zip",
        transformationResultDocumentID={"id": ZIP_RESULT},
        transformationResultDocumentIDs=[
            {"id": f"{ZIP_RESULT}/0"},
            {"id": f"{ZIP_RESULT}/1"},
        ],
    ),
}

ORDER_ID_ANSWER = {"transformationOrderId": ORDER_ID}

_BOX = {
    "type": "object",
    "properties": {k: {"type": "number"} for k in "xywh"},
    "required": list("xywh"),
}

# What POST /transformations?dryRun=true answers instead of an order's id.
DRY_RUN_SCHEMA = {
    "type": "object",
    "description": "A dry run's answer: the matches the order's redaction rules "
    "would redact; no order is made.",
    "properties": {
        "dryRun": {"type": "boolean", "enum": [True]},
        "rules": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {
                    "rule": {"type": "integer"},
                    "ruleName": {"type": "string"},
                    "matches": {"type": "integer"},
                },
                "required": ["rule", "ruleName", "matches"],
            },
        },
        "count": {"type": "integer"},
        "matches": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {
                    "id": {"type": "string", "description": "for acceptedMatches"},
                    "documentId": {
                        "type": "object",
                        "properties": {"id": {"type": "string"}},
                    },
                    "page": {"type": "integer", "description": "from 0"},
                    "target": {"type": "string"},
                    "place": {"type": "string"},
                    "rule": {"type": "integer"},
                    "ruleName": {"type": "string"},
                    "coords": {"type": "array", "items": _BOX},
                    "text": {"type": "string", "description": "matchText=clear"},
                    "textHmac": {"type": "string", "description": "matchText=hash"},
                },
                "required": ["id", "documentId", "page", "rule", "coords"],
            },
        },
    },
    "required": ["dryRun", "rules", "count", "matches"],
}

CREATED_SCHEMA = {
    "oneOf": [{"$ref": "#/components/schemas/TransformationOrderId"}, DRY_RUN_SCHEMA]
}

DRY_RUN = {
    "dryRun": True,
    "rules": [
        {"rule": 0, "ruleName": "text", "matches": 1},
        {"rule": 1, "ruleName": "preset:email", "matches": 1},
    ],
    "count": 2,
    "matches": [
        {
            "id": "m3ec7e6c1e5870afa8969",
            "documentId": DOCUMENT,
            "page": 0,
            "target": "page",
            "place": "page text",
            "rule": 0,
            "ruleName": "text",
            "coords": [{"x": 215.178, "y": 84.95, "w": 35.784, "h": 19.236}],
            "textHmac": "e56336295831a83e2fe7903e2dd2b90ce98e6d31bf007a73cc77f70c9eaa4f65",
        },
        {
            "id": "m5a8e9aceed6ebb219883",
            "documentId": DOCUMENT,
            "page": 0,
            "target": "page",
            "place": "page text",
            "rule": 1,
            "ruleName": "preset:email",
            "coords": [{"x": 356.2, "y": 84.95, "w": 138.1, "h": 19.236}],
            "textHmac": "9b1c0e7f5a3d2b4c6e8f0a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f",
        },
    ],
}

REDACTION_RECORD = {
    "areas": [
        {
            "h": 19.236,
            "w": 35.784,
            "x": 215.178,
            "y": 84.95,
            "area": 1,
            "page": 0,
            "rule": 0,
            "entry": None,
            "paths": 0,
            "fields": 0,
            "glyphs": 4,
            "images": 0,
            "output": 0,
            "source": "rule",
            "target": "page",
            "matchId": "m3ec7e6c1e5870afa8969",
            "ruleName": "text",
            "textHmac": "e56336295831a83e2fe7903e2dd2b90ce98e6d31bf007a73cc77f70c9eaa4f65",
            "documentId": "invoice-2024-117",
            "sourcePage": 0,
            "annotations": 0,
            "overlayText": False,
        }
    ],
    "rules": [
        {"rule": 0, "ruleName": "text", "overlayText": None},
        {"rule": 1, "ruleName": "preset:email", "overlayText": "(b)(6)"},
    ],
    "inputs": [
        {
            "sha256": "ea52899e695bdc166ec3b7f8b015d6254bf3df769894ea6140f7a6ca1d3316bc",
            "pdfSha256": "ea52899e695bdc166ec3b7f8b015d6254bf3df769894ea6140f7a6ca1d3316bc",
            "documentId": "invoice-2024-117",
        }
    ],
    "totals": {
        "areas": 1,
        "names": 0,
        "paths": 0,
        "fields": 0,
        "glyphs": 62,
        "images": 0,
        "streams": 1,
        "strings": 0,
        "ruleAreas": 4,
        "annotations": 0,
        "objectsRead": 16,
        "scrubbedMatches": 0,
    },
    "outputs": [
        {
            "pages": 3,
            "title": None,
            "output": 0,
            "sha256": "013a0a9df69d2cb75a0f619d9f4b5a89eebf882ed1cfc15916bbb8b636ac20e0",
            "scrubbed": {"names": 0, "streams": 1, "strings": 0},
            "documentId": "b64_MWM0MDVjMmItODQxNy00MDMwLWE2MWItOWIxMTU1MjVjNGY1",
            "verification": {
                "runs": 8,
                "areas": 6,
                "found": 0,
                "pages": 3,
                "objects": 16,
                "readers": ["pdfium", "qpdf"],
                "streams": 10,
            },
        }
    ],
    "version": 1,
    "verified": True,
    "scrubbedMatches": [],
    "acceptedMatchesOnly": False,
}
