"""Post-processing of the generated OpenAPI document: what the views cannot declare."""

from __future__ import annotations

from typing import Any

PROBLEM = {
    "type": "object",
    "description": "An error answer (RFC 9457 problem details).",
    "properties": {
        "type": {"type": "string"},
        "title": {"type": "string"},
        "status": {"type": "integer"},
        "detail": {"type": "string"},
        "requestId": {"type": "string"},
        "errors": {
            "type": "object",
            "additionalProperties": {"type": "array", "items": {"type": "string"}},
        },
    },
    "required": ["type", "title", "status", "detail"],
}


def _problem_response(description: str) -> dict[str, Any]:
    return {
        "description": description,
        "content": {
            "application/problem+json": {
                "schema": {"$ref": "#/components/schemas/Problem"}
            }
        },
    }


def document_problems(result: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
    """Every operation answers its errors as application/problem+json (decisions §8)."""
    result.setdefault("components", {}).setdefault("schemas", {})["Problem"] = PROBLEM
    for operations in result.get("paths", {}).values():
        for operation in operations.values():
            responses = operation.setdefault("responses", {})
            responses.setdefault(
                "4XX", _problem_response("invalid request, unknown id, ...")
            )
            responses.setdefault(
                "5XX", _problem_response("service busy or internal error")
            )
    return result
