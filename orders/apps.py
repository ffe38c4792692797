from django.apps import AppConfig


class OrdersConfig(AppConfig):
    """Transformation orders: select, merge, annotate, redact and zip documents."""

    name = "orders"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from jobs.registry import OrderKind, register
        from orders.models import TransformationOrder
        from orders.serializers import TransformationOrderSerializer
        from orders.services import results_delete

        register(
            OrderKind(
                name="transformation",
                model=TransformationOrder,
                task="orders.tasks.run_transformation",
                serializer=TransformationOrderSerializer,
                delete_results=results_delete,
            )
        )
