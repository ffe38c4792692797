"""The API description a developer learns from (/v3/api-docs, shown at /docs).

Every operation says what it does (a summary) and how (a description), every JSON
body it takes and every JSON answer it gives has an example, the examples are
valid against their own schemas (schemathesis sends them too), no description is
a class's internal docstring, and the operations endpoints are described.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from openapi_schema_validator import OAS30Validator
from referencing import Registry
from referencing.jsonschema import DRAFT4

# Words of the code, not of the API: a docstring leaking into /docs (any case).
INTERNAL_WORDS = ("mixin", "apiview", "refusal_kind", "self.", "serializer")

# What an operator's probes and scrapers call, described like the rest.
OPERATIONS_PATHS = {"/health": "get", "/ready": "get", "/metrics": "get"}

METHODS = ("get", "put", "post", "delete", "patch")


@pytest.fixture(scope="module")
def api(django_db_blocker: Any) -> dict[str, Any]:
    from django.test import Client

    with django_db_blocker.unblock():
        response = Client().get("/v3/api-docs")
    assert response.status_code == 200
    schema: dict[str, Any] = response.json()
    return schema


def operations(api: dict[str, Any]) -> Iterator[tuple[str, dict[str, Any]]]:
    for path, item in api["paths"].items():
        for method in METHODS:
            if method in item:
                yield f"{method.upper()} {path}", item[method]


def json_media(content: dict[str, Any]) -> Iterator[tuple[str, dict[str, Any]]]:
    for media_type, media in content.items():
        if media_type.startswith("application/") and media_type.endswith("json"):
            yield media_type, media


def examples_of(media: dict[str, Any]) -> list[Any]:
    """The example values of a media type: its `example`, its `examples`, or its
    schema's own `example`."""
    if "example" in media:
        return [media["example"]]
    if media.get("examples"):
        return [e["value"] for e in media["examples"].values() if "value" in e]
    schema = media.get("schema", {})
    return [schema["example"]] if "example" in schema else []


def bodies(api: dict[str, Any]) -> Iterator[tuple[str, dict[str, Any]]]:
    """Every JSON request body and every JSON answer of a 2xx."""
    for label, operation in operations(api):
        content = operation.get("requestBody", {}).get("content", {})
        for media_type, media in json_media(content):
            yield f"{label} request {media_type}", media
        for status, response in operation["responses"].items():
            if status.startswith("2"):
                for media_type, media in json_media(response.get("content", {})):
                    yield f"{label} {status} {media_type}", media


def test_every_operation_has_a_summary_and_a_description(api: dict[str, Any]) -> None:
    lacking = [
        f"{label}: {field}"
        for label, operation in operations(api)
        for field in ("summary", "description")
        if len(operation.get(field, "").strip()) < 10
    ]
    assert not lacking, "\n".join(lacking)


def test_summaries_are_short(api: dict[str, Any]) -> None:
    long = [label for label, op in operations(api) if len(op.get("summary", "")) > 90]
    assert not long, long


def test_no_description_is_an_internal_docstring(api: dict[str, Any]) -> None:
    texts = [
        (label, operation.get(field, ""))
        for label, operation in operations(api)
        for field in ("summary", "description")
    ] + [
        (f"schema {name}", schema.get("description", ""))
        for name, schema in api["components"]["schemas"].items()
    ]
    leaks = [
        f"{where}: {word!r}"
        for where, text in texts
        for word in INTERNAL_WORDS
        if word in text.lower()
    ]
    assert not leaks, "\n".join(leaks)


def test_every_json_body_and_answer_has_an_example(api: dict[str, Any]) -> None:
    lacking = [label for label, media in bodies(api) if not examples_of(media)]
    assert not lacking, "\n".join(lacking)


def test_examples_are_valid_against_their_schemas(api: dict[str, Any]) -> None:
    registry: Registry[Any] = Registry().with_resource(
        "urn:api", DRAFT4.create_resource(_anchored(api))
    )
    invalid = []
    for label, media in bodies(api):
        schema = _anchored(media.get("schema", {}))
        validator = OAS30Validator(schema, registry=registry)
        for value in examples_of(media):
            errors = [e.message for e in validator.iter_errors(value)]
            if errors:
                invalid.append(f"{label}: {errors[0][:300]}")
    assert not invalid, "\n".join(invalid)


def _anchored(schema: Any) -> Any:
    """`#/components/...` references, resolved against the whole document; a
    nullable reference (`allOf: [$ref], nullable: true`, as drf-spectacular
    writes it) takes null, as schemathesis reads it."""
    if isinstance(schema, dict):
        anchored = {
            k: ("urn:api" + v if k == "$ref" else _anchored(v))
            for k, v in schema.items()
        }
        if anchored.pop("nullable", False) and "type" not in anchored:
            return {"anyOf": [anchored, {"enum": [None]}]}
        if "type" in anchored and schema.get("nullable"):
            anchored["nullable"] = True
        return anchored
    if isinstance(schema, list):
        return [_anchored(v) for v in schema]
    return schema


def test_health_ready_and_metrics_are_described(api: dict[str, Any]) -> None:
    for path, method in OPERATIONS_PATHS.items():
        operation = api["paths"].get(path, {}).get(method)
        assert operation is not None, f"{method.upper()} {path} missing"
        assert "200" in operation["responses"], path
        assert operation["responses"]["200"].get("content"), path
    metrics = api["paths"]["/metrics"]["get"]["responses"]["200"]["content"]
    assert any(media.startswith("text/plain") for media in metrics)


def test_annotation_types_and_formats_are_enumerated(api: dict[str, Any]) -> None:
    from conversions.targets import ALL_TARGETS
    from engines.pdf.annotate import KINDS

    schemas = api["components"]["schemas"]

    def enum(component: str, field: str) -> set[str]:
        schema = schemas[component]["properties"][field]
        while "enum" not in schema:
            ref = schema.get("$ref") or schema["allOf"][0]["$ref"]
            schema = schemas[ref.rsplit("/", 1)[-1]]
        return set(schema["enum"])

    kinds = enum("AnnotationRequest", "type")
    # The simple names, and the long names the original's clients send.
    assert set(KINDS) <= kinds
    assert {f"com.arondor.viewer.annotation.api.{k}" for k in KINDS} <= kinds
    assert enum("TransformationRequestRequest", "format") == {"pdf", "pdf-fdf", "zip"}
    assert set(ALL_TARGETS) <= enum("ConversionRequestRequest", "format")


def test_every_operation_is_in_a_described_group(api: dict[str, Any]) -> None:
    groups = {tag["name"]: tag.get("description") for tag in api.get("tags", [])}
    assert all(groups.values()), groups
    astray = [
        f"{label}: {operation.get('tags')}"
        for label, operation in operations(api)
        if len(operation.get("tags", [])) != 1 or operation["tags"][0] not in groups
    ]
    assert not astray, "\n".join(astray)
