from django.contrib import admin

from orders.admin_base import OrderAdminBase
from orders.models import TransformationOrder


@admin.register(TransformationOrder)
class TransformationOrderAdmin(OrderAdminBase):
    list_display = (
        "id",
        "state",
        "format",
        "queued_at",
        "processed_at",
        "queued_time",
        "processing_time",
        "error_message",
    )
    list_filter = ("state", "format", ("queued_at", admin.DateFieldListFilter))
