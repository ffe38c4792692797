from django.contrib import admin

from comparisons.models import ComparisonOrder
from jobs.admin import OrderAdminBase


@admin.register(ComparisonOrder)
class ComparisonOrderAdmin(OrderAdminBase):
    """Comparison orders: the shared columns; the two documents are its inputs."""
