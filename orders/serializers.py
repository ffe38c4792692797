"""Wire shapes of transformation orders (names exactly as in the interface)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from rest_framework import serializers

from engines.errors import InvalidOperation
from engines.pdf.ops import Op, parse_operations, plan, stamp_texts
from jobs.callbacks import CallbackUrlField
from jobs.serializers import OrderIdSerializer, OrderProgressSerializer
from orders.annotations import AnnotationSerializer, echo
from orders.models import TransformationOrder
from orders.rules import (
    MAX_ACCEPTED,
    MAX_RULES,
    RuleSerializer,
    overlay_faults,
    rule_of,
)
from orders.specs import OperationSpec, OrderSpec
from orders.wire import spec_of
from transformsvc.fields import IdField, id_object
from transformsvc.strict import RejectsUnknownFields


class PageSelectionSerializer(RejectsUnknownFields):
    minPage = serializers.IntegerField(min_value=1)
    maxPage = serializers.IntegerField(min_value=1)

    def validate(self, attrs: dict[str, int]) -> dict[str, int]:
        if attrs["minPage"] > attrs["maxPage"]:
            raise serializers.ValidationError(
                {"maxPage": [f"must be at least minPage ({attrs['minPage']})"]}
            )
        return attrs


class ElementSerializer(RejectsUnknownFields):
    documentId = IdField()
    pagesSelectionList = PageSelectionSerializer(
        many=True, required=False, allow_null=True
    )
    documentTitle = serializers.CharField(
        required=False, allow_null=True, allow_blank=True, max_length=1024
    )


class OperationsField(serializers.ListField):
    """`operations`: what is applied to outputs (stamp, bates, encrypt...; an
    addition to the contract), each an object with its `type`; read by the
    engine's table (engines/pdf/ops), which names the field at fault."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(
            child=serializers.DictField(), required=False, allow_empty=True, **kwargs
        )


class DetailSerializer(RejectsUnknownFields):
    transformationElements = ElementSerializer(many=True, allow_empty=False)
    documentTitle = serializers.CharField(
        required=False, allow_null=True, allow_blank=True, max_length=1024
    )
    # An addition: operations applied to this output only (after the order's).
    operations = OperationsField()


class AnnotationsSerializer(RejectsUnknownFields):
    annotations = AnnotationSerializer(many=True, required=False, allow_null=True)


class TransformationRequestSerializer(RejectsUnknownFields):
    format = serializers.ChoiceField(choices=TransformationOrder.Format.values)
    # An addition: where the order is POSTed when it ends (webhooks).
    callbackUrl = CallbackUrlField()
    transformationDetails = DetailSerializer(many=True, allow_empty=False)
    annotations = AnnotationsSerializer(required=False, allow_null=True)
    # An addition: operations applied to every output (see OperationsField).
    operations = OperationsField()
    # An addition: a redacted output keeps its attached files, each opened,
    # scrubbed and verified (by default they are dropped).
    keepAttachments = serializers.BooleanField(required=False, default=False)
    # Additions: redaction by what, not where (orders.rules), and the matches
    # of a dry run a reviewer accepted (only those are then redacted).
    redactionRules = RuleSerializer(many=True, required=False)
    acceptedMatches = serializers.ListField(
        child=serializers.RegexField(r"^m[0-9a-f]{20}$"),
        required=False,
        allow_null=True,
        max_length=MAX_ACCEPTED,
    )

    _planned: list[tuple[OperationSpec, ...]]

    def to_internal_value(self, data: Any) -> Any:
        """One output may come as an object instead of a list of one: the
        original reads it so, and its QA suite's FDF order sends it so."""
        if isinstance(data, Mapping) and isinstance(
            data.get("transformationDetails"), Mapping
        ):
            data = {**data, "transformationDetails": [data["transformationDetails"]]}
        return super().to_internal_value(data)

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        """Each output's operations (the order's, then its own) read and put in
        the order they run; a fault names its field. No overlay text may show
        what a rule redacts."""
        rules = [rule_of(r) for r in attrs.get("redactionRules") or []]
        if len(rules) > MAX_RULES:
            raise serializers.ValidationError(
                {"redactionRules": [f"at most {MAX_RULES} rules per order"]}
            )
        first: dict[str, int] = {}
        for number, rule in enumerate(rules):
            if first.setdefault(rule.key, number) != number:
                raise serializers.ValidationError(
                    {
                        f"redactionRules[{number}]": [
                            f"the same rule as redactionRules[{first[rule.key]}] "
                            "(its matches would have the same ids); give it once"
                        ]
                    }
                )
        if attrs.get("acceptedMatches") is not None and not rules:
            raise serializers.ValidationError(
                {"acceptedMatches": ["names matches of redactionRules: send them too"]}
            )
        overlays = [
            (f"redactionRules[{n}].overlayText", rule.overlay_text)
            for n, rule in enumerate(rules)
            if rule.overlay_text
        ] + [
            (f"annotations.annotations[{n}].overlayText", text)
            for n, item in enumerate(
                (attrs.get("annotations") or {}).get("annotations") or []
            )
            if (text := item.get("overlayText") or item.get("reason"))
        ]
        faults = overlay_faults(rules, overlays)
        if faults:
            raise serializers.ValidationError({k: [v] for k, v in faults.items()})
        try:
            shared = _parse(attrs.get("operations"), "operations")
            self._planned = [
                tuple(
                    OperationSpec(op.name, op.path, op.spec)
                    for op in plan(
                        shared
                        + _parse(
                            detail.get("operations"),
                            f"transformationDetails[{i}].operations",
                        )
                    )
                )
                for i, detail in enumerate(attrs["transformationDetails"])
            ]
        except InvalidOperation as exc:
            problem = str(exc).removeprefix(f"{exc.field}: ")
            raise serializers.ValidationError({exc.field: [problem]}) from exc
        # What an operation writes (a stamp, a form value, a bookmark...) would
        # deliver in clear what the rules redact everywhere else.
        written = {
            op.path: " ".join(stamp_texts(op.spec))
            for ops in self._planned
            for op in ops
        }
        faults = overlay_faults(rules, list(written.items()))
        if faults:
            raise serializers.ValidationError({k: [v] for k, v in faults.items()})
        return attrs

    def spec(self) -> OrderSpec:
        """The request as typed values, for the services."""
        normalised = self.normalised()
        read = spec_of(normalised["format"], normalised)
        outputs = tuple(
            replace(output, operations=operations)
            for output, operations in zip(read.outputs, self._planned, strict=True)
        )
        accepted = self.validated_data.get("acceptedMatches")
        return replace(
            read,
            outputs=outputs,
            keep_attachments=self.validated_data.get("keepAttachments", False),
            redaction_rules=tuple(
                rule_of(r) for r in self.validated_data.get("redactionRules") or []
            ),
            accepted_matches=tuple(accepted) if accepted is not None else None,
        )

    def normalised(self) -> dict[str, Any]:
        """The request as the order stores and echoes it."""
        if self._normalised is None:
            self._normalised = self._normalise()
        return self._normalised

    _normalised: dict[str, Any] | None = None

    def _normalise(self) -> dict[str, Any]:
        data, raw = self.validated_data, self.initial_data
        details = [
            {
                "transformationElements": [
                    {
                        "documentId": {"id": el["documentId"]},
                        "pagesSelectionList": el.get("pagesSelectionList"),
                        "documentTitle": el.get("documentTitle"),
                    }
                    for el in detail["transformationElements"]
                ],
                "documentTitle": detail.get("documentTitle"),
                **_echoed_operations(detail),
            }
            for detail in data["transformationDetails"]
        ]
        annotations = None
        if data.get("annotations") is not None:
            raw_items = (raw.get("annotations") or {}).get("annotations") or []
            valid_items = data["annotations"].get("annotations") or []
            annotations = {
                "annotations": [
                    echo(r, v) for r, v in zip(raw_items, valid_items, strict=True)
                ]
            }
        return {
            "format": data["format"],
            "transformationDetails": details,
            "annotations": annotations,
            **_echoed_operations(data),
            **({"keepAttachments": True} if data.get("keepAttachments") else {}),
            **_echoed_rules(data),
        }


def _echoed_rules(data: dict[str, Any]) -> dict[str, Any]:
    """`redactionRules` and `acceptedMatches` as read (defaults filled in);
    nothing when the order has none."""
    out: dict[str, Any] = {}
    if data.get("redactionRules"):
        out["redactionRules"] = [
            {key: value for key, value in rule.items() if value is not None}
            for rule in data["redactionRules"]
        ]
    if data.get("acceptedMatches") is not None:
        out["acceptedMatches"] = list(data["acceptedMatches"])
    return out


def _parse(data: list[dict[str, Any]] | None, path: str) -> tuple[Op, ...]:
    return parse_operations(data, path) if data else ()


# Write-only fields of operations: never stored in clear, never echoed.
_SECRETS = frozenset({"userPassword", "ownerPassword"})


def _echoed_operations(data: dict[str, Any]) -> dict[str, Any]:
    """`{"operations": [...]}` as the client sent them, passwords left out;
    nothing when it sent none."""
    if not data.get("operations"):
        return {}
    return {
        "operations": [
            {key: value for key, value in op.items() if key not in _SECRETS}
            for op in data["operations"]
        ]
    }


class DryRunQuerySerializer(serializers.Serializer[Any]):
    """`?dryRun=true` answers the matches of the order's redaction rules
    instead of making the order; `matchText=clear|hash` says whether each
    match carries its text or a keyed hash of it."""

    dryRun = serializers.BooleanField(required=False, default=False)
    matchText = serializers.ChoiceField(
        choices=("clear", "hash"), required=False, default="clear"
    )


class TransformationOrderIdSerializer(serializers.Serializer[Any]):
    transformationOrderId = OrderIdSerializer()


class TransformationOrderSerializer(OrderProgressSerializer):
    transformationOrderId = serializers.SerializerMethodField()
    transformationDetails = serializers.SerializerMethodField()
    transformationResultDocumentID = serializers.SerializerMethodField()
    transformationResultDocumentIDs = serializers.SerializerMethodField()
    annotations = serializers.SerializerMethodField()
    format = serializers.CharField()
    # An addition: true once a redacting order's outputs were verified free of every
    # removed word (an order with a survivor ends FAILED instead); null otherwise.
    redactionVerified = serializers.BooleanField(
        source="redaction_verified", allow_null=True, read_only=True
    )
    # Additions: the operations applied to every output, and what each output's
    # operations did (names that ran, Bates and page numbers given, moved...).
    operations = serializers.SerializerMethodField()
    operationResults = serializers.JSONField(source="operation_results", read_only=True)

    def get_transformationOrderId(self, order: TransformationOrder) -> dict[str, str]:  # noqa: N802
        return {"id": order.id}

    def get_transformationDetails(
        self, order: TransformationOrder
    ) -> list[dict[str, Any]]:  # noqa: N802
        return order.request["transformationDetails"]

    def get_transformationResultDocumentID(
        self, order: TransformationOrder
    ) -> dict[str, str] | None:  # noqa: N802,E501
        return id_object(order.result_document_id)

    def get_transformationResultDocumentIDs(
        self, order: TransformationOrder
    ) -> list[dict[str, str]] | None:  # noqa: N802,E501
        if order.result_document_id is None or not order.output_ids:
            return None
        return [{"id": i} for i in order.output_ids]

    def get_operations(self, order: TransformationOrder) -> list[Any]:
        return list(order.request.get("operations") or [])

    def get_annotations(self, order: TransformationOrder) -> dict[str, Any] | None:
        return order.request.get("annotations")

    def to_representation(self, instance: Any) -> dict[str, Any]:
        """Additions echoed only by orders that carry them: the redaction
        rules and the accepted matches."""
        data = dict(super().to_representation(instance))
        for key in ("redactionRules", "acceptedMatches"):
            if key in instance.request:
                data[key] = instance.request[key]
        return data
