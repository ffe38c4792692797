"""Aiming generated requests at real resources, so the engine runs too.

A few real documents and orders are made first (`Seeds`); generated ids, pages,
ranges and bodies are pointed at them part of the time instead of answering 404 to
random ids. A documentUrl is never left to the generator.
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass
from typing import Any, TypeVar

import schemathesis

from engines.pdf.annotate import KINDS
from tests.conftest import make_pdf_bytes

ID_FIELDS = ("documentId", "leftDocumentId", "rightDocumentId")
# documentUrl is never left to the generator: a random public address must not be fetched.
SAFE_URLS = (
    "http://127.0.0.1:9/refused.pdf",
    "ftp://example.invalid/x.pdf",
    "not a url",
    "http://[::1]/x.pdf",
    "http://169.254.169.254/latest/meta-data",
)

PDFS = (
    make_pdf_bytes(3, prefix="alpha"),
    make_pdf_bytes(["gamma delta", "epsilon"], size=(612, 792), rotate=90),
)


@dataclass
class Seeds:
    documents: list[str]
    transformations: list[str]
    comparisons: list[str]


T = TypeVar("T")


def _pick(options: list[T], key: object) -> T:
    return options[zlib.crc32(repr(key).encode()) % len(options)]


OPERATION_SETS: tuple[list[dict[str, Any]], ...] = (
    [],
    [{"type": "rotate", "angle": 90}],
    [{"type": "outline"}],
)
RULE_SETS: tuple[list[dict[str, Any]], ...] = (
    [{"preset": "email"}],
    [{"text": "alpha"}, {"preset": "card"}],
    [],
)
COLOURS = ("FF0000", "#00ff00", "0000FF", "ffffff", "null")
DESCRIPTIONS = ("IM_100_0", "IM_64_90_FILTERS~C~35~B~-100~I~50", "IM_80_270")
RANGES = ("bytes=0-99", "bytes=10-", "bytes=5-2", "bytes=999999-")
XFDF = (
    b'<?xml version="1.0" encoding="UTF-8"?><xfdf xmlns="http://ns.adobe.com/xfdf/">'
    b'<annots><square page="0" rect="10,10,50,50" color="#FF0000" name="a1"/>'
    b"</annots></xfdf>"
)


def _aim_body(value: Any, document: str, key: str = "") -> Any:
    """Id fields of a JSON body (at any depth) → `document`; where the generator made a
    value of the right type that only our validation refuses (page past the end, colour,
    annotation type), a valid one of the same kind, so the order reaches the engine."""
    if isinstance(value, list):
        return [_aim_body(v, document, key) for v in value]
    if not isinstance(value, dict):
        return value
    out = {
        k: (
            document
            if k in ID_FIELDS and not isinstance(v, dict | list)
            else _aim_body(v, document, k)
        )
        for k, v in value.items()
    }
    if key in ID_FIELDS and isinstance(out.get("id"), str):
        out["id"] = document
    # A generated callback host does not resolve (400); webhooks are tested on their own.
    out.pop("callbackUrl", None)
    # A generated rule rarely has exactly one of text, regex and preset, and
    # generated match ids name nothing: a valid rule set instead, part of the time.
    if "redactionRules" in out:
        out["redactionRules"] = _pick(list(RULE_SETS), repr(out["redactionRules"]))
        out.pop("acceptedMatches", None)
    elif "acceptedMatches" in out:
        out.pop("acceptedMatches")
    # Likewise a generated operation rarely names a type of the table.
    if isinstance(out.get("operations"), list):
        out["operations"] = _pick(list(OPERATION_SETS), repr(out["operations"]))
    first, last = out.get("minPage"), out.get("maxPage")
    if type(first) is int and type(last) is int and first >= 1 and last >= 1:
        out["minPage"] = 1 + (first - 1) % 2
        out["maxPage"] = max(out["minPage"], 1 + (last - 1) % 2)
    if key == "annotations" and isinstance(out.get("type"), str):
        out["type"] = "com.example." + _pick(sorted(KINDS), out["type"])
    page = out.get("page")
    if key == "annotations" and type(page) is int and page >= 0:
        out["page"] = page % 2
    for name in ("highlightColor", "lowlightColor"):
        if isinstance(out.get(name), str):
            out[name] = _pick(list(COLOURS), out[name])
    return out


def _without_nul(value: Any) -> Any:
    if isinstance(value, str):
        return value.replace("\x00", "")
    if isinstance(value, list):
        return [_without_nul(v) for v in value]
    if isinstance(value, dict):
        return {_without_nul(k): _without_nul(v) for k, v in value.items()}
    return value


def _complete(body: Any, document: str) -> Any:
    """Every transformation output with at least one source: `document`."""
    if isinstance(body, dict) and isinstance(body.get("transformationDetails"), list):
        for detail in body["transformationDetails"]:
            if isinstance(detail, dict) and not detail.get("transformationElements"):
                detail["transformationElements"] = [{"documentId": document}]
    return body


def aim(
    case: schemathesis.Case, seeds: Seeds, document: str | None, page: str | None
) -> None:
    """Point a generated case at the seeded resources (None keeps the generated value)."""
    query = case.query if isinstance(case.query, dict) else None
    if query and "documentUrl" in query:
        query["documentUrl"] = _pick(list(SAFE_URLS), query["documentUrl"])
    body = case.body if isinstance(case.body, dict) else None
    if body is not None and "url" in body:  # /accessor/load fetches it too
        body["url"] = _pick(list(SAFE_URLS), body["url"])
    if document is None:
        return
    headers = case.headers if isinstance(case.headers, dict) else None
    if headers and "Range" in headers:
        headers["Range"] = _pick(
            [*RANGES, headers["Range"]], (document, headers["Range"])
        )
    if query and "pageImageDescription" in query:
        query["pageImageDescription"] = _pick(
            [*DESCRIPTIONS, query["pageImageDescription"]],
            (document, query["pageImageDescription"]),
        )
    if query and "documentId" in query and case.operation.label != "POST /documents":
        query["documentId"] = document
    params = case.path_parameters or {}
    if "document_id" in params:
        params["document_id"] = document
    if "page" in params and page is not None:
        params["page"] = page
    if "order_id" in params:
        pool = (
            seeds.comparisons
            if "comparisons" in case.operation.path
            else seeds.transformations
        )
        params["order_id"] = _pick(pool, params["order_id"])
    if query:
        for name in ("leftDocumentId", "rightDocumentId"):
            if name in query:
                query[name] = _pick(seeds.documents, (name, document))
    if case.operation.label == "POST /documents" or (
        case.operation.label == "POST /documents/layout"
        and case.media_type == "application/octet-stream"
    ):
        case.body = _pick(list(PDFS), document)
        case.media_type = "application/octet-stream"
    elif case.operation.label == "POST /annotations/conversion":
        case.body = _pick([XFDF, b"", PDFS[0]], (document, str(case.query)))
        case.media_type = "application/octet-stream"
    elif isinstance(case.body, dict):
        case.body = _aim_body(case.body, document)


def forget_everything() -> None:
    from annotations.models import StoredAnnotation
    from comparisons.models import ComparisonOrder
    from documents.models import Document
    from orders.models import TransformationOrder

    StoredAnnotation.objects.all().delete()
    TransformationOrder.objects.all().delete()
    ComparisonOrder.objects.all().delete()
    Document.objects.all().delete()


def _first_id(body: Any) -> str | None:
    """The first document id string anywhere in a JSON body."""
    if isinstance(body, dict):
        for key, value in body.items():
            if key in ID_FIELDS and isinstance(value, str) and value:
                return value
            found = _first_id(value)
            if found:
                return found
    if isinstance(body, list):
        for value in body:
            found = _first_id(value)
            if found:
                return found
    return None
