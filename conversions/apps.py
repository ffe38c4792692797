from django.apps import AppConfig


class ConversionsConfig(AppConfig):
    """Conversion orders: a document in another format (the original's
    /conversions); the PDF rendition of every upload that needs one is such an
    order too (this app is the documents' rendition maker)."""

    name = "conversions"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from conversions import services
        from conversions.engines import start_pool_with_workers
        from conversions.maker import ConversionMaker
        from conversions.models import ConversionOrder
        from conversions.serializers import ConversionOrderSerializer
        from documents.renditions.maker import register_maker
        from documents.renditions.recovery import fail_orphans
        from jobs.registry import OrderKind, register

        register(
            OrderKind(
                name="conversion",
                model=ConversionOrder,
                task="conversions.tasks.run_conversion",
                serializer=ConversionOrderSerializer,
                on_failed=services.conversion_failed,
                recover=fail_orphans,
                delete_results=services.results_delete,
                queues=services.conversion_queues,
            )
        )
        register_maker(ConversionMaker())
        start_pool_with_workers()
