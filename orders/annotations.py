"""Annotations on the wire: validation by simple type name, echo with every field."""

from __future__ import annotations

from typing import Any, ClassVar

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from annotations.selectors import redact_reasons
from engines.pdf.annotate import KINDS, simple_name
from transformsvc.fields import IdField
from transformsvc.strict import RejectsUnknownFields

# Every field a returned annotation carries (unset → null), in the interface's order.
ECHO_FIELDS = (
    "type",
    "documentId",
    "page",
    "id",
    "position",
    "color",
    "interiorColor",
    "creationDate",
    "creator",
    "opacity",
    "width",
    "height",
    "flags",
    "contents",
    "contentsRichtext",
    "defaultappearance",
    "icon",
    "start",
    "end",
    "head",
    "tail",
    "coords",
    "date",
    "lastModifier",
    "subject",
    "security",
    "startTime",
    "endTime",
    "popup",
    "fringe",
    "dashes",
    "style",
    "intensity",
)


# Longest overlay text (characters): a reason or a code, not a paragraph.
OVERLAY_LIMIT = 200


def check_reason(value: str | None) -> str | None:
    """A redaction reason must be one `/annotation/policy` lists."""
    if not value:
        return value
    known = [r.symbolic_name for r in redact_reasons()]
    if value not in known:
        raise serializers.ValidationError(
            f"unknown reason {value!r}; known: {', '.join(known)}"
        )
    return value


# Far beyond any page (PDF pages are at most 14,400 pt), and far from float overflow.
COORDINATE_LIMIT = 10_000_000.0


def _coordinate(**kwargs: Any) -> serializers.FloatField:
    return serializers.FloatField(
        min_value=kwargs.pop("min_value", -COORDINATE_LIMIT),
        max_value=COORDINATE_LIMIT,
        **kwargs,
    )


class BoxSerializer(serializers.Serializer[Any]):
    x = _coordinate()
    y = _coordinate()
    w = _coordinate(min_value=0)
    h = _coordinate(min_value=0)


class PointSerializer(serializers.Serializer[Any]):
    x = _coordinate()
    y = _coordinate()


class ColorSerializer(serializers.Serializer[Any]):
    r = serializers.IntegerField(min_value=0, max_value=255)
    g = serializers.IntegerField(min_value=0, max_value=255)
    b = serializers.IntegerField(min_value=0, max_value=255)


class RichTextSerializer(serializers.Serializer[Any]):
    type = serializers.CharField(required=False, allow_null=True)
    value = serializers.CharField(allow_blank=True, trim_whitespace=False)


# The package the original's clients write before a type's simple name.
LONG_NAME = "com.arondor.viewer.annotation.api."
# The types the API description lists: simple names, then long ones.
ANNOTATION_TYPES = sorted(KINDS) + sorted(LONG_NAME + kind for kind in KINDS)


@extend_schema_field(
    {
        "type": "string",
        "enum": ANNOTATION_TYPES,
        "description": "What the annotation is: a square (`SquareElemType`), "
        "a free text (`FreetextElemType`), a note (`TextElemType`), a line "
        "(`LineElemType`), drawn on the output; or a redaction, which removes "
        "what is under it: an area (`RedactElemType`, `position`) or boxes "
        "over text (`RedactTextElemType`, `coords`). The simple name, or the "
        "original's long name (`com.arondor.viewer.annotation.api.<Name>`; "
        "any package before the last dot is read the same).",
    }
)
class AnnotationTypeField(serializers.CharField):
    pass


class AnnotationSerializer(RejectsUnknownFields):
    """One annotation. Fields of the original's annotation model that are not
    read here are kept for the echo; any other is refused, so that a typo
    (`overlaytext`) does not quietly drop what the client asked for."""

    tolerated: ClassVar[frozenset[str]] = frozenset(ECHO_FIELDS)

    type = AnnotationTypeField()
    documentId = IdField()
    page = serializers.IntegerField(min_value=0)
    id = serializers.JSONField(required=False, allow_null=True)
    position = BoxSerializer(required=False, allow_null=True)
    coords = BoxSerializer(many=True, required=False, allow_null=True)
    color = ColorSerializer(required=False, allow_null=True)
    interiorColor = ColorSerializer(required=False, allow_null=True)
    opacity = serializers.FloatField(
        required=False, allow_null=True, min_value=0, max_value=1
    )
    width = _coordinate(required=False, allow_null=True, min_value=0)
    height = _coordinate(required=False, allow_null=True, min_value=0)
    creationDate = serializers.IntegerField(required=False, allow_null=True)
    creator = serializers.CharField(required=False, allow_null=True, allow_blank=True)
    contents = serializers.CharField(
        required=False, allow_null=True, allow_blank=True, trim_whitespace=False
    )
    contentsRichtext = RichTextSerializer(required=False, allow_null=True)
    defaultappearance = serializers.CharField(
        required=False, allow_null=True, allow_blank=True
    )
    icon = serializers.CharField(required=False, allow_null=True, allow_blank=True)
    start = PointSerializer(required=False, allow_null=True)
    end = PointSerializer(required=False, allow_null=True)
    head = serializers.CharField(required=False, allow_null=True, allow_blank=True)
    tail = serializers.CharField(required=False, allow_null=True, allow_blank=True)
    flags = serializers.JSONField(required=False, allow_null=True)
    # Additions, for redactions: a text drawn inside the box (as outlines), or
    # a reason code of /annotation/policy drawn when no overlayText is given.
    overlayText = serializers.CharField(
        required=False, allow_null=True, allow_blank=True, max_length=OVERLAY_LIMIT
    )
    reason = serializers.CharField(required=False, allow_null=True, allow_blank=True)

    def validate_reason(self, value: str | None) -> str | None:
        return check_reason(value)

    def validate_type(self, value: str) -> str:
        if simple_name(value) not in KINDS:
            raise serializers.ValidationError(
                f"unknown annotation type {value!r}; known: {', '.join(sorted(KINDS))}"
            )
        return value

    def validate_id(self, value: Any) -> Any:
        if value is not None and not isinstance(value, (str, dict)):
            raise serializers.ValidationError(
                'must be a string or an object {"id": string}'
            )
        if isinstance(value, dict) and not isinstance(value.get("id"), str):
            raise serializers.ValidationError('must be an object {"id": string}')
        return value

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        kind = simple_name(attrs["type"])
        needs = {
            "SquareElemType": "position",
            "FreetextElemType": "position",
            "TextElemType": "position",
            "RedactElemType": "position",
            "RedactTextElemType": "coords",
        }.get(kind)
        if needs and not attrs.get(needs):
            raise serializers.ValidationError({needs: [f"required for {kind}"]})
        if kind == "LineElemType" and not (attrs.get("start") and attrs.get("end")):
            raise serializers.ValidationError(
                {"start": ["start and end are required for a line"]}
            )
        return attrs


def echo(raw: dict[str, Any], valid: dict[str, Any]) -> dict[str, Any]:
    """The annotation as returned in orders: every field present, ids as sent."""
    out: dict[str, Any] = {name: None for name in ECHO_FIELDS}
    out.update(raw)
    out["documentId"] = {"id": valid["documentId"]}
    if simple_name(valid["type"]) == "SquareElemType":
        for name in ("startTime", "endTime"):
            if out.get(name) is None:
                out[name] = -1.0
    return out
