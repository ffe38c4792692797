from django.contrib import admin

from comparisons.models import ComparisonOrder
from orders.admin_base import OrderAdminBase


@admin.register(ComparisonOrder)
class ComparisonOrderAdmin(OrderAdminBase):
    list_display = (
        "id",
        "state",
        "left_document_id",
        "right_document_id",
        "queued_at",
        "processed_at",
        "queued_time",
        "processing_time",
        "error_message",
    )
    search_fields = ("id", "left_document_id", "right_document_id")
