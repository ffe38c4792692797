from django.contrib import admin

from conversions.models import ConversionOrder
from jobs.admin import OrderAdminBase


@admin.register(ConversionOrder)
class ConversionOrderAdmin(OrderAdminBase):
    """Conversion orders: the shared columns; the document converted is its input.
    `automatic` ones make the PDF an upload is read from."""

    kind_columns = ("format",)
    kind_filters = ("format", "automatic")
