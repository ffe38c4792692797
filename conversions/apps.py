from django.apps import AppConfig


class ConversionsConfig(AppConfig):
    """Conversion orders: a document in another format (the original's /conversions);
    the PDF rendition of every upload that needs one is such an order too."""

    name = "conversions"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from conversions import selectors, services
        from conversions.models import ConversionOrder
        from conversions.serializers import ConversionOrderSerializer
        from documents.selectors import CONVERSION_ORDER_LOOKUPS
        from documents.signals import rendition_requested
        from jobs.registry import OrderKind, register

        register(
            OrderKind(
                name="conversion",
                model=ConversionOrder,
                task="conversions.tasks.run_conversion",
                serializer=ConversionOrderSerializer,
                on_failed=services.conversion_failed,
            )
        )
        rendition_requested.connect(
            services.rendition_order_create, dispatch_uid="conversions-rendition"
        )
        if selectors.order_ids_by_format not in CONVERSION_ORDER_LOOKUPS:
            CONVERSION_ORDER_LOOKUPS.append(selectors.order_ids_by_format)
