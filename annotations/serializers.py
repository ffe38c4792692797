"""Wire shapes of the annotation store (the original's Annotations object) and of
the annotation policy (its AnnotationCreationPolicy)."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from annotations.models import StoredAnnotation
from annotations.specs import AnnotationSpec, RedactReason
from transformsvc.conf import service

ANNOTATION_SCHEMA = {
    "type": "object",
    "description": "An annotation in the viewer's model: `type` and `page` (from 0) "
    "are required, `id` (string or {id}) names it; other fields are kept as sent.",
    "properties": {
        "id": {
            "oneOf": [
                {"type": "string"},
                {"type": "object", "properties": {"id": {"type": "string"}}},
            ]
        },
        "type": {"type": "string"},
        "page": {"type": "integer", "minimum": 0},
        "documentId": {"type": "object", "properties": {"id": {"type": "string"}}},
    },
    "required": ["type", "page"],
    "additionalProperties": True,
}


@extend_schema_field(ANNOTATION_SCHEMA)
class AnnotationField(serializers.Field):
    default_error_messages = {
        "object": "an annotation is a JSON object",
        "type": "type is required: a non-empty string",
        "page": "page is required: an integer from 0",
        "id": 'id is a non-empty string or {{"id": string}}',
    }

    def to_internal_value(self, data: Any) -> AnnotationSpec:
        if not isinstance(data, dict):
            self.fail("object")
        kind, page, raw_id = data.get("type"), data.get("page"), data.get("id")
        if not isinstance(kind, str) or not kind or len(kind) > 256:
            self.fail("type")
        if type(page) is not int or not 0 <= page < 1_000_000:
            self.fail("page")
        annotation_id = raw_id.get("id") if isinstance(raw_id, dict) else raw_id
        if annotation_id is not None and (
            not isinstance(annotation_id, str) or not 0 < len(annotation_id) <= 512
        ):
            self.fail("id")
        return AnnotationSpec(
            annotation_id=annotation_id, kind=kind, page=page, data=dict(data)
        )

    def to_representation(self, value: StoredAnnotation) -> dict[str, Any]:
        return {**value.data, "documentId": {"id": value.document_id}}


def annotation_spec(data: Any) -> AnnotationSpec:
    """One annotation sent as the whole body (the 2026 API); 400 naming the
    fault otherwise."""
    spec: AnnotationSpec = AnnotationField().run_validation(data)
    return spec


class AnnotationIdSerializer(serializers.Serializer):
    id = serializers.CharField()


class StoredAnnotationsSerializer(serializers.Serializer):
    annotations = serializers.ListField(
        child=AnnotationField(), max_length=10_000, allow_empty=True
    )


class AnnotationIdsSerializer(serializers.Serializer):
    """DELETE body: the annotations to remove, by id ({"id": {"id": ...}} or a
    string id); other fields are ignored."""

    annotations = serializers.ListField(
        child=serializers.DictField(), max_length=10_000
    )

    def ids(self) -> list[str]:
        found = []
        for item in self.validated_data["annotations"]:
            raw = item.get("id")
            value = raw.get("id") if isinstance(raw, dict) else raw
            if isinstance(value, str) and value:
                found.append(value)
        return found


class DocumentQuerySerializer(serializers.Serializer):
    documentId = serializers.CharField(max_length=512)


class PolicyQuerySerializer(serializers.Serializer):
    documentId = serializers.CharField(max_length=512, required=False)


class ConversionQuerySerializer(serializers.Serializer):
    sourceType = serializers.ChoiceField(choices=["FDF", "XFDF"])
    targetType = serializers.ChoiceField(choices=["FDF", "XFDF"])
    documentId = serializers.CharField(max_length=512, required=False)

    def to_internal_value(self, data: Any) -> Any:
        # The types in any case (fdf, Xfdf...).
        data = {
            k: (v.upper() if k.endswith("Type") and isinstance(v, str) else v)
            for k, v in data.items()
        }
        return super().to_internal_value(data)


def stored(rows: list[StoredAnnotation]) -> dict[str, Any]:
    return {"annotations": [AnnotationField().to_representation(r) for r in rows]}


class LocalizedReasonSerializer(serializers.Serializer):
    symbolicName = serializers.CharField()
    displayName = serializers.DictField(child=serializers.CharField())


class PolicySerializer(serializers.Serializer):
    canCreateAnnotations = serializers.BooleanField()
    textAnnotationsSupportHtml = serializers.BooleanField()
    textAnnotationsSupportReply = serializers.BooleanField()
    textAnnotationsSupportStatus = serializers.BooleanField()
    textAnnotationsCommentSupportReply = serializers.BooleanField()
    annotationsSupportSecurity = serializers.BooleanField()
    availableSecurityLevels = serializers.ListField(
        child=serializers.DictField(), allow_null=True
    )
    annotationTemplateCatalog = serializers.DictField(allow_null=True)
    annotationCreationRuleCatalog = serializers.DictField(allow_null=True)
    availableRedactReasons = LocalizedReasonSerializer(many=True, allow_null=True)
    defaultRedactReasons = LocalizedReasonSerializer(many=True, allow_null=True)
    annotationTypes = serializers.ListField(
        child=serializers.CharField(),
        help_text="Annotation types that transformation orders burn or attach "
        "(simple names, any package prefix)",
    )


def policy(kinds: list[str], reasons: list[RedactReason]) -> dict[str, Any]:
    """The original's defaults (concepts/annotations.md), the configured reasons."""
    prefix = service().type_prefix
    return {
        "canCreateAnnotations": True,
        "textAnnotationsSupportHtml": True,
        "textAnnotationsSupportReply": True,
        "textAnnotationsSupportStatus": True,
        "textAnnotationsCommentSupportReply": True,
        "annotationsSupportSecurity": False,
        "availableSecurityLevels": None,
        "annotationTemplateCatalog": None,
        "annotationCreationRuleCatalog": None,
        "availableRedactReasons": [
            {"symbolicName": r.symbolic_name, "displayName": {"en": r.display_name}}
            for r in reasons
        ],
        "defaultRedactReasons": None,
        "annotationTypes": [f"{prefix}.annotation.api.{k}" for k in kinds],
    }
