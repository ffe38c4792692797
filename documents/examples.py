"""Examples of document answers for the API description (an invoice of three
pages, and an e-mail whose parts are documents of their own)."""

from __future__ import annotations

from typing import Any

DOCUMENT_ID = "invoice-2024-117"
ID = {"id": DOCUMENT_ID}
PREFIX = "com.vendor.viewer.client.api.document."

DOCUMENT = {
    "documentId": ID,
    "documentTitle": "invoice",
    "mimeType": "application/pdf",
    "format": "pdf",
    "renderedMimeType": "application/pdf",
    "renderedFormat": "pdf",
    "conversionOrderIds": {},
    "documentMetadata": "eyJtZXRhZGF0YU1hcCI6e319",
    "urlParameters": [],
    "id": DOCUMENT_ID,
    "title": "invoice",
    "size": 1517,
    "sha256": "ea52899e695bdc166ec3b7f8b015d6254bf3df769894ea6140f7a6ca1d3316bc",
    "pageCount": 3,
    "createdDate": "2026-11-27T13:06:19.519+00:00",
}

SUMMARY = {
    "id": DOCUMENT_ID,
    "title": "invoice",
    "format": "pdf",
    "mimeType": "application/pdf",
    "size": 1517,
    "pageCount": 3,
    "origin": "UPLOAD",
    "parentId": None,
    "renditionOf": None,
    "createdDate": "2026-11-27T13:06:19.519+00:00",
}

A4 = {"width": 595, "height": 842, "rotation": 0, "dpi": 72, "pageLayers": None}


def _pages(document_id: str, title: str, mime_type: str, count: int) -> dict[str, Any]:
    return {
        "type": PREFIX + "DocumentPageLayout",
        "documentId": {"id": document_id},
        "documentTitle": title,
        "mimeType": mime_type,
        "pageDimensionsList": [A4] * count,
    }


LAYOUT = _pages(DOCUMENT_ID, "invoice", "application/pdf", 3)
CONTAINER = {
    "type": PREFIX + "DocumentContainer",
    "documentId": {"id": "mail-7731"},
    "documentTitle": "Re: invoice 2024-117",
    "mimeType": "message/rfc822",
    "children": [
        _pages("mail-7731/0", "Re: invoice 2024-117", "text/plain", 1),
        _pages("mail-7731/1", "invoice.pdf", "application/pdf", 3),
    ],
}

PAGES = {
    "uuid": ID,
    "searchText": "acme",
    "pageList": [0, 2],
    "searchStatus": "COMPLETED",
    "lastPageSearched": 2,
}


def position_text(
    page: int, x: float, text: str, widths: list[float]
) -> dict[str, Any]:
    """A word of the examples as the service places it (PositionText)."""
    return {
        "pageNumber": page,
        "position": {"x": x, "y": 84.95, "w": round(sum(widths), 3), "h": 19.236},
        "text": text,
        "individualWidths": widths,
        "fontSize": 14.0,
        "font": "Helvetica",
        "clickableDestination": None,
        "paragraphId": 0,
        "rightToLeftText": False,
        "startTime": -1.0,
        "rotation": 0,
    }


def _word(page: int, x: float, text: str, widths: list[float]) -> dict[str, Any]:
    return {
        "positionText": position_text(page, x, text, widths),
        "textRangeList": [{"firstCharacter": 0, "lastCharacter": len(text) - 1}],
    }


ACME = [9.338, 7.0, 11.662, 7.784]
PAGE_TEXT = {"searchResults": [_word(0, 215.178, "Acme", ACME)]}
SEARCH = {
    "documentId": ID,
    "searchText": "acme",
    "searchStatus": "COMPLETED",
    "lastPageSearched": 2,
    "pagesResults": {
        "0": [_word(0, 215.178, "Acme", ACME)],
        "2": [_word(2, 72.0, "Acme", ACME)],
    },
}

BOOKMARKS = {
    "bookmarks": [
        {
            "title": "Invoice",
            "page": 0,
            "textPosition": 72.0,
            "nodeOpen": True,
            "children": [
                {
                    "title": "Terms",
                    "page": 1,
                    "textPosition": 72.0,
                    "nodeOpen": False,
                    "children": [],
                    "namedDestination": "terms",
                    "fileName": None,
                    "shouldOpenInNewWindow": False,
                    "position": {"x": 72.0, "y": 72.0},
                }
            ],
            "namedDestination": None,
            "fileName": None,
            "shouldOpenInNewWindow": False,
            "position": {"x": 0.0, "y": 72.0},
        }
    ]
}

DESTINATIONS = {
    "documentId": ID,
    "namedDestinations": [
        {"name": "terms", "page": 1, "position": {"x": 72.0, "y": 72.0}}
    ],
}

REGISTERED_LAYOUT = {
    "documentId": "scan-batch-12/0001",
    "documentTitle": "scanned letter",
    "mimeType": "application/pdf",
    "pageDimensionsList": [
        {"width": 595, "height": 842, "rotation": 0, "dpi": 72},
        {"width": 842, "height": 595, "rotation": 90, "dpi": 72},
    ],
}
