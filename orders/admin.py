from typing import Any, ClassVar

from django.contrib import admin
from django.http import HttpRequest
from django.utils.safestring import SafeString

from jobs.admin import OrderAdminBase
from orders.admin_record import operations_html, record_html
from orders.models import TransformationOrder


@admin.register(TransformationOrder)
class TransformationOrderAdmin(OrderAdminBase):
    kind_filters = ("format",)
    operations: ClassVar[dict[str, dict[str, Any]]] = {
        "redaction": {"redacts": True},
        "annotations": {"annotates": True},
        "merge": {"merges": True},
        "zip": {"format": TransformationOrder.Format.ZIP},
        "several outputs": {"output_count__gt": 1},
        "stamp or watermark": {"operations__contains": "stamp"},
        "Bates numbers": {"operations__contains": "bates"},
        "page numbers": {"operations__contains": "pageNumbers"},
        "forms filled": {"operations__contains": "fillForm"},
        "sanitized": {"operations__contains": "sanitize"},
        "encrypted": {"operations__contains": "encrypt"},
    }

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> list[str]:
        return [*super().get_readonly_fields(request, obj), "redaction", "applied"]

    def get_fieldsets(self, request: HttpRequest, obj: Any = None) -> Any:
        fieldsets = list(super().get_fieldsets(request, obj))
        if obj is not None and obj.redaction_record:
            fieldsets.insert(1, ("Redaction record", {"fields": ["redaction"]}))
        if obj is not None and obj.operations:
            fieldsets.insert(1, ("Operations", {"fields": ["applied"]}))
        return fieldsets

    @admin.display(description="what each output's operations did")
    def applied(self, order: TransformationOrder) -> SafeString:
        return operations_html(order)

    @admin.display(description="what the redaction removed and proved")
    def redaction(self, order: TransformationOrder) -> SafeString:
        return record_html(order.redaction_record)
