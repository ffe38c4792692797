from typing import Any, ClassVar

from django.contrib import admin

from jobs.admin import OrderAdminBase
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
    }
